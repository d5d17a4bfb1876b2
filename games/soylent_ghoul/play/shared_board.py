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

import hashlib
from dataclasses import dataclass, field
from functools import partial

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games import kit
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.board import board
from games.soylent_ghoul.play.models import Game

ENTRY = "soylentgames/events.html#entry"
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
    # of the log, only what a board needs beside the drawn entries: not every entry's row in every poll
    standing: list  # the latest entry still standing ([] for none): the one its maker may undo
    newest: int | None  # the newest entry's number
    older_events: bool
    log_html: str = ""
    seat_html: dict[int, str] = field(default_factory=dict)
    # every part drawn, keyed by what it is drawn from: the next version's build reuses those unchanged
    drawn_seats: dict = field(default_factory=dict)
    drawn_entries: dict = field(default_factory=dict)

    def log(self) -> SafeString:
        return mark_safe(self.log_html)  # our own rendering, escaped when it was drawn

    def seat(self, seat: int) -> SafeString:
        return mark_safe(self.seat_html[seat])


def _digest(*values) -> bytes:
    return hashlib.blake2b(repr(values).encode(), digest_size=16).digest()


def _seat_key(s: dict, waiting) -> bytes:
    """Everything a seat is drawn from: its player's fields, its pieces as the board shows them."""
    player = s["player"]
    fields = [getattr(player, f.attname) for f in player._meta.concrete_fields]
    return _digest("seat", fields, player.user.username, {k: v for k, v in s.items() if k != "player"}, waiting)


def _entry_key(e) -> bytes:
    return _digest("entry", e.pk, e.number, e.turn, e.undone, e.actor.username if e.actor else None, e.payload, e.seed)


def build(game: Game, previous: Shared | None = None) -> Shared:
    """The shared part of ``game``; the seats and log entries a move left as they were are taken from
    ``previous`` (another version's) rather than drawn again."""
    players = list(game.players.select_related("user").order_by("seat"))
    pieces = list(game.pieces.all()) if game.status != Game.SETUP else []
    # not ``before``: an engine snapshot per entry, read only by undo
    events, older = kit.latest_events(game.events.select_related("actor").defer("before"))
    public = board(game, players, pieces, events, _NoSeat())
    waiting = public.get("waiting")
    if not isinstance(previous, Shared) or previous.game.pk != game.pk:
        previous = None
    seats = [(s["player"].seat, _seat_key(s, waiting), s) for s in public.get("seats", ())]
    drawn_seats = kit.reuse_drawn(
        previous and previous.drawn_seats,
        ((key, partial(render_to_string, SEAT, {"s": s, "game": game, "waiting": waiting})) for _, key, s in seats),
    )
    entries = [(_entry_key(e), e) for e in events]
    drawn_entries = kit.reuse_drawn(
        previous and previous.drawn_entries,
        ((key, partial(render_to_string, ENTRY, {"e": e})) for key, e in entries),
    )
    standing = services.latest_standing_event(game, events)
    return Shared(
        game,
        players,
        pieces,
        [standing] if standing is not None else [],
        events[0].number if events else None,
        older,
        log_html="".join(drawn_entries[key] for key, _ in entries),
        seat_html={seat: drawn_seats[key] for seat, key, _ in seats},
        drawn_seats=drawn_seats,
        drawn_entries=drawn_entries,
    )


def for_game(game: Game) -> Shared:
    """The shared part of ``game`` as it is (a redraw after a move: the seats' polls then find it)."""
    return kit.shared_for_version(
        services.LABEL,
        game.pk,
        game.version,
        NAME,
        lambda: build(game, kit.shared_previous(services.LABEL, game.pk, NAME)),
    )


def current(pk: int) -> Shared | None:
    """The shared part of the game's current version (a poll); None for no such game."""

    def load():
        game = Game.objects.filter(pk=pk).first()  # first: the rows after it are as new or newer
        return None if game is None else (game.version, build(game, kit.shared_previous(services.LABEL, pk, NAME)))

    return kit.shared_current(services.LABEL, pk, NAME, load)
