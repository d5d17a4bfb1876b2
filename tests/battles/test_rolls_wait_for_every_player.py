"""B65 on the pages: the set-up form holds rolls by default, the other player's page offers "let the roll
stand", the roller's page says whom it waits for, and either player switches the hold (logged)."""

import html
import re

import pytest

from battles import steps
from battles.models import Battle, BattleEvent
from rules.cybernekro.battle import legal
from tests.campaigns.conftest import campaign, two_crews  # noqa: F401  (shared fixtures)
from tests.clients import logged_in

from .conftest import action_scene, load, post_step

pytestmark = pytest.mark.django_db


def _set_up(me, other_user, crew, **extra):
    r = me.post(
        "/battles/", {"scenario": "quick-start-scenario", "crew": crew.pk, "players": other_user.username, **extra}
    )
    assert r.status_code == 302
    return Battle.objects.get()


def test_the_set_up_form_ticks_the_hold_and_an_unticked_box_turns_it_off(user, other_user, geared_crew):
    me = logged_in(user)
    crew = geared_crew(user)
    page = me.get("/battles/").content.decode()
    box = re.search(r'<input[^>]*name="hold_rolls"[^>]*>', page).group(0)
    assert 'type="checkbox"' in box and " checked" in box  # on unless the creator unticks it
    assert _set_up(me, other_user, crew, hold_rolls="on").hold_rolls is True
    Battle.objects.all().delete()
    assert _set_up(me, other_user, crew).hold_rolls is False  # a browser posts no unticked box


def test_the_campaign_form_carries_the_hold_into_the_battle(campaign, two_crews, user):  # noqa: F811
    me = logged_in(user)
    r = me.post(f"/battles/campaign/{campaign.pk}/", {"scenario": "quick-start-scenario", "hold_rolls": "on"})
    assert r.status_code == 302
    assert Battle.objects.get().hold_rolls is True


def _held_hit_roll(user, other_user, geared_crew):
    """A started battle that holds rolls; the Active Player's first model has attacked: its window is open."""
    from battles import services

    me = logged_in(user)
    battle = _set_up(me, other_user, geared_crew(user, 3), hold_rolls="on")
    services.join(battle.pk, other_user, geared_crew(other_user, 3, name="Theirs").pk)
    services.start(battle.pk, user, seed=1)
    for index, u in enumerate((user, other_user)):
        services.choose_initiative(battle.pk, u, model=f"{index}-0")
    clients = {"0": me, "1": logged_in(other_user)}
    state, seat, mine, theirs = action_scene(battle, clients)
    post_step(clients[seat], battle, f"select_model:{mine}")
    attack = next(o for o in legal.legal(load(battle), seat) if o.step == "attack" and o.args[1] == theirs)
    r = post_step(clients[seat], battle, steps.key(attack))
    assert r.status_code == 200
    assert load(battle).pending[0].kind == "to_hit"
    other = "1" if seat == "0" else "0"
    return battle, clients[seat], clients[other], other


def test_the_roller_lets_it_stand_first_and_the_other_players_answer_closes_it(user, other_user, geared_crew):
    battle, roller, other, other_seat = _held_hit_roll(user, other_user, geared_crew)
    other_name = load(battle).player(other_seat).name
    hit = load(battle).pending[0].get("outcome") in ("success", "critical")
    mine = html.unescape(roller.get(f"/battles/{battle.pk}/").content.decode())
    assert f"and for {other_name} to answer the roll" in mine
    word = "Roll damage" if hit else "Let the miss stand"
    assert f"{word} (it goes on once {other_name} has answered)" in mine
    theirs = other.get(f"/battles/{battle.pk}/").content.decode()
    assert 'value="let_stand"' in theirs and "Let the roll stand (no card, no re-roll)" in theirs
    assert post_step(roller, battle, "resolve_attack").status_code == 200
    assert load(battle).pending[0].kind == "to_hit"  # still open: the other player has not answered
    mine = html.unescape(roller.get(f"/battles/{battle.pk}/").content.decode())
    assert f"You let the roll stand: it goes on once {other_name} has answered." in mine
    assert 'value="resolve_attack"' not in mine
    assert post_step(other, battle, "let_stand").status_code == 200
    assert not load(battle).pending or load(battle).pending[0].kind != "to_hit"  # closed by that answer


