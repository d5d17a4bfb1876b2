"""The board's public part is built once per version and shared by every seat through the cache
(issue 20): it never holds a secret, and no seat ever gets another seat's private part. Proved by
changing only the secret and comparing, on the cached path."""

import re

from django.core.cache import cache
from django.urls import reverse

from core.games.shared_parts import Pieces
from games.soylent_ghoul.play import services, shared_board
from games.soylent_ghoul.play.models import Game, Piece
from tests.shared_parts_check import ReuseCheck

from .test_hidden_key import body, move_truth, place_both

HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(rb"t=[\w.]+")


def url(game):
    return reverse("soylent-game", args=[game.pk])


def seat_section(page: str, username: str) -> str:
    """The seat section headed by ``username``."""
    sections = re.findall(r'<section class="card sg-seat.*?</section>', page, re.S)
    return next(s for s in sections if re.search(rf">{username}( <span|\s*<)", s))


def _parts(shared) -> tuple:
    return shared.log_html, shared.seat_html, shared.drone_html, shared.status_html


def test_the_shared_part_is_the_same_whatever_the_secret(two_player_game, players):
    vox, mara = players
    game = place_both(two_player_game, players)
    before = shared_board.for_game(game)
    # kept for the other seats of this version
    assert shared_board.PART.kept(game.pk, game.version) is not None
    move_truth(game, vox)
    move_truth(game, mara)
    cache.clear()
    after = shared_board.for_game(Game.objects.get(pk=game.pk))
    assert _parts(after) == _parts(before)
    # drawn for nobody: no seat's own key, replace button, choices or CSRF token
    drones = [html for parts in after.drone_html.values() for html in parts]
    for html in [after.log_html, after.status_html, *after.seat_html.values(), *drones]:
        for private in ("Hold to see my key", "replace-drone", "csrfmiddlewaretoken", "(you)", "sg-truth"):
            assert private not in html


def test_each_seat_gets_its_own_private_part_from_the_shared_board(
    client, two_player_game, players, django_assert_num_queries
):
    vox, mara = players
    game = place_both(two_player_game, players)
    client.force_login(vox)
    vox_page = client.get(url(game) + "?v=0", **HTMX).content.decode()  # builds the shared part
    client.force_login(mara)
    with django_assert_num_queries(
        1
    ):  # the user (the session from the cache): the board's rows and public part from the cache
        cached = client.get(url(game) + "?v=0", **HTMX)
    cache.clear()
    fresh = client.get(url(game) + "?v=0", **HTMX)
    assert body(cached) == body(fresh)  # the cache changes nothing of what mara sees
    mara_page = cached.content.decode()
    for page, me, other in ((vox_page, vox, mara), (mara_page, mara, vox)):
        mine, theirs = seat_section(page, me.username), seat_section(page, other.username)
        assert "(you)" in mine and "Hold to see my key" in mine and "replace-drone" in mine
        assert "(you)" not in theirs and "Hold to see my key" not in theirs and "replace-drone" not in theirs
        drone = Piece.objects.get(game=game, player__user=me, kind="drone")
        assert page.count('value="replace-drone"') == 1 and f'name="piece" value="{drone.pk}"' in mine


def test_what_the_other_seat_sees_on_the_cached_path_does_not_depend_on_the_secret(client, two_player_game, players):
    vox, mara = players
    game = place_both(two_player_game, players)

    def mara_after_vox():
        client.force_login(vox)
        client.get(url(game) + "?v=0", **HTMX)  # vox's poll builds the shared part
        client.force_login(mara)
        # a new login each time, so a new poll token: the token is the session's, not the game's secret
        return [
            TOKEN.sub(b"t=", body(client.get(url(game) + "?v=0", **HTMX))),
            TOKEN.sub(b"t=", body(client.get(url(game)))),
        ]

    before = mara_after_vox()
    move_truth(game, vox)
    cache.clear()  # nothing else changed, so neither did the version: rebuild from the new secret
    assert mara_after_vox() == before


def test_a_build_from_the_previous_version_is_the_same_as_one_from_nothing(two_player_game, players):
    """Each version's build takes the seats and log entries a move left alone from the last one: after
    every kind of change (a seat's pieces, the turn, a new entry, an entry undone) it is byte for byte
    what a build from nothing draws."""
    from tests.games.soylent_ghoul.play.test_services import act, piece, place_both_drones

    game = two_player_game
    vox, mara = players
    check = ReuseCheck(shared_board.PART, _parts)
    taken = [check(game)]

    def after_the_move():
        taken.append(check(Game.objects.get(pk=game.pk)))

    place_both_drones(game, vox, mara)
    after_the_move()
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    after_the_move()
    act(game, vox, "pass")
    after_the_move()
    game.refresh_from_db()
    services.undo(game.pk, vox, game.version)  # an entry shown undone: drawn again
    after_the_move()
    assert all(taken[1:])  # the unchanged seats and entries were taken, not drawn


def test_a_part_taken_from_the_previous_version_does_not_depend_on_the_secret(two_player_game, players):
    """The pieces a build takes from the previous version are public: drawn under one secret and taken
    into the next version, they are byte for byte what a build from nothing draws under another."""
    vox, mara = players
    game = place_both(two_player_game, players)
    _, first = shared_board.PART.build_new(game)  # drawn under the first secret
    move_truth(game, vox)
    move_truth(game, mara)
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    game = Game.objects.get(pk=game.pk)
    second = Pieces(first.drawn)  # kept in the cache, which moving the truth cleared
    taken = shared_board.build(game, second)
    assert second.taken == len(first.drawn)  # every seat and entry taken, not drawn
    assert _parts(taken) == _parts(shared_board.build(game))  # as drawn under the second secret


def test_an_entry_by_someone_without_a_seat_still_names_them(two_player_game, players, django_user_model):
    """The entries' actors come from the seats' users; one who is not seated is read in one more query."""
    from games.soylent_ghoul.play.models import Event

    game = place_both(two_player_game, players)
    gone = django_user_model.objects.create_user("gone-player", password="x")
    number = game.events.order_by("-number").first().number + 1
    Event.objects.create(game=game, number=number, actor=gone, kind="pass", payload={"lines": ["gone passes."]})
    assert "gone-player" in shared_board.build(Game.objects.get(pk=game.pk)).log_html
