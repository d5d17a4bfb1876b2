"""The Morale Phase in order, its results applied, fire, Demonic, Tremors, the round's end (no database)."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import morale, rounds, scenario_steps
from rules.cybernekro.battle.state import Phase, Refused, Status
from tests.rules.battle.helpers import Dice, settle, to_action


def at_morale(first="A", dread=None, **scenario):
    state = to_action(first=first)
    state = replace(state, scenario=replace(state.scenario, **{"environment": None, **scenario}))
    for model_id, d in (dread or {}).items():
        state = state.with_model(replace(state.model(model_id), dread=d))
    state = rounds.pass_turn(state, first)
    return rounds.pass_turn(state, state.active_seat)


def test_tests_start_with_the_active_player_and_alternate_one_character_at_a_time():
    state = at_morale("B", {"a0": 1, "a2": 2, "b1": 1})
    state = morale.begin_morale(state, "A", Dice(), 1)
    assert state.morale_queue == ("b1", "a0", "a2")
    with pytest.raises(Refused, match="next Morale Test is b1's"):
        morale.roll_morale(state, "A", "a0", 0, Dice(15), 1)


@pytest.mark.parametrize("seed", range(30))
def test_a_characters_tests_are_the_reference_engines_and_are_applied(seed):
    state = morale.begin_morale(at_morale("A", {"a0": 5}), "A", Dice(), 1)
    state = replace(state, models=tuple(replace(m, wounds=1) if m.id == "a0" else m for m in state.models))
    expected = cn.roll_morale(random.Random(seed), 1, 5, 1, 2)
    rng = random.Random(seed)
    after = settle(morale.roll_morale(state, "A", "a0", 2, rng, seed), rng, seed)
    model = after.model("a0")
    assert model.dread == expected.dread_left
    assert model.npc == expected.becomes_npc
    tests = [e for e in after.log if e.rolls and e.rolls[0]["what"] == "morale"]
    assert [(e.rolls[0]["d20"], e.rolls[0]["modifier"], e.rolls[0]["outcome"]) for e in tests] == [
        ([face], modifier, outcome) for face, modifier, outcome in expected.tests
    ]
    assert all(e.seed == seed for e in tests) and "rolled 5 Morale Test(s)" in after.log[-1].text
    if expected.flees:
        assert f"{expected.flees} Flee move" in after.log[-1].text


def test_four_dread_left_turns_the_character_into_a_hostile_npc_that_drops_its_treasure():
    state = morale.begin_morale(at_morale("A", {"a0": 4}), "A", Dice(), 1)
    state = state.with_model(replace(state.model("a0"), treasure=1, prone=True))
    dice = Dice(2, 2, 2, 2)
    after = settle(morale.roll_morale(state, "A", "a0", 0, dice, 1), dice)  # four failures: 4 Dread left
    model = after.model("a0")
    assert model.npc and model.dread == 4 and not model.prone and model.treasure == 0
    assert after.scenario.treasure_on_table == 1
    assert "three" not in after.log[-1].text and "3 Flee move" in after.log[-1].text
    assert model in after.enemies_of(after.model("a1"))  # hostile to its own crew now


def test_critical_removes_two_dread_and_fumble_adds_one():
    state = morale.begin_morale(at_morale("A", {"a0": 3}), "A", Dice(), 1)
    dice = Dice(20, 1, 15)
    after = settle(morale.roll_morale(state, "A", "a0", 0, dice, 1), dice)  # 3 -> 1 -> 2 -> 1
    assert after.model("a0").dread == 1


def test_allies_in_los_are_limited_to_allies_on_the_table_and_inspiring_lends_discipline():
    state = morale.begin_morale(at_morale("A", {"a0": 1}), "A", Dice(), 1)
    with pytest.raises(Refused, match="only 2 allies"):
        morale.roll_morale(state, "A", "a0", 3, Dice(10), 1)
    with pytest.raises(Refused, match="not an Inspiring"):
        morale.roll_morale(state, "A", "a0", 0, Dice(10), 1, inspired_by="a1")
    state = state.with_model(replace(state.model("a1"), traits=frozenset({"inspiring"}), discipline=3))
    after = settle(morale.roll_morale(state, "A", "a0", 0, Dice(8), 1, inspired_by="a1"))  # 8 + 3 = 11
    assert after.model("a0").dread == 0


def test_hallucinogenic_pollen_tests_intellect_at_the_start_of_the_phase():
    state = at_morale("A", complication="hallucinogenic-pollen")
    state = state.with_model(replace(state.model("b2"), gear=frozenset({"gas-mask"})))
    faces = [2, 15, 15, 15, 15]  # a0 fails (2 + 1), the others pass; b2 is immune
    dice = Dice(*faces)
    after = settle(morale.begin_morale(state, "A", dice, 1), dice)
    assert after.model("a0").dread == 2 and after.morale_queue == ("a0",)


def test_fire_burns_at_the_end_of_the_morale_phase_demonic_heals_and_the_round_ends():
    state = morale.begin_morale(at_morale("A"), "A", Dice(), 1)
    state = state.with_model(replace(state.model("b0"), on_fire=True))
    state = state.with_model(replace(state.model("a1"), traits=frozenset({"demonic"}), wounds=2))
    with pytest.raises(Refused, match="every Morale Test"):
        morale.end_morale(replace(state, morale_queue=("a0",)), "A", Dice(), 1)
    dice = Dice(3, 5)  # Damage 1: 3+0 = Light; Tough it Out 5+1: fails (its window first)
    held = morale.end_morale(state, "A", dice, 1)
    assert held.pending[0].get("then") == "plain-hit" and held.model("b0").wounds == 0
    after = settle(held, dice)
    assert after.model("b0").wounds == 1 and after.model("b0").dread == 1
    assert after.model("a1").wounds == 1
    assert after.phase is Phase.ROUND_END
    nxt = scenario_steps.finish_round(after, "A")
    assert nxt.phase is Phase.ROUND_START and nxt.round == 1


def test_tremors_make_every_model_test_agility():
    state = morale.begin_morale(at_morale("A", environment="tremors"), "A", Dice(), 1)
    dice = Dice(1, 15, 15, 15, 15, 15)
    after = settle(morale.end_morale(state, "A", dice, 1), dice)
    assert after.model("a0").prone and not after.model("a1").prone


def test_quick_start_ends_after_six_rounds_with_the_most_terminals():
    state = morale.end_morale(morale.begin_morale(at_morale("A"), "A", Dice(), 1), "A", Dice(), 1)
    state = replace(
        state, round=6, scenario=replace(state.scenario, terminals=((1, "A"), (2, "B"), (3, "A"), (4, None), (5, None)))
    )
    done = scenario_steps.finish_round(state, "A")
    assert done.phase is Phase.ENDED and done.winner == ("A",)
    tied = scenario_steps.finish_round(
        replace(state, scenario=replace(state.scenario, terminals=((1, "A"), (2, "B")))), "A"
    )
    assert tied.winner == ()
    assert scenario_steps.finish_round(replace(state, round=5), "A").phase is Phase.ROUND_START


def test_the_summary_has_what_a_campaign_game_record_needs():
    state = to_action()
    state = state.with_model(replace(state.model("b0"), status=Status.DEAD))
    state = state.with_model(replace(state.model("b1"), status=Status.OUT_OF_ACTION))
    state = replace(state, scenario=replace(state.scenario, carried_off=(("A", 2, False, False),)))
    state = scenario_steps.end(state, "A", ("A",))
    s = scenario_steps.summary(state)
    a, b = s.sides
    assert s.winners == ("A",) and not s.draw
    assert a.treasure_carried_off == 2 and a.won
    assert b.dead == ("b0",) and b.out_of_action == ("b1",) and not b.won
    assert b.casualties == (
        {"character": "b0", "name": "b0", "outcome": "dead"},
        {"character": "b1", "name": "b1", "outcome": "ooa"},
    )
    assert a.casualties == () and s.complication is None
