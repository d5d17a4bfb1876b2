"""Tables and tests of the core rules, row by row, and the rules' own examples."""

import itertools
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.engine import Outcome, Row

# --- attribute tests ---------------------------------------------------------


def brute_test(modifier, jinxed):
    counts = Counter()
    for face in range(1, 21):
        if face >= (19 if jinxed else 20):
            counts[Outcome.CRITICAL] += 1
        elif face <= (2 if jinxed else 1):
            counts[Outcome.FUMBLE] += 1
        else:
            counts[Outcome.SUCCESS if face + modifier >= 11 else Outcome.FAILURE] += 1
    return {o: F(counts[o], 20) for o in Outcome}


@pytest.mark.parametrize("modifier", range(-12, 13))
@pytest.mark.parametrize("jinxed", [False, True])
def test_attribute_test_matches_counting_faces(modifier, jinxed):
    assert cn.test_distribution(modifier, jinxed) == brute_test(modifier, jinxed)


def test_attribute_test_edges():
    assert cn.classify(10, 1) is Outcome.SUCCESS  # 11 or greater
    assert cn.classify(10, 0) is Outcome.FAILURE
    assert cn.classify(20, -30) is Outcome.CRITICAL  # a natural 20 always succeeds
    assert cn.classify(1, 30) is Outcome.FUMBLE  # a natural 1 always fails
    assert cn.classify(19, -30, jinxed=True) is Outcome.CRITICAL
    assert cn.classify(2, 30, jinxed=True) is Outcome.FUMBLE
    assert cn.classify(19, -30) is Outcome.FAILURE


def test_fate_cards_and_dread_reroll():
    assert cn.test_distribution(-20, card="ace")[Outcome.SUCCESS] == 1
    assert cn.test_distribution(0, card=3) == cn.test_distribution(3)
    assert cn.test_distribution(0, card=-4) == cn.test_distribution(-4)
    jack = cn.test_distribution(0, card="jack-critical")
    assert jack[Outcome.SUCCESS] == 0 and jack[Outcome.CRITICAL] == F(10, 20)
    jack = cn.test_distribution(0, card="jack-fumble")
    assert jack[Outcome.FAILURE] == 0 and jack[Outcome.FUMBLE] == F(10, 20)
    # forced re-roll of a passed test: the new result stands
    base = brute_test(2, False)
    passed = base[Outcome.CRITICAL] + base[Outcome.SUCCESS]
    forced = cn.test_distribution(2, reroll_success=True)
    assert forced[Outcome.SUCCESS] == passed * base[Outcome.SUCCESS]
    assert forced[Outcome.FAILURE] == base[Outcome.FAILURE] + passed * base[Outcome.FAILURE]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("modifier", [-4, 0, 3])
@pytest.mark.parametrize("jinxed", [False, True])
def test_auto_keep_highest_d20_matches_brute_force(n, modifier, jinxed):
    counts = Counter(cn.classify_auto(c, modifier, jinxed) for c in itertools.product(range(1, 21), repeat=n))
    assert cn.hit_roll_distribution(modifier, jinxed, n) == {o: F(counts[o], 20**n) for o in Outcome}


def test_auto_critical_and_fumble_together_counts_as_critical():
    assert cn.classify_auto((20, 1), 0) is Outcome.CRITICAL
    assert cn.classify_auto((15, 1), 5) is Outcome.FUMBLE


def test_surrounded_rerolls_misses_and_fumbles_only():
    base = brute_test(0, False)
    failed = base[Outcome.FAILURE] + base[Outcome.FUMBLE]
    again = cn.surrounded_reroll(base)
    assert again[Outcome.SUCCESS] == base[Outcome.SUCCESS] * (1 + failed)
    assert again[Outcome.FUMBLE] == failed * base[Outcome.FUMBLE]
    assert sum(again.values()) == 1


# --- damage table --------------------------------------------------------------


@pytest.mark.parametrize(
    "result,row",
    [
        (-3, Row.NONE),
        (0, Row.NONE),
        (2, Row.NONE),
        (3, Row.LIGHT),
        (5, Row.LIGHT),
        (6, Row.SERIOUS),
        (8, Row.SERIOUS),
        (9, Row.CRITICAL),
        (11, Row.CRITICAL),
        (12, Row.LETHAL),
        (19, Row.LETHAL),
    ],
)
def test_damage_table_rows(result, row):
    assert cn.damage_row(result) is row


def fixed(values):
    """A draw that answers the events of a process in order (for hand-written cases).

    An int answers a damage roll: the kept dice's sum, read on the table with the event's Wounds and armor.
    """
    it = iter(values)

    def draw(event):
        value = next(it)
        if isinstance(event, cn.DamageRowEvent):
            return cn.damage_row(value + event.wounds - event.armor)
        return value

    return draw


