"""The rolls the rules call for after an attack (issue 18): Stagger, Fire, Splash, Unstable, the jam."""

import random

import pytest

from rules import rolls
from rules.cybernekro import engine as cn
from rules.follow_ups import after_attack

HAMMER = cn.Weapon(2, None, cn.Keywords.parse(["Stagger"]), "hammer-mace")
TARGET = cn.Target(toughness=2, armor=0, wounds=1)


def _plan(weapon=HAMMER, action="fight", target=TARGET, **situation):
    return cn.plan_attack(action, cn.Attacker(agility=1, strength=1), weapon, target, cn.Situation(**situation))


def _keys(*args, **kwargs):
    return [f.key for f in after_attack(*args, **kwargs)]


def test_a_stagger_hit_calls_for_a_toughness_test_with_the_wounds_penalty():
    plan = _plan()
    [stagger] = after_attack("fight", HAMMER, ["Stagger"], plan, cn.Outcome.SUCCESS, 2, False, False)
    assert stagger.key == "stagger" and stagger.roll == "test"
    assert dict(stagger.values) == {"modifier": 2 - 2, "jinxed": False}  # Toughness +2, two Wounds now


@pytest.mark.parametrize(
    "to_hit, ooa, rolled",
    [
        (cn.Outcome.FAILURE, False, False),
        (cn.Outcome.FUMBLE, False, False),
        (cn.Outcome.SUCCESS, True, False),
        (cn.Outcome.CRITICAL, False, True),
    ],
)
def test_no_stagger_test_on_a_miss_out_of_action_or_when_already_rolled(to_hit, ooa, rolled):
    assert "stagger" not in _keys("fight", HAMMER, ["Stagger"], _plan(), to_hit, 1, ooa, rolled)


def test_a_critical_hit_is_a_hit():
    assert _keys("fight", HAMMER, ["Stagger"], _plan(), cn.Outcome.CRITICAL, 1, False, False) == ["stagger"]


def test_fire_splash_unstable_and_the_jam():
    weapon = cn.Weapon(3, 12, cn.Keywords.parse(["Fire", "Splash", "Unstable"]), "x")
    plan = _plan(weapon, "shoot")
    hit = after_attack("shoot", weapon, ["Fire", "Splash", "Unstable"], plan, cn.Outcome.SUCCESS, 0, False, False)
    assert [f.key for f in hit] == ["splash", "fire"]
    assert dict(hit[0].values)["dice"] == plan.hit.dice - 1  # "decrease the damage roll by 1 die"
    fumble = _keys("shoot", weapon, ["Fire", "Splash", "Unstable"], plan, cn.Outcome.FUMBLE, 0, False, False)
    assert fumble == ["unstable", "jam"]
    reliable = cn.Weapon(2, 12, cn.Keywords.parse(["Reliable"]), "y")
    assert _keys("shoot", reliable, ["Reliable"], _plan(reliable, "shoot"), cn.Outcome.FUMBLE, 0, False, False) == []
    assert _keys("fight", HAMMER, ["Stagger"], _plan(), cn.Outcome.FUMBLE, 0, False, False) == []  # no jam in melee


def test_the_roll_log_says_the_wounds_after_and_whether_stagger_was_rolled():
    plan = _plan()
    for seed in range(40):
        roll = rolls.planned_attack(random.Random(seed), plan, seed)
        assert roll.get("stagger_rolled") is False  # rolled inside the attack only when pushed into an obstacle
        assert roll.get("wounds_after") == TARGET.wounds + roll.get("wounds_gained") or roll.outcome == "out_of_action"
    obstacle = _plan(stagger_into_obstacle=True)
    assert any(rolls.planned_attack(random.Random(s), obstacle, s).get("stagger_rolled") for s in range(40))
