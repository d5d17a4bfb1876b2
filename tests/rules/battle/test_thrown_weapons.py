"""B63: a melee weapon with Thrown is thrown as a Shoot with Agility, lands next to its target, and anyone may pick
it up (an Interact). Thrown: "The weapon can be thrown up to 6" as a Shoot action using Agility instead of
Discipline. Once the attack is resolved the weapon lands on the ground next to the target and can be picked up
by anyone." """

import random
from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, codec, legal, odds_table, rounds, scenario_steps
from rules.cybernekro.battle.state import Refused, WeaponUse
from tests.rules.battle.helpers import FISTS, PISTOL, SWORD, Script, crews, new, settle, to_action

KNIFE = WeaponUse("knife", "knife", cn.Weapon(1, None, cn.Keywords.parse(["Thrown"]), "knife"), hands=1)


def _scene(knives=1, **thrower):
    models = crews()
    models[0] = replace(models[0], weapons=(FISTS, SWORD, PISTOL, replace(KNIFE, copies=knives)), **thrower)
    state = rounds.select_model(to_action(new(models)), "A", "a0")
    return replace(state, scenario=replace(state.scenario, environment=None))  # no Slippery ground this round


def _throw(state, *faces):
    thrown = actions.attack(state, "A", "knife", "b0", Script(*faces), 1, action="shoot")
    return thrown


def _resolved(state, *faces):
    state = _throw(state, *faces)
    state = actions.resolve_attack(state, state.pending[0].seat, Script(3, 3, 3, 3), 1)
    return settle(state)


def test_a_thrown_weapon_is_offered_as_a_shoot_and_a_plain_melee_weapon_is_not():
    options = legal.legal(_scene(), "A")
    assert legal.Option("attack", ("knife", "b0", "shoot")) in options
    assert legal.Option("attack", ("knife", "b0")) in options  # still a Fight weapon
    assert legal.Option("attack", ("sword", "b0", "shoot")) not in options
    bestial = _scene(traits=frozenset({"bestial"}))  # "Move, Get Up and Fight": no Shoot, so no throw
    assert not any(o.step == "attack" and len(o.args) > 2 for o in legal.legal(bestial, "A"))


def test_the_throw_rolls_agility_not_discipline():
    state = _scene(agility=3, discipline=-2)
    thrown = _throw(state, 10)
    window = dict(thrown.pending[0].data)
    assert window["action"] == "shoot" and window["attribute"] == "agility"
    assert window["total"] == 10 + 3  # the die and Agility
    assert "throws" in thrown.log[-1].text


def test_the_weapon_lands_by_the_target_and_leaves_the_thrower_hit_or_miss():
    for face in (18, 5):  # a hit, a miss
        state = _resolved(_scene(), face)
        assert "knife" not in {w.slug for w in state.model("a0").weapons}
        assert [(w.slug, w.near) for w in state.scenario.weapons_on_ground] == [("knife", "b0")]
        assert any("the knife lands next to" in e.text for e in state.log)


def test_a_second_knife_stays_in_hand_and_a_fumble_jams_nothing():
    state = _resolved(_scene(knives=2), 1)  # a Fumble
    assert state.model("a0").weapon("knife").copies == 1
    assert not state.model("a0").jammed
    assert len(state.scenario.weapons_on_ground) == 1


def test_anyone_picks_the_weapon_up_with_an_interact():
    state = _resolved(_scene(), 18)
    state = replace(state, pending=(), reaction=None)
    state = replace(state, active_seat="B", active_model=None)
    state = state.with_model(replace(state.model("b1"), ap=2))
    state = rounds.select_model(state, "B", "b1")
    assert legal.Option("pick_up", ("knife",)) in legal.legal(state, "B")
    picked = scenario_steps.pick_up(state, "B", "knife", random.Random(1), 1)
    assert picked.model("b1").weapon("knife").copies == 1 and picked.model("b1").weapon("knife").near is None
    assert picked.scenario.weapons_on_ground == ()
    assert picked.model("b1").ap == 1
    assert "picks up the knife" in picked.log[-1].text
    with pytest.raises(Refused):
        scenario_steps.pick_up(picked, "B", "knife", random.Random(1), 1)


def test_the_odds_table_has_the_throw_as_the_engine_plans_it():
    state = _scene(agility=2, discipline=0)
    cells = [c for c in odds_table.weapon_odds(state, "a0") if c.weapon == "knife" and c.target == "b0"]
    assert [c.action for c in cells] == ["fight", "shoot"]
    a0, b0 = state.model("a0"), state.model("b0")
    assert cells[1].odds == cn.attack_odds("shoot", a0.attacker(), KNIFE.weapon, b0.target())


def test_a_weapon_on_the_ground_is_stored_and_read_back():
    state = _resolved(_scene(), 18)
    assert codec.loads(codec.dumps(state)) == state
