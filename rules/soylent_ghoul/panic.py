"""Soylent Ghoul (soylent-ghoul.txt): panic tests, activation, Snapped, winning.

Pure Python, no Django. Every random function takes a ``random.Random``;
exact odds are ``Fraction``. The groups' numbers (M, Nerve) and texts live in
``catalogue/data/soylent-ghoul-1.json``; functions here take numbers as
arguments (``load_groups()`` reads that file with plain json).

The panic test, quoted: "Whenever a Character receives a panic token roll a D8
and add the number of tokens already on it (before the addition of the current
token). If the result is over the Character's nerve rating its "Snapped"
effect takes place."

Readings (docs/rules-interpretations.md (Part 5), "Soylent Ghoul"):
- "over" is strictly greater: D8 + tokens > Nerve.
- Receiving several panic tokens at once is several receipts: one D8 per token,
  each counting the tokens already there (so the count grows by one per roll).
  Once the Character has Snapped, later tokens of the same batch roll nothing.
- "activated by the same player twice in a row" means on two consecutive turns
  of that player; a turn spent placing breaks the row.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Sequence

from catalogue import DATA_DIR

D8_FACES = tuple(range(1, 9))
CATALOGUE = DATA_DIR / "soylent-ghoul-1.json"


# ---------------------------------------------------------------------------
# The panic test
# ---------------------------------------------------------------------------


def _check_tokens(tokens: int) -> None:
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
        raise ValueError(f"panic tokens already on the Character must be a whole number >= 0, got {tokens!r}")


def _check_count(count: int) -> None:
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ValueError(f"number of panic tokens received must be a whole number >= 0, got {count!r}")


def _check_nerve(nerve: int) -> None:
    if not isinstance(nerve, int) or isinstance(nerve, bool):
        raise ValueError(f"Nerve must be a whole number, got {nerve!r}")


def snaps(roll: int, tokens_before: int, nerve: int) -> bool:
    """D8 result + tokens already on the Character, over (strictly) its Nerve."""
    return roll + tokens_before > nerve


def panic_distribution(nerve: int, tokens: int) -> dict[str, Fraction]:
    """Exactly ``{"snapped": F, "holds": F}`` for one panic token received.

    ``tokens`` is the number of panic tokens already on the Character, before
    the one being received.
    """
    _check_nerve(nerve)
    _check_tokens(tokens)
    snapped = sum(1 for face in D8_FACES if snaps(face, tokens, nerve))
    return {"snapped": Fraction(snapped, 8), "holds": Fraction(8 - snapped, 8)}


def panic_batch_distribution(nerve: int, tokens: int, count: int) -> dict[str, Fraction]:
    """Chance that receiving ``count`` panic tokens one after another snaps the Character.

    Each token is its own panic test with the tokens already there (``tokens``,
    then ``tokens + 1``...); the batch stops at the first Snap.
    """
    _check_nerve(nerve)
    _check_tokens(tokens)
    _check_count(count)
    holds = Fraction(1)
    for i in range(count):
        holds *= panic_distribution(nerve, tokens + i)["holds"]
    return {"snapped": 1 - holds, "holds": holds}


@dataclass(frozen=True)
class PanicRoll:
    die: int
    tokens_before: int
    nerve: int
    snapped: bool

    @property
    def total(self) -> int:
        return self.die + self.tokens_before


def roll_panic(rng: random.Random, nerve: int, tokens: int) -> PanicRoll:
    """One panic test: the D8 shown, the tokens already there, the result."""
    _check_nerve(nerve)
    _check_tokens(tokens)
    die = rng.randint(1, 8)
    return PanicRoll(die, tokens, nerve, snaps(die, tokens, nerve))


@dataclass(frozen=True)
class PanicBatch:
    rolls: tuple[PanicRoll, ...]
    tokens_after: int
    snapped: bool


def receive_panic_tokens(rng: random.Random, nerve: int, tokens: int, count: int = 1) -> PanicBatch:
    """Give ``count`` panic tokens one at a time, rolling a panic test for each.

    Stops rolling at the first Snap (a Snapped token is removed, a Snapped
    Drone can no longer act); ``tokens_after`` counts every token given up to
    and including the one that snapped it.
    """
    _check_tokens(tokens)
    _check_count(count)
    rolls = []
    current = tokens
    for _ in range(count):
        roll = roll_panic(rng, nerve, current)
        rolls.append(roll)
        current += 1
        if roll.snapped:
            return PanicBatch(tuple(rolls), current, True)
    return PanicBatch(tuple(rolls), current, False)


# ---------------------------------------------------------------------------
# Turns and activation
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LastTurn:
    """What a player did on their previous turn: ``kind`` is "place" or "activate"."""

    kind: str
    character: str


def activation_panic_tokens(last_turn: LastTurn | None, character: str) -> int:
    """Panic tokens gained for activating ``character`` now (0 or 1).

    "If a Character is activated by the same player twice in a row, it gains a
    panic token."
    """
    if last_turn is not None and last_turn.kind == "activate" and last_turn.character == character:
        return 1
    return 0


def turn_order(players: Sequence[str], first: str) -> tuple[str, ...]:
    """Players in turn order starting from ``first`` ("passing left around the table").

    ``players`` is the seating, each player followed by the one on their left.
    """
    if first not in players:
        raise ValueError(f"{first!r} is not at the table")
    i = list(players).index(first)
    return tuple(players[i:]) + tuple(players[:i])


def panic_phase_order(players: Sequence[str], mover_controller: str, rounds: int = 1) -> tuple[str, ...]:
    """Who may place panic tokens after a move, in order: the moved Character's
    controller first, then passing left, ``rounds`` times round the table.
    (The phase goes on "until no player wants to place panic tokens".)"""
    return turn_order(players, mover_controller) * rounds


@dataclass(frozen=True)
class Drone:
    name: str
    player: str
    snapped: bool = False


def winner(drones: Sequence[Drone]) -> str | None:
    """ "Last player with at least one un-Snapped drone wins": that player, else None."""
    standing = {d.player for d in drones if not d.snapped}
    return next(iter(standing)) if len(standing) == 1 else None


# ---------------------------------------------------------------------------
# Group actions (numbers exactly as in the text; geometry is the caller's)
# ---------------------------------------------------------------------------


def mannikin_become_panic(distance_inches: float) -> int:
    """Become: "target suffers 4 panic -1 for every 3" away they are" (whole 3" steps, not below 0)."""
    if distance_inches < 0:
        raise ValueError("distance cannot be negative")
    return max(0, 4 - int(distance_inches // 3))


def eyes_check_panic(other_eyes_with_clear_los: int) -> int:
    """Check: the target gains 1 panic token plus 1 for each other Eye Character that sees it clearly."""
    return 1 + other_eyes_with_clear_los


def shift_panic(inside_section: bool, own_markers_not_selected: int) -> int:
    """Shift, for a Character: 5 if in a section described by the lines, plus 2 for every
    marker belonging to its Drone that was not selected."""
    return (5 if inside_section else 0) + 2 * own_markers_not_selected


def shift_self_panic(foreign_markers_used: int) -> int:
    """Shift, for the acting Drone: 2 panic for every marker used that does not belong to it."""
    return 2 * foreign_markers_used


def darker_lantern_lost_chance(reduction: int) -> Fraction:
    """Darker: roll a D8; equal to or under the reduction removes the lantern number."""
    return Fraction(sum(1 for face in D8_FACES if face <= reduction), 8)


def darker_lantern_lost(rng: random.Random, reduction: int) -> tuple[int, bool]:
    die = rng.randint(1, 8)
    return die, die <= reduction


def load_groups(path: Path = CATALOGUE) -> dict[str, dict]:
    """The Ghoul groups of the catalogue file, by slug (plain json)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {g["slug"]: g for g in data["ghoul_groups"]}


__all__ = [
    "PanicRoll",
    "PanicBatch",
    "LastTurn",
    "Drone",
    "snaps",
    "panic_distribution",
    "panic_batch_distribution",
    "roll_panic",
    "receive_panic_tokens",
    "activation_panic_tokens",
    "turn_order",
    "panic_phase_order",
    "winner",
    "mannikin_become_panic",
    "eyes_check_panic",
    "shift_panic",
    "shift_self_panic",
    "darker_lantern_lost_chance",
    "darker_lantern_lost",
    "load_groups",
]
