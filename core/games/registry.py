"""The games the site offers, each registered by its own app from ``AppConfig.ready()``.

The core and the crew builder read this registry instead of importing the game
apps, so a game plugs in its home tile, its "games in progress", the page for a
crew of its system and its printable crew files without the core knowing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Iterable


@dataclass(frozen=True)
class InProgress:
    """One game a user plays that is not over, as the home page lists it."""

    url: str
    name: str
    game: str
    state: str
    at: datetime


@dataclass(frozen=True)
class CrewList:
    """A game's own crews in "My crews" (Soylent Ghoul's drone sets, say)."""

    title: str
    template: str  # renders ``rows`` (what ``rows(user)`` returns)
    rows: Callable[[object], Iterable]


@dataclass(frozen=True)
class GameEntry:
    slug: str
    title: str
    blurb: str
    home_url_name: str
    order: int = 100
    # (user, limit) -> the user's unfinished games, newest first
    in_progress: Callable[[object, int], Iterable[InProgress]] | None = None
    # crews of this rules system (crewbuilder.Crew.system.slug) belong to this game's pages
    crew_system: str | None = None
    # (crew, share token or None) -> the URL of that crew's page in this game
    crew_url: Callable[[object, str | None], str] | None = None
    crew_list: CrewList | None = None
    # (crew-file bytes, paper) -> (pdf bytes, report, exit code) for this system's crew files
    crew_file_pdf: Callable[[bytes, str], tuple] | None = None
    pdf_kinds: tuple[str, ...] = field(default=())


_GAMES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> None:
    _GAMES[entry.slug] = entry


def games() -> list[GameEntry]:
    return sorted(_GAMES.values(), key=lambda g: (g.order, g.title))


def for_crew_system(system_slug: str) -> GameEntry | None:
    return next((g for g in _GAMES.values() if g.crew_system == system_slug), None)


def in_progress(user, limit: int) -> list[InProgress]:
    """Every registered game's unfinished games for ``user``, newest first."""
    found: list[InProgress] = []
    for game in games():
        if game.in_progress is not None:
            found.extend(game.in_progress(user, limit))
    return sorted(found, key=lambda g: g.at, reverse=True)
