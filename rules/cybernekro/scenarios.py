"""Random scenario generation (Cybernekr0, "Random scenario generation").

"Draw a card from a standard deck to determine the scenario ... If you don't
have a deck at hand you can use a D12 die treating 1 as an Ace, 11 as a Jack
and 12 as a Queen." The free rules do not print which card gives which of the
full rulebook's scenarios, so a draw names the card and the caller looks it up
in the group's own mapping (or reports it as not in the free rules).
Complications are read in the order printed (Ace = the first).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")
# "treating 1 as an Ace, 11 as a Jack and 12 as a Queen": the rolls that stand for a face
D12_FACES = {1: "Ace", 11: "Jack", 12: "Queen"}


@dataclass(frozen=True)
class Draw:
    method: str  # "deck" or "d12"
    number: int  # 1 (Ace) .. 13 (King); a D12 gives 1..12
    label: str


def draw(rng: random.Random, method: str = "deck") -> Draw:
    if method == "d12":
        number = rng.randint(1, 12)
        face = D12_FACES.get(number)
        return Draw("d12", number, f"D12: {number} ({face})" if face else f"D12: {number}")
    if method != "deck":
        raise ValueError("draw from a deck or roll a D12")
    card = rng.randrange(52)
    number, suit = card % 13 + 1, SUITS[card // 13]
    return Draw("deck", number, f"{RANKS[number - 1]}{suit}")


def complication_for(number: int, complications: list[dict]) -> dict | None:
    """The complication printed at that position (Ace = 1st ... King = 13th)."""
    by_number = {c.get("number"): c for c in complications}
    return by_number.get(number)


def environment_effect(roll: int, effects: list[dict]) -> dict | None:
    """The quick start scenario's effect for a D6 roll at the start of a round."""
    return next((e for e in effects if e.get("number") == roll or e.get("roll") == roll), None)
