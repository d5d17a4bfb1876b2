"""Complications and keywords the battle applies beyond the attack's own inputs (no database)."""

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, rounds, setup
from rules.cybernekro.battle.state import WeaponUse
from tests.rules.battle.helpers import Dice, new, rolled_tio, settle


def at_ap(complication):
    state = new(scenario="exploration")
    state = replace(state, scenario=replace(state.scenario, complication=complication))
    rng = random.Random(1)
    state = setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, Dice(6, 1), 1)
    state = rounds.choose_active(state, "A", "A")
    state = setup.deployed(state, "A", rng, 1)
    state = rounds.start_round(state, "A", {"A": "a0", "B": "b0"}, Dice(6, 1), 1)
    return rounds.choose_active(state, "A", "A")


def in_action(complication):
    state = at_ap(complication)
    state = rounds.assign_ap(state, "A", {"a0": 3, "a1": 3, "a2": 3}, Dice(), 1)
    state = rounds.assign_ap(state, "B", {"b0": 3, "b1": 3, "b2": 3}, Dice(), 1)
    return rounds.select_model(state, "A", "a0")


def test_extreme_temperature_caps_ap_at_two_unless_a_toughness_test_is_passed():
    state = at_ap("extreme-temperature")
    split = rounds.assign_ap(state, "A", {"a0": 3, "a1": 3, "a2": 3}, Dice(10), 1)  # Toughness 0
    window = split.pending[0]  # each test held open for the cards (B36), one model at a time
    assert window.kind == "test" and window.model == "a0" and window.get("next") == "a1"
    assert split.model("a0").ap == 3  # nothing applied while the cards may change it
    after = settle(split, Dice(11, 2))
    assert [after.model(i).ap for i in ("a0", "a1", "a2")] == [2, 3, 2]
    assert sum(len(e.rolls) for e in after.log if "extreme temperature" in e.text) == 3
    plain = rounds.assign_ap(at_ap("no-complication"), "A", {"a0": 3, "a1": 3, "a2": 3}, Dice(), 1)
    assert [plain.model(i).ap for i in ("a0", "a1", "a2")] == [3, 3, 3]


def test_firebug_swarms_set_a_model_ending_its_activation_with_ap_on_fire():
    state = in_action("firebug-swarms")
    ended = rounds.end_activation(state, "A")
    assert ended.model("a0").on_fire
    calm = rounds.end_activation(in_action("no-complication"), "A")
    assert not calm.model("a0").on_fire


def test_electric_discharges_hit_a_model_that_fumbles():
    state = in_action("electric-discharges")
    fumbled = actions.attack(state, "A", "pistol", "b0", Dice(1), 1)  # a Fumble, held open for the cards
    assert fumbled.pending[0].kind == "to_hit" and fumbled.model("a0").wounds == 0
    dice = Dice(3, 15)  # it stands: Damage 1: 3 Light; its player tries to Tough it Out (B42): 15
    shocked = rolled_tio(actions.resolve_attack(fumbled, "A", dice, 1), dice)
    top = shocked.pending[0]  # the discharge's Tough it Out waits for the cards like any hit's
    assert top.kind == "test" and top.model == "a0" and top.get("what") == "tough it out (electric discharge)"
    assert not any("missed" in e.text for e in shocked.log)  # the fumbled shot's own effects follow it
    calm = settle(shocked)  # Tough it Out passed: the Light Injury is cancelled
    assert calm.model("a0").wounds == 0
    discharge = next(e for e in calm.log if e.text.startswith("Electric discharge"))
    assert discharge.rolls[0]["what"] == "damage"
    assert "missed" in calm.log[-1].text
    hurt = settle(actions.resolve_attack(fumbled, "A", Dice(3, 2), 1))
    assert hurt.model("a0").wounds == 1 and hurt.model("a0").dread == 1


def test_an_unstable_weapon_turns_a_fumble_on_its_user():
    gun = WeaponUse(
        "energy-pistol", "energy pistol", cn.Weapon(3, 10, cn.Keywords.parse(["Energy", "Unstable"]), "energy-pistol")
    )
    state = in_action("no-complication")
    state = state.with_model(replace(state.model("a0"), weapons=(gun,)))
    state = actions.attack(state, "A", "energy-pistol", "b0", Dice(1), 1)
    dice = Dice(5, 5, 2, 15)
    state = settle(actions.resolve_attack(state, "A", dice, 1), dice)  # 5+5 = 10 Critical; TiO 15: Serious
    assert state.model("a0").wounds == 1 and state.model("a0").prone
    assert state.model("b0").wounds == 0
