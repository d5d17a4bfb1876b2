from fractions import Fraction

import pytest

from core.percent import percent


@pytest.mark.parametrize(
    ("p", "places", "shown"),
    [
        (Fraction(3, 8), 1, "37.5"),
        (Fraction(0), 1, "0"),
        (Fraction(1), 1, "100"),
        (Fraction(1, 5000), 1, "<0.1"),  # rounds to 0.0: possible, so never shown as impossible
        (Fraction(4999, 5000), 1, ">99.9"),  # rounds to 100.0: not sure, so never shown as sure
        (Fraction(1, 2000), 1, "0.1"),  # 0.05% rounds up to 0.1: shown as it rounds
        (Fraction(1, 300), 0, "<1"),
        (Fraction(299, 300), 0, ">99"),
        (Fraction(1, 3), 0, "33"),
        (0.5, 1, "50.0"),
    ],
)
def test_a_chance_is_rounded_but_never_to_a_certainty(p, places, shown):
    assert percent(p, places) == shown
