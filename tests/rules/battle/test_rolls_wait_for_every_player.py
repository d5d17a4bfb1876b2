"""B65: with ``hold_rolls`` a rolled test's window waits for every other player before its roller closes it.

Jack: "Play after an Attribute Test is rolled"; Dread: "any player (both the player controlling the
character and his enemy) may decide to force the dice to be re-rolled". On phones the roller's own tap
closed the window before the opponent had seen the roll; now every other player answers it first.
"""

import re
from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, codec, holds, legal, rounds
from rules.cybernekro.battle.state import GM, Player, Refused
from tests.rules.battle.helpers import FISTS, PISTOL, Script, to_action


def _hit_roll(hold=True, ann_hand=(), bob_hand=(), face=12, three=False):
    """Ann's a0 fights Bob's b0 with its fists: the hit roll's window is open (``three``: Cy sits in too)."""
    state = to_action()
    if three:
        state = replace(state, players=state.players + (Player("C", "Cy"),))
    state = replace(state, hold_rolls=hold, scenario=replace(state.scenario, environment=None))
    state = state.with_player(replace(state.player("A"), hand=tuple(ann_hand)))
    state = state.with_player(replace(state.player("B"), hand=tuple(bob_hand)))
    state = state.with_model(replace(state.model("b0"), weapons=(FISTS, PISTOL)))
    state = rounds.select_model(state, "A", "a0")
    state = actions.attack(state, "A", "fists", "b0", Script(face), 1)
    assert state.pending[0].kind == "to_hit" and state.pending[0].seat == "A"
    return state


def _closed(state):
    return not state.pending or state.pending[0].kind != "to_hit"


def test_the_roll_goes_on_once_both_players_let_it_stand_in_either_order():
    state = _hit_roll()
    assert legal.Option("let_stand") in legal.legal(state, "B")
    assert legal.Option("let_stand") not in legal.legal(state, "A")  # the roller closes it, it does not wait
    # the roller first: its word is kept, and the other player's answer closes the window
    said = actions.resolve_attack(state, "A", Script(6, 6), 1)
    assert not _closed(said) and said.pending[0].get("roller_done")
    assert "it closes once Bob has answered" in said.log[-1].text and not said.log[-1].final
    assert legal.Option("resolve_attack") not in legal.legal(said, "A")
    with pytest.raises(Refused, match="you let it stand already"):
        actions.resolve_attack(said, "A", Script(), 1)
    closed = actions.let_stand(said, "B", Script(6, 6), 1)
    assert _closed(closed) and any("damage" in str(r) for e in closed.log[-3:] for r in e.rolls)
    # the other player first: the roller's word then closes it at once
    stood = actions.let_stand(state, "B", Script(), 1)
    assert not _closed(stood) and stood.log[-1].seat == "B" and "lets" in stood.log[-1].text
    assert legal.Option("let_stand") not in legal.legal(stood, "B")
    with pytest.raises(Refused, match="no roll is waiting for you"):
        holds.let_stand(stood, "B")
    assert _closed(actions.resolve_attack(stood, "A", Script(6, 6), 1))


def test_without_the_hold_the_roller_closes_the_window_at_once():
    state = _hit_roll(hold=False)
    assert legal.Option("resolve_attack") in legal.legal(state, "A")
    assert legal.Option("let_stand") not in legal.legal(state, "B")
    with pytest.raises(Refused):
        holds.let_stand(state, "B")


def test_the_wait_tells_nobody_what_the_other_player_holds():
    """Only the secret changes (Bob's hand): what Ann may do and sees of the wait stays the same."""
    empty = _hit_roll(bob_hand=())
    jack = _hit_roll(bob_hand=("J♠", "5♠"))
    assert legal.legal(empty, "A") == legal.legal(jack, "A")
    assert holds.waiting_for(empty, empty.pending[0]) == holds.waiting_for(jack, jack.pending[0]) == ("B",)
    assert legal.Option("let_stand") in legal.legal(empty, "B")
    assert legal.Option("play_jack", ("J♠", "critical")) in legal.legal(jack, "B") or (
        legal.Option("play_jack", ("J♠", "fumble")) in legal.legal(jack, "B")
    )


def test_a_changed_roll_is_answered_again():
    """Bob let the roll stand; Ann's Jack makes it a Critical: Bob answers the new result before it stands."""
    state = _hit_roll(ann_hand=("J♥",), face=12)
    assert state.pending[0].get("outcome") == cn.Outcome.SUCCESS.value
    stood = holds.let_stand(state, "B")
    jacked = actions.answer_card(actions.play_jack(stood, "A", "J♥", "critical"), "B")
    assert jacked.pending[0].kind == "to_hit" and jacked.pending[0].get("outcome") == "critical"
    assert holds.waiting_for(jacked, jacked.pending[0]) == ("B",)
    assert not _closed(actions.resolve_attack(jacked, "A", Script(6, 6), 1))  # it waits for Bob's new answer


def test_a_changed_roll_takes_back_the_rollers_word_too():
    """Ann let it stand; Bob's Dread re-roll changes it: the window waits for Ann's word on the new result."""
    state = _hit_roll(face=12)
    state = state.with_model(replace(state.model("a0"), dread=2))
    said = actions.resolve_attack(state, "A", Script(), 1)
    rerolled = actions.reroll_with_dread(said, "B", Script(15), 1)
    assert not rerolled.pending[0].get("roller_done")
    assert legal.Option("resolve_attack") in legal.legal(rerolled, "A")
    assert not _closed(actions.let_stand(rerolled, "B", Script(), 1))  # Bob's answer alone closes nothing


