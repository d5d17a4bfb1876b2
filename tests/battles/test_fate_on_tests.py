"""The battle page offers the fate cards on every test kind: the rolled test waits in a window, the card picker
(inside the hand, shown to its owner only) plays an Ace before, a Jack after; the hands stay hidden."""

from dataclasses import replace
from html import escape

import pytest

from battles import steps
from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, morale, rounds, sorcery
from rules.cybernekro.battle.state import Phase
from tests.clients import logged_in
from tests.rules.battle.helpers import Dice, rolled_tio

from .conftest import advance, load, post_step, put
from .test_views import _responses

pytestmark = pytest.mark.django_db

HANDS = {"0": ("A♥", "5♥", "J♥", "Joker (red)"), "1": ("A♠", "5♠", "J♠", "Joker (black)")}


def other(seat):
    return "1" if seat == "0" else "0"


@pytest.fixture
def table(started, user, other_user):
    """A battle in its Action Phase, both hands known, every environment calm."""
    battle = started()
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state = advance(battle, clients, lambda s: s.phase is Phase.ACTION and s.active_seat and not s.pending)
    state = replace(state, scenario=replace(state.scenario, environment=None))
    for seat, hand in HANDS.items():
        state = state.with_player(replace(state.player(seat), hand=hand))
    return battle, clients, state


def _acting(state, **changes):
    seat = state.active_seat
    mid = f"{seat}-0"
    state = state.with_model(replace(state.model(mid), **changes)) if changes else state
    return rounds.select_model(state, seat, mid), mid


def _at_morale(state, **scenario):
    state = replace(state, scenario=replace(state.scenario, **scenario))
    state = rounds.pass_turn(state, state.active_seat)
    return rounds.pass_turn(state, state.active_seat)


def moment(kind, state):
    """(the state just before the roll, the option that rolls it, its extra fields, the tested model, its then)."""
    if kind == "interact":
        state, mid = _acting(state)
        return state, "act:interact", {"test": "agility"}, mid, "act"
    if kind == "on fire":
        state, mid = _acting(state, on_fire=True)
        return state, "act:move", {}, mid, "on-fire"
    if kind == "terminal":
        state, mid = _acting(state)
        return state, "take_terminal:3", {}, mid, "scenario-interact"
    if kind == "pollen":
        state = _at_morale(state, complication="hallucinogenic-pollen")
        return state, "begin_morale", {}, "0-0", "pollen"
    if kind == "morale":
        state = state.with_model(replace(state.model("0-0"), dread=1))
        state = morale.begin_morale(_at_morale(state), "0", Dice(), 1)
        return state, "roll_morale:0-0", {"allies": 0}, "0-0", "morale"
    if kind == "tremors":
        state = morale.begin_morale(_at_morale(state, environment="tremors"), "0", Dice(), 1)
        return state, "end_morale", {}, "0-0", "tremors"
    raise AssertionError(kind)


KINDS = ["interact", "on fire", "terminal", "pollen", "morale", "tremors"]


def page(client, battle):
    return client.get(f"/battles/{battle.pk}/").content.decode()


def owner_of(state, mid):
    return state.model(mid).seat


@pytest.mark.parametrize("kind", KINDS)
def test_an_ace_from_the_hand_passes_the_test_and_the_window_waits_for_its_owner(table, kind):
    battle, clients, state = table
    state, option, extra, mid, then = moment(kind, state)
    put(battle, state)
    seat = owner_of(state, mid)
    ace = f"play_before_test:{HANDS[seat][0]}:{mid}"
    assert escape(ace) in page(clients[seat], battle)  # inside the hand's picker
    assert escape(HANDS[seat][0]) not in page(clients[other(seat)], battle)
    assert post_step(clients[seat], battle, ace).status_code == 200
    assert post_step(clients[other(seat)], battle, "answer_card").status_code == 200  # let it stand
    roller = next(s for s in ("0", "1") if option in {steps.key(o) for o in legal.legal(load(battle), s)})
    assert post_step(clients[roller], battle, option, **extra).status_code == 200
    after = load(battle)
    top = after.pending[0]
    assert top.kind == "test" and top.get("then") == then and top.model == mid and top.get("outcome") == "success"
    shown = page(clients[seat], battle)
    assert "fate cards may still change it" in shown and "Let the test stand" in shown
    assert "Let the test stand" not in page(clients[other(seat)], battle)
    assert post_step(clients[seat], battle, "resolve_test").status_code == 200
    assert any(e.text.endswith("stands: success") for e in load(battle).log)


@pytest.mark.parametrize("kind", KINDS)
def test_a_jack_from_the_hand_changes_a_rolled_test_before_it_stands(table, kind):
    battle, clients, state = table
    state, option, extra, mid, then = moment(kind, state)
    put(battle, state)
    seat = owner_of(state, mid)
    roller = next(s for s in ("0", "1") if option in {steps.key(o) for o in legal.legal(state, s)})
    assert post_step(clients[roller], battle, option, **extra).status_code == 200
    top = load(battle).pending[0]
    assert top.kind == "test" and top.get("then") == then and top.model == mid
    outcome = cn.Outcome(top.get("outcome"))
    into = {cn.Outcome.SUCCESS: "critical", cn.Outcome.FAILURE: "fumble"}.get(outcome)
    for s in ("0", "1"):
        jack = f"play_jack:{HANDS[s][2]}:{into}"
        assert (escape(jack) in page(clients[s], battle)) == (into is not None)
    assert into is not None, f"the seeded roll came up {outcome.value}: choose another moment"
    jacker = other(seat) if into == "fumble" else seat
    assert post_step(clients[jacker], battle, f"play_jack:{HANDS[jacker][2]}:{into}").status_code == 200
    assert post_step(clients[other(jacker)], battle, "answer_card").status_code == 200
    assert load(battle).pending[0].get("outcome") == into
    assert post_step(clients[seat], battle, "resolve_test").status_code == 200
    assert any(e.text.endswith(f"stands: {into}") for e in load(battle).log)


