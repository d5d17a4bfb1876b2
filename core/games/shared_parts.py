"""A tracker's shared part, the same way for every tracker: built by the tracker's own ``build(game)``
once per game version and kept in the kit's cache (``kit.shared_for_version`` / ``kit.shared_current``,
used as they are). What every seat sees alike goes in it; what one seat sees (a hand, its moves, a
form's CSRF token) is drawn per request by the view.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from django.db.models import Model, QuerySet

from core.games import kit

T = TypeVar("T")


def for_game(label: str, game, name: str, build: Callable[[object], T]) -> T:
    """The shared part of ``game`` as it is, e.g. the redraw after a move (the seats' polls then find it)."""
    return kit.shared_for_version(label, game.pk, game.version, name, lambda: build(game))


def current(label: str, pk: int, name: str, games: QuerySet[Model], build: Callable[[object], T]) -> T | None:
    """The shared part of the game's current version (a poll); None for no such game. On a miss the game
    is read from ``games`` and the rows after it, which are then as new or newer."""

    def load():
        game = games.filter(pk=pk).first()
        return None if game is None else (game.version, build(game))

    return kit.shared_current(label, pk, name, load)
