"""The Ghoul role (vast-ghoul-role.txt): Ghoul dice, Terror threshold, Fury goal.

Numbers come from the rules text's data (crewbuilder/catalogue/ghoul-role
data when present); the functions take them as arguments with the text's
values as defaults.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

# "roll all three Ghoul dice. If the sum of all three dice is 7 or less, draw a
# Terror card. (If you are playing on Hard or Expert difficulty level, you roll
# only 2 dice, and you draw a Terror card if the total roll is 4 or less.)"
TERROR_AT_OR_BELOW = {3: 7, 2: 4}
FACES = range(1, 7)
FURY_CAP = 14
# Difficulty: (Fury goal = base + number of players, Ghoul dice)
DIFFICULTIES = {
    "ragpicker": (5, 3),
    "scavenger": (6, 3),
    "ghoul": (7, 3),
    "stalker": (7, 2),
    "hunter": (8, 2),
}


def fury_goal(players: int, difficulty: str = "ghoul") -> int:
    """Fury goal = base + number of players, never above 14."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}: one of {', '.join(DIFFICULTIES)}")
    if players < 1:
        raise ValueError("there is at least one player")
    base, _dice = DIFFICULTIES[difficulty]
    return min(base + players, FURY_CAP)


def ghoul_dice_for(difficulty: str) -> int:
    return DIFFICULTIES[difficulty][1]


def _check_dice(dice: int) -> None:
    if dice not in TERROR_AT_OR_BELOW:
        raise ValueError("the Ghoul rolls 3 dice (2 on Stalker or Hunter difficulty)")


def draws_terror(roll: tuple[int, ...]) -> bool:
    _check_dice(len(roll))
    return sum(roll) <= TERROR_AT_OR_BELOW[len(roll)]


def choose(roll: tuple[int, ...], prefer: str) -> tuple[int, int]:
    """(movement, attack) from two of the dice: the higher is movement, the lower attack.

    ``prefer`` "movement" maximises movement first, then attack; "attack"
    maximises attack first, then movement.
    """
    pairs = [(max(a, b), min(a, b)) for a, b in itertools.combinations(roll, 2)]
    if prefer == "movement":
        return max(pairs)
    return max(pairs, key=lambda p: (p[1], p[0]))


def ghoul_dice_odds(dice: int) -> dict:
    _check_dice(dice)
    total = 6 ** dice
    terror = 0
    plans = {"max_movement": ("movement", Counter(), Counter()), "max_attack": ("attack", Counter(), Counter())}
    for roll in itertools.product(FACES, repeat=dice):
        terror += draws_terror(roll)
        for prefer, moves, attacks in plans.values():
            movement, attack = choose(roll, prefer)
            moves[movement] += 1
            attacks[attack] += 1
    answer = {"terror": {"yes": Fraction(terror, total), "no": Fraction(total - terror, total)}}
    for name, (_prefer, moves, attacks) in plans.items():
        answer[name] = {
            "movement": {str(f): Fraction(moves[f], total) for f in FACES},
            "attack": {str(f): Fraction(attacks[f], total) for f in FACES},
        }
    return answer


@dataclass(frozen=True)
class GhoulRoll:
    seed: int
    dice: tuple[int, ...]
    terror: bool


def roll_ghoul_dice(rng: random.Random, dice: int, seed: int | None = None) -> GhoulRoll:
    _check_dice(dice)
    roll = tuple(rng.randint(1, 6) for _ in range(dice))
    return GhoulRoll(seed if seed is not None else -1, roll, draws_terror(roll))


def attack_cost(defense: int) -> int:
    """Ghoul discs to attack a piece: 1 + its defense statistic."""
    return 1 + defense


CRYSTAL_COST = 3


def terror_cards_for_fury(before: int, after: int) -> int:
    """A Terror card each time the Fury cube reaches an even space."""
    return sum(1 for f in range(before + 1, after + 1) if f % 2 == 0)
