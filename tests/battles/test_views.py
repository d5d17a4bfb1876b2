"""Battle pages: who sees what, every refusal a clean 4xx, the poll, the hidden hands, query counts."""

import html
import re
from dataclasses import replace

import pytest
from django.core.cache import cache
from django.test import Client

from battles import board, roster, services, steps
from battles.models import Battle, BattleEvent
from crewbuilder.models.catalogue import current_system_version
from rules.cybernekro.battle import catalogue, codec, legal
from rules.cybernekro.battle.state import Phase
from tests.clients import logged_in

from .conftest import advance, post_step, put

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+')


def client_for(user, password=None):
    return logged_in(user)


def state(battle):
    battle.refresh_from_db()
    return codec.loads(battle.state)


def first_legal(battle, seat):
    return legal.legal(state(battle), seat)[0]


def test_other_users_battles_answer_404(started, make_user, password):
    battle = started()
    stranger = client_for(make_user("stranger"), password)
    assert stranger.get(f"/battles/{battle.pk}/").status_code == 404
    assert stranger.get(f"/battles/{battle.pk}/export.json").status_code == 404
    assert post_step(stranger, battle, "deployment_initiative").status_code == 404
    assert Battle.objects.get(pk=battle.pk).version == battle.version


def test_a_move_is_made_refused_or_stale_never_a_500(started, user, password):
    battle = started()
    me = client_for(user, password)
    ok = post_step(me, battle, steps.key(first_legal(battle, "0")))
    assert ok.status_code == 200 and ok["Vary"].count("HX-Request") == 1
    refused = post_step(me, battle, "pass_turn")
    assert refused.status_code == 422 and b"not open to you now" in refused.content
    old = battle.version
    battle.refresh_from_db()
    stale = me.post(f"/battles/{battle.pk}/act/", {"v": old - 1, "option": "undo"}, headers={"HX-Request": "true"})
    assert stale.status_code == 409 and b"moved on" in stale.content
    no_version = me.post(f"/battles/{battle.pk}/act/", {"option": "undo"}, headers={"HX-Request": "true"})
    assert no_version.status_code == 422
    assert Battle.objects.get(pk=battle.pk).version == battle.version  # refusals changed nothing


def test_the_ap_split_is_checked_by_the_engine(started, user, other_user, password):
    battle = started(seed=3)
    me, them = client_for(user, password), client_for(other_user, password)
    clients = {"0": me, "1": them}
    s = advance(battle, clients, lambda s: any(o.step == "assign_ap" for seat in s.seats for o in legal.legal(s, seat)))
    seat, option = next((seat, o) for seat in s.seats for o in legal.legal(s, seat) if o.step == "assign_ap")
    fields = {f"ap_{mid}": 3 for mid, _cap in option.args}
    fields[f"ap_{option.args[0][0]}"] = 4  # over the cap of 3
    r = post_step(clients[seat], battle, "assign_ap", **fields)
    assert r.status_code == 422 and b"between 1 and 3 AP" in r.content
    fields[f"ap_{option.args[0][0]}"] = 3
    assert post_step(clients[seat], battle, "assign_ap", **fields).status_code == 200
    assert all(m.ap == 3 for m in state(battle).crew(seat))


