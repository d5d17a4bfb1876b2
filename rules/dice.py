"""Dice: exact distributions and seeded rolling helpers (pure Python, no Django).

Exact distributions are ``dict[outcome, Fraction]`` whose values add up to
exactly 1. Every rolling helper takes a ``random.Random`` (never the module
level generator) and returns a :class:`RollLog` that records what was shown,
dropped and re-rolled, so that any seeded roll can be replayed: rolling again
with ``random.Random(log.seed)`` and the same arguments gives the same log.

Conventions shared with ``cybernekro.py``:

* a die is never re-rolled more than once ("You can never re-roll a die more
  than once. The new result must be accepted.");
* damage pools: each die is re-rolled once if its face is in the re-roll set
  (Energy: 1s, shields: 6s); then, if any die *as it finally stands* shows a 6,
  exactly one bonus D6 is rolled (it is part of the damage roll, so the same
  re-rolls apply to it, but it never brings another die); then the ``keep``
  highest of all the dice rolled count (fewer if fewer were rolled).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Callable, Hashable, Iterable, Mapping

Dist = dict  # outcome -> Fraction

ONE = Fraction(1)
ZERO = Fraction(0)


# --------------------------------------------------------------------------
# generic distribution helpers
# --------------------------------------------------------------------------


def uniform(sides: int) -> dict[int, Fraction]:
    """A fair die with faces 1..sides."""
    if sides < 1:
        raise ValueError("a die has at least one face")
    p = Fraction(1, sides)
    return {face: p for face in range(1, sides + 1)}


def d6() -> dict[int, Fraction]:
    return uniform(6)


def d8() -> dict[int, Fraction]:
    return uniform(8)


def d20() -> dict[int, Fraction]:
    return uniform(20)


def from_counts(counts: Mapping[Hashable, int]) -> dict:
    """Integer counts -> exact probabilities."""
    total = sum(counts.values())
    if total <= 0:
        raise ValueError("no outcomes to normalise")
    return {k: Fraction(n, total) for k, n in counts.items()}


def map_dist(dist: Mapping, fn: Callable) -> dict:
    """The distribution of ``fn(outcome)``."""
    out: dict = defaultdict(Fraction)
    for outcome, p in dist.items():
        out[fn(outcome)] += p
    return dict(out)


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Distribution of the sum of two independent integer variables."""
    out: dict = defaultdict(Fraction)
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] += p * q
    return dict(out)


def shift(dist: Mapping[int, Fraction], by: int) -> dict[int, Fraction]:
    return {k + by: p for k, p in dist.items()}


def total(dist: Mapping) -> Fraction:
    return sum(dist.values(), ZERO)


def expectation(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), ZERO)


def sum_distribution(n: int, sides: int = 6) -> dict[int, Fraction]:
    """Sum of ``n`` dice with ``sides`` faces (0 dice: always 0)."""
    out = {0: ONE}
    for _ in range(n):
        out = convolve(out, uniform(sides))
    return out


# --------------------------------------------------------------------------
# re-rolls and pools
# --------------------------------------------------------------------------


@lru_cache(maxsize=None)
def face_weights(sides: int = 6, reroll: frozenset = frozenset()) -> tuple[tuple[int, int], ...]:
    """Integer weights (out of sides**2) of one die re-rolled once on ``reroll`` faces.

    A face in ``reroll`` is rolled again and the new result kept, whatever it is.
    """
    k = sum(1 for f in reroll if 1 <= f <= sides)
    return tuple((f, (0 if f in reroll else sides) + k) for f in range(1, sides + 1))


def reroll_once_distribution(sides: int = 6, reroll: Iterable[int] = ()) -> dict[int, Fraction]:
    weights = face_weights(sides, frozenset(reroll))
    den = sides * sides
    return {f: Fraction(w, den) for f, w in weights}


def reroll_set(reroll_ones: bool = False, reroll_sixes: bool = False) -> frozenset:
    faces = set()
    if reroll_ones:
        faces.add(1)
    if reroll_sixes:
        faces.add(6)
    return frozenset(faces)


def _insert_top(kept: tuple, value: int, keep: int) -> tuple:
    """``kept`` is sorted high to low, at most ``keep`` long."""
    if len(kept) < keep:
        return tuple(sorted(kept + (value,), reverse=True))
    if keep == 0 or value <= kept[-1]:
        return kept
    return tuple(sorted(kept[:-1] + (value,), reverse=True))