def test_a_dread_re_roll_by_the_other_player_is_answered_again():
    state = _hit_roll(face=12)
    state = state.with_model(replace(state.model("a0"), dread=2))
    rerolled = actions.reroll_with_dread(holds.let_stand(state, "B"), "B", Script(15), 1)
    assert rerolled.pending[0].get("rerolled") and holds.waiting_for(rerolled, rerolled.pending[0]) == ("B",)
    assert legal.Option("reroll_with_dread") not in legal.legal(rerolled, "B")  # once only
    assert legal.Option("let_stand") in legal.legal(rerolled, "B")


def test_a_reaction_test_waits_for_the_attacker_too():
    state = _hit_roll(face=1)  # a miss: Bob's b0 may react
    state = actions.resolve_attack(holds.let_stand(state, "B"), "A", Script(), 1)
    assert state.pending[0].kind == "reaction"
    state = actions.react(state, "B", Script(15), 1)
    window = state.pending[0]
    assert window.kind == "test" and window.seat == "B"
    assert legal.Option("let_stand") in legal.legal(state, "A")
    said = actions.resolve_test(state, "B", Script(), 1)
    assert said.pending[0].kind == "test" and "once Ann has answered" in said.log[-1].text
    assert said.pending[:1] != actions.let_stand(said, "A", Script(), 1).pending[:1]  # Ann's answer closes it


def test_with_three_players_the_roll_waits_for_both_others():
    state = _hit_roll(three=True)
    assert holds.waiting_for(state, state.pending[0]) == ("B", "C")
    said = actions.resolve_attack(state, "A", Script(), 1)
    assert "once Bob and Cy has answered" not in said.log[-1].text and "Bob and Cy" in said.log[-1].text
    once = actions.let_stand(said, "C", Script(), 1)
    assert not _closed(once) and holds.waiting_for(once, once.pending[0]) == ("B",)
    assert _closed(actions.let_stand(once, "B", Script(6, 6), 1))


def test_any_player_or_the_game_master_switches_the_hold_and_the_log_says_who():
    state = _hit_roll()
    off = holds.hold_rolls(state, "B", False)
    assert not off.hold_rolls and off.log[-1].seat == "B" and "without waiting" in off.log[-1].text
    assert legal.Option("resolve_attack") in legal.legal(off, "A")  # the waiting roll may now close
    with pytest.raises(Refused):
        holds.hold_rolls(off, "A", False)
    on = holds.hold_rolls(replace(off, game_master=True), GM, True)
    assert on.hold_rolls and on.log[-1].text.startswith("The game master")


def test_the_hold_is_stored_and_an_older_battle_loads_without_it():
    state = _hit_roll()
    assert codec.loads(codec.dumps(state)).hold_rolls is True
    old = re.sub(r',"hold_rolls":(true|false)', "", codec.dumps(replace(state, hold_rolls=False)))
    assert '"hold_rolls"' not in old and codec.loads(old).hold_rolls is False


def test_the_last_answer_and_the_close_it_makes_are_one_step_its_players_to_undo():
    """A two-phone walk: the roller let a Morale Test stand, the other player's answer closed it (rolling
    nothing more), and the roller's "Undo" took back the close alone, leaving a window both players had
    answered and nobody could close. The answer and its close are one step, the answering player's."""
    from battles import steps
    from rules.cybernekro.battle import morale
    from rules.cybernekro.battle.state import undo, undoable_by
    from tests.rules.battle.helpers import Dice

    state = to_action(first="A")
    state = replace(state, hold_rolls=True, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("a0"), dread=1))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = morale.roll_morale(morale.begin_morale(state, "A", Dice(), 1), "A", "a0", 0, Dice(2), 1)
    assert state.pending[0].kind == "test" and state.pending[0].seat == "A"
    said = steps.run(state, "A", "resolve_test", {}, Dice(), 1)  # the roller's word first
    assert said.pending and said.pending[0].get("roller_done")
    closed = steps.run(said, "B", "let_stand", {}, Dice(), 1)  # the last answer closes it
    assert not closed.pending or closed.pending[0].kind != "test"
    assert "rolled 1 Morale Test(s)" in closed.log[-1].text
    assert not undoable_by(closed, "A")
    with pytest.raises(Refused, match="only the player who made the last step"):
        undo(closed, "A")
    assert undoable_by(closed, "B")
    back = steps.run(closed, "B", "undo", {}, Dice(), 1)
    assert back.pending[0].kind == "test" and back.pending[0].get("roller_done")
    assert legal.Option("let_stand") in legal.legal(back, "B")  # it waits for Bob's answer again
    # the engine's own let_stand makes it one step too, without the app's runner
    assert actions.let_stand(said, "B", Dice(), 1).previous.log == said.log


def test_the_jack_s_player_chose_the_new_result_so_their_card_is_their_answer():
    """A two-phone walk: Bob played J♣ on Ann's roll and was then asked to "let the roll stand" again. The
    Jack's player chose the result; only the others (here Ann, the roller) answer it."""
    state = _hit_roll(bob_hand=("J♣",), face=3)
    jacked = actions.answer_card(actions.play_jack(state, "B", "J♣", "fumble"), "A")
    assert jacked.pending[0].kind == "to_hit" and jacked.pending[0].get("outcome") == "fumble"
    assert holds.waiting_for(jacked, jacked.pending[0]) == ()
    assert legal.Option("let_stand") not in legal.legal(jacked, "B")
    assert _closed(actions.resolve_attack(jacked, "A", Script(), 1))  # Ann's word closes it at once
