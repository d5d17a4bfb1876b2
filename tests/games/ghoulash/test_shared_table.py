"""The table's public part is built once per version and shared by every seat through the cache
(issue 20): it never holds a secret, no seat gets another seat's hand, and an entry kept for an older
version is never shown. Proved by changing only the secrets (a hand, the draw deck's order, what the
face-down tokens are) and comparing what the other seat gets, on the cached path."""

import dataclasses
import re

from django.core.cache import cache

from core.games.shared_parts import shared_key
from games.ghoulash import services, shared_table
from tests.clients import logged_in

from .conftest import act_url, page_url, player, refresh
from .test_redteam import rotate_hidden_tokens, stable

HTMX = {"HTTP_HX_REQUEST": "true"}


def change_every_secret(game, user) -> None:
    """Another hand for ``user``, their draw deck in another order, every face-down token another."""
    p = player(game, user)
    p.hand, p.draw = p.draw[:7], list(reversed(p.hand + p.draw[7:]))
    p.save()
    rotate_hidden_tokens(game)  # clears the cache: the version is the same, the secrets are not


def what_one_seat_gets(client, game) -> dict:
    game = refresh(game)
    return {
        "page": stable(client.get(page_url(game))),
        "partial": stable(client.get(page_url(game) + "?v=0", **HTMX)),
        "poll": stable(client.get(page_url(game) + f"?v={game.version}", **HTMX)),
    }


def test_the_shared_part_is_the_same_whatever_the_secrets(lake_vs_gray, del_brian):
    game = lake_vs_gray
    logged_in(del_brian[0]).post(act_url(game), {"action": "replenish"}, **HTMX)  # a hand, the Reveal buttons
    game = refresh(game)
    before = shared_table.for_game(game)
    held = shared_table.PART.kept(game.pk, game.version)
    assert held is not None and held.top_html == before.top_html  # kept for the other seats of this version
    change_every_secret(game, del_brian[0])
    after = shared_table.for_game(refresh(game))
    assert (after.top_html, after.board_html, after.bottom_html) == (
        before.top_html,
        before.board_html,
        before.bottom_html,
    )
    # drawn for nobody: no hand, no moves, no CSRF token, no token's hidden kind
    for html in (after.top_html, after.board_html, after.bottom_html):
        for private in ("csrfmiddlewaretoken", "gh-you", "Your hand", "gh-token-ghoul", "Reveal "):
            assert private not in html


def test_the_other_seat_sees_the_same_bytes_on_the_cached_path_whatever_the_secrets(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d, b = logged_in(del_), logged_in(brian)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)

    def brian_after_del():
        what_one_seat_gets(d, game)  # del's page builds the shared part of this version
        return what_one_seat_gets(b, game)

    def del_after_brian():
        what_one_seat_gets(b, game)
        return what_one_seat_gets(d, game)

    brians = brian_after_del()
    mine = what_one_seat_gets(d, game)["partial"]
    change_every_secret(game, del_)
    assert brian_after_del() == brians  # brian's own hand and moves, del's secrets not at all
    assert what_one_seat_gets(d, game)["partial"] != mine  # the probe can fail: del does see his new hand
    dels = del_after_brian()
    change_every_secret(game, brian)
    assert del_after_brian() == dels
    assert brians["poll"][0] == 204 and brians["partial"][0] == 200


def test_an_entry_kept_for_an_older_version_is_never_shown(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d, b = logged_in(del_), logged_in(brian)
    d.get(page_url(game) + "?v=0", **HTMX)  # the shared part of this version, built by del
    old = refresh(game)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)  # a move: a new version
    game = refresh(game)
    assert game.version > old.version
    # an entry for the older version, as a slow worker could still write it after the move
    stale = dataclasses.replace(shared_table.build(old), top_html="STALE ENTRY")
    shared_table.PART.keep(old, stale)
    html = b.get(page_url(game) + f"?v={old.version}", **HTMX).content.decode()
    assert "STALE ENTRY" not in html and f"?v={game.version}&amp;t=" in html
    assert re.search(r"del (discards|replenishes|draws)", html)  # the move's log entry is there
    assert "STALE ENTRY" not in b.get(page_url(game)).content.decode()
    # and the entry is keyed by game: another game's same version never answers for this one
    assert cache.get(shared_key(services.LABEL, game.pk + 1, shared_table.NAME)) is None
