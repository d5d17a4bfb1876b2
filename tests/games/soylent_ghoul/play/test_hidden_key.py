"""The owner's key is not in the game page: "Hold to see my key" fetches it from the server, which
answers only its owner (issue 19, "At the table"). Proved by changing only the secret and comparing."""

import re

from django.core.cache import cache
from django.urls import reverse

from games.soylent_ghoul.play.models import Piece
from tests.games.soylent_ghoul.play import posted

HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def url(game, name="soylent-game"):
    return reverse(name, args=[game.pk])


def body(response) -> bytes:
    return CSRF.sub(rb"\1", response.content)


def place_both(game, players):
    for user in players:
        game.refresh_from_db()
        posted.play(
            game.pk,
            user,
            game.version,
            "place",
            {"piece": str(Piece.objects.get(game=game, player__user=user, kind="drone").pk)},
        )
    game.refresh_from_db()
    return game


def move_truth(game, user):
    tokens = list(Piece.objects.filter(game=game, player__user=user, kind="token").order_by("code"))
    index = next(i for i, t in enumerate(tokens) if t.is_true)
    Piece.objects.filter(pk=tokens[index].pk).update(is_true=False)
    Piece.objects.filter(pk=tokens[(index + 1) % 5].pk).update(is_true=True)
    # only the secret changed, so the version did not: the board's shared part is rebuilt from it
    cache.clear()
    return tokens[index].code, tokens[(index + 1) % 5].code


def test_the_owners_page_is_the_same_whatever_the_secret_until_the_key_is_asked_for(client, two_player_game, players):
    vox, mara = players
    game = place_both(two_player_game, players)
    client.force_login(vox)
    page = [body(client.get(url(game))), body(client.get(url(game) + "?version=0", **HTMX))]
    key = client.get(url(game, "soylent-game-key"), **HTMX)
    old, new = move_truth(game, vox)
    assert [body(client.get(url(game))), body(client.get(url(game) + "?version=0", **HTMX))] == page
    assert b"Hold to see my key" in page[0]
    # the reveal, asked for, fetches the key: it names the true token, and changes with the secret
    moved = client.get(url(game, "soylent-game-key"), **HTMX)
    assert f'true token <span class="sg-code">{old}</span>'.encode() in key.content
    assert f'true token <span class="sg-code">{new}</span>'.encode() in moved.content
    assert old.encode() not in moved.content
    assert moved["Cache-Control"] == "private, no-store" and "HX-Request" in moved["Vary"]


def test_the_key_answers_its_owner_only(client, two_player_game, players, make_user):
    vox, mara = players
    game = place_both(two_player_game, players)
    client.force_login(mara)
    before = body(client.get(url(game, "soylent-game-key"), **HTMX))
    move_truth(game, vox)
    mine = body(client.get(url(game, "soylent-game-key"), **HTMX))
    assert mine == before  # mara's answer is her own key, untouched by vox's secret
    vox_codes = Piece.objects.filter(game=game, player__user=vox, kind="token").values_list("code", flat=True)
    assert not any(code.encode() in mine for code in vox_codes)
    client.force_login(make_user("zed"))
    assert client.get(url(game, "soylent-game-key"), **HTMX).status_code == 404
    client.logout()
    assert client.get(url(game, "soylent-game-key")).status_code == 302


def test_without_javascript_the_key_is_a_page_of_its_own(client, two_player_game, players):
    vox, mara = players
    game = place_both(two_player_game, players)
    client.force_login(vox)
    page = client.get(url(game, "soylent-game-key"))
    assert page.status_code == 200 and b"Back to the game (hides the key)" in page.content
    assert page["Cache-Control"] == "private, no-store"
    true = Piece.objects.get(game=game, player__user=vox, is_true=True)
    assert true.code.encode() in page.content


def test_a_revealed_set_leaves_the_key(client, two_player_game, players):
    vox, mara = players
    game = place_both(two_player_game, players)
    drone = Piece.objects.get(game=game, player__user=vox, kind="drone")
    posted.play(game.pk, vox, game.version, "replace-drone", {"piece": str(drone.pk)})
    client.force_login(vox)
    assert b"None of your true tokens is secret any more" in client.get(url(game, "soylent-game-key"), **HTMX).content
    assert b"Hold to see my key" not in client.get(url(game)).content


def test_the_replace_button_is_offered_per_drone_whatever_the_secret(client, two_player_game, players):
    vox, mara = players
    game = place_both(two_player_game, players)
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    assert page.count('name="kind" value="replace-drone"') == 1
    drone = Piece.objects.get(game=game, player__user=vox, kind="drone")
    r = client.post(
        url(game, "soylent-game-act"), {"kind": "replace-drone", "version": game.version, "piece": drone.pk}, **HTMX
    )
    assert r.status_code == 200
    assert Piece.objects.get(pk=drone.pk).revealed
    assert Piece.objects.get(game=game, player__user=vox, is_true=True).removed
