"""rules/tables.py: dice notations of user-defined tables, rolled with the caller's generator."""

import random
from collections import Counter

import pytest

from rules import tables


@pytest.mark.parametrize(
    "notation, low, high, count", [("D6", 1, 6, 6), ("2D6", 2, 12, 11), ("D66", 11, 66, 36), ("d20", 1, 20, 20)]
)
def test_notations_and_their_outcomes(notation, low, high, count):
    die = tables.parse_die(notation)
    assert (die.low, die.high, len(die.outcomes())) == (low, high, count)


@pytest.mark.parametrize("bad", ["", "D7", "11D6", "2X6", "D0"])
def test_bad_notations_are_errors(bad):
    with pytest.raises(ValueError):
        tables.parse_die(bad)


def test_roll_uses_only_the_generator_given(monkeypatch):
    expected = tables.roll_table(random.Random(5), "D66", 5)

    def forbidden(*args, **kwargs):
        raise AssertionError("the global random generator was used")

    monkeypatch.setattr(random, "randint", forbidden)
    assert tables.roll_table(random.Random(5), "D66", 5) == expected
    assert tables.roll_table_die("D66", 5) == expected  # the replay of a logged roll
    tens, units = expected.dice
    assert expected.result == 10 * tens + units and expected.seed == 5


def test_sums_of_dice_cover_the_range():
    rng = random.Random(3)
    seen = Counter(tables.roll_table(rng, "2D6").result for _ in range(2000))
    assert set(seen) == set(range(2, 13))


def test_uncovered_results():
    assert tables.uncovered("D6", [(1, 3), (5, 6)]) == [4]
