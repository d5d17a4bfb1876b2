"""The scenario drawn for a battle, a campaign's own scenario played with the general rules, the game master."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro.battle import actions, legal, npcs, rounds, scenario_steps, setup
from rules.cybernekro.battle.state import GM, Phase, Refused, undo
from tests.rules.battle.helpers import Dice, crews, to_action


def test_the_scenario_draw_is_seeded_and_a_d12_never_gives_a_king():
    assert setup.draw_scenario(random.Random(7), "deck") == setup.draw_scenario(random.Random(7), "deck")
    d12 = {setup.draw_scenario(random.Random(s), "d12").card.number for s in range(300)}
    assert d12 == set(range(1, 13))  # 1 = Ace ... 11 = Jack, 12 = Queen: never 13, the King
    deck = {setup.draw_scenario(random.Random(s), "deck").card for s in range(2000)}
    assert {c.number for c in deck} == set(range(1, 14)) and len({c.label for c in deck}) == 52
    queen = next(s for s in range(100) if setup.draw_scenario(random.Random(s), "d12").card.number == 12)
    assert setup.draw_scenario(random.Random(queen), "d12").card.label == "D12: 12 (Queen)"
    labels = {setup.draw_scenario(random.Random(s), "d12").card.label for s in range(300)}
    assert {"D12: 1 (Ace)", "D12: 2", "D12: 10", "D12: 11 (Jack)"} <= labels  # a plain number stands for itself
    with pytest.raises(ValueError):
        setup.draw_scenario(random.Random(1), "coin")


def test_the_card_gives_the_campaign_scenario_the_organiser_put_on_it_else_none():
    seed = next(s for s in range(200) if setup.draw_scenario(random.Random(s), "d12").card.number == 5)
    on_five = setup.draw_scenario(random.Random(seed), "d12", {5: "campaign:9", 13: "campaign:3"})
    assert on_five.card.number == 5 and on_five.on_card == "campaign:9"
    assert setup.draw_scenario(random.Random(seed), "d12", {6: "campaign:9"}).on_card is None
    assert setup.draw_scenario(random.Random(seed), "d12").on_card is None  # the free rules put none on a card


def _own(draws_complication=False, drawn=None, game_master=False):
    return setup.new_battle(
        [("A", "Ann"), ("B", "Bob")],
        crews(),
        setup.OwnScenario("Data heist", draws_complication),
        random.Random(1),
        1,
        drawn=drawn,
        draw_seed=44,
        game_master=game_master,
    )


def test_the_draw_and_its_seed_open_the_battle_log():
    card = setup.draw_scenario(random.Random(44), "deck")
    state = _own(drawn=card)
    first = state.log[0]
    assert first.seed == 44 and first.final and card.card.label in first.text and "not in the free rules" in first.text
    assert "Data heist" in first.text and state.log[1].text.startswith("Battle set up: Data heist")
    found = _own(drawn=replace(card, on_card="campaign:1"))
    assert f"{card.card.label}: it gives Data heist" in found.log[0].text


def test_a_campaign_scenario_runs_the_general_rules_with_no_scenario_steps():
    state = _own()
    assert state.scenario.campaign and state.scenario.rounds is None and not state.scenario.terminals
    assert legal.legal(state, "A") == (legal.Option("deployment_initiative"),)  # no complication asked for
    playing = rounds.select_model(to_action(state), "A", "a0")
    steps = {o.step for o in legal.legal(playing, "A")}
    assert not steps & {"take_terminal", "explore", "open_prison", "perform_ritual", "corpse_check"}
    assert {"attack", "act", "leave_table"} <= steps
    ended = scenario_steps.concede_end(scenario_steps.concede_end(playing, "A"), "B")
    assert ended.phase is Phase.ENDED and ended.winner == () and "the players decide who won" in ended.log[-1].text
    assert not scenario_steps.summary(ended).draw  # not a draw: the players record the winner


def test_a_campaign_scenario_draws_its_complication_when_its_organiser_said_so():
    state = _own(draws_complication=True)
    assert legal.legal(state, "A") == (legal.Option("draw_complication"),)
    with pytest.raises(Refused, match="complication first"):
        setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, Dice(1, 2), 1)
    assert setup.draw_complication(state, "A", random.Random(3), 3).scenario.complication
    with pytest.raises(Refused, match="does not call"):
        setup.draw_complication(_own(), "A", random.Random(3), 3)


def _npc_phase(game_master):
    state = replace(to_action(), game_master=game_master)
    state = npcs.place_npc(state, "A", "flesh-drones")
    return rounds.pass_turn(rounds.pass_turn(state, "A"), "B"), state.models[-1].id


def test_without_a_game_master_the_players_decide_the_npcs_actions():
    state, drone = _npc_phase(False)
    assert legal.legal(state, "A") == (legal.Option("activate_npc", (drone,)),)
    assert legal.legal(state, GM) == ()
    with pytest.raises(Refused, match="game master"):
        npcs.activate_npc(state, GM, drone)


def test_with_a_game_master_only_the_game_master_decides_the_npcs_actions_and_rolls_their_attacks():
    state, drone = _npc_phase(True)
    assert legal.legal(state, "A") == () and legal.legal(state, "B") == ()
    assert legal.legal(state, GM) == (legal.Option("activate_npc", (drone,)),)
    with pytest.raises(Refused, match="game master"):
        npcs.activate_npc(state, "A", drone)
    state = npcs.activate_npc(state, GM, drone)
    with pytest.raises(Refused, match="game master"):
        npcs.npc_action(state, "A", "move")
    state = npcs.npc_action(state, GM, "move")
    assert legal.Option("attack", ("melee-attack", "a0")) in legal.legal(state, GM) and legal.legal(state, "B") == ()
    with pytest.raises(Refused, match="game master"):
        actions.attack(state, "B", "melee-attack", "a0", Dice(15), 1)
    state = actions.attack(state, GM, "melee-attack", "a0", Dice(15), 1)
    assert legal.legal(state, GM) == (legal.Option("resolve_attack"),)
    state = actions.resolve_attack(state, GM, Dice(1, 1, 15), 1)
    assert drone in state.npcs_done and legal.legal(state, GM) == (legal.Option("end_npc_phase"),)
    assert npcs.end_npc_phase(state, GM).phase is Phase.MORALE


def test_a_npc_missed_by_a_player_reacts_by_the_game_masters_hand():
    state, drone = _npc_phase(True)
    state = replace(state, phase=Phase.ACTION, active_seat="A", active_model="a0", npcs_done=frozenset())
    state = actions.attack(state, "A", "sword", drone, Dice(1), 1)  # a Fumble: missed
    state = actions.resolve_attack(state, "A", Dice(), 1)
    reaction = state.pending[0]
    assert reaction.kind == "reaction" and reaction.seat == GM and reaction.model == drone
    assert legal.legal(state, GM) == (legal.Option("react", (drone,)),) and legal.legal(state, "A") == ()


def test_the_game_master_may_undo_any_step_a_player_may_undo_only_their_own():
    state = replace(to_action(), game_master=True)
    moved = rounds.select_model(state, "A", "a0")
    with pytest.raises(Refused, match="game master"):
        undo(moved, "B")
    assert undo(moved, GM).active_model is None
    with pytest.raises(Refused):
        undo(rounds.select_model(replace(state, game_master=False), "A", "a0"), GM)


def test_the_game_master_sees_no_hand():
    state = replace(to_action(), game_master=True)
    view = legal.view_for(state, GM)
    assert all(set(p.hand) <= {"face-down card"} for p in view.players)
    other = state.with_player(replace(state.player("A"), hand=tuple(reversed(state.player("A").hand))))
    assert legal.view_for(other, GM) == view


def test_the_game_ends_now_only_once_every_player_asks_or_the_game_master_ends_it():
    """B67: "End the game now" by one player ended it for all: a player losing a campaign game could make it a
    draw. Now it ends once every player has asked; any player may answer "play on"; the game master, the
    table's referee, ends it alone."""
    from rules.cybernekro.battle.state import undoable_by

    playing = to_action()
    asked = scenario_steps.concede_end(playing, "A")
    assert asked.phase is Phase.ACTION and asked.end_asked == ("A",)
    assert scenario_steps.end_waits_for(asked) == ("B",) and "ends once Bob agrees" in asked.log[-1].text
    assert undoable_by(asked, "A")  # the asker may take it back
    with pytest.raises(Refused, match="you asked already"):
        scenario_steps.concede_end(asked, "A")
    on = scenario_steps.play_on(asked, "B")
    assert on.phase is Phase.ACTION and on.end_asked == () and "plays on" in on.log[-1].text
    with pytest.raises(Refused, match="nobody asked"):
        scenario_steps.play_on(on, "B")
    ended = scenario_steps.concede_end(asked, "B")
    assert ended.phase is Phase.ENDED and ended.end_asked == () and "The game ends" in ended.log[-1].text
    refereed = scenario_steps.concede_end(replace(playing, game_master=True), GM)
    assert refereed.phase is Phase.ENDED