def test_a_tough_it_out_window_offers_the_cards_and_the_hand_stays_hidden(table):
    battle, clients, state = table
    state, mid = _acting(state)
    seat = state.active_seat
    target = next(m for m in state.models if m.seat == other(seat))
    state = state.with_model(replace(target, armor=0, toughness=0, traits=frozenset(), body_mods=frozenset()))
    weapon = state.model(mid).weapons[0].slug
    hit = actions.attack(state, seat, weapon, target.id, Dice(19), 1)
    assert hit.pending[0].get("outcome") == "success"
    put(battle, hit)
    assert escape(f"play_before_test:{HANDS[other(seat)][0]}:{target.id}") in page(clients[other(seat)], battle)
    planned = actions.plan(state, state.model(mid), weapon, state.model(target.id))[1].hit
    dice = [3] * planned.dice + [5]  # 3 a die: an injury Tough it Out can lessen; then its d20, a 5
    dice = Dice(*dice)
    rolled = rolled_tio(actions.resolve_attack(hit, seat, dice, 1), dice)  # its player chooses to roll (B42)
    top = rolled.pending[0]
    assert top.kind == "test" and top.get("then") == "hit" and top.model == target.id
    put(battle, rolled)
    before = _responses(clients[seat], battle)
    swapped = rolled.with_player(replace(rolled.player(other(seat)), hand=("2♠", "3♠", "4♠", "K♠")))
    put(battle, swapped)
    assert _responses(clients[seat], battle) == before  # only the hidden hand changed: nothing else shows
    put(battle, rolled)
    jack = f"play_jack:{HANDS[seat][2]}:fumble"
    assert escape(jack) in page(clients[seat], battle)
    assert post_step(clients[seat], battle, jack).status_code == 200
    assert post_step(clients[other(seat)], battle, "answer_card").status_code == 200
    assert post_step(clients[other(seat)], battle, "resolve_test").status_code == 200
    assert "tough it out stands: fumble" in " ".join(e.text for e in load(battle).log)


@pytest.mark.parametrize("kind", KINDS)
def test_no_page_or_poll_of_one_player_shows_the_others_hand_at_a_test(table, kind):
    battle, clients, state = table
    state, option, extra, mid, then = moment(kind, state)
    roller = next(s for s in ("0", "1") if option in {steps.key(o) for o in legal.legal(state, s)})
    put(battle, state)
    assert post_step(clients[roller], battle, option, **extra).status_code == 200
    rolled = load(battle)
    for seat in ("0", "1"):
        before = _responses(clients[seat], battle)
        mine = rolled.player(other(seat))
        put(battle, rolled.with_player(replace(mine, hand=("2♦", "3♦", "Q♦", "K♦"))))
        assert _responses(clients[seat], battle) == before, (kind, seat)
        put(battle, rolled)


def test_the_odds_of_the_next_tests_are_shown_and_count_the_ace(table):
    battle, clients, state = table
    state, option, extra, mid, then = moment("pollen", state)
    put(battle, state)
    shown = page(clients["0"], battle)
    assert "Next tests: odds before the roll" in shown and "pollen: Intellect" in shown
    assert post_step(clients["0"], battle, f"play_before_test:{HANDS['0'][0]}:0-0").status_code == 200
    assert post_step(clients["1"], battle, "answer_card").status_code == 200
    assert "with A♥: <strong>100%</strong>" in page(clients["1"], battle)


def test_a_bolts_tough_it_out_waits_on_the_page_named_by_its_hit_and_the_hand_stays_hidden(table):
    battle, clients, state = table
    state, mid = _acting(state)
    seat = state.active_seat
    state = state.with_model(replace(state.model(mid), sorcerer=True, sorceries=("bolt",), intellect=1))
    target = next(m for m in state.models if m.seat == other(seat))
    state = state.with_model(replace(target, armor=0, toughness=0, traits=frozenset(), body_mods=frozenset()))
    cast = sorcery.cast(state, seat, "bolt", Dice(15), 1, target_id=target.id)
    put(battle, cast)  # before the hit: its target's Tough it Out may take a card
    assert escape(f"play_before_test:{HANDS[other(seat)][0]}:{target.id}") in page(clients[other(seat)], battle)
    dice = Dice(3, 5)  # Damage 1: 3 Light; its player tries to Tough it Out (B42): 5 fails
    rolled = rolled_tio(actions.resolve_test(cast, seat, dice, 1), dice)
    top = rolled.pending[0]
    assert top.kind == "test" and top.model == target.id and top.seat == other(seat)
    put(battle, rolled)
    shown = page(clients[other(seat)], battle)
    assert "tough it out (Bolt)" in shown and "Let the test stand" in shown
    assert "Let the test stand" not in page(clients[seat], battle)
    for s in ("0", "1"):
        before = _responses(clients[s], battle)
        put(battle, rolled.with_player(replace(rolled.player(other(s)), hand=("2♦", "3♦", "Q♦", "K♦"))))
        assert _responses(clients[s], battle) == before, s
        put(battle, rolled)
    jack = f"play_jack:{HANDS[seat][2]}:fumble"
    assert escape(jack) in page(clients[seat], battle)
    assert post_step(clients[seat], battle, jack).status_code == 200
    assert post_step(clients[other(seat)], battle, "answer_card").status_code == 200
    assert post_step(clients[other(seat)], battle, "resolve_test").status_code == 200
    log = " ".join(e.text for e in load(battle).log)
    assert "tough it out (Bolt) stands: fumble" in log and "Bolt: " in log
