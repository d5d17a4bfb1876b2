"""A tracker's shared part, the one way every tracker builds it: what every seat of one game version
sees alike, built once per version by the tracker's own ``build(game, pieces)`` and kept in the shared
cache, one entry per game, for every other seat's poll (``SharedPart``).

What every seat sees alike goes in it: the rows a board is drawn from (server-side only) and the public
HTML, drawn for a viewer with no seat. What one seat sees (a hand, its moves, a form's CSRF token) is
drawn per request by the view and never stored here.

A build draws its HTML in pieces (``Pieces.render``: a seat, a log entry), each under a fingerprint of
everything it shows; a piece the previous version's build drew under the same fingerprint is taken as it
is, so a move redraws only what it changed. Each tracker that reuses pieces has a test comparing a build
from the previous version with a build from nothing (``tests/shared_parts_check.py``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Generic, Mapping, TypeVar

from django.core.cache import cache
from django.db.models import Model, QuerySet
from django.template.loader import render_to_string

from core.games import kit

T = TypeVar("T")

# The seats of a table poll a new version within one poll interval of each other; a part kept longer
# is only read again by a page drawn late. One entry per game and part, overwritten by the next version.
SHARED_TTL = 120


def values(row: Model) -> tuple:
    """A row's own field values, for a fingerprint (a model instance's repr names it, not its values)."""
    return tuple(getattr(row, f.attname) for f in row._meta.concrete_fields)


class Pieces:
    """The HTML pieces of one build, each keyed by a fingerprint of its template and everything it shows.
    ``previous``: the pieces of the last build of the same game and part, taken when their fingerprint
    comes again. ``taken`` counts them (tests read it)."""

    def __init__(self, previous: Mapping[bytes, str] | None = None):
        self._previous = previous or {}
        self.drawn: dict[bytes, str] = {}
        self.taken = 0

    def render(self, template: str, context: dict, key: tuple) -> str:
        """``template`` drawn with ``context``, or the previous build's piece drawn under the same key.
        ``key`` must hold every value the piece shows, as plain values (``values(row)`` for a row): a
        piece whose key misses one keeps showing its old value."""
        fingerprint = hashlib.blake2b(repr((template, key)).encode(), digest_size=16).digest()
        html = self._previous.get(fingerprint)
        if html is None:
            html = render_to_string(template, context)
        else:
            self.taken += 1
        self.drawn[fingerprint] = html
        return html


@dataclass(frozen=True)
class SharedPart(Generic[T]):
    """One tracker's shared part: ``build(game, pieces)`` makes it from a game read from ``games()``.

    The cache entry is (version, value, pieces): the version is part of it, so a later move never gets
    an older entry (it is rebuilt and overwrites it); the pieces ride along for the next version's build
    (the value holds the same strings, which pickle stores once)."""

    label: str  # the tracker's kit label (its versions' key)
    name: str
    games: Callable[[], QuerySet]
    build: Callable[[Any, Pieces], T]

    def for_game(self, game) -> T:
        """The shared part of ``game`` as it is, e.g. the redraw after a move (the seats' polls then find it)."""
        version, value, drawn = self._held(game.pk)
        if version == game.version:
            return value
        return self._build_and_keep(game, drawn)

    def current(self, pk: int) -> T | None:
        """The shared part of the game's current version (a poll), the version taken from the cache without
        a query; None for no such game. On a miss the game is read first, so the rows the build reads after
        it are as new or newer; a move committed after that is caught by the next poll."""
        version = kit.cached_version(self.label, pk)
        held_version, value, drawn = self._held(pk)
        if version is not None and held_version == version:
            return value
        game = self.games().filter(pk=pk).first()
        if game is None:
            return None
        value = self._build_and_keep(game, drawn)
        kit.publish_read_version(self.label, pk, game.version)
        return value

    def kept(self, pk: int, version: int) -> T | None:
        """What the cache holds as the shared part of that version of the game (None if nothing)."""
        held_version, value, _ = self._held(pk)
        return value if held_version == version else None

    def keep(self, game, value: T, drawn: Mapping[bytes, str] | None = None) -> None:
        """Keep ``value`` as the shared part of ``game``'s version (and ``drawn``, its build's pieces)."""
        cache.set(self._key(game.pk), (game.version, value, dict(drawn or {})), timeout=SHARED_TTL)

    def build_new(self, game, reuse: bool = True) -> tuple[T, Pieces]:
        """Build the shared part of ``game`` now, taking the pieces of the last build kept (from nothing
        without ``reuse``); nothing is kept. Returns the value and its pieces."""
        pieces = Pieces(self._held(game.pk)[2] if reuse else None)
        return self.build(game, pieces), pieces

    def _build_and_keep(self, game, previous: Mapping[bytes, str]) -> T:
        # pieces are fingerprinted: those of any version (older, or newer if a slower worker overwrote
        # the entry meanwhile) are safe to take
        pieces = Pieces(previous)
        value = self.build(game, pieces)
        self.keep(game, value, pieces.drawn)
        return value

    def _held(self, pk: int) -> tuple[int | None, Any, Mapping[bytes, str]]:
        held = cache.get(self._key(pk))
        if isinstance(held, tuple) and len(held) == 3:
            return held
        return None, None, {}

    def _key(self, pk: int) -> str:
        return shared_key(self.label, pk, self.name)


def shared_key(label: str, pk: int, name: str) -> str:
    return f"game-shared:{label}:{pk}:{name}"
