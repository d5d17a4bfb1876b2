"""The board's poll through the game kit (issue 20): an unchanged poll is a 204 with no query at all,
only for the browser that drew the page; a changed poll sends the board with the latest log entries,
never the whole log."""

import html
import re

from django.urls import reverse

from core.games import kit
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.models import Event, Game, Piece
from tests.games.soylent_ghoul.play import posted

HTMX = {"HTTP_HX_REQUEST": "true"}


def poll_url(page: str) -> str:
    return html.unescape(re.search(r'id="board"[^>]*hx-get="([^"]+)"', page).group(1))


def place(game, user):
    game.refresh_from_db()
    posted.play(
        game.pk,
        user,
        game.version,
        "place",
        {"piece": str(Piece.objects.get(game=game, player__user=user, kind="drone").pk)},
    )


def test_the_page_polls_with_v_and_a_token(client, two_player_game, players):
    client.force_login(players[0])
    url = poll_url(client.get(reverse("soylent-game", args=[two_player_game.pk])).content.decode())
    assert re.fullmatch(rf"/games/soylent/games/{two_player_game.pk}/\?v={two_player_game.version}&t=[\w.:-]+", url)


def test_an_unchanged_poll_costs_no_query(client, two_player_game, players, django_assert_num_queries):
    client.force_login(players[1])
    url = poll_url(client.get(reverse("soylent-game", args=[two_player_game.pk])).content.decode())
    assert client.get(url, **HTMX).status_code == 204  # a version not yet in the cache is read once
    with django_assert_num_queries(0):
        r = client.get(url, **HTMX)
    assert r.status_code == 204 and r.content == b"" and "HX-Request" in r["Vary"]
    assert "no-cache" in r["Cache-Control"] and "private" in r["Cache-Control"]


def test_a_move_publishes_its_version_on_commit(
    client, two_player_game, players, django_assert_num_queries, django_capture_on_commit_callbacks
):
    vox, mara = players
    client.force_login(mara)
    old = poll_url(client.get(reverse("soylent-game", args=[two_player_game.pk])).content.decode())
    assert client.get(old, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        place(two_player_game, vox)
    two_player_game.refresh_from_db()
    assert kit.cached_version(services.LABEL, two_player_game.pk) == two_player_game.version
    changed = client.get(old, **HTMX)
    assert changed.status_code == 200 and 'id="board"' in changed.content.decode()
    with django_assert_num_queries(0):
        assert client.get(poll_url(changed.content.decode()), **HTMX).status_code == 204


def test_a_move_not_yet_published_is_not_hidden_by_an_older_cached_version(client, two_player_game, players):
    """Between a commit and its publication (or when publication failed) the old entry is gone, so the
    poll reads the database rather than answering 204 on the old version."""
    vox, mara = players
    client.force_login(mara)
    old = poll_url(client.get(reverse("soylent-game", args=[two_player_game.pk])).content.decode())
    assert client.get(old, **HTMX).status_code == 204
    place(two_player_game, vox)  # in the test's transaction: on_commit never runs
    assert client.get(old, **HTMX).status_code == 200


def test_another_users_or_a_forged_token_never_gets_a_204(client, two_player_game, players, make_user):
    vox, mara = players
    client.force_login(vox)
    url = poll_url(client.get(reverse("soylent-game", args=[two_player_game.pk])).content.decode())
    assert client.get(url, **HTMX).status_code == 204
    # vox's token in another user's session: the view's own check, a 404 for someone not in the game
    client.force_login(make_user("zed"))
    assert client.get(url, **HTMX).status_code == 404
    forged = re.sub(r"t=(\d+)\.[^&]+", lambda m: f"t={m.group(1)}.forged", url)
    assert client.get(forged, **HTMX).status_code == 404
    own_id = re.sub(r"t=\d+\.", f"t={vox.pk}.", url)
    assert client.get(own_id, **HTMX).status_code == 404
    # no session at all: the login page, not a 204
    client.logout()
    r = client.get(url, **HTMX)
    assert r.status_code == 200 and r["HX-Redirect"].startswith(reverse("login"))


def test_a_token_of_another_game_is_not_taken(
    client, two_player_game, players, make_set, make_user, django_assert_num_queries
):
    vox, mara = players
    other = services.create_game(vox, make_set(vox, "Other Hands", "gardeners"), ["mara"])
    client.force_login(vox)
    url = poll_url(client.get(reverse("soylent-game", args=[two_player_game.pk])).content.decode())
    token = re.search(r"t=([^&]+)", url).group(1)
    client.force_login(make_user("zed"))
    assert (
        client.get(reverse("soylent-game", args=[other.pk]) + f"?v={other.version}&t={token}", **HTMX).status_code
        == 404
    )


def test_the_board_shows_the_latest_entries_and_the_log_pages_the_rest(
    client, two_player_game, players, make_user, monkeypatch
):
    vox, mara = players
    game = two_player_game
    first = Event.objects.filter(game=game).count() + 1
    total = first + kit.BOARD_EVENTS + 5 - 1
    Event.objects.bulk_create(
        [
            Event(game=game, number=n, turn=1, actor=vox, kind="pass", payload={"lines": [f"entry number {n}."]})
            for n in range(first, total + 1)
        ]
    )
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    client.force_login(mara)
    board = client.get(reverse("soylent-game", args=[game.pk]) + f"?v={game.version}", **HTMX).content.decode()
    shown = [int(n) for n in re.findall(r"entry number (\d+)\.", board)]
    assert shown == list(range(total, total - kit.BOARD_EVENTS, -1))
    log = reverse("soylent-game-log", args=[game.pk])
    assert f'href="{log}?page=2">Older entries' in board
    everything = client.get(log).content.decode()  # 50 a page: one page holds them all
    assert [int(n) for n in re.findall(r"entry number (\d+)\.", everything)] == list(range(total, first - 1, -1))
    assert "Older entries" not in everything
    monkeypatch.setattr(kit, "EVENTS_PER_PAGE", 10)
    page2 = client.get(log + "?page=2").content.decode()
    assert [int(n) for n in re.findall(r"entry number (\d+)\.", page2)] == list(range(total - 10, total - 20, -1))
    assert "Newer entries" in page2 and "Older entries" in page2
    client.force_login(make_user("outsider"))
    assert client.get(log).status_code == 404


def test_an_unchanged_poll_without_a_token_still_answers_204(client, two_player_game, players):
    """Pages drawn before the token (``?version=``, no ``t``) keep polling: the long way, with its checks."""
    client.force_login(players[1])
    game = two_player_game
    assert client.get(reverse("soylent-game", args=[game.pk]) + f"?version={game.version}", **HTMX).status_code == 204
    assert client.get(reverse("soylent-game", args=[game.pk]) + f"?v={game.version}", **HTMX).status_code == 204
