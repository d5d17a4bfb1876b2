"""Hidden hands (change only the secret, compare what the others see), legal steps, the odds table."""

from dataclasses import replace
from fractions import Fraction

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, odds_table, rounds
from rules.cybernekro.battle.state import WeaponUse
from tests.rules.battle.helpers import model, new, to_action


def test_another_players_hand_and_every_decks_order_are_hidden():
    state = to_action()
    other = state.with_player(
        replace(
            state.player("B"),
            hand=tuple(reversed(state.player("B").hand))[:-1] + ("A♣",),
            deck=tuple(reversed(state.player("B").deck)),
        )
    )
    assert other.player("B").hand != state.player("B").hand
    assert legal.view_for(state, "A") == legal.view_for(other, "A")
    assert repr(legal.view_for(state, "A")) == repr(legal.view_for(other, "A"))
    assert legal.legal(state, "A") == legal.legal(other, "A")
    assert legal.view_for(state, "B").player("B").hand == state.player("B").hand
    assert legal.view_for(state, None).player("A").hand == ("face-down card",) * len(state.player("A").hand)


def test_a_face_down_numbered_card_is_hidden_from_the_others_until_the_roll():
    state = rounds.select_model(to_action(), "A", "a0")
    state = state.with_player(replace(state.player("A"), hand=("7♦", "3♥")))
    seven = actions.play_before_test(state, "A", "7♦", "a0")
    three = actions.play_before_test(state, "A", "3♥", "a0")
    assert repr(legal.view_for(seven, "B").pending) == repr(legal.view_for(three, "B").pending)
    assert seven.log[-1].text == three.log[-1].text
    assert legal.view_for(seven, "A").pending[0].get("card") == "7♦"
    armed7 = actions.answer_card(seven, "B")
    armed3 = actions.answer_card(three, "B")
    assert repr(legal.view_for(armed7, "B")) == repr(legal.view_for(armed3, "B"))
    assert legal.view_for(armed7, "A").armed == (("A", "a0", "7♦", 7),)


def test_legal_says_who_acts():
    state = to_action()
    assert legal.legal(state, "B") == ()
    assert legal.Option("pass_turn") in legal.legal(state, "A")
    state = rounds.select_model(state, "A", "a0")
    steps = {o.step for o in legal.legal(state, "A")}
    assert {"attack", "act", "push", "end_activation"} <= steps


def test_the_odds_table_is_the_engines_for_every_weapon_and_enemy():
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    cells = odds_table.weapon_odds(state, "a0")
    assert len(cells) == 3 * 3
    cell = next(c for c in cells if c.weapon == "pistol" and c.target == "b1")
    a0, b1 = state.model("a0"), state.model("b1")
    assert cell.odds == cn.attack_odds("shoot", a0.attacker(), a0.weapon("pistol").weapon, b1.target())
    assert sum(cell.odds.target.values()) == Fraction(1)


def test_the_odds_follow_the_complication_and_the_ticked_conditions():
    state = to_action()
    dark = replace(state, scenario=replace(state.scenario, environment="darkness"))
    clear = replace(state, scenario=replace(state.scenario, environment=None))
    pistol = lambda s, **kw: next(
        c
        for c in odds_table.weapon_odds(s, "a0", **kw)  # noqa: E731
        if c.weapon == "pistol" and c.target == "b0"
    )
    assert pistol(dark).odds.to_hit[cn.Outcome.SUCCESS] < pistol(clear).odds.to_hit[cn.Outcome.SUCCESS]
    covered = pistol(clear, situations={"b0": cn.Situation(cover=True)})
    assert covered.odds.to_hit[cn.Outcome.SUCCESS] == Fraction(6, 20)  # d20 + 1 - 4 >= 11: 14..19


def test_a_seven_by_seven_table():
    models = [model(f"a{i}", "A") for i in range(7)] + [model(f"b{i}", "B") for i in range(7)]
    big = WeaponUse(
        "chain-gun", "chain gun", cn.Weapon(3, 24, cn.Keywords.parse(["Auto 3", "Stagger", "Unwieldy"]), "chain-gun")
    )
    models[0] = replace(models[0], weapons=models[0].weapons + (big,))
    state = to_action(new(models))
    assert len(odds_table.weapon_odds(state, "a0")) == 4 * 7


def test_legal_offers_the_scenarios_steps():
    state = rounds.select_model(to_action(), "A", "a0")
    steps = [o for o in legal.legal(state, "A") if o.step in ("take_terminal", "leave_table")]
    assert legal.Option("take_terminal", (1,)) in steps and legal.Option("leave_table", ("a0",)) in steps
    lobotomised = state.with_model(replace(state.model("a0"), traits=frozenset({"lobotomised"})))
    assert not any(o.step == "take_terminal" for o in legal.legal(lobotomised, "A"))


def test_the_odds_account_for_the_card_played_and_never_for_a_hidden_one():
    from rules.cybernekro.battle import actions

    state = rounds.select_model(to_action(), "A", "a0")
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_player(replace(state.player("A"), hand=("A♥", "5♦")))
    state = state.with_player(replace(state.player("B"), hand=("9♠",)))
    cell = lambda s, seat: (
        next(
            c
            for c in odds_table.weapon_odds(s, "a0", seat=seat)  # noqa: E731
            if c.weapon == "pistol" and c.target == "b0"
        ).odds
    )
    plain = cell(state, "A")
    ace = actions.answer_card(actions.play_before_test(state, "A", "A♥", "a0"), "B")
    assert cell(ace, "A").to_hit[cn.Outcome.SUCCESS] == 1 and cell(ace, "B").to_hit[cn.Outcome.SUCCESS] == 1
    assert cell(ace, "A").target[cn.TargetState.UNHARMED] < plain.target[cn.TargetState.UNHARMED]
    five = actions.answer_card(actions.play_before_test(state, "A", "5♦", "a0"), "B")
    assert cell(five, "A").to_hit[cn.Outcome.SUCCESS] == plain.to_hit[cn.Outcome.SUCCESS] + Fraction(5, 20)
    assert cell(five, "B") == plain  # Bob does not know the face-down card
    minus = actions.answer_card(actions.play_before_test(state, "B", "9♠", "a0", sign=-1), "A")
    assert cell(minus, "A") == plain and cell(minus, "B").to_hit[cn.Outcome.SUCCESS] < plain.to_hit[cn.Outcome.SUCCESS]
