"""Kinesis (B59): "If the target was a model it will stop and drop Prone if moved into an obstacle or fall down if
moved over a ledge. If the target is a PC it can attempt a Strength test to resist this move but on failure it is
knocked prone in addition to being moved." No database."""

from dataclasses import replace

from rules.cybernekro.battle import actions, legal, npcs, rounds, sorcery
from tests.rules.battle.helpers import Dice, to_action
from tests.rules.battle.test_movement import _texts


def _casting(target="b0", state=None):
    state = state or to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("a0"), sorcerer=True, sorceries=("kinesis",), intellect=1))
    state = rounds.select_model(state, "A", "a0")
    return sorcery.cast(state, "A", "kinesis", Dice(15), 1, target_id=target)


def test_a_pc_that_fails_to_resist_is_knocked_prone_and_its_caster_says_what_it_met():
    cast = actions.resolve_test(_casting(), "A", Dice(2, 3), 1)  # the sorcery stands: D3 = 2; b0's test: a 3
    assert cast.pending[0].get("what") == "Kinesis: Strength" and cast.pending[0].get("outcome") == "failure"
    moved = actions.resolve_test(cast, "B", Dice(), 1)
    assert moved.model("b0").prone
    assert moved.pending[0].kind == "forced_move" and moved.pending[0].seat == "A"
    assert {o.args[0] for o in legal.legal(moved, "A")} == {"clear", "obstacle", "ledge"}
    fell = actions.forced_move_ends(moved, "A", "ledge", Dice(1, 1), 1, height=5)
    assert "b0's move (Kinesis) goes over a ledge" in _texts(fell)
    assert 'b0 falls 5": 2 Damage 1 hits, armor ignored' in _texts(fell)
    clear = actions.forced_move_ends(moved, "A", "clear", Dice(), 1)
    assert not clear.pending and "b0's move (Kinesis) goes where it was sent" in _texts(clear)


def test_a_pc_that_resists_is_not_moved():
    cast = actions.resolve_test(_casting(), "A", Dice(2, 19), 1)  # b0's Strength test: a 19
    resisted = actions.resolve_test(cast, "B", Dice(), 1)
    assert not resisted.pending and not resisted.model("b0").prone
    assert "b0 resists the move" in _texts(resisted)


def test_an_npc_is_moved_at_once_and_stops_prone_at_an_obstacle():
    state = npcs.place_npc(to_action(), "A", "tomb-bots")
    bot = state.models[-1]
    cast = actions.resolve_test(_casting(bot.id, state), "A", Dice(3), 1)  # no test for an NPC
    assert cast.pending[0].kind == "forced_move" and cast.pending[0].model == bot.id
    stopped = actions.forced_move_ends(cast, "A", "obstacle", Dice(), 1)
    assert stopped.model(
        bot.id
    ).prone and f"{bot.name}'s move (Kinesis) stops at an obstacle: it drops Prone" in _texts(stopped)
