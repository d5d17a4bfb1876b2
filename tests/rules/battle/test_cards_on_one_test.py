"""B62: every card played on one test applies (an Ace passes it; numbered cards add up), none waits for the next."""

import random
from dataclasses import replace
from fractions import Fraction

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, odds_table, rounds
from tests.rules.battle.helpers import to_action


def _hands(a, b):
    state = rounds.select_model(to_action(), "A", "a0")
    state = state.with_player(replace(state.player("A"), hand=a))
    return state.with_player(replace(state.player("B"), hand=b))


def _play(state, seat, card, sign=1):
    return actions.answer_card(
        actions.play_before_test(state, seat, card, "a0", sign=sign), "B" if seat == "A" else "A"
    )


def _shoot(state, seed=3):
    return actions.attack(state, "A", "pistol", "b0", random.Random(seed), seed)


def _hit_roll(state):
    return next(r for e in reversed(state.log) for r in e.rolls if r.get("what") == "to hit")


def test_two_numbered_cards_on_one_hit_roll_both_modify_it_and_are_both_spent():
    state = _play(_play(_hands(("5♦",), ("9♠",)), "A", "5♦"), "B", "9♠", sign=-1)
    alone = _play(_hands(("5♦",), ("9♠",)), "A", "5♦")
    shot, shot_alone = _shoot(state), _shoot(alone)
    roll, roll_alone = _hit_roll(shot), _hit_roll(shot_alone)
    assert roll["d20"] == roll_alone["d20"]  # the same die, only the cards differ
    assert roll["modifier"] == roll_alone["modifier"] - 9
    assert shot.armed == ()  # nothing waits for the model's next test
    assert "5♦" in shot.player("A").discard and "9♠" in shot.player("B").discard
    revealed = [e.text for e in shot.log if "face-down card on" in e.text]
    assert len(revealed) == 2 and any("9♠ (-9)" in t for t in revealed)


def test_an_ace_passes_the_test_and_a_numbered_card_beside_it_is_spent_unrolled():
    state = _play(_play(_hands(("A♥",), ("9♠",)), "B", "9♠", sign=-1), "A", "A♥")
    shot = _shoot(state)
    roll = _hit_roll(shot)
    assert roll["d20"] == [] and roll["outcome"] == "success"
    assert shot.armed == () and "9♠" in shot.player("B").discard
    assert shot.pending[0].get("outcome") == cn.Outcome.SUCCESS.value


def test_the_odds_add_the_cards_a_player_may_know_of():
    def hit(state, seat):
        cells = odds_table.weapon_odds(state, "a0", seat=seat)
        odds = next(c for c in cells if c.weapon == "pistol" and c.target == "b0").odds
        return odds.to_hit[cn.Outcome.SUCCESS] + odds.to_hit[cn.Outcome.CRITICAL]

    plain = _hands(("5♦", "3♥"), ("9♠",))
    both = _play(_play(plain, "A", "5♦"), "A", "3♥")
    five = _play(plain, "A", "5♦")
    assert hit(both, "A") == hit(five, "A") + Fraction(3, 20)
    hidden = _play(five, "B", "9♠", sign=-1)
    assert hit(hidden, "A") == hit(five, "A")  # Bob's face-down card is not Ada's to know
    assert hit(plain, "B") == Fraction(9, 20)
    assert hit(hidden, "B") == Fraction(1, 20)  # -9 leaves only the natural 20, always a hit


def test_a_damage_roll_is_logged_once():
    """The damage shown when its target chooses whether to Tough it Out is not logged again with the result."""
    state = _play(_hands(("A♥",), ()), "A", "A♥")  # the hit is sure
    state = actions.resolve_attack(_shoot(state), "A", random.Random(4), 4)
    while state.pending and state.pending[0].kind in ("tough_it_out", "test"):
        top = state.pending[0]
        state = (actions.take_it if top.kind == "tough_it_out" else actions.resolve_test)(
            state, top.seat, random.Random(4), 4
        )
    damage = [r for e in state.log for r in e.rolls if r.get("what") == "damage"]
    assert len(damage) == 1


def test_a_serious_injury_on_a_prone_target_says_it_takes_it_out():
    """ "Target is knocked Prone. If already Prone it is OoA": the choice's line says which it is."""
    from rules.cybernekro.battle.actions import _open_tough_choice
    from rules.cybernekro.battle.hits import HitTest

    state = _hands((), ())
    damage = {"what": "damage", "result": 7}
    paused = HitTest(cn.TestEvent("tough it out", 0), (("damage", damage),))
    for prone, words in ((False, "(Serious Injury)"), (True, "(Serious Injury: already Prone, so Out of Action)")):
        target = replace(state.model("b0"), prone=prone)
        opened = _open_tough_choice(state.with_model(target), "A", target, paused, "hit", "plain-hit", {}, 1)
        assert words in opened.log[-1].text