def plan(**kw):
    base = dict(
        dice=2,
        keep=2,
        reroll=frozenset(),
        armor=0,
        wounds=0,
        prone=False,
        toughness=0,
        jinxed=False,
        brutal=False,
        tio="none",
        feeble=False,
        one_shotter=False,
        demonic=False,
        extra_organs=False,
        monstrous=False,
        stagger_prone=False,
    )
    base.update(kw)
    return cn.HitPlan(**base)


@pytest.mark.parametrize(
    "roll,wounds,prone,ooa",
    [
        (2, 0, False, False),  # no effect
        (3, 1, False, False),  # Light: a Wound
        (7, 1, True, False),  # "a result of 7 means the target gains a Wound and then is knocked Prone"
        (9, 1, True, True),  # Critical: OoA
        (12, 1, True, True),  # Lethal: OoA
    ],
)
def test_damage_table_is_cumulative(roll, wounds, prone, ooa):
    state = cn.hit_process(fixed([roll]), plan(), critical=False)
    assert (state.wounds, state.prone, state.ooa) == (wounds, prone, ooa)


def test_serious_injury_on_a_prone_target_is_out_of_action():
    assert cn.hit_process(fixed([6]), plan(prone=True), False).ooa
    assert not cn.hit_process(fixed([5]), plan(prone=True), False).ooa


def test_seventh_wound_is_out_of_action():
    state = cn.hit_process(fixed([3]), plan(wounds=6), False)
    assert state.ooa and state.wounds == 6


def test_critical_hit_wound_comes_first_and_counts_in_the_roll():
    # a critical hit: Wound first (0 -> 1), then a roll of 2 + 1 Wound = 3: Light, another Wound
    state = cn.hit_process(fixed([2]), plan(), critical=True)
    assert state.wounds == 2 and state.gained == 2


@pytest.mark.parametrize(
    "row,outcome,after",
    [
        (Row.LIGHT, Outcome.SUCCESS, Row.NONE),
        (Row.SERIOUS, Outcome.SUCCESS, Row.LIGHT),
        (Row.CRITICAL, Outcome.SUCCESS, Row.SERIOUS),
        (Row.LIGHT, Outcome.CRITICAL, Row.NONE),
        (Row.SERIOUS, Outcome.CRITICAL, Row.NONE),
        (Row.CRITICAL, Outcome.CRITICAL, Row.LIGHT),
        (Row.LIGHT, Outcome.FAILURE, Row.LIGHT),
        (Row.CRITICAL, Outcome.FAILURE, Row.CRITICAL),
        (Row.LIGHT, Outcome.FUMBLE, Row.SERIOUS),
        (Row.SERIOUS, Outcome.FUMBLE, Row.CRITICAL),
        (Row.CRITICAL, Outcome.FUMBLE, Row.LETHAL),
    ],
)
def test_tough_it_out_steps(row, outcome, after):
    assert cn.tough_it_out(row, outcome) is after


def test_lethal_and_none_cannot_be_toughed_out():
    assert not cn.may_tough_it_out(Row.LETHAL) and not cn.may_tough_it_out(Row.NONE)
    assert all(cn.may_tough_it_out(r) for r in (Row.LIGHT, Row.SERIOUS, Row.CRITICAL))


def test_tough_it_out_test_uses_wounds_and_brutal():
    seen = []

    def draw(event):
        if isinstance(event, cn.TestEvent):
            seen.append(event.modifier)
            return Outcome.FAILURE
        return cn.damage_row(4 + event.wounds - event.armor)

    cn.hit_process(draw, plan(tio="roll", toughness=2, wounds=1, brutal=True), False)
    assert seen == [2 - 1 - 4]


def test_demonic_failed_tough_it_out_gains_a_wound():
    draws = fixed([3, Outcome.FAILURE])  # Light, failed: a Wound instead of Dread, then the Light Wound
    state = cn.hit_process(draws, plan(tio="roll", demonic=True), False)
    assert state.wounds == 2


def test_effective_armor():
    assert cn.effective_armor(3, piercing=2) == 1
    assert cn.effective_armor(1, piercing=2) == 0
    assert cn.effective_armor(4, electric=True) == 2
    assert cn.effective_armor(5, piercing=1, electric=True) == 2
    assert cn.effective_armor(3, piercing=2, electric=True) == 1


def test_keywords_parse():
    kw = cn.Keywords.parse(["Piercing 2", "Auto 3", "Heavy 1", "Overkill", "Short-ranged"])
    assert (kw.piercing, kw.auto, kw.heavy) == (2, 3, 1)
    assert kw.has("overkill") and kw.has("short-ranged")
    for bad in (["Piercing"], ["Overkill 2"], ["Laser"]):
        with pytest.raises(ValueError):
            cn.Keywords.parse(bad)


# --- Neural Overload ---------------------------------------------------------


@pytest.mark.parametrize("total,row", [(1, 1), (2, 1), (3, 3), (4, 3), (5, 5), (6, 5), (7, 7), (8, 7), (9, 9), (12, 9)])
def test_neural_overload_rows(total, row):
    assert cn.overload_row(total) == row


