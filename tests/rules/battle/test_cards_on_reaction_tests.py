"""B64: a fate card may be played on a reaction's Agility test before it is rolled, as on any Attribute Test."""

from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, rounds
from tests.rules.battle.helpers import FISTS, PISTOL, SWORD, Script, to_action


def _missed():
    """Ann's a0 fights Bob's b0 and misses: Bob's reaction window is open."""
    state = rounds.select_model(to_action(), "A", "a0")
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_player(replace(state.player("A"), hand=("9♦", "A♥")))
    state = state.with_player(replace(state.player("B"), hand=("A♠", "4♠")))
    state = state.with_model(replace(state.model("b0"), weapons=(FISTS, PISTOL)))  # no Parry: a test to roll
    state = actions.attack(state, "A", "fists", "b0", Script(5), 1)
    state = actions.resolve_attack(state, "A", Script(), 1)
    assert state.pending[0].kind == "reaction" and state.pending[0].model == "b0"
    return state


def test_both_players_may_play_a_card_on_the_reaction_test():
    state = _missed()
    bob, ann = legal.legal(state, "B"), legal.legal(state, "A")
    assert legal.Option("react", ("b0",)) in bob and legal.Option("decline_reaction") in bob
    assert {legal.Option("play_before_test", ("A♠", "b0")), legal.Option("play_before_test", ("4♠", "b0"))} <= set(bob)
    assert legal.Option("play_before_test", ("9♦", "b0")) in ann  # a numbered card on any model
    assert legal.Option("play_before_test", ("A♥", "b0")) not in ann  # an Ace on one's own models only
    assert legal.Option("react", ("b0",)) not in ann


def test_the_card_changes_the_reaction_test_it_was_played_on():
    state = _missed()
    carded = actions.answer_card(actions.play_before_test(state, "A", "9♦", "b0", sign=-1), "B")
    assert carded.pending[0].kind == "reaction"  # the window is still Bob's to answer
    plain = actions.react(state, "B", Script(12), 1)
    minus = actions.react(carded, "B", Script(12), 1)
    rolled = lambda s: next(r for e in reversed(s.log) for r in e.rolls if r.get("what") == "reaction")  # noqa: E731
    assert rolled(minus)["d20"] == rolled(plain)["d20"] == [12]
    assert rolled(minus)["modifier"] == rolled(plain)["modifier"] - 9
    assert minus.armed == () and "9♦" in minus.player("A").discard


def test_parry_passes_the_reaction_test_so_no_card_waits_on_it():
    state = _missed()
    state = state.with_model(replace(state.model("b0"), weapons=(FISTS, SWORD)))
    state = replace(state, pending=(replace(state.pending[0], data=state.pending[0].data[:-1] + (("parry", True),)),))
    assert not [o for o in legal.legal(state, "B") if o.step == "play_before_test"]


def test_an_ace_passes_the_reaction_test_without_a_roll():
    state = _missed()
    aced = actions.answer_card(actions.play_before_test(state, "B", "A♠", "b0"), "A")
    reacted = actions.react(aced, "B", Script(1), 1)  # a 1 would fumble: no die is rolled
    roll = next(r for e in reversed(reacted.log) for r in e.rolls if r.get("what") == "reaction")
    assert roll["d20"] == [] and reacted.pending[0].get("outcome") == cn.Outcome.SUCCESS.value
