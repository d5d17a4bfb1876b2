"""Departures from the rules text an audit found, each pinned by a test (no database)."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro.battle import actions, fate, legal, npcs, rounds, scenario_steps
from rules.cybernekro.battle.state import GM, Phase, Refused, Status
from tests.rules.battle.helpers import RIFLE, Dice, new, settle, to_action


def _prone_drone_acting():
    """The NPC Phase: a Prone Flesh Drone is activated."""
    state = npcs.place_npc(to_action(), "A", "flesh-drones")
    drone = state.models[-1].id
    state = state.with_model(replace(state.model(drone), prone=True))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    assert state.phase is Phase.NPCS
    return npcs.activate_npc(state, "B", drone), drone


def test_a_prone_npc_can_only_crawl_or_stand_up():
    """ "A prone model ... can only crawl or stand up": an NPC pays no AP but is as limited as any model."""
    state, drone = _prone_drone_acting()
    with pytest.raises(Refused, match="Prone"):
        actions.attack(state, "B", "melee-attack", "a0", Dice(15), 1)
    with pytest.raises(Refused, match="Prone"):
        actions.push(state, "B", "a0", Dice(6, 1), 1)
    with pytest.raises(Refused, match="Prone"):
        actions.act(state, "B", "interact", Dice(), 1)
    with pytest.raises(Refused, match="Prone"):
        npcs.npc_action(state, "B", "interact")
    offered = {o.step for o in legal.legal(state, "B")}
    assert "attack" not in offered and "push" not in offered
    assert legal.Option("act", ("get-up",)) in legal.legal(state, "B")
    up = actions.act(state, "B", "get-up", Dice(), 1)
    assert not up.model(drone).prone and up.npc_actions == 1
    assert legal.Option("attack", ("melee-attack", "a0")) in legal.legal(up, "B")
    assert actions.attack(up, "B", "melee-attack", "a0", Dice(15), 1).pending[0].kind == "to_hit"


def _rifle_shot(*faces):
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("a0"), weapons=(RIFLE,)))
    state = rounds.select_model(state, "A", "a0")
    return actions.attack(state, "A", "auto-rifle", "b0", Dice(*faces), 1)


def test_an_auto_roll_that_is_a_critical_and_a_fumble_hits_and_jams_the_weapon():
    """Auto X: "possible to score a Fumble and a Critical at the same time"; Shoot: "On a Fumble the weapon
    jams". The Critical hits (the odds engine's outcome), and the Fumble jams the weapon too."""
    shot = _rifle_shot(20, 1)
    assert shot.pending[0].get("outcome") == "critical"
    after = settle(actions.resolve_attack(shot, "A", Dice(1, 1), 1), Dice(15))
    assert after.model("b0").wounds >= 1  # the critical Wound: it hit
    assert after.model("a0").jammed == {"auto-rifle"}
    clean = settle(actions.resolve_attack(_rifle_shot(20, 5), "A", Dice(1, 1), 1), Dice(15))
    assert clean.model("b0").wounds >= 1 and not clean.model("a0").jammed  # no die fumbled: no jam


def test_a_rerolled_auto_hit_roll_jams_by_the_new_rolls_dice():
    shot = _rifle_shot(20, 5)
    assert not shot.pending[0].get("fumbled")
    shot = shot.with_model(replace(shot.model("a0"), dread=1))
    rerolled = actions.reroll_with_dread(shot, "B", Dice(1, 20), 1)  # a Critical again, with a die on a 1
    assert rerolled.pending[0].get("outcome") == "critical" and rerolled.pending[0].get("fumbled")
    after = settle(actions.resolve_attack(rerolled, "A", Dice(1, 1), 1), Dice(15))
    assert after.model("a0").jammed == {"auto-rifle"}


def test_a_prisoner_still_counts_as_a_model_on_the_table_for_the_round_start_draws():
    """ "draws one new card if they only have two models remaining on the table or two cards if they only have
    one": Prisoner bars an imprisoned model's Intellect from "Initiative and Fate Cards", but it is still on the
    table (the kidnapper wins "if at least one prisoner is still on the table")."""
    state = to_action(new(scenario="prisoner"))
    prisoner = next(m for m in state.models if m.imprisoned)
    free = [m for m in state.crew(prisoner.seat) if not m.imprisoned]
    state = state.with_model(replace(free[0], status=Status.OUT_OF_ACTION))  # one free model and the prisoner
    hand = len(state.player(prisoner.seat).hand)
    dealt = fate.deal_round(state, random.Random(1), 1)
    assert len(dealt.player(prisoner.seat).hand) == hand + 1  # two models on the table: one card
    assert "2 model(s) left" in dealt.log[-1].text


def _burning(model_id="a0"):
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    return state.with_model(replace(state.model(model_id), on_fire=True))


