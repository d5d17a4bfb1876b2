"""Setup, fate-card decks and draws, the round start, AP, turns (pure engine, no database)."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro.battle import fate, legal, rounds, setup
from rules.cybernekro.battle.state import Phase, Refused, undo
from tests.rules.battle.helpers import Dice, crews, even_split, model, new, to_action


def test_decks_are_red_and_black_with_one_joker_each():
    red, black = fate.new_deck("red"), fate.new_deck("black")
    assert len(red) == len(black) == 27
    assert {c[-1] for c in red if fate.kind(c) != "joker"} == {"♥", "♦"}
    assert {c[-1] for c in black if fate.kind(c) != "joker"} == {"♠", "♣"}
    assert [fate.kind(c) for c in red].count("joker") == 1
    state = new()
    assert sorted(state.player("A").deck) == sorted(red) and sorted(state.player("B").deck) == sorted(black)


def test_each_player_draws_three_plus_the_highest_intellect():
    models = crews(intellect=2) + [model("b9", "B", intellect=-1)]
    state = to_action(new(models))
    assert len(state.player("A").hand) == 3 + 2
    assert len(state.player("B").hand) == 3 + 0  # b0..b2 have Intellect 0, the highest
    assert fate.starting_hand_size([-2, -1]) == 2
    assert fate.starting_hand_size([-5]) == 0


def test_round_draws_one_card_for_two_models_left_and_two_for_one():
    assert [fate.round_draws(n) for n in (4, 3, 2, 1, 0)] == [0, 0, 1, 2, 0]


def test_an_empty_deck_reshuffles_the_discards_once_and_then_cannot_draw():
    player = new().player("A")
    player = replace(player, deck=("A♥",), hand=(), discard=("2♥", "3♥"))
    drawn_player, drawn, reshuffled = fate.draw(player, 4, random.Random(1))
    assert drawn == 3 and reshuffled
    assert sorted(drawn_player.hand) == ["2♥", "3♥", "A♥"] and drawn_player.deck == () and drawn_player.discard == ()
    again, drawn, _ = fate.draw(replace(drawn_player, discard=()), 1, random.Random(1))
    assert drawn == 0 and again.hand == drawn_player.hand


def test_initiative_is_d6_plus_intellect_and_a_tie_is_rolled_again():
    state = new()
    # a0 has Intellect 1, b0 0: 3+1 ties 4+0, then 2+1 beats 2+0
    after = setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, Dice(3, 4, 2, 2), 9)
    assert after.pending[0].kind == "choose_active" and after.pending[0].seat == "A"
    rolls = after.log[-1].rolls
    assert [r["total"] for r in rolls] == [4, 4, 3, 2] and after.log[-1].seed == 9
    with pytest.raises(Refused, match="Bob must choose"):
        setup.deployment_initiative(state, "A", {"A": "a0"}, Dice(1), 9)
    with pytest.raises(Refused, match="one of their characters"):
        setup.deployment_initiative(state, "A", {"A": "b1", "B": "b0"}, Dice(1, 1), 9)


def test_the_winner_chooses_the_active_player_and_only_the_winner():
    state = setup.deployment_initiative(new(), "A", {"A": "a0", "B": "b0"}, Dice(1, 6), 1)
    with pytest.raises(Refused, match="winner"):
        rounds.choose_active(state, "A", "A")
    state = rounds.choose_active(state, "B", "A")
    assert state.active_seat == "A"


def test_ap_split_is_checked_and_the_active_player_splits_first():
    models = [model(f"a{i}", "A") for i in range(4)] + [model(f"b{i}", "B") for i in range(4)]
    state = to_action(new(models), first="B")
    assert state.phase is Phase.ACTION
    state = new(models)
    rng = random.Random(3)
    state = setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, rng, 3)
    state = rounds.choose_active(state, state.pending[0].seat, "B")
    state = setup.deployed(state, "A", rng, 3)
    state = rounds.start_round(state, "A", {"A": "a0", "B": "b0"}, rng, 3)
    state = rounds.choose_active(state, state.pending[0].seat, "B")
    with pytest.raises(Refused, match="Active Player starts"):
        rounds.assign_ap(state, "A", {"a0": 3, "a1": 3, "a2": 3, "a3": 1}, rng, 3)
    with pytest.raises(Refused, match="between 1 and 3"):
        rounds.assign_ap(state, "B", {"b0": 4, "b1": 3, "b2": 2, "b3": 1}, rng, 3)
    with pytest.raises(Refused, match="b3 must get between 1 and 3 AP \\(not 0\\)"):
        rounds.assign_ap(state, "B", {"b0": 3, "b1": 3, "b2": 3}, rng, 3)
    with pytest.raises(Refused, match="exactly 10 AP \\(you gave 9\\)"):
        rounds.assign_ap(state, "B", {"b0": 3, "b1": 3, "b2": 2, "b3": 1}, rng, 3)
    state = rounds.assign_ap(state, "B", {"b0": 3, "b1": 3, "b2": 3, "b3": 1}, rng, 3)
    assert state.model("b3").ap == 1 and state.phase is Phase.AP


def test_bestial_may_take_four_ap_and_a_small_crew_places_what_its_caps_allow():
    models = [model("a0", "A", ap_cap=4), model("a1", "A"), model("a2", "A"), model("b0", "B"), model("b1", "B")]
    state = to_action(new(models), splits={"A": {"a0": 4, "a1": 3, "a2": 3}, "B": {"b0": 3, "b1": 3}})
    assert [state.model(i).ap for i in ("a0", "a1", "a2", "b0", "b1")] == [4, 3, 3, 3, 3]


def test_round_start_rolls_the_quick_start_environment_only_there():
    state = to_action()
    assert state.scenario.environment is not None
    assert any(r.get("what") == "environmental effect" for e in state.log for r in e.rolls)
    other = to_action(new(scenario="exploration"))
    assert other.scenario.environment is None


def test_round_start_draws_for_a_player_with_two_models_left():
    models = crews(3) + []
    models = [m for m in models if m.id not in ("b2",)]  # B fields two models
    state = to_action(new(models))
    assert len(state.player("B").hand) == 3 + 1
    assert len(state.player("A").hand) == 4


def test_players_alternate_and_a_player_with_no_ap_must_pass():
    state = to_action()
    state = rounds.select_model(state, "A", "a0")
    with pytest.raises(Refused, match="not your turn"):
        rounds.select_model(state, "B", "b0")
    state = rounds.end_activation(state, "A")
    assert state.active_seat == "B"
    state = rounds.pass_turn(state, "B")
    assert state.player("B").passed and state.active_seat == "A"
    state = rounds.pass_turn(state, "A")
    assert state.phase is Phase.MORALE


def test_undo_takes_back_a_step_without_dice_by_its_maker_only():
    state = to_action()
    selected = rounds.select_model(state, "A", "a0")
    with pytest.raises(Refused, match="only the player"):
        undo(selected, "B")
    back = undo(selected, "A")
    assert back.active_model is None and back.log[-1].text.startswith("undid")
    rolled = setup.deployment_initiative(new(), "A", {"A": "a0", "B": "b0"}, Dice(1, 6), 1)
    with pytest.raises(Refused, match="stays rolled"):
        undo(rolled, "A")


def test_sorceries_are_chosen_or_rolled_in_order_and_duplicates_rerolled():
    models = crews() + []
    models[0] = replace(models[0], sorcerer=True)
    models[3] = replace(models[3], sorcerer=True)
    state = new(models)
    state = setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, Dice(1, 6), 1)
    state = rounds.choose_active(state, "B", "B")
    state = setup.deployed(state, "B", random.Random(1), 1)
    assert state.phase is Phase.SORCERIES
    with pytest.raises(Refused, match="starting with the Active Player"):
        setup.choose_sorcery(state, "A", "a0", "heal")
    assert legal.legal(state, "A") == ()
    state = setup.roll_sorceries(state, "B", "b0", Dice(6, 6, 6, 19), 4)
    assert state.model("b0").sorceries == ("nightmares", "fry")
    assert state.log[-1].rolls[0]["d20"] == [6, 6, 6, 19]
    state = setup.choose_sorcery(state, "A", "a0", "heal")
    assert state.model("a0").sorceries == ("heal",) and state.phase is Phase.ROUND_START


def test_prisoner_imprisons_a_random_enemy_with_two_wounds_and_skips_its_intellect():
    models = crews(intellect=0)
    models[4] = replace(models[4], intellect=3)  # b1
    state = new(models, scenario="prisoner")
    rng = random.Random(5)
    state = setup.draw_complication(state, "A", rng, 5)
    state = setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, Dice(6, 1), 1)
    state = rounds.choose_active(state, "A", "A")
    state = setup.deployed(state, "A", _Pick(1), 1)
    assert state.model("b1").imprisoned and state.model("b1").wounds == 2
    assert state.scenario.kidnapper == "A"
    assert len(state.player("B").hand) == 3  # b1's Intellect 3 is not used
    with pytest.raises(Refused, match="one of their characters"):
        rounds.start_round(state, "A", {"A": "a0", "B": "b1"}, random.Random(2), 2)
    state = rounds.start_round(state, "A", {"A": "a0", "B": "b0"}, random.Random(2), 2)
    assert "b1" not in [m.id for m in rounds.ap_models(state, "B")]
    assert even_split(state, "B") == {"b0": 3, "b2": 3}


class _Pick(random.Random):
    def __init__(self, index):
        super().__init__(0)
        self.index = index

    def randrange(self, *args):
        return self.index


def test_a_complication_is_drawn_only_where_the_scenario_calls_for_one():
    with pytest.raises(Refused, match="does not call"):
        setup.draw_complication(new(), "A", random.Random(1), 1)
    state = setup.draw_complication(new(scenario="exploration"), "A", random.Random(1), 1)
    assert state.scenario.complication
    with pytest.raises(Refused, match="already"):
        setup.draw_complication(state, "A", random.Random(1), 1)
    with pytest.raises(Refused, match="complication first"):
        setup.deployment_initiative(new(scenario="exploration"), "A", {"A": "a0", "B": "b0"}, Dice(1, 2), 1)


def test_a_player_with_no_character_on_the_board_neither_rolls_initiative_nor_splits_ap():
    from rules.cybernekro.battle.state import Status

    state = to_action()
    for m in state.crew("B"):
        state = state.with_model(replace(m, status=Status.OUT_OF_ACTION))
    state = replace(state, phase=Phase.ROUND_START, pending=())
    state = rounds.start_round(state, "A", {"A": "a0"}, Dice(4), 1)  # only the environment's D6 is rolled
    assert state.pending[0].seat == "A" and "alone" in state.log[-1].text
    state = rounds.choose_active(state, "A", "A")
    state = rounds.assign_ap(state, "A", {"a0": 3, "a1": 3, "a2": 3}, Dice(), 1)
    assert state.phase is Phase.ACTION and state.active_seat == "A"
