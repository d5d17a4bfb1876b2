"""The exact engine against the rules' tables and examples, and against
brute-force enumeration written independently of the dynamic programmes."""

import itertools
from fractions import Fraction

import pytest

from crewbuilder.rules import exact

F = Fraction


# --- brute-force oracles -------------------------------------------------------------


def die_outcomes(reroll_ones, reroll_sixes):
    """(face, weight) for one die with its single re-roll, by plain enumeration."""
    for first in range(1, 7):
        if (first == 1 and reroll_ones) or (first == 6 and reroll_sixes):
            for second in range(1, 7):
                yield second, F(1, 36)
        else:
            yield first, F(1, 6)


def brute_damage_rows(dice, armor, wounds, overkill=False, piercing=0, electric=False, energy=False, sixes=False):
    rows = {name: F(0) for name, _ in exact.DAMAGE_ROWS}
    keep = 3 if overkill else 2
    reduction = max(0, armor - piercing)
    if electric:
        reduction = min(reduction, 2)
    per_die = list(die_outcomes(energy, sixes))
    for combo in itertools.product(per_die, repeat=dice):
        faces = [f for f, _ in combo]
        weight = F(1)
        for _, w in combo:
            weight *= w
        extra = per_die if 6 in faces else [(None, F(1))]
        for bonus, w in extra:
            rolled = faces + ([bonus] if bonus is not None else [])
            total = sum(sorted(rolled, reverse=True)[:keep]) + wounds - reduction
            row = "none"
            for name, threshold in exact.DAMAGE_ROWS[1:]:
                if total >= threshold:
                    row = name
            rows[row] += weight * w
    return rows


# --- attribute tests -------------------------------------------------------------------


@pytest.mark.parametrize("modifier", range(-12, 13))
@pytest.mark.parametrize("jinxed", [False, True])
def test_attribute_test_by_counting_faces(modifier, jinxed):
    dist = exact.test_distribution(modifier, jinxed)
    crit = [n for n in range(1, 21) if n >= (19 if jinxed else 20)]
    fumble = [n for n in range(1, 21) if n <= (2 if jinxed else 1)]
    middle = [n for n in range(1, 21) if n not in crit and n not in fumble]
    assert dist["critical"] == F(len(crit), 20)
    assert dist["fumble"] == F(len(fumble), 20)
    assert dist["success"] == F(sum(1 for n in middle if n + modifier >= 11), 20)
    assert sum(dist.values()) == 1


def test_natural_20_always_succeeds_and_natural_1_always_fails():
    assert exact.test_outcome(20, -50) == "critical"
    assert exact.test_outcome(1, 50) == "fumble"
    assert exact.test_outcome(11, 0) == "success"
    assert exact.test_outcome(10, 0) == "failure"


# --- damage ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("armor", [0, 2, 4])
@pytest.mark.parametrize("wounds", [0, 3])
@pytest.mark.parametrize(
    "keywords",
    [
        {},
        {"overkill": True},
        {"piercing": 2},
        {"electric": True},
        {"energy": True},
        {"sixes": True},
        {"energy": True, "sixes": True, "overkill": True, "piercing": 1},
    ],
)
def test_damage_rows_match_brute_force(dice, armor, wounds, keywords):
    engine = exact.damage_row_distribution(
        dice, armor, wounds, keywords.get("overkill", False), keywords.get("piercing", 0),
        keywords.get("electric", False), keywords.get("energy", False), keywords.get("sixes", False),
    )
    assert engine == brute_damage_rows(dice, armor, wounds, **keywords)
    assert sum(engine.values()) == 1


def test_four_dice_overkill_energy_matches_brute_force():
    assert exact.damage_row_distribution(4, 1, 1, True, 0, False, True) == brute_damage_rows(4, 1, 1, overkill=True, energy=True)


def test_damage_table_rows_are_cumulative_thresholds():
    assert [exact.damage_row(n) for n in (-3, 2, 3, 5, 6, 8, 9, 11, 12, 20)] == [
        "none", "none", "light", "light", "serious", "serious", "critical", "critical", "lethal", "lethal"
    ]


def test_one_die_keeps_one_unless_a_six_brings_the_bonus_die():
    # One die: 1-5 count alone; a 6 rolls one more die and the two count (7..12).
    sums = exact.damage_sum_distribution(1, 2, False, False)
    assert {k: v for k, v in sums.items() if k <= 5} == {n: F(1, 6) for n in range(1, 6)}
    assert all(sums[6 + n] == F(1, 36) for n in range(1, 7))


def test_bonus_die_is_one_however_many_sixes():
    # Two sixes with Overkill: three dice count only if the bonus die exists; max is 18.
    sums = exact.damage_sum_distribution(2, 3, False, False)
    assert max(sums) == 18 and sums[18] == F(1, 216)


def test_electric_caps_armor_at_two():
    assert exact.effective_armor(4, electric=True) == 2
    assert exact.effective_armor(4, piercing=3, electric=True) == 1
    assert exact.effective_armor(1, electric=True) == 1


# --- neural overload and morale ---------------------------------------------------------------


@pytest.mark.parametrize("dread", range(0, 7))
def test_neural_overload_highest_row_reached(dread):
    dist = exact.neural_overload_distribution(dread)
    expected = {str(r): F(0) for r in (1, 3, 5, 7, 9)}
    for roll in range(1, 7):
        total = roll + dread
        expected[str(max(r for r in (1, 3, 5, 7, 9) if total >= r))] += F(1, 6)
    assert dist == expected


def test_neural_overload_example_five_applies_first_three_rows():
    # "a roll of 5 (with modifiers) means you apply the first 3 rows": Dread 4, roll 1 -> row 5.
    assert exact.neural_overload_distribution(4)["5"] == F(2, 6)  # rolls 1 and 2 -> 5 and 6


def brute_morale(discipline, dread, wounds, allies):
    outcome = {}
    for rolls in itertools.product(range(1, 21), repeat=dread):
        held = dread
        for natural in rolls:
            result = exact.test_outcome(natural, discipline + allies - wounds)
            held = {"critical": max(0, held - 2), "success": max(0, held - 1),
                    "failure": held, "fumble": min(6, held + 1)}[result]
        outcome[held] = outcome.get(held, F(0)) + F(1, 20 ** dread)
    return outcome


@pytest.mark.parametrize("discipline, dread, wounds, allies", [(0, 1, 0, 0), (0, 3, 0, 1), (2, 2, 3, 0), (-2, 3, 1, 2)])
def test_morale_matches_brute_force(discipline, dread, wounds, allies):
    left, flees, npc = exact.morale_distribution(discipline, dread, wounds, allies)
    oracle = brute_morale(discipline, dread, wounds, allies)
    assert {int(k): v for k, v in left.items() if v} == {k: v for k, v in oracle.items() if v}
    assert npc == sum((v for k, v in oracle.items() if k >= 4), F(0))
    assert flees["3"] == sum((v for k, v in oracle.items() if k >= 3), F(0))
    assert sum(left.values()) == 1 and sum(flees.values()) == 1


def test_morale_with_no_dread_does_nothing():
    left, flees, npc = exact.morale_distribution(0, 0, 0, 0)
    assert left["0"] == 1 and flees["0"] == 1 and npc == 0


def test_no_damage_dice_still_adds_wounds_minus_armor():
    # "Roll + Wounds - Armor": with no dice the roll is 0.
    assert exact.damage_row_distribution(0, 0, 3)["light"] == 1
    assert exact.damage_row_distribution(0, 1, 3)["none"] == 1
