"""What every seat of one version of a game sees alike, built once per version and shared by every
seat's poll through the kit's cache (``core.games.kit.shared_for_version``).

- the rows a board is drawn from (server-side only: the pieces hold every true token, which only
  ``board`` and ``key`` read);
- the public HTML: the latest log entries, and each seat as the other players see it, drawn from
  ``board`` for a viewer with no seat (no key, no replace button, no choices).

What only one player sees (their own seat, their choices, the forms with their CSRF token) is drawn
per request by the view from the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games import kit
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.board import board
from games.soylent_ghoul.play.models import Game

EVENTS = "soylentgames/events.html"
SEAT = "soylentgames/_seat.html"
NAME = "board"


class _NoSeat:
    """A viewer with no seat at any game: what ``board`` shows them is what everyone sees."""

    pk = None


@dataclass(frozen=True)
class Shared:
    game: Game
    players: list
    pieces: list
    events: list
    older_events: bool
    log_html: str = ""
    seat_html: dict[int, str] = field(default_factory=dict)

    def log(self) -> SafeString:
        return mark_safe(self.log_html)  # our own rendering, escaped when it was drawn

    def seat(self, seat: int) -> SafeString:
        return mark_safe(self.seat_html[seat])


def build(game: Game) -> Shared:
    players = list(game.players.select_related("user").order_by("seat"))
    pieces = list(game.pieces.all()) if game.status != Game.SETUP else []
    # not ``before``: an engine snapshot per entry, read only by undo
    events, older = kit.latest_events(game.events.select_related("actor").defer("before"))
    public = board(game, players, pieces, events, _NoSeat())
    seat_html = {
        s["player"].seat: render_to_string(SEAT, {"s": s, "game": game, "waiting": public.get("waiting")})
        for s in public.get("seats", ())
    }
    log_html = render_to_string(EVENTS, {"entries": events})
    return Shared(game, players, pieces, events, older, log_html, seat_html)


def for_game(game: Game) -> Shared:
    """The shared part of ``game`` as it is (a redraw after a move: the seats' polls then find it)."""
    return kit.shared_for_version(services.LABEL, game.pk, game.version, NAME, lambda: build(game))


def current(pk: int) -> Shared | None:
    """The shared part of the game's current version (a poll); None for no such game."""

    def load():
        game = Game.objects.filter(pk=pk).first()  # first: the rows after it are as new or newer
        return None if game is None else (game.version, build(game))

    return kit.shared_current(services.LABEL, pk, NAME, load)