def test_a_passed_on_fire_test_ends_with_the_activation():
    """Being on Fire: "roll a Discipline test every time it attempts to take an action": a test passed and not
    used does not carry over to the model's next activation."""
    state = rounds.select_model(_burning(), "A", "a0")
    nerve = settle(actions.act(state, "A", "move", Dice(15), 1))
    assert nerve.model("a0").fire_nerve and nerve.active_model == "a0"
    ended = rounds.end_activation(nerve, "A")
    assert not ended.model("a0").fire_nerve
    ended = rounds.pass_turn(ended, "B") if ended.active_seat == "B" else ended
    again = actions.act(rounds.select_model(ended, "A", "a0"), "A", "move", Dice(3), 1)
    assert again.pending[0].get("then") == "on-fire"  # tested again


def test_a_passed_on_fire_test_ends_with_the_reaction():
    state = rounds.select_model(_burning("b0"), "A", "a0")
    state = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(2), 1), "A", Dice(), 1)
    assert state.pending[0].kind == "reaction"  # missed: b0 may react
    state = settle(actions.react(state, "B", Dice(15), 1))
    assert state.reaction == ("b0", 1)
    nerve = settle(actions.act(state, "B", "move", Dice(15), 1))
    assert nerve.model("b0").fire_nerve and nerve.reaction == ("b0", 1)
    assert not actions.end_reaction(nerve, "B").model("b0").fire_nerve


def test_a_passed_on_fire_test_does_not_outlast_the_round_or_the_fire():
    state = rounds.select_model(_burning(), "A", "a0")
    nerve = settle(actions.act(state, "A", "move", Dice(15), 1))
    stale = replace(nerve, phase=Phase.ROUND_START, active_model=None, pending=())
    started = rounds.start_round(stale, "A", {"A": "a0", "B": "b0"}, random.Random(2), 2)
    assert not started.model("a0").fire_nerve
    out = actions.put_out_fire(nerve, "A", "a0", Dice(), 1)  # the nerve takes this action: no test
    assert not out.model("a0").on_fire and not out.model("a0").fire_nerve


def test_a_failed_on_fire_test_flee_move_may_leave_the_table_at_a_board_edge():
    """Being on Fire: "On failure it makes a D6" long Flee move"; Flee move: "If the character was touching a
    board edge it leaves the board": right after the failed test, with no AP, outside the Morale Phase."""
    state = rounds.select_model(_burning(), "A", "a0")
    state = state.with_model(replace(state.model("a0"), treasure=1))
    burnt = settle(actions.act(state, "A", "move", Dice(2), 1), Dice(4))  # fails: a 4" Flee move
    assert burnt.phase is Phase.ACTION and burnt.model("a0").ap == 2 and burnt.active_model is None
    assert legal.Option("leave_table", ("a0", True)) in legal.legal(burnt, "A")
    gone = scenario_steps.leave_table(burnt, "A", "a0", fleeing=True)
    assert gone.model("a0").status is Status.LEFT
    assert gone.scenario.carried_off[-1] == ("A", 0, False, False)  # the token was dropped before the move
    assert gone.fled is None
    later = rounds.select_model(burnt, "B", "b0")  # another step first: the Flee move is behind
    assert legal.Option("leave_table", ("a0", True)) not in legal.legal(later, "A")
    with pytest.raises(Refused, match="no Flee move"):
        scenario_steps.leave_table(later, "A", "a0", fleeing=True)
    with pytest.raises(Refused, match="no Flee move"):
        scenario_steps.leave_table(state, "A", "a1", fleeing=True)


@pytest.mark.parametrize("game_master", [False, True])
def test_an_npc_may_react_to_a_move_and_always_does_when_eligible(game_master):
    """ "If Active Model performed a Move action and is now the closest enemy in LoS of an enemy model that
    model may react"; "When an NPC is eligible to perform a reaction they will always choose to react". The
    NPCs' window names the eligible NPC (or says none is): the game master's, else the player who moved."""
    state = npcs.place_npc(replace(to_action(), game_master=game_master), "A", "flesh-drones")
    drone = state.models[-1].id
    state = rounds.select_model(replace(state, scenario=replace(state.scenario, environment=None)), "A", "a0")
    moved = actions.act(state, "A", "move", Dice(), 1)
    windows = [p for p in moved.pending if p.kind == "reaction"]
    assert [p.seat for p in windows] == ["B", GM if game_master else "A"]
    moved = actions.decline_reaction(moved, "B")  # no model of B's is eligible
    decider = GM if game_master else "A"
    assert set(legal.legal(moved, decider)) == {legal.Option("react", (drone,)), legal.Option("decline_reaction")}
    with pytest.raises(Refused, match="not an NPC"):
        actions.react(moved, decider, Dice(15), 1, model_id="a1")
    assert actions.decline_reaction(moved, decider).log[-1].text == "No NPC may react"
    reacting = settle(actions.react(moved, decider, Dice(15), 1, model_id=drone))
    assert reacting.reaction == (drone, 1)
    hit = actions.attack(reacting, decider, "melee-attack", "a0", Dice(15), 1)
    assert hit.pending[0].kind == "to_hit" and hit.pending[0].seat == decider


def test_a_move_with_no_npc_on_the_table_opens_no_npc_window():
    state = rounds.select_model(to_action(), "A", "a0")
    moved = actions.act(state, "A", "move", Dice(), 1)
    assert [p.seat for p in moved.pending if p.kind == "reaction"] == ["B"]