@pytest.mark.parametrize("dread", range(7))
def test_neural_overload_distribution_matches_counting(dread):
    counts = Counter(cn.overload_row(f + dread) for f in range(1, 7))
    expected = {r: F(counts[r], 6) for r in cn.OVERLOAD_ROWS}
    assert cn.neural_overload_distribution(dread) == expected


def test_neural_overload_example_five_applies_first_three_rows():
    # "a roll of 5 (with modifiers) means you apply the first 3 rows of the table, applying from the top down"
    result = cn.apply_overload(5, dread=0, ap=1, prone=False)
    assert result.effects == ("gain 1 Dread", "lose 1 AP", "fall Prone")
    assert (result.dread, result.ap, result.prone, result.wounds) == (1, 0, True, 0)


def test_neural_overload_each_row():
    assert cn.apply_overload(1).effects == ("gain 1 Dread",)
    assert cn.apply_overload(3, ap=0).effects == ("gain 1 Dread", "fall Prone (no AP)")
    r = cn.apply_overload(5, ap=0)  # no AP: Prone at row 3, so row 5 gives a Wound
    assert r.prone and r.wounds == 1
    r = cn.apply_overload(7, ap=2)
    assert (r.ap, r.prone, r.wounds, r.dead) == (1, True, 1, False)
    assert cn.apply_overload(9, ap=2).dead
    assert cn.apply_overload(1, traits=frozenset({"artificial"})).dread == 0
    assert cn.apply_overload(1, traits=frozenset({"demonic"})).wounds == 1


# --- Morale -----------------------------------------------------------------


def brute_morale(discipline, dread, wounds, allies):
    counts = Counter()
    for faces in itertools.product(range(1, 21), repeat=dread):
        d = dread
        for face in faces:
            d = cn.morale_step(d, cn.classify(face, discipline + allies - wounds))
        counts[d] += 1
    return {d: F(counts[d], 20**dread) for d in range(7)}


@pytest.mark.parametrize(
    "discipline,dread,wounds,allies",
    [
        (0, 0, 0, 0),
        (0, 1, 0, 0),
        (1, 2, 1, 1),
        (-2, 3, 0, 2),
        (3, 3, 2, 0),
    ],
)
def test_morale_matches_brute_force(discipline, dread, wounds, allies):
    assert cn.morale_distribution(discipline, dread, wounds, allies) == brute_morale(discipline, dread, wounds, allies)


def test_morale_steps_and_flees():
    assert cn.morale_step(3, Outcome.SUCCESS) == 2
    assert cn.morale_step(3, Outcome.CRITICAL) == 1
    assert cn.morale_step(1, Outcome.CRITICAL) == 0
    assert cn.morale_step(6, Outcome.FUMBLE) == 6
    assert cn.morale_step(2, Outcome.FUMBLE) == 3
    assert [cn.flees_for(d) for d in range(7)] == [
        (0, False),
        (1, False),
        (2, False),
        (3, False),
        (3, True),
        (3, True),
        (3, True),
    ]


def test_seeded_morale_replays():
    a = cn.roll_morale(random.Random(9), 0, 4, 1, 0, seed=9)
    b = cn.roll_morale(random.Random(9), 0, 4, 1, 0, seed=9)
    assert a == b and len(a.tests) == 4
    assert (a.flees, a.becomes_npc) == cn.flees_for(a.dread_left)


# --- contests, falls -----------------------------------------------------------


def test_explode_head_push_initiative():
    d = cn.explode_head_distribution((1, 1, 0), (0, 0, 0))
    # caster D6+2 against target D6: ties when the caster die is 1-4 and the target die 2 more
    assert d == {"target_dies": F(26, 36), "caster_dies": F(6, 36), "both_wounded": F(4, 36)}
    p = cn.push_distribution(0, 0)
    assert p == {"pushed": F(15, 36), "not_pushed": F(21, 36)}
    assert sum(cn.initiative_distribution(2, 0).values()) == 1
    winner, logs = cn.roll_initiative(random.Random(1), 0, 0)
    assert winner in ("first", "second") and all(log.result == 0 for log in logs[:-1])
    pushed, log = cn.roll_push(random.Random(2), 1, 0)
    assert pushed == (log.shown[0] + 1 > log.shown[1])


@pytest.mark.parametrize("height,hits", [(1, 0), (2, 0), (2.5, 1), (3, 1), (3.5, 2), (6, 2), (7, 3)])
def test_fall_hits(height, hits):
    assert cn.fall_hits(height) == hits


def test_fall_always_ends_prone_and_ignores_armor():
    d = cn.fall_distribution(3, cn.Target(armor=5))
    assert d[cn.TargetState.UNHARMED] == 0 and d[cn.TargetState.WOUNDED] == 0
    assert sum(d.values()) == 1
    assert cn.fall_distribution(1, cn.Target())[cn.TargetState.UNHARMED] == 1
