"""The check every tracker whose shared part reuses pieces has: a build from the previous version's pieces
is byte for byte a build from nothing (a piece whose fingerprint misses a value it shows would fail it)."""

from __future__ import annotations

from typing import Callable

from core.games.shared_parts import Pieces, SharedPart


class ReuseCheck:
    """Called with the game after each move: builds its shared part from the pieces of the build at the
    previous call (not from the cache, which a move's redraw may already have filled for this version)
    and from nothing, compares what ``html`` picks of each, and returns how many pieces were taken."""

    def __init__(self, part: SharedPart, html: Callable[[object], object]):
        self.part, self.html = part, html
        self.previous: dict[bytes, str] | None = None

    def __call__(self, game) -> int:
        pieces = Pieces(self.previous)
        reused = self.part.build(game, pieces)
        assert self.html(reused) == self.html(self.part.build(game, Pieces()))
        self.previous = pieces.drawn
        return pieces.taken