def test_either_player_switches_the_hold_and_the_log_says_who(user, other_user, geared_crew):
    battle, roller, other, other_seat = _held_hit_roll(user, other_user, geared_crew)
    page = other.get(f"/battles/{battle.pk}/").content.decode()
    assert "Rolls: each waits for every player" in page and 'value="hold_rolls:off"' in page
    assert post_step(other, battle, "hold_rolls:off").status_code == 200
    assert load(battle).hold_rolls is False
    name = load(battle).player(other_seat).name
    assert BattleEvent.objects.filter(battle=battle, text__startswith=f"{name}: from now on the roller closes").exists()
    page = roller.get(f"/battles/{battle.pk}/").content.decode()
    assert 'value="resolve_attack"' in page and 'value="hold_rolls:on"' in page
    assert post_step(roller, battle, "hold_rolls:off").status_code == 422  # already off: refused, said


def test_both_pages_show_the_hit_roll_and_the_rollers_moves_say_whom_it_waits_for(user, other_user, geared_crew):
    battle, roller, other, other_seat = _held_hit_roll(user, other_user, geared_crew)
    state = load(battle)
    window = state.pending[0]
    attacker, target = state.model(window.model), state.model(window.get("target"))
    shown = f"{attacker.name}'s hit roll ({attacker.weapon(window.get('weapon')).name} → {target.name})"
    for client in (roller, other):
        page = html.unescape(client.get(f"/battles/{battle.pk}/").content.decode())
        assert f"{shown}: <strong>{window.get('outcome')}</strong>" in page
    mine = html.unescape(roller.get(f"/battles/{battle.pk}/").content.decode())
    name = state.player(other_seat).name
    assert f"Waiting for {name} to answer the roll: let it stand now and it goes on with their answer." in mine
    assert "bt-held-mine" not in other.get(f"/battles/{battle.pk}/").content.decode()


def test_in_the_action_phase_the_other_player_is_told_whose_move_it_is(started, user, other_user):
    battle = started()
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state, seat, _, _ = action_scene(battle, clients)
    other = "1" if seat == "0" else "0"
    name = state.player(seat).name
    waiting = html.unescape(clients[other].get(f"/battles/{battle.pk}/").content.decode())
    assert f"Waiting for <strong>{name}</strong> to act or pass." in waiting
    assert "to act or pass." not in clients[seat].get(f"/battles/{battle.pk}/").content.decode()


def test_once_the_roller_has_said_the_status_line_names_only_who_still_answers(user, other_user, geared_crew):
    battle, roller, other, other_seat = _held_hit_roll(user, other_user, geared_crew)
    state = load(battle)
    roller_name, other_name = state.player(state.pending[0].seat).name, state.player(other_seat).name
    assert post_step(roller, battle, "resolve_attack").status_code == 200
    for client in (roller, other):
        page = html.unescape(client.get(f"/battles/{battle.pk}/").content.decode())
        assert f"Waiting for {other_name} to answer the roll" in page
        assert f"Waiting for <strong>{roller_name}</strong>" not in page


def test_while_a_player_splits_their_ap_the_other_is_told(started, user, other_user):
    from rules.cybernekro.battle.rounds import ap_order
    from rules.cybernekro.battle.state import Phase

    from .conftest import advance

    battle = started()
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state = advance(battle, clients, lambda s: s.phase is Phase.AP and len(ap_order(s)) == 2)
    splitting = ap_order(state)[0]
    waiting = "1" if splitting == "0" else "0"
    page = html.unescape(clients[waiting].get(f"/battles/{battle.pk}/").content.decode())
    assert f"Waiting for <strong>{state.player(splitting).name}</strong> to split their AP." in page
    assert "to split their AP." not in clients[splitting].get(f"/battles/{battle.pk}/").content.decode()
