"""The board's public part (the rows, the state read once, each crew as the others see it, the log's first
page) is built once per version and shared by every seat, the game master and the read-only link through
the cache (issue 20): no hand of Fate cards and no deck order ever reaches it, and an entry kept for an
older version is never shown. Proved by changing only a hand and the deck order, on the cached path."""

import dataclasses
import re
from dataclasses import replace

import pytest
from django.core.cache import cache
from django.test import Client

from battles import services, shared_board
from battles.models import Battle
from core.games.shared_parts import shared_key
from tests.clients import logged_in
from tests.shared_parts_check import ReuseCheck

from .conftest import advance, put
from .test_setup_and_game_master import with_gm  # noqa: F401  (shared fixture)
from .test_views import state

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def what_one_gets(client, battle, base=None) -> list[bytes]:
    base = base or f"/battles/{battle.pk}/"
    version = Battle.objects.get(pk=battle.pk).version
    return [
        CSRF.sub(rb"\1", client.get(base).content),
        CSRF.sub(rb"\1", client.get(f"{base}?v=0", **HX).content),
        client.get(f"{base}?v={version}", **HX).content,
    ]


def change_the_secrets(battle, seat) -> None:
    """Another hand for ``seat`` (the top of its deck) and its deck in another order: counts unchanged."""
    s = state(battle)
    p = s.player(seat)
    n = len(p.hand)
    rest = p.hand + p.deck[n:]
    changed = replace(p, hand=p.deck[:n], deck=rest[1:] + rest[:1])
    assert changed.hand != p.hand and changed.deck != p.deck
    put(battle, s.with_player(changed))  # clears the cache: the version is the same, the secrets are not


def test_others_get_the_same_bytes_on_the_cached_path_whatever_a_hand(with_gm, user, other_user):  # noqa: F811
    battle, gm = with_gm
    owner, me, master = logged_in(other_user), logged_in(user), logged_in(gm)
    advance(Battle.objects.get(pk=battle.pk), {"0": me, "1": owner}, lambda s: s.player("1").hand)
    services.share(battle.pk, user)
    battle = Battle.objects.get(pk=battle.pk)
    link = f"/battles/shared/{battle.share_token}/"

    def others_after_the_owner():
        what_one_gets(owner, battle)  # the hand's owner builds the shared part of this version
        return [what_one_gets(me, battle), what_one_gets(master, battle), what_one_gets(Client(), battle, link)]

    before = others_after_the_owner()
    theirs = what_one_gets(owner, battle)[1]
    change_the_secrets(battle, "1")
    assert others_after_the_owner() == before
    assert what_one_gets(owner, battle)[1] != theirs  # the probe can fail: the owner does see the new hand


def test_the_shared_part_holds_no_hand_and_no_form(started, user, other_user):
    battle = started()
    advance(battle, {"0": logged_in(user), "1": logged_in(other_user)}, lambda s: s.player("0").hand)
    shared = shared_board.for_game(Battle.objects.get(pk=battle.pk))
    hands = [c for p in shared.state.players for c in p.hand]
    assert hands
    for html in (shared.log_html, *shared.crew_html.values()):
        assert "csrfmiddlewaretoken" not in html and "bt-hand" not in html and 'class="badge">you<' not in html
        assert not any(card in html for card in hands)


def test_an_entry_kept_for_an_older_version_is_never_shown(
    started, user, other_user, django_capture_on_commit_callbacks
):
    battle = started()
    me = logged_in(user)
    me.get(f"/battles/{battle.pk}/?v=0", **HX)  # the shared part of this version
    old = Battle.objects.get(pk=battle.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.share(battle.pk, user)  # a move: a new version
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.version > old.version
    # an entry for the older version, as a slow worker could still write it after the move
    stale = dataclasses.replace(shared_board.build(old), log_html="STALE ENTRY")
    shared_board.PART.keep(old, stale)
    page = logged_in(other_user).get(f"/battles/{battle.pk}/?v={old.version}", **HX).content.decode()
    assert "STALE ENTRY" not in page and f"?v={battle.version}&amp;t=" in page
    assert cache.get(shared_key(services.LABEL, battle.pk + 1, shared_board.NAME)) is None  # keyed by battle


def test_a_build_from_the_previous_version_is_the_same_as_one_from_nothing(started, user, other_user):
    """Each version's build takes the log entries a move left alone from the last one: after every step
    (set-up, Initiative, the AP split, actions) it is byte for byte what a build from nothing draws."""
    battle = started()
    check = ReuseCheck(shared_board.PART, lambda shared: (shared.log_html, shared.crew_html))
    taken = []

    def after_each_step(_state) -> bool:
        taken.append(check(shared_board.games().get(pk=battle.pk)))
        return len(taken) > 12

    advance(battle, {"0": logged_in(user), "1": logged_in(other_user)}, after_each_step)
    assert all(taken[2:])  # the entries already logged were taken, not drawn
