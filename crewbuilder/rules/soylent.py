"""Soylent Ghoul (soylent-ghoul.txt): the panic test.

"Whenever a Character receives a panic token roll a D8 and add the number
of tokens already on it (before the addition of the current token). If the
result is over the Character's nerve rating its "Snapped" effect takes place."
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

D8 = range(1, 9)


def snaps(roll: int, tokens_before: int, nerve: int) -> bool:
    return roll + tokens_before > nerve


def panic_distribution(nerve: int, tokens: int) -> dict[str, Fraction]:
    snapped = sum(1 for roll in D8 if snaps(roll, tokens, nerve))
    return {"snapped": Fraction(snapped, 8), "holds": Fraction(8 - snapped, 8)}


@dataclass(frozen=True)
class PanicRoll:
    die: int
    tokens_before: int
    nerve: int
    snapped: bool


def roll_panic(rng: random.Random, nerve: int, tokens: int) -> PanicRoll:
    die = rng.randint(1, 8)
    return PanicRoll(die, tokens, nerve, snaps(die, tokens, nerve))