@lru_cache(maxsize=4096)
def _pool_summary(n: int, keep: int, reroll: frozenset) -> tuple:
    """The ``keep`` highest of ``n`` dice, summarised: ((sum, lowest kept, kept count, any six), count).

    Dynamic programming over the faces from 6 down to 1 (not over 6**n
    sequences): choose how many of the dice not yet placed show this face
    (binomial ways times the face's weight to that power); the highest faces
    fill the kept places first. Counts are out of 36**n (each die weighted out
    of 36 by :func:`face_weights`).
    """
    weights = dict(face_weights(6, reroll))
    below = {face: sum(w for f, w in weights.items() if f < face) for face in weights}
    done: dict = defaultdict(int)  # (sum, lowest kept, kept count, any six) -> count, kept places full
    states: dict = {(0, 0, 0, False): 1}  # (dice placed, kept count, kept sum, any six), kept places not full
    for face in range(6, 0, -1):
        w = weights[face]
        ways_table = [[comb(rest, j) * w**j for j in range(rest + 1)] for rest in range(n + 1)]
        nxt: dict = defaultdict(int)
        for (placed, kept, total, six), count in states.items():
            rest = n - placed
            row = ways_table[rest]
            for j in (rest,) if face == 1 else range(rest + 1):
                ways = count * row[j]
                if not ways:
                    continue
                take = min(j, keep - kept)
                key_six = six or (face == 6 and j > 0)
                if kept + take == keep and take:
                    # every kept place is filled: the other dice all show lower faces, whatever they are
                    done[(total + face * take, face, keep, key_six)] += ways * below[face] ** (rest - j)
                else:
                    nxt[(placed + j, kept + take, total + face * take, key_six)] += ways
        states = nxt
    for (_placed, kept, total, six), count in states.items():
        done[(total, 7, kept, six)] += count
    return tuple(done.items())


@lru_cache(maxsize=4096)
def keep_highest_distribution(n: int, keep: int, reroll: frozenset = frozenset()) -> dict[int, Fraction]:
    """Sum of the ``keep`` highest of ``n`` D6 (each re-rolled once on ``reroll``), no bonus die."""
    if n < 0 or keep < 0:
        raise ValueError("dice and keep are not negative")
    den = 36**n
    out: dict = defaultdict(int)
    for (total, _low, _kept, _six), count in _pool_summary(n, keep, reroll):
        out[total] += count
    return {s: Fraction(c, den) for s, c in sorted(out.items())}


@lru_cache(maxsize=4096)
def damage_pool_distribution(
    n: int, keep: int = 2, reroll: frozenset = frozenset(), reroll_bonus: bool = True
) -> dict[int, Fraction]:
    """Sum of the kept dice of a damage roll of ``n`` D6 with the bonus die.

    If any die (after its re-roll) shows a 6, exactly one more D6 is rolled
    (re-rolled on ``reroll`` faces too when ``reroll_bonus``); then the ``keep``
    highest of all the dice rolled count. ``n == 0`` gives 0.
    """
    counts, den = damage_pool_counts(n, keep, reroll, reroll_bonus)
    return {s: Fraction(c, den) for s, c in counts}


@lru_cache(maxsize=4096)
def damage_pool_counts(
    n: int, keep: int = 2, reroll: frozenset = frozenset(), reroll_bonus: bool = True
) -> tuple[tuple[tuple[int, int], ...], int]:
    """:func:`damage_pool_distribution` as integer counts: (((sum, count), ...), denominator)."""
    if n < 0 or keep < 0:
        raise ValueError("dice and keep are not negative")
    if n == 0:
        return ((0, 1),), 1
    bonus_weights = face_weights(6, reroll if reroll_bonus else frozenset())
    den = 36 ** (n + 1)
    out: dict = defaultdict(int)
    for (total, low, kept, six), count in _pool_summary(n, keep, reroll):
        if not six:
            out[total] += count * 36
            continue
        for face, w in bonus_weights:  # the bonus die joins the kept dice if there is room or it beats the lowest
            if kept < keep:
                out[total + face] += count * w
            elif face > low:
                out[total - low + face] += count * w
            else:
                out[total] += count * w
    return tuple(sorted(out.items())), den


def keep_highest_d20(n: int, modifier: int = 0) -> dict[int, Fraction]:
    """Highest of ``n`` D20 (``n`` >= 1) plus a modifier."""
    den = 20**n
    return {h + modifier: Fraction(h**n - (h - 1) ** n, den) for h in range(1, 21)}


