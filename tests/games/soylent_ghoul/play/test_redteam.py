"""Red-team probes of the Soylent Ghoul game tracker: can another player, a visitor or
a stranger learn which token of a drone is true, or change a game they must not?

Method for secrecy: bring a game to a stage, take everything another player can
fetch (page, htmx partial, poll, list, the answers to their refused actions),
move the owner's true token to another of its tokens (nothing else changes),
fetch again: every answer must be the same, byte for byte (CSRF tokens aside).
Each probe first shows that the owner's own view DOES change, so it can fail.
"""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.soylent_ghoul.play import services, views
from games.soylent_ghoul.play.models import Event, Game, Piece, Player
from tests.games.soylent_ghoul.play import posted

HTMX = {"HTTP_HX_REQUEST": "true"}
# like the CSRF token, the poll token is bound to the session, which each force_login makes anew
CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|[?;]t=)[^"&]+')
BAD_IDS = ["", "abc", "1.5", "-1", "0", "99999999999999999999999", "１"]


def url(game, name="soylent-game"):
    return reverse(name, args=[game.pk])


def act(client, game, kind, htmx=True, **data):
    game.refresh_from_db()
    return client.post(
        url(game, "soylent-game-act"), {"kind": kind, "version": game.version, **data}, **(HTMX if htmx else {})
    )


def body(response) -> bytes:
    return CSRF.sub(rb"\1", response.content)


def drone_of(game, user):
    return Piece.objects.get(game=game, player__user=user, kind="drone")


def tokens_of(game, user):
    return list(Piece.objects.filter(game=game, player__user=user, kind="token").order_by("code"))


def place_all(game, players):
    for u in players:
        game.refresh_from_db()
        posted.play(game.pk, u, game.version, "place", {"piece": str(drone_of(game, u).pk)})
    game.refresh_from_db()
    return game


def move_truth(game, user) -> None:
    """The user's true token moves to the next unrevealed one of its drone; nothing else changes."""
    tokens = [t for t in tokens_of(game, user) if not t.revealed and not t.removed]
    index = next(i for i, t in enumerate(tokens) if t.is_true)
    Piece.objects.filter(pk=tokens[index].pk).update(is_true=False)
    Piece.objects.filter(pk=tokens[(index + 1) % len(tokens)].pk).update(is_true=True)
    # only the secret changed, so the version did not: the board's shared part is rebuilt from it
    cache.clear()


def views_of(client: Client, game, probe_user) -> dict:
    """Everything the viewer can fetch, and their refused actions on probe_user's tokens."""
    game.refresh_from_db()
    out = {
        "page": client.get(url(game)),
        "partial": client.get(url(game) + "?version=0", **HTMX),
        "poll": client.get(url(game) + f"?version={game.version}", **HTMX),
        "list": client.get(reverse("soylent-game-list")),
        "own-key": client.get(url(game, "soylent-game-key"), **HTMX),
    }
    for t in tokens_of(game, probe_user):
        for kind in ("replace", "replace-drone", "move-panic", "activate", "place", "fatal-answer"):
            out[f"{kind}-{t.code}"] = act(client, game, kind, piece=t.pk)
            out[f"{kind}-{t.code}-nohtmx"] = act(client, game, kind, htmx=False, piece=t.pk)
    out["messages"] = client.get(url(game))  # the refusals' messages, shown once on the next page
    return {k: (r.status_code, r.get("Location"), body(r)) for k, r in out.items()}


def stage_game(game, players, stage):
    vox, mara = players
    if stage == "setup":
        return game
    game = place_all(game, players)
    if stage in ("panic", "action"):
        posted.play(game.pk, vox, game.version, "activate", {"piece": str(tokens_of(game, vox)[0].pk)})
        game.refresh_from_db()
    if stage == "action":
        for u in (vox, mara):
            game.refresh_from_db()
            posted.play(game.pk, u, game.version, "pass", {})
        game.refresh_from_db()
        assert game.phase == "action"
    return game


@pytest.mark.parametrize("stage", ["placed", "panic", "action"])
def test_the_other_player_sees_the_same_bytes_whatever_the_truth(client, two_player_game, players, stage):
    vox, mara = players
    game = stage_game(two_player_game, players, stage)
    version = Game.objects.get(pk=game.pk).version
    # the probe can fail: vox's own key changes when vox's truth moves
    client.force_login(vox)
    own_before = body(client.get(url(game)))
    own_key_before = body(client.get(url(game, "soylent-game-key"), **HTMX))
    client.force_login(mara)
    client.get(url(game))
    before = views_of(client, game, vox)
    move_truth(game, vox)
    after = views_of(client, game, vox)
    for key in before:
        assert before[key] == after[key], f"{key} depends on vox's secret"
    client.force_login(vox)
    # the owner's own page holds no key either: only the key fetched while holding the button changes
    assert body(client.get(url(game))) == own_before
    assert body(client.get(url(game, "soylent-game-key"), **HTMX)) != own_key_before
    # none of the refused probes changed the game
    assert Game.objects.get(pk=game.pk).version == version


def test_the_poll_and_the_partial_never_carry_a_key_of_another_player(client, two_player_game, players):
    vox, mara = players
    game = place_all(two_player_game, players)
    client.force_login(mara)
    for response in (client.get(url(game)), client.get(url(game) + "?version=0", **HTMX)):
        page = response.content.decode()
        assert "your key" not in page and "sg-key-shown" not in page  # not even mara's own key
        assert "Hold to see my key" in page
        for t in tokens_of(game, vox):
            assert f'value="{t.pk}"' in page or t.code in page
    # the 204 poll has no body at all
    game.refresh_from_db()
    poll = client.get(url(game) + f"?version={game.version}", **HTMX)
    assert poll.status_code == 204 and poll.content == b"" and "HX-Request" in poll["Vary"]


def test_piece_ids_and_order_say_nothing_about_truth(two_player_game, players):
    """Piece ids are shown in forms: within each drone they follow the code order, as on the page."""
    vox, mara = players
    for u in players:
        for t in tokens_of(two_player_game, u):
            assert t.position == drone_of(two_player_game, u).position
        ids = [t.pk for t in tokens_of(two_player_game, u)]
        assert ids == sorted(ids)


def test_undo_snapshots_and_event_payloads_hold_no_truth(two_player_game, players):
    vox, mara = players
    game = stage_game(two_player_game, players, "action")
    events = list(Event.objects.filter(game=game))
    assert len(events) >= 4
    for e in events:
        for snap in e.before.get("pieces", {}).values():
            assert "is_true" not in snap
        assert "is_true" not in str(e.payload) and "TRUE" not in str(e.payload)


def test_fatal_then_undo_cannot_probe_another_players_token(client, two_player_game, players):
    """The acting player may record that a character went into a fatal area. Removing a false token
    tells everyone it was false (its Drone stays): undoing it must not be allowed, or the acting
    player could test every token of the others and take each test back."""
    vox, mara = players
    game = place_all(two_player_game, players)
    false_token = next(t for t in tokens_of(game, mara) if not t.is_true)
    client.force_login(vox)
    assert act(client, game, "fatal", piece=false_token.pk).status_code == 200
    client.force_login(mara)  # mara's token: mara confirms (SG21)
    assert act(client, game, "fatal-answer", answer="confirm").status_code == 200
    assert Piece.objects.get(pk=false_token.pk).removed
    answer = act(client, game, "undo")
    assert answer.status_code == 422
    assert Piece.objects.get(pk=false_token.pk).removed
    assert "Undo your last change" not in client.get(url(game)).content.decode()


def test_an_ordinary_move_can_still_be_undone(client, two_player_game, players):
    vox, mara = players
    game = two_player_game
    client.force_login(vox)
    assert act(client, game, "place", piece=drone_of(game, vox).pk).status_code == 200
    assert act(client, game, "undo").status_code == 200
    assert not Piece.objects.get(pk=drone_of(game, vox).pk).placed


# --- access ----------------------------------------------------------------------


def every_url(game):
    return [
        url(game),
        url(game, "soylent-game-act"),
        url(game, "soylent-game-key"),
        url(game, "soylent-game-join"),
        url(game, "soylent-game-leave"),
        url(game, "soylent-game-invite"),
        url(game, "soylent-game-start"),
    ]


def test_a_visitor_is_sent_to_log_in_everywhere(client, two_player_game):
    for u in every_url(two_player_game) + [reverse("soylent-game-list")]:
        for method in (client.get, client.post):
            r = method(u)
            assert r.status_code in (302, 405), u
            if r.status_code == 302:
                assert r["Location"].startswith("/accounts/login/"), u
    assert Game.objects.get(pk=two_player_game.pk).version == two_player_game.version


def test_a_stranger_gets_404_everywhere_and_changes_nothing(client, two_player_game, make_user):
    game = two_player_game
    client.force_login(make_user("zed"))
    for u in every_url(game):
        for kind in ("pass", "undo", "place", "end-turn"):
            r = client.post(u, {"kind": kind, "version": game.version, "drone_set": "1", "first": "0"}, **HTMX)
            assert r.status_code in (404, 405), u
            assert b"vox" not in r.content and b"Pale Hands" not in r.content
    assert client.get(url(game)).status_code == 404
    assert client.get(url(game) + "?version=1", **HTMX).status_code == 404
    assert Game.objects.get(pk=game.pk).version == game.version
    assert b"Pale Hands" not in client.get(reverse("soylent-game-list")).content


def test_a_declined_invitee_loses_access(client, players, make_set, make_user):
    vox, mara = players
    game = services.create_game(vox, make_set(vox), ["mara"])
    client.force_login(mara)
    assert client.get(url(game)).status_code == 200
    assert client.post(url(game, "soylent-game-leave")).status_code == 302
    assert client.get(url(game)).status_code == 404


def test_only_the_creator_starts_and_nobody_joins_with_another_users_set(client, players, make_set):
    vox, mara = players
    vox_set = make_set(vox, "Pale Hands")
    spare = make_set(vox, "Spare Set")
    game = services.create_game(vox, vox_set, ["mara"])
    client.force_login(mara)
    # mara tries to join with vox's other set
    r = client.post(url(game, "soylent-game-join"), {"drone_set": spare.pk}, **HTMX)
    assert r.status_code == 422 and not Player.objects.get(game=game, user=mara).joined
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes"))
    r = client.post(url(game, "soylent-game-start"), {"first": "1"}, **HTMX)
    assert r.status_code == 422 and Game.objects.get(pk=game.pk).status == Game.SETUP
    # a new game with another user's set is refused too
    r = client.post(reverse("soylent-game-list"), {"drone_set": spare.pk, "players": "vox"})
    assert r.status_code == 422 and Game.objects.count() == 1


def test_a_piece_of_another_game_is_refused(client, players, make_set, make_user):
    vox, mara = players
    zed = make_user("zed")
    game = services.create_game(vox, make_set(vox, "Pale Hands"), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes"))
    game = services.start(game.pk, vox, 0)
    other = services.create_game(zed, make_set(zed, "Dolls", "mannikins"), ["mara"])
    services.join(other.pk, mara, make_set(mara, "Second", "eyes"))
    other = services.start(other.pk, zed, 0)
    foreign = drone_of(other, zed)
    client.force_login(vox)
    for kind in ("place", "activate", "fatal", "replace", "gaze", "move-panic"):
        r = act(client, game, kind, piece=foreign.pk, seer=foreign.pk)
        assert r.status_code == 422, kind
        assert b"Dolls" not in r.content
    assert not Piece.objects.get(pk=foreign.pk).placed
    assert Event.objects.filter(game=game).count() == 1


def test_out_of_turn_and_for_someone_else_changes_nothing(client, two_player_game, players):
    vox, mara = players
    game = two_player_game
    version = game.version
    client.force_login(mara)
    for kind, data in (
        ("place", {"piece": drone_of(game, mara).pk}),
        ("place", {"piece": drone_of(game, vox).pk}),
        ("end-turn", {}),
        ("pass", {}),
        ("undo", {}),
        ("fatal", {"piece": drone_of(game, vox).pk}),
    ):
        assert act(client, game, kind, **data).status_code == 422, kind
    assert Game.objects.get(pk=game.pk).version == version


# --- bad input --------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(services.ACTIONS) + ["undo", "nonsense", ""])
def test_bad_input_on_act_is_a_4xx(client, two_player_game, players, kind):
    vox, mara = players
    game = place_all(two_player_game, players)
    client.force_login(vox)
    for bad in BAD_IDS:
        r = act(client, game, kind, piece=bad, seer=bad, effect=bad, action=bad, level=bad, reduction=bad)
        assert 400 <= r.status_code < 500, (kind, bad, r.status_code)
    for version in ("", "x", "99999999999999999999"):
        r = client.post(url(game, "soylent-game-act"), {"kind": kind, "version": version}, **HTMX)
        assert 400 <= r.status_code < 500, (kind, version)
    r = client.post(url(game, "soylent-game-act"), {}, **HTMX)
    assert 400 <= r.status_code < 500


def test_bad_input_on_setup_pages_is_a_4xx(client, players, make_set):
    vox, mara = players
    game = services.create_game(vox, make_set(vox), ["mara"])
    client.force_login(mara)
    for bad in BAD_IDS:
        assert 400 <= client.post(url(game, "soylent-game-join"), {"drone_set": bad}, **HTMX).status_code < 500
    client.force_login(vox)
    for bad in BAD_IDS:
        assert 400 <= client.post(url(game, "soylent-game-start"), {"first": bad}, **HTMX).status_code < 500
    for bad in BAD_IDS[:-1]:  # (int() reads the full-width "１" as 1: vox's own set, a fair choice)
        r = client.post(reverse("soylent-game-list"), {"drone_set": bad, "players": "mara"})
        assert r.status_code == 422
    r = client.post(reverse("soylent-game-list"), {"drone_set": make_set(vox, "B").pk, "players": "x" * 5000})
    assert r.status_code == 422
    assert client.get(url(game).replace(str(game.pk), "99999999999")).status_code == 404


def test_no_view_is_csrf_exempt():
    for name in ("game_list", "game_detail", "game_join", "game_decline", "game_start", "game_act", "game_key"):
        assert not getattr(getattr(views, name), "csrf_exempt", False), name


def test_csrf_is_enforced_on_actions(two_player_game, players):
    vox, mara = players
    client = Client(enforce_csrf_checks=True)
    client.force_login(vox)
    r = client.post(
        url(two_player_game, "soylent-game-act"),
        {"kind": "place", "version": two_player_game.version, "piece": drone_of(two_player_game, vox).pk},
    )
    assert r.status_code == 403
    assert not drone_of(two_player_game, vox).placed
