"""The board's public part (the rows, the engine's state, the grid with no move on it, the latest log) is
built once per version and shared by every participant through the cache (issue 20). The trial holds no
hidden information; what is one participant's own (their highlighted Squares, their moves, their CSRF
token) never reaches another, and an entry kept for an older version is never shown."""

import dataclasses
import re

import pytest
from django.core.cache import cache
from django.test import Client

from core.games.shared_parts import shared_key
from games.slasher_trial import services, shared_board
from games.slasher_trial.models import Trial
from tests.games.slasher_trial.conftest import place, setp
from tests.games.slasher_trial.test_views import HX, url

pytestmark = pytest.mark.django_db
CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def seated(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def what_one_gets(client, trial) -> list[bytes]:
    version = Trial.objects.get(pk=trial.pk).version
    return [
        CSRF.sub(rb"\1", client.get(url(trial)).content),
        CSRF.sub(rb"\1", client.get(url(trial), {"v": "0"}, **HX).content),
        client.get(url(trial), {"v": str(version)}, **HX).content,
    ]


def test_one_participants_moves_never_reach_another_on_the_cached_path(started, survivors, monster):
    mara, zed = survivors[:2]
    setp(started, mara, energy=5, location="B2")  # mara may move and repair: her grid is her own
    m, z, vox = seated(mara), seated(zed), seated(monster)
    mine = what_one_gets(m, started)  # mara's page builds the shared part of this version
    assert b'value="move:' in mine[0] and b'value="repair:' in mine[0]
    cached = [what_one_gets(z, started), what_one_gets(vox, started)]
    cache.clear()
    fresh = [what_one_gets(z, started), what_one_gets(vox, started)]
    assert cached == fresh  # the cache changes nothing of what the others see
    for page in (*cached[0], *cached[1]):
        assert b'value="move:' not in page and b'value="repair:' not in page
    # the public parts hold nothing of anyone's own
    shared = shared_board.for_game(Trial.objects.get(pk=started.pk))
    for html in (shared.grid_html, shared.log_html):
        assert "csrfmiddlewaretoken" not in html and "sq-act" not in html and "<button" not in html


def test_an_entry_kept_for_an_older_version_is_never_shown(started, survivors, django_capture_on_commit_callbacks):
    mara, zed = survivors[:2]
    m, z = seated(mara), seated(zed)
    m.get(url(started), {"v": "0"}, **HX)  # the shared part of this version, built by mara
    old = Trial.objects.get(pk=started.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.act(old, zed, "ready")  # a move: a new version
    trial = Trial.objects.get(pk=started.pk)
    assert trial.version > old.version
    # an entry for the older version, as a slow worker could still write it after the move
    stale = dataclasses.replace(shared_board.build(old), log_html="STALE ENTRY")
    shared_board.PART.keep(old, stale)
    page = m.get(url(trial), {"v": str(old.version)}, **HX).content.decode()
    assert "STALE ENTRY" not in page and "zed is Ready." in page and f"?v={trial.version}&amp;t=" in page
    assert cache.get(shared_key(services.LABEL, trial.pk + 1, shared_board.NAME)) is None  # keyed by trial


def test_the_grid_of_blank_locations_goes_only_to_who_may_set_theirs(open_trial, survivors, monster):
    """While Locations are blank, every one who may set theirs has the same Squares: that grid is drawn once
    per version and kept in the shared part. Nobody else gets it: zed has a Location, and mara, Caged, may
    not set hers. What each gets is what they got with nothing cached."""
    mara, zed = survivors[:2]
    trial = place(open_trial, monster)
    setp(trial, zed, location="C5")
    setp(trial, mara, status="Caged")
    vox, m, z = seated(monster), seated(mara), seated(zed)
    cached = [what_one_gets(vox, trial), what_one_gets(m, trial), what_one_gets(z, trial)]
    shared = shared_board.for_game(Trial.objects.get(pk=trial.pk))
    assert len(shared.location_squares) == 400 - 7 - 1 and 'value="location:' in shared.location_grid_html
    assert all(b'value="location:' in page for page in cached[0][:2])  # the Monster may set theirs (then a 204)
    assert not any(b'value="location:' in page or b"sq-act" in page for page in (*cached[1], *cached[2]))
    fresh = []
    for client in (vox, m, z):
        cache.clear()
        fresh.append(what_one_gets(client, trial))
    assert cached == fresh
    # once the Monster has a Location too, nobody may set one: no such grid is drawn
    setp(trial, monster, location="J10")
    assert shared_board.for_game(Trial.objects.get(pk=trial.pk)).location_grid_html == ""