def test_a_poll_with_no_change_answers_204(started, user, password):
    battle = started()
    me = client_for(user, password)
    poll = me.get(f"/battles/{battle.pk}/?v={battle.version}", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and "HX-Request" in poll["Vary"]
    moved = me.get(f"/battles/{battle.pk}/?v={battle.version - 1}", headers={"HX-Request": "true"})
    assert moved.status_code == 200 and b'id="board"' in moved.content and b"<html" not in moved.content


def _poll_url(page: str) -> str:
    return html.unescape(re.search(r'id="board"[^>]*hx-get="([^"]+)"', page).group(1))


def test_the_board_polls_with_the_kits_token_and_an_unchanged_poll_costs_no_query(
    started, user, other_user, password, make_user, django_assert_num_queries, django_capture_on_commit_callbacks
):
    battle = started()
    me = client_for(user, password)
    url = _poll_url(me.get(f"/battles/{battle.pk}/").content.decode())
    assert re.fullmatch(rf"/battles/{battle.pk}/\?v={battle.version}&t=[\w.:-]+", url)
    assert me.get(url, headers={"HX-Request": "true"}).status_code == 204  # a version not yet cached: read once
    with django_assert_num_queries(0):
        poll = me.get(url, headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll.content == b"" and "HX-Request" in poll["Vary"]
    # the token is this session's: another user (not seated) gets the view's own 404, not a 204
    assert client_for(make_user("zed"), password).get(url, headers={"HX-Request": "true"}).status_code == 404
    # a move publishes the new version on commit: the same poll now redraws the board
    with django_capture_on_commit_callbacks(execute=True):
        services.share(battle.pk, user)
    changed = me.get(url, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and b'id="board"' in changed.content
    with django_assert_num_queries(0):
        assert me.get(_poll_url(changed.content.decode()), headers={"HX-Request": "true"}).status_code == 204


def _swap_hand(battle, seat):
    """Change only ``seat``'s hidden cards: swap its hand with the top of its deck (counts unchanged)."""
    s = state(battle)
    p = s.player(seat)
    n = len(p.hand)
    swapped = replace(p, hand=p.deck[:n], deck=p.hand + p.deck[n:])
    assert swapped.hand != p.hand
    battle.state = codec.dumps(s.with_player(swapped))
    battle.save(update_fields=["state"])
    cache.clear()  # an edit, not a move: same version, so the shared part is rebuilt from the new secret by hand


def _responses(client, battle):
    base = f"/battles/{battle.pk}/"
    out = [
        client.get(base),
        client.get(base, headers={"HX-Request": "true"}),
        client.get(f"{base}?v=0", headers={"HX-Request": "true"}),
        client.get(f"{base}export.json"),
    ]
    return [CSRF.sub(r"\1", r.content.decode()) for r in out]


def test_no_response_to_one_player_shows_another_players_hand(started, user, other_user, password):
    battle = started()
    me = client_for(user, password)
    advance(battle, {"0": me, "1": client_for(other_user, password)}, lambda s: s.player("1").hand)
    their_hand = state(battle).player("1").hand
    before = _responses(me, battle)
    _swap_hand(battle, "1")
    after = _responses(me, battle)
    assert before == after
    theirs = client_for(other_user, password).get(f"/battles/{battle.pk}/").content.decode()
    new_hand = state(battle).player("1").hand
    assert all(card in theirs for card in new_hand) and new_hand != their_hand  # the owner does see theirs


def _page_and_poll_queries(client, battle, django_assert_num_queries):
    cache.clear()  # the catalogue's current version left the shared cache too: the page reads it once
    with django_assert_num_queries(PAGE_QUERIES + 1):
        assert client.get(f"/battles/{battle.pk}/").status_code == 200
    cache.clear()  # this seat is the first to draw the version: it builds the shared part
    current_system_version(roster.SYSTEM)  # as the pages after the first in five minutes find it
    with django_assert_num_queries(PAGE_QUERIES):
        assert client.get(f"/battles/{battle.pk}/").status_code == 200
    with django_assert_num_queries(POLL_QUERIES):  # a poll after a change: the rest from the shared part
        assert client.get(f"/battles/{battle.pk}/?v=0", headers={"HX-Request": "true"}).status_code == 200
    with django_assert_num_queries(POLL_QUERIES):  # a poll without its token: the version from the cache too
        assert (
            client.get(f"/battles/{battle.pk}/?v={battle.version}", headers={"HX-Request": "true"}).status_code == 204
        )


# session (each page below comes after the cache was emptied), user, the battle (its campaign, scenario and game
# master joined), seats, the log's count and page (and the catalogue's current version when the shared cache has
# lost it: battles/roster.py); then none (the session and the user are in the cache again: auth_backend.py)
PAGE_QUERIES, POLL_QUERIES = 6, 0


@pytest.mark.parametrize("players,size,rounds", [(2, 3, 1), (4, 7, 1), (2, 3, 30), (4, 7, 30)])
def test_page_and_poll_queries_do_not_grow_with_characters_or_rounds(
    started, make_user, user, password, players, size, rounds, django_assert_num_queries
):
    others = [make_user(f"p{i}") for i in range(players - 1)]
    battle = started(size=size, players=[user, *others])
    last = BattleEvent.objects.filter(battle=battle).count()
    BattleEvent.objects.bulk_create(
        [
            BattleEvent(battle=battle, number=last + i + 1, round=i // 20 + 1, text=f"line {i}")
            for i in range(rounds * 20)
        ]
    )
    battle.refresh_from_db()
    _page_and_poll_queries(client_for(user, password), battle, django_assert_num_queries)


def test_the_log_is_paginated(started, user, password):
    battle = started()
    BattleEvent.objects.bulk_create([BattleEvent(battle=battle, number=100 + i, text=f"line {i}") for i in range(120)])
    page = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
    assert "line 119" in page and "line 60" not in page and "older</a>" in page


def test_creating_a_battle_needs_a_second_crew_and_known_players(user, password, geared_crew):
    crew = geared_crew(user)
    me = client_for(user, password)
    r = me.post("/battles/", {"scenario": "quick-start-scenario", "crew": crew.pk, "players": ""})
    assert r.status_code == 422 and b"at least two crews" in r.content
    r = me.post("/battles/", {"scenario": "quick-start-scenario", "crew": crew.pk, "players": "nobody"})
    assert r.status_code == 422 and b"no user called" in r.content
    r = me.post("/battles/", {"scenario": "no-such", "crew": crew.pk, "players": "x"})
    assert r.status_code == 422
    assert not Battle.objects.exists()


def test_a_crew_share_link_seats_its_owner_with_that_crew(user, other_user, password, geared_crew):
    mine, theirs = geared_crew(user), geared_crew(other_user, name="Shared")
    theirs.share_token = "tok-123"
    theirs.save()
    r = client_for(user, password).post(
        "/battles/", {"scenario": "exploration", "crew": mine.pk, "share_links": "http://192.168.1.5:8000/s/tok-123/"}
    )
    battle = Battle.objects.get()
    assert r.status_code == 302
    seat = battle.seats.get(user=other_user)
    assert seat.joined and seat.crew_name == "Shared"


def test_a_shared_battle_is_read_only_and_shows_no_hand(started, user, other_user, password):
    battle = started()
    me = client_for(user, password)
    advance(battle, {"0": me, "1": client_for(other_user, password)}, lambda s: s.player("0").hand)
    me.post(f"/battles/{battle.pk}/share/")
    battle.refresh_from_db()
    page = Client().get(f"/battles/shared/{battle.share_token}/").content.decode()
    assert battle.share_token and "Log" in page and "battle-act" not in page and "/act/" not in page
    assert not any(card in page for card in state(battle).player("0").hand)
    assert Client().get("/battles/shared/wrong/").status_code == 404


def test_each_player_chooses_their_own_initiative_character(user, other_user, password, geared_crew):
    mine, theirs = geared_crew(user), geared_crew(other_user)
    battle = services.create_battle(user, "quick-start-scenario", mine.pk, [other_user.username])
    services.join(battle.pk, other_user, theirs.pk)
    services.start(battle.pk, user, seed=1)
    me, them = client_for(user, password), client_for(other_user, password)
    battle.refresh_from_db()
    r = post_step(me, battle, "deployment_initiative")
    assert r.status_code == 422 and b"must choose a character for the Initiative Test" in r.content
    assert me.post(f"/battles/{battle.pk}/initiative/", {"model": "1-0"}).status_code == 302  # not mine: refused
    assert battle.seats.get(user=user).initiative == ""
    me.post(f"/battles/{battle.pk}/initiative/", {"model": "0-2"})
    them.post(f"/battles/{battle.pk}/initiative/", {"model": "1-1"})
    assert post_step(me, battle, "deployment_initiative").status_code == 200
    rolled = {r["seat"]: r["model"] for r in BattleEvent.objects.get(battle=battle, text__contains="Deployment").rolls}
    assert rolled == {"0": "0-2", "1": "1-1"}


def test_battles_are_a_game_of_the_registry_with_their_games_in_progress(started, user, password):
    battle = started()
    me = client_for(user, password)
    assert b'href="/battles/"' in me.get("/games/").content
    home = me.get("/").content.decode()
    assert f"/battles/{battle.pk}/" in home and "Cybernekr0" in home
    Battle.objects.filter(pk=battle.pk).update(status=Battle.FINISHED)
    assert f"/battles/{battle.pk}/" not in me.get("/").content.decode()


def test_undo_takes_back_a_step_that_rolled_nothing_but_never_a_roll(started, user, other_user, password):
    battle = started(seed=1)
    me, them = client_for(user, password), client_for(other_user, password)
    clients = {"0": me, "1": them}
    s = advance(battle, clients, lambda s: s.pending and s.pending[0].kind == "choose_active")
    chooser = s.pending[0].seat
    assert post_step(clients[chooser], battle, "undo").status_code == 422  # the Initiative roll stays rolled
    assert post_step(clients[chooser], battle, f"choose_active:{chooser}").status_code == 200
    other = "1" if chooser == "0" else "0"
    r = post_step(clients[other], battle, "undo")
    assert r.status_code == 422 and b"Only the player who made the last step" in r.content
    r = post_step(clients[chooser], battle, "undo")
    assert r.status_code == 200 and state(battle).pending[0].kind == "choose_active"
    texts = list(BattleEvent.objects.filter(battle=battle).order_by("number").values_list("text", flat=True))
    assert texts[-1].startswith("undid: ")
    assert not any(t.endswith("is the Active Player") for t in texts[:-1])  # the undone line is gone


def test_bad_inputs_of_a_legal_option_are_refused_with_a_message(started, user, other_user, password):
    battle = started()
    me, them = client_for(user, password), client_for(other_user, password)
    advance(battle, {"0": me, "1": them}, lambda s: s.active_model, prefer=("select_model",))
    s = state(battle)
    clients = {"0": me, "1": them}
    r = post_step(clients[s.active_seat], battle, "attack:sword:nobody")
    assert r.status_code == 422
    r = post_step(clients[s.active_seat], battle, "attack:sword:1-0", modifier="lots")
    assert r.status_code == 422


def test_a_sorcery_is_cast_on_the_models_the_players_name(user, other_user, password, geared_crew, make_crew):
    from tests.crewbuilder.conftest import LEGAL

    sorcerers = make_crew(
        user,
        name="Witches",
        characters=[{"name": f"Witch {i}", "attributes": dict(LEGAL), "traits": ["sorcerer"]} for i in range(3)],
    )
    battle = services.create_battle(user, "quick-start-scenario", sorcerers.pk, [other_user.username])
    services.join(battle.pk, other_user, geared_crew(other_user).pk)
    services.start(battle.pk, user, seed=2)
    for index, u in enumerate((user, other_user)):
        services.choose_initiative(battle.pk, u, model=f"{index}-0")
    me, them = client_for(user, password), client_for(other_user, password)
    clients = {"0": me, "1": them}
    s = advance(battle, clients, lambda s: s.phase.value == "sorceries")
    for mid in ("0-0", "0-1", "0-2"):
        s = advance(battle, clients, lambda s: legal.legal(s, "0"))
        assert post_step(me, battle, f"choose_sorcery:{mid}", sorcery="scream").status_code == 200
    s = advance(
        battle,
        clients,
        lambda s: s.active_seat == "0" and s.active_model and s.phase.value == "action",
        prefer=("select_model",),
    )
    r = post_step(me, battle, "cast:scream", targets=["1-1"])
    assert r.status_code == 200, r.content.decode()[:300]
    pending = state(battle).pending
    assert pending and dict(pending[0].data)["targets"] == ("1-1",)  # only the model the players named


def _active_player(battle, user, other_user, password):
    """The battle advanced to a model's action: its state and the client of the player who moves it."""
    me, them = client_for(user, password), client_for(other_user, password)
    s = advance(
        battle, {"0": me, "1": them}, lambda s: s.active_model and s.phase.value == "action", prefer=("select_model",)
    )
    return s, {"0": me, "1": them}[s.active_seat]


def test_the_odds_table_takes_the_conditions_ticked_and_the_attack_rolls_with_them(started, user, other_user, password):
    battle = started()
    s, player = _active_player(battle, user, other_user, password)
    url = f"/battles/{battle.pk}/"
    plain = player.get(url, headers={"HX-Request": "true"}).content.decode()
    covered = player.get(url + "?cover=1", headers={"HX-Request": "true"}).content.decode()
    odds = lambda page: page.split('id="odds-heading"')[1].split("</table>")[0]  # noqa: E731
    assert odds(plain) != odds(covered)
    assert 'id="cond-cover" type="checkbox" name="cover" value="1" checked' in covered
    # every way a target ends has its column: the Prone ones too (a Serious Injury wounds and knocks down)
    row = re.search(r"<tr><th scope=\"row\">[^<]*sword[^<]*</th>((?:<td>[^<]*</td>){5})</tr>", odds(plain))
    hit, wounded, prone, ooa, _ = [float(c.rstrip("%")) for c in re.findall(r"<td>([^<]*)</td>", row.group(1))]
    assert '<th scope="col">Prone</th>' in odds(plain) and prone > 0
    assert "Mean W: the Wounds the target gains from the attack, on average." in plain
    assert wounded + prone + ooa <= hit + 0.3  # harm needs a hit (a hit may harm nothing: Tough it Out)
    enemy = state(battle).enemies_of(state(battle).model(s.active_model))[0]
    assert post_step(player, battle, f"attack:sword:{enemy.id}", cover="1").status_code == 200
    assert dict(state(battle).pending[0].data)["situation"].cover is True


@pytest.mark.parametrize(("size", "total"), [(3, 9), (4, 10)])
def test_the_ap_split_asks_for_the_ap_the_models_can_take(started, user, password, size, total):
    """Three models of cap 3 take 9 AP: the form said "Split my 10 AP", and the engine refused 10."""
    battle = started(size=size)
    put(battle, replace(state(battle), phase=Phase.AP, round=1, first_seat="0", active_seat="0", pending=()))
    page = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
    assert f"<legend>Split {total} AP:" in page
    assert f">Split my {total} AP</button>" in page


def test_while_the_ap_is_split_the_other_steps_need_no_split(started, user, password):
    """End the game now was refused with "ap 0-0: This field is required." during the AP split."""
    battle = started()
    put(battle, replace(state(battle), phase=Phase.AP, round=1, first_seat="0", active_seat="0", pending=()))
    me = client_for(user, password)
    missing = post_step(me, battle, "assign_ap", **{"ap_0-0": "3", "ap_0-1": "3"})
    assert missing.status_code == 422
    assert "Give every model its AP (none given to" in html.unescape(missing.content.decode())
    assert post_step(me, battle, "concede_end").status_code == 200
    assert state(battle).phase is Phase.AP and state(battle).end_asked == ("0",)  # the other player still to agree


def test_a_player_who_may_only_play_a_fate_card_is_told_so(started, user, other_user, password):
    """Their "Your move" card was an empty heading while an attack's window waited on fate cards."""
    battle = started()
    s, player = _active_player(battle, user, other_user, password)
    enemy = state(battle).enemies_of(state(battle).model(s.active_model))[0]
    assert post_step(player, battle, f"attack:sword:{enemy.id}").status_code == 200
    other_seat = "1" if s.active_seat == "0" else "0"
    other = client_for(other_user if other_seat == "1" else user, password)
    # the hit landed, and the target's player holds two number cards that could turn it
    scene = state(battle)
    hit = replace(
        scene.pending[0], data=tuple((k, "success" if k == "outcome" else v) for k, v in scene.pending[0].data)
    )
    scene = replace(scene, pending=(hit, *scene.pending[1:]))
    put(battle, scene.with_player(replace(scene.player(other_seat), hand=("3♣", "6♣"))))
    open_steps = {o.step for o in steps.options(state(battle), other_seat)}
    assert open_steps and open_steps <= board.CARD_STEPS
    page = other.get(f"/battles/{battle.pk}/").content.decode()
    assert "You may play a fate card now" in page
    assert "You may play a fate card now" not in player.get(f"/battles/{battle.pk}/").content.decode()


def test_the_board_polls_with_the_conditions_only_while_they_are_shown(started, user, other_user, password):
    """An hx-include of a missing #conditions logged an htmx error on every poll of every phone."""
    battle = started()
    url = f"/battles/{battle.pk}/"
    before = client_for(user, password).get(url).content.decode()
    assert 'id="conditions"' not in before and 'hx-include="#conditions"' not in before
    s, player = _active_player(battle, user, other_user, password)
    during = player.get(url).content.decode()
    assert 'id="conditions"' in during and 'hx-include="#conditions"' in during


def test_in_darkness_the_players_tick_the_light_near_a_shot_and_the_attack_rolls_with_it(
    started, user, other_user, password
):
    """Lantern and spot light "within 3"" (E12b): a distance the players judge, so a tick, shown only while
    Darkness or Partial darkness is in play."""
    battle = started()
    s, player = _active_player(battle, user, other_user, password)
    url = f"/battles/{battle.pk}/"
    put(battle, replace(state(battle), scenario=replace(state(battle).scenario, environment=None, complication=None)))
    assert 'name="target_near_lantern"' not in player.get(url).content.decode()
    put(battle, replace(state(battle), scenario=replace(state(battle).scenario, environment="darkness")))
    page = player.get(url + "?target_near_lantern=1", headers={"HX-Request": "true"}).content.decode()
    assert 'name="target_near_lantern" value="1" checked' in page
    assert 'name="shooter_near_allied_spot_light" value="1">' in page
    enemy = state(battle).enemies_of(state(battle).model(s.active_model))[0]
    assert post_step(player, battle, f"attack:sword:{enemy.id}", target_near_lantern="1").status_code == 200
    situation = dict(state(battle).pending[0].data)["situation"]
    assert situation.target_near_lantern is True and situation.shooter_near_allied_spot_light is False


def test_the_board_names_the_phase_and_the_complication_as_the_rules_do(started, user, password):
    battle = started()
    s = state(battle)
    s = replace(s, scenario=replace(s.scenario, complication="extreme-temperature"))
    put(battle, s)
    page = html.unescape(client_for(user, password).get(f"/battles/{battle.pk}/").content.decode())
    assert "Complication: <strong>Extreme temperature</strong>" in page
    assert "extreme-temperature</p>" not in page
    # what it does, and the scenario's own rules, on the board (a new player never saw them)
    assert catalogue.entry("complications", "extreme-temperature")["text"] in page
    assert "<summary>The scenario's rules</summary>" in page
    assert html.unescape(catalogue.entry("scenarios", "quick-start-scenario")["text"]).splitlines()[0] in page
    put(battle, replace(s, scenario=replace(s.scenario, slug="exploration", rooms=6, explored=2)))
    page = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
    assert "Rooms explored: <strong>2 of 6</strong>" in page
    for phase, label in (("npcs", "NPCs"), ("morale", "Morale Phase"), ("action", "Action Phase")):
        put(battle, replace(s, phase=Phase(phase)))
        page = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
        assert f"Phase: <strong>{label}</strong>" in page


def test_a_reactions_attack_buttons_name_the_reacting_models_weapons():
    """The Active Model carries a sword, the model reacting a rifle: its buttons are the rifle's (a reacting model's
    weapon looked up on the Active Model was a 500 on every successful reaction)."""
    from rules.cybernekro.battle import actions, rounds
    from tests.rules.battle.helpers import RIFLE, SWORD, to_action

    state = to_action()
    state = state.with_model(replace(state.model("a0"), weapons=(SWORD,)))
    state = state.with_model(replace(state.model("b0"), weapons=(RIFLE,)))
    state = rounds.select_model(state, "A", "a0")
    state = replace(state, reaction=("b0", 1))
    assert actions.acting_model(state, "B").id == "b0"
    labels = [board.label(state, o) for o in legal.legal(state, "B") if o.step == "attack"]
    assert labels and all(text.startswith("auto rifle → ") for text in labels)


def test_a_refusal_keeps_a_names_case():
    from battles.services import _sentence
    from tests.rules.battle.helpers import to_action

    state = to_action()
    player, model = state.players[0].name, state.models[0].name
    assert _sentence(f"{player} must choose first", state) == f"{player} must choose first."
    assert _sentence(f"{model} is Prone", state) == f"{model} is Prone."
    assert _sentence("a Push needs a model in melee", state) == "A Push needs a model in melee."


def test_a_model_out_of_action_says_so_in_words_and_is_no_longer_prone(started, user, password):
    from rules.cybernekro.battle.state import Status

    battle = started()
    s = state(battle)
    out = s.models[0]
    put(battle, s.with_model(replace(out, status=Status.OUT_OF_ACTION, prone=True)))
    page = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
    card = page.split(f'id="model-{out.id}"')[1].split("</li>")[0]
    assert '<span class="badge bt-status-out_of_action">Out of Action</span>' in card
    assert ">Prone<" not in card and "outofaction" not in page


def test_a_missed_attacks_window_closes_without_promising_damage():
    from rules.cybernekro.battle import actions, rounds
    from tests.rules.battle.helpers import PISTOL, Dice, to_action

    state = to_action()
    state = rounds.select_model(state.with_model(replace(state.model("a0"), weapons=(PISTOL,))), "A", "a0")
    missed = actions.attack(state, "A", "pistol", "b0", Dice(3), 1)  # 3 + 1: a plain miss
    hit = actions.attack(state, "A", "pistol", "b0", Dice(15), 1)
    closing = [o for o in legal.legal(missed, "A") if o.step == "resolve_attack"]
    assert closing and board.label(missed, closing[0]) == "Let the miss stand"
    closing = [o for o in legal.legal(hit, "A") if o.step == "resolve_attack"]
    assert board.label(hit, closing[0]) == "Roll damage"
    fumbled = actions.attack(state, "A", "pistol", "b0", Dice(1), 1)  # a natural 1: the jam and its like follow
    closing = [o for o in legal.legal(fumbled, "A") if o.step == "resolve_attack"]
    assert board.label(fumbled, closing[0]) == "Let the fumble stand"


def test_a_poll_keeps_the_headings_status_current(started, user, password):
    battle = started()
    me = client_for(user, password)
    full = me.get(f"/battles/{battle.pk}/").content.decode()
    assert full.count('id="battle-status"') == 1  # the heading's own, no copy in the page
    polled = me.get(f"/battles/{battle.pk}/", headers={"HX-Request": "true"}).content.decode()
    status = battle.get_status_display()
    assert f'<span class="muted" id="battle-status" hx-swap-oob="true">{status}</span>' in polled
    assert me.get(f"/battles/{battle.pk}/").content.decode().count('id="battle-status"') == 1  # after a poll too


@pytest.mark.parametrize(("ticked", "dice"), [(True, 1), (False, 2)])
def test_an_auto_weapon_may_roll_one_die_as_the_rule_lets_the_player_choose(
    started, user, other_user, password, ticked, dice
):
    """Auto X: "Can choose to roll X dice to hit and select the highest result but with a -2 modifier": the
    odds and the attack follow the player's tick; unticked, the X dice at -2 (R5's default)."""
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    battle = started()
    s, player = _active_player(battle, user, other_user, password)
    auto = WeaponUse("auto-pistol", "auto pistol", cn.Weapon(2, 12, cn.Keywords.parse(["Auto 2"]), "auto-pistol"))
    model = s.model(s.active_model)
    put(battle, s.with_model(replace(model, weapons=(auto,))))
    url = f"/battles/{battle.pk}/"
    several = player.get(url, headers={"HX-Request": "true"}).content.decode()
    one = player.get(url + "?one_die=1", headers={"HX-Request": "true"}).content.decode()
    assert "one die with auto pistol (Auto 2)" in several
    assert 'name="one_die" value="1" checked' in one and 'name="one_die" value="1" checked' not in several
    odds = lambda page: page.split('id="odds-heading"')[1].split("</table>")[0]  # noqa: E731
    assert odds(several) != odds(one)
    enemy = state(battle).enemies_of(state(battle).model(s.active_model))[0]
    tick = {"one_die": "1"} if ticked else {}
    assert post_step(player, battle, f"attack:auto-pistol:{enemy.id}", **tick).status_code == 200
    rolled = next(r for e in reversed(state(battle).log) for r in e.rolls if r.get("what") == "to hit")
    assert len(rolled["d20"]) == dice
    assert dict(state(battle).pending[0].data)["situation"].auto is not ticked


def test_a_knife_is_thrown_from_its_own_button_and_lies_on_the_table_after(started, user, other_user, password):
    """Thrown (B63): the board offers the throw beside the Fight, with its odds, and shows where the knife went."""
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    battle = started()
    s, player = _active_player(battle, user, other_user, password)
    knife = WeaponUse("knife", "knife", cn.Weapon(1, None, cn.Keywords.parse(["Thrown"]), "knife"), hands=1)
    model = s.model(s.active_model)
    put(battle, s.with_model(replace(model, weapons=(knife,))))
    enemy = state(battle).enemies_of(state(battle).model(s.active_model))[0]
    page = html.unescape(player.get(f"/battles/{battle.pk}/").content.decode())
    assert f'Throw the knife → {enemy.name} (a Shoot with Agility, up to 6")' in page
    assert f"knife (thrown) → {enemy.name}" in page  # its odds row
    assert post_step(player, battle, f"attack:knife:{enemy.id}:shoot").status_code == 200
    assert "throws" in state(battle).log[-1].text
    assert post_step(player, battle, "resolve_attack").status_code == 200
    after = state(battle)
    assert [w.slug for w in after.scenario.weapons_on_ground] == ["knife"]
    page = html.unescape(player.get(f"/battles/{battle.pk}/").content.decode())
    assert f"On the ground: knife (next to {enemy.name})" in page


def test_a_models_card_shows_what_it_cannot_use_and_what_holds_it(started, user, password):
    """A jammed or unloaded weapon, Sleep and Shield change what a model may do: its card says so to everyone."""
    battle = started()
    s = state(battle)
    model = s.models[0]
    weapon = model.weapons[-1]
    plain = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
    assert "jammed" not in plain.split(f'id="model-{model.id}"')[1].split("</li>")[0]
    changed = replace(model, jammed=frozenset({weapon.slug}), unloaded=frozenset({weapon.slug}), asleep=True)
    put(battle, s.with_model(replace(changed, magic_shield=True)))
    page = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode()
    card = html.unescape(page.split(f'id="model-{model.id}"')[1].split("</li>")[0])
    assert f"{weapon.name} jammed" in card and f"{weapon.name} unloaded" in card
    assert "asleep: no reactions this round" in card and "Shield: +3 armor" in card


def test_a_rounds_start_names_no_active_player_until_one_is_chosen(started, user, password):
    """Last round's Active Player is not this round's: the Initiative Test's winner chooses first."""
    battle = started()
    s = replace(state(battle), phase=Phase.ROUND_START, round=2, active_seat="0", pending=())
    put(battle, s)
    status = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode().split('id="status-heading"')[1]
    assert "Active Player:" not in status.split("</section>")[0]  # the scenario's rules may name "the Active Player"
    put(battle, replace(s, phase=Phase.ACTION))
    status = client_for(user, password).get(f"/battles/{battle.pk}/").content.decode().split('id="status-heading"')[1]
    assert "Active Player: <strong>" in status.split("</section>")[0]


def test_the_log_shows_the_damage_dice(started, user, other_user, password):
    """The damage roll's dice (and the ones kept) are in the log beside its text, as the hit roll's are."""
    battle = started()
    s, player = _active_player(battle, user, other_user, password)
    put(battle, replace(s, armed=((s.active_seat, s.active_model, "A♥", 0),)))  # an Ace: the hit is sure
    enemy = state(battle).enemies_of(state(battle).model(s.active_model))[0]
    assert post_step(player, battle, f"attack:sword:{enemy.id}").status_code == 200
    assert post_step(player, battle, "resolve_attack").status_code == 200
    damage = next(r for e in state(battle).log for r in e.rolls if r.get("what") == "damage")
    page = player.get(f"/battles/{battle.pk}/").content.decode()
    assert f'<span class="bt-dice">damage d6 {",".join(map(str, damage["dice"]))}' in page
    assert f"= {damage['sum']}" in page and f": {damage['result']}</span>" in page


def test_a_log_line_shows_the_modifier_beside_the_die_and_the_damage_table_sum():
    from django.template.loader import render_to_string

    hit = {"what": "to hit", "d20": [11], "modifier": -1, "outcome": "failure"}
    damage = {"what": "damage", "dice": [4, 1], "kept": [4, 1], "sum": 5, "wounds": 1, "armor": 2, "result": 4}
    entry = {"number": 7, "text": "Grell tests tough it out: failure", "seed": 3, "rolls": [hit, damage]}
    line = html.unescape(render_to_string("battles/_log.html#entry", {"e": entry}))
    assert "d20 11 -1</span>" in line  # 11 - 1 = 10: a failure, as the text says
    assert "damage d6 4,1 = 5, +1 Wound, −2 armor: 4</span>" in line


def test_the_morale_odds_count_the_allies_typed(started, user, password):
    """ "adding the number of allies in LoS to the roll": the next test's odds follow the number in the form."""
    battle = started()
    s = state(battle)
    model = s.crew("0")[0]
    s = s.with_model(replace(model, dread=2, discipline=0, wounds=0, traits=frozenset()))
    s = replace(s, phase=Phase.MORALE, round=1, first_seat="0", active_seat="0", pending=(), morale_started=True)
    put(battle, replace(s, morale_queue=(model.id,)))
    me = client_for(user, password)
    alone = me.get(f"/battles/{battle.pk}/").content.decode()
    two = me.get(f"/battles/{battle.pk}/?allies=2", headers={"HX-Request": "true"}).content.decode()
    assert "morale: Discipline (no ally in LoS) (+0)" in html.unescape(alone)
    assert "morale: Discipline (2 allies in LoS) (+2)" in html.unescape(two)
    assert 'id="morale-allies" type="number" inputmode="numeric" name="allies" min="0" max="2" value="2"' in two
    rate = lambda page: re.search(r"in LoS\) \(\+\d\): <strong>([\d.]+)%", html.unescape(page)).group(1)  # noqa: E731
    assert float(rate(two)) == float(rate(alone)) + 10.0  # +2 on a D20: two faces more


def test_the_rounds_environment_is_named_as_the_rules_name_it(started, user, password):
    battle = started()
    s = state(battle)
    put(battle, replace(s, scenario=replace(s.scenario, slug="quick-start-scenario", environment="noxious-air")))
    page = html.unescape(client_for(user, password).get(f"/battles/{battle.pk}/").content.decode())
    assert "Environment this round: <strong>Noxious air</strong>" in page and "-2 to Toughness" in page
    assert "noxious-air</p>" not in page


def test_the_allies_typed_for_the_morale_odds_are_at_most_the_models_on_the_table(started, user, password):
    battle = started()
    s = state(battle)
    model = s.crew("0")[0]
    s = replace(s, phase=Phase.MORALE, round=1, first_seat="0", active_seat="0", pending=(), morale_started=True)
    put(battle, replace(s, morale_queue=(model.id,)))
    others = len(s.crew("0")) - 1
    page = html.unescape(
        client_for(user, password).get(f"/battles/{battle.pk}/", {"allies": others + 3}).content.decode()
    )
    assert f'name="allies" min="0" max="{others}" value="{others}"' in page
    assert f"({others} allies in LoS)" in page


def test_between_rounds_the_heading_names_the_coming_round_and_not_the_last_environment(started, user, password):
    """After the Morale Phase the last round is over: its environmental effect no longer applies, and the
    Initiative Test on the board starts the next round."""
    battle = started()
    s = state(battle)
    scenario = replace(s.scenario, slug="quick-start-scenario", environment="noxious-air")
    put(battle, replace(s, scenario=scenario, round=2, phase=Phase.ROUND_START, pending=()))
    me = client_for(user, password)
    page = html.unescape(me.get(f"/battles/{battle.pk}/").content.decode())
    assert re.search(r"· round 3 of \d+</h2>", page) and "Phase: <strong>Initiative Test</strong>" in page
    assert "Environment this round" not in page and "Noxious air" not in page
    put(battle, replace(s, scenario=scenario, round=3, phase=Phase.AP, pending=()))
    page = html.unescape(me.get(f"/battles/{battle.pk}/").content.decode())
    assert re.search(r"· round 3 of \d+</h2>", page) and "Environment this round: <strong>Noxious air</strong>" in page


def test_an_invited_player_s_home_page_and_menu_lead_to_the_battle_that_waits_for_their_crew(
    user, other_user, password, geared_crew
):
    crew = geared_crew(user, 3)
    battle = services.create_battle(user, "quick-start-scenario", crew.pk, [other_user.username])
    them = client_for(other_user, password)
    home = html.unescape(them.get("/").content.decode())
    assert f'href="/battles/{battle.pk}/"' in home and "you are invited: choose your crew" in home
    assert '<li><a href="/battles/">Battles</a></li>' in home  # the main menu
    mine = html.unescape(client_for(user, password).get("/").content.decode())
    assert f'href="/battles/{battle.pk}/"' in mine and "waiting for players" in mine
    assert "you are invited" not in mine
    services.join(battle.pk, other_user, geared_crew(other_user, 3).pk)
    assert "you are invited" not in them.get("/").content.decode()


def test_a_sorcerer_s_known_sorceries_are_named_as_the_rules_name_them(started, user, password):
    battle = started()
    s = state(battle)
    model = s.crew("0")[0]
    put(battle, s.with_model(replace(model, sorcerer=True, sorceries=("gut-twist", "explode-head"))))
    page = html.unescape(client_for(user, password).get(f"/battles/{battle.pk}/").content.decode())
    assert '<span class="muted">Gut Twist, Explode Head</span>' in page
    assert "gut-twist" not in page
