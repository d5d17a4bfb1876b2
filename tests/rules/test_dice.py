"""rules.dice: exact distributions against brute-force counting, seeded replays."""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import dice


def brute_die(reroll):
    """(face, weight) of one die re-rolled once on ``reroll``, weights out of 36, by listing both rolls."""
    weights = Counter()
    for first in range(1, 7):
        if first in reroll:
            for second in range(1, 7):
                weights[second] += 1
        else:
            weights[first] += 6
    return sorted(weights.items())


def brute_damage(n, keep, reroll, reroll_bonus=True):
    """Every sequence of dice: the n dice, then the bonus die if any shows a 6."""
    die = brute_die(reroll)
    bonus_die = brute_die(reroll if reroll_bonus else ())
    sums = Counter()
    for combo in itertools.product(die, repeat=n):
        faces = [f for f, _ in combo]
        weight = math.prod(w for _, w in combo)
        if 6 in faces:
            for b, wb in bonus_die:
                sums[sum(sorted(faces + [b], reverse=True)[:keep])] += weight * wb
        else:
            sums[sum(sorted(faces, reverse=True)[:keep])] += weight * 36
    den = 36 ** (n + 1)
    return {s: F(c, den) for s, c in sums.items()}


def nonzero(dist):
    return {k: v for k, v in dist.items() if v}


@pytest.mark.parametrize("reroll", [frozenset(), frozenset({1}), frozenset({6}), frozenset({1, 6})])
def test_reroll_once_matches_listing_both_rolls(reroll):
    expected = {f: F(w, 36) for f, w in brute_die(reroll)}
    assert dice.reroll_once_distribution(6, reroll) == expected
    assert sum(expected.values()) == 1


def test_energy_reroll_of_ones_by_hand():
    # a 1 is re-rolled once and the new result stands, even a second 1
    d = dice.reroll_once_distribution(6, {1})
    assert d[1] == F(1, 36)
    assert d[2] == F(1, 6) + F(1, 36)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("keep", [1, 2, 3])
def test_damage_pool_matches_brute_force_without_rerolls(n, keep):
    assert nonzero(dice.damage_pool_distribution(n, keep)) == brute_damage(n, keep, frozenset())


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("keep", [2, 3])
@pytest.mark.parametrize("reroll", [frozenset({1}), frozenset({6}), frozenset({1, 6})])
def test_damage_pool_matches_brute_force_with_rerolls(n, keep, reroll):
    assert nonzero(dice.damage_pool_distribution(n, keep, reroll)) == brute_damage(n, keep, reroll)


def test_bonus_die_not_rerolled_option_matches_brute_force():
    assert nonzero(dice.damage_pool_distribution(2, 2, frozenset({1}), reroll_bonus=False)) == brute_damage(
        2, 2, frozenset({1}), reroll_bonus=False
    )


def test_one_die_counts_alone_unless_the_bonus_die_joins_it():
    d = dice.damage_pool_distribution(1, 2)
    # 1..5 alone (1/6 each); a 6 brings one bonus die: 6 + b, b in 1..6
    assert d == {**{s: F(1, 6) for s in range(1, 6)}, **{6 + b: F(1, 36) for b in range(1, 7)}}


def test_exactly_one_bonus_die_however_many_sixes():
    # two dice both 6: one bonus die only, two highest = 12 whatever it shows
    d = dice.damage_pool_distribution(2, 2)
    # 12 needs two sixes among the three dice: both first dice (1/36), or exactly one and the bonus (10/36 * 1/6)
    assert d[12] == F(1, 36) + F(10, 36) * F(1, 6)
    assert max(d) == 12


def test_zero_dice_is_zero():
    assert dice.damage_pool_distribution(0, 2) == {0: 1}


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("keep", [1, 2, 3])
def test_keep_highest_matches_brute_force(n, keep):
    counts = Counter(sum(sorted(c, reverse=True)[:keep]) for c in itertools.product(range(1, 7), repeat=n))
    assert nonzero(dice.keep_highest_distribution(n, keep)) == dice.from_counts(counts)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_keep_highest_d20_matches_brute_force(n):
    counts = Counter(max(c) + 1 for c in itertools.product(range(1, 21), repeat=n))
    assert dice.keep_highest_d20(n, 1) == dice.from_counts(counts)


@pytest.mark.parametrize("a,b", [(0, 0), (2, -1), (-3, 3)])
def test_contest_matches_brute_force(a, b):
    counts = Counter()
    for x in range(1, 7):
        for y in range(1, 7):
            counts["first" if x + a > y + b else "second" if y + b > x + a else "tie"] += 1
    assert nonzero(dice.contest_distribution(a, b)) == dice.from_counts(counts)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 12), keep=st.integers(1, 3), ones=st.booleans(), sixes=st.booleans())
def test_damage_pool_sums_to_one(n, keep, ones, sixes):
    assert sum(dice.damage_pool_distribution(n, keep, dice.reroll_set(ones, sixes)).values()) == 1


def test_generic_helpers():
    assert dice.sum_distribution(2)[7] == F(1, 6)
    assert dice.expectation(dice.d6()) == F(7, 2)
    assert dice.total(dice.d20()) == 1 and dice.total(dice.d8()) == 1
    assert dice.map_dist(dice.d6(), lambda f: f % 2) == {1: F(1, 2), 0: F(1, 2)}
    assert dice.shift({1: F(1)}, 2) == {3: F(1)}


def test_seeded_roll_replays_and_ignores_the_module_generator():
    random.seed(1)
    first = dice.roll_damage_pool(dice.seeded(42), 5, 3, frozenset({1}), modifier=-1, seed=42)
    random.seed(2)
    again = dice.roll_damage_pool(dice.seeded(42), 5, 3, frozenset({1}), modifier=-1, seed=42)
    assert first == again and first.seed == 42
    assert first.result == sum(first.kept) - 1
    assert sorted(first.kept + first.dropped) == sorted(first.shown)
    assert len(first.kept) == min(3, len(first.shown))


def test_roll_log_shows_the_bonus_die_and_rerolls():
    seen_bonus = seen_reroll = False
    for seed in range(200):
        log = dice.roll_damage_pool(random.Random(seed), 2, 2, frozenset({1}), seed=seed)
        if log.bonus is not None:
            seen_bonus = True
            assert 6 in log.shown[:-1] and len(log.shown) == 3 and log.shown[-1] == log.bonus
        else:
            assert len(log.shown) == 2 and 6 not in log.shown
        for old, _new in log.rerolled:
            assert old == 1
            seen_reroll = True
    assert seen_bonus and seen_reroll


def test_damage_pool_simulation_agrees_with_exact():
    rng = random.Random(7)
    n, keep, reroll = 4, 3, frozenset({1, 6})
    exact = dice.damage_pool_distribution(n, keep, reroll)
    samples = 100_000
    counts = Counter(dice.roll_damage_pool(rng, n, keep, reroll).result for _ in range(samples))
    for s, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / samples)
        assert abs(counts[s] / samples - float(p)) <= 4 * se + 1e-12, s


def test_contest_roll_and_keep_highest_d20_roll():
    winner, log = dice.roll_contest(random.Random(3), 1, 0, seed=3)
    a, b = log.shown
    assert winner == ("first" if a + 1 > b else "second" if b > a + 1 else "tie")
    log = dice.roll_keep_highest_d20(random.Random(5), 3, 2, seed=5)
    assert log.result == max(log.shown) + 2 and len(log.dropped) == 2
