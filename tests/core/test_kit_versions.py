"""The game kit's versions in the shared cache: published on commit, read once from the database on a
miss, and never hidden behind an older one."""

import pytest
from django.core.cache import cache

from core.games import kit

pytestmark = pytest.mark.django_db  # on_commit needs a transaction


def test_a_miss_reads_the_database_once_and_fills_the_cache():
    calls = []

    def load(pk):
        calls.append(pk)
        return 7

    assert kit.current_version("app.game", 1, load) == 7
    assert kit.current_version("app.game", 1, load) == 7
    assert calls == [1]
    assert kit.current_version("app.game", 2, lambda pk: None) is None  # no such game: nothing cached
    assert kit.cached_version("app.game", 2) is None


def test_a_version_published_during_the_database_read_wins_over_the_older_one_read(django_capture_on_commit_callbacks):
    def load_while_a_move_commits(pk):
        with django_capture_on_commit_callbacks(execute=True):
            kit.bump_version("app.game", pk, 8)  # the move commits after this read saw 7
        return 7

    assert kit.current_version("app.game", 3, load_while_a_move_commits) == 7
    assert kit.cached_version("app.game", 3) == 8


def test_bump_drops_the_old_version_at_once_and_publishes_the_new_one_on_commit(django_capture_on_commit_callbacks):
    cache.set("game-version:app.game:4", 3)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        kit.bump_version("app.game", 4, 4)
        assert kit.cached_version("app.game", 4) is None  # a poll now reads the database, never the old 3
    assert len(callbacks) == 1
    callbacks[0]()
    assert kit.cached_version("app.game", 4) == 4
