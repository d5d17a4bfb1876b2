"""Ghoulash: the Ghoul battle (ghoulash.txt, "Ghoul Battles").

"The player attempts to beat the Ghoul's battle strength with a combination of
their Initial Combat Value ... and Value points from cards in their hand ...
by at least one point." One opponent may challenge with up to two Value cards,
subtracted from the total; the player has one opportunity to answer with more
Value cards. A lost battle costs wounds equal to the token's green dots (its
Victory Points). The Victory Points of a Ghoul are the game box's data: the
text shows only 2 for a strength-5 Ghoul, so they are an argument here.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_CHALLENGE_CARDS = 2


class IllegalPlay(ValueError):
    """The cards played break the battle's rules; the message says how."""


@dataclass(frozen=True)
class BattleResult:
    won: bool
    needed: int
    total_before_challenge: int
    total: int
    victory_points: int
    wounds: int
    stage: str  # "no-value", "unchallenged", "answered", "unanswered"


def ghoul_battle(strength: int, victory_points: int, initial_combat_value: int, played: tuple = (),
                 challenge: tuple = (), response: tuple = ()) -> BattleResult:
    """Resolve a Ghoul battle from the Value cards each side put down."""
    if len(challenge) > MAX_CHALLENGE_CARDS:
        raise IllegalPlay("a challenge is at most two Value cards")
    if any(v < 0 for v in (*played, *challenge, *response)):
        raise IllegalPlay("Value cards are worth 0 or more")
    needed = strength + 1
    total = initial_combat_value + sum(played)

    def result(won, stage, final):
        return BattleResult(won, needed, initial_combat_value + sum(played), final,
                            victory_points if won else 0, 0 if won else victory_points, stage)

    if total < needed:
        return result(False, "no-value", total)
    if not challenge:
        return result(True, "unchallenged", total)
    if response and total - sum(challenge) >= needed:
        raise IllegalPlay("no response is needed: the challenge did not bring the total below the Ghoul")
    final = total - sum(challenge) + sum(response)
    return result(final >= needed, "answered" if response else "unanswered", final)