# --------------------------------------------------------------------------
# contests
# --------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def contest_distribution(first_modifier: int, second_modifier: int, sides: int = 6) -> dict[str, Fraction]:
    """Both sides roll one die and add their modifier: {"first", "tie", "second"} (who is higher)."""
    counts = {"first": 0, "tie": 0, "second": 0}
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            x, y = a + first_modifier, b + second_modifier
            counts["first" if x > y else "second" if y > x else "tie"] += 1
    return {k: Fraction(v, sides * sides) for k, v in counts.items()}


# --------------------------------------------------------------------------
# seeded rolling
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class RollLog:
    """One seeded roll: enough to show it and to replay it.

    ``shown``: the dice as they finally stand (bonus die last);
    ``rerolled``: (original, new) for each re-rolled die;
    ``dropped``: the dice that did not count; ``kept``: those that did;
    ``result``: the number the roll produced (sum of kept dice plus modifier
    for pools, the modified total for tests).
    """

    kind: str
    seed: int | None
    shown: tuple[int, ...]
    kept: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()
    rerolled: tuple[tuple[int, int], ...] = ()
    bonus: int | None = None
    modifier: int = 0
    result: int = 0
    notes: tuple[str, ...] = field(default=())


def seeded(seed: int) -> random.Random:
    """The generator every replay uses: ``random.Random(seed)``."""
    return random.Random(seed)


def roll_die(rng: random.Random, sides: int = 6) -> int:
    return rng.randint(1, sides)


def roll_reroll_once(rng: random.Random, sides: int, reroll: frozenset) -> tuple[int, tuple[int, int] | None]:
    """Roll one die; re-roll it once if its face is in ``reroll``. (final, (old, new) or None)."""
    first = roll_die(rng, sides)
    if first in reroll:
        second = roll_die(rng, sides)
        return second, (first, second)
    return first, None


def roll_pool(
    rng: random.Random,
    n: int,
    keep: int,
    reroll: frozenset = frozenset(),
    bonus_on_six: bool = False,
    reroll_bonus: bool = True,
    modifier: int = 0,
    seed: int | None = None,
    kind: str = "pool",
) -> RollLog:
    """Roll ``n`` D6, re-roll once as allowed, the bonus die if any 6, keep the highest ``keep``."""
    shown: list[int] = []
    rerolled: list[tuple[int, int]] = []
    for _ in range(n):
        value, change = roll_reroll_once(rng, 6, reroll)
        shown.append(value)
        if change:
            rerolled.append(change)
    bonus = None
    if bonus_on_six and 6 in shown:
        bonus, change = roll_reroll_once(rng, 6, reroll if reroll_bonus else frozenset())
        if change:
            rerolled.append(change)
        shown.append(bonus)
    order = sorted(range(len(shown)), key=lambda i: -shown[i])
    kept_idx = set(order[:keep])
    kept = tuple(shown[i] for i in sorted(kept_idx, key=lambda i: -shown[i]))
    dropped = tuple(shown[i] for i in range(len(shown)) if i not in kept_idx)
    return RollLog(kind, seed, tuple(shown), kept, dropped, tuple(rerolled), bonus, modifier, sum(kept) + modifier)


def roll_damage_pool(
    rng: random.Random,
    n: int,
    keep: int = 2,
    reroll: frozenset = frozenset(),
    modifier: int = 0,
    seed: int | None = None,
) -> RollLog:
    """A damage roll: :func:`roll_pool` with the bonus die (same conventions as the exact one)."""
    return roll_pool(rng, n, keep, reroll, bonus_on_six=True, modifier=modifier, seed=seed, kind="damage")


def roll_keep_highest_d20(rng: random.Random, n: int, modifier: int = 0, seed: int | None = None) -> RollLog:
    shown = tuple(roll_die(rng, 20) for _ in range(max(n, 1)))
    best = max(shown)
    dropped = list(shown)
    dropped.remove(best)
    return RollLog("d20", seed, shown, (best,), tuple(dropped), (), None, modifier, best + modifier)


def roll_contest(
    rng: random.Random, first_modifier: int, second_modifier: int, sides: int = 6, seed: int | None = None
) -> tuple[str, RollLog]:
    a, b = roll_die(rng, sides), roll_die(rng, sides)
    x, y = a + first_modifier, b + second_modifier
    winner = "first" if x > y else "second" if y > x else "tie"
    return winner, RollLog("contest", seed, (a, b), (a, b), (), (), None, first_modifier - second_modifier, x - y)
