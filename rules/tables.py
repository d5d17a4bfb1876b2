"""Rolling on user-defined tables (injury, loot, advancement).

The free rules print no such tables, so campaigns define their own; this
module only knows dice notations: ``Dn`` (one die), ``kDn`` (sum of k dice)
and ``D66`` (two D6 read as tens and units, 11..66).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

_NOTATION = re.compile(r"^(\d*)D(\d+)$")
DIE_SIZES = {3, 4, 6, 8, 10, 12, 20, 100}


@dataclass(frozen=True)
class TableDie:
    count: int
    sides: int
    d66: bool = False

    @property
    def low(self) -> int:
        return 11 if self.d66 else self.count

    @property
    def high(self) -> int:
        return 66 if self.d66 else self.count * self.sides

    def outcomes(self) -> list[int]:
        if self.d66:
            return [10 * t + u for t in range(1, 7) for u in range(1, 7)]
        return list(range(self.low, self.high + 1))


@dataclass(frozen=True)
class TableRoll:
    seed: int | None
    notation: str
    dice: tuple[int, ...]
    result: int


def parse_die(notation: str) -> TableDie:
    text = (notation or "").strip().upper()
    if text == "D66":
        return TableDie(2, 6, d66=True)
    match = _NOTATION.match(text)
    if not match:
        raise ValueError(f"{notation!r} is not a die: use D3, D6, 2D6, D66 and the like.")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    if sides not in DIE_SIZES or not 1 <= count <= 10:
        raise ValueError(f"{notation!r}: dice are D3, D4, D6, D8, D10, D12, D20 or D100, 1 to 10 of them.")
    return TableDie(count, sides)


def roll_table(rng: random.Random, notation: str, seed: int | None = None) -> TableRoll:
    """Roll a table's die with the caller's generator (``seed`` is only recorded in the log)."""
    die = parse_die(notation)
    dice = tuple(rng.randint(1, die.sides) for _ in range(die.count))
    result = 10 * dice[0] + dice[1] if die.d66 else sum(dice)
    return TableRoll(seed=seed, notation=notation.strip().upper(), dice=dice, result=result)


def roll_table_die(notation: str, seed: int) -> TableRoll:
    """``roll_table(random.Random(seed), notation, seed)``: the replay of a logged table roll."""
    return roll_table(random.Random(seed), notation, seed)


def uncovered(notation: str, ranges: list[tuple[int, int]]) -> list[int]:
    """Results of the die that no row covers (a table should cover them all)."""
    covered = {n for low, high in ranges for n in range(low, high + 1)}
    return [n for n in parse_die(notation).outcomes() if n not in covered]
