"""The check every tracker whose shared part reuses pieces has: a build from the previous version's pieces
is byte for byte a build from nothing (a piece whose fingerprint misses a value it shows would fail it)."""

from __future__ import annotations

from typing import Callable

from core.games.shared_parts import SharedPart


def assert_reuse_draws_as_from_nothing(part: SharedPart, game, html: Callable[[object], object]) -> int:
    """Build ``game``'s shared part from the pieces the last build kept, and from nothing; ``html`` picks what
    is drawn. Returns how many pieces were taken rather than drawn."""
    reused, pieces = part.build_new(game)
    fresh, _ = part.build_new(game, reuse=False)
    assert html(reused) == html(fresh)
    return pieces.taken
