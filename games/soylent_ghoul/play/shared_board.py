"""What every seat of one version of a game sees alike, built once per version and shared by every
seat's poll through the kit's cache (``core.games.shared_parts``).

- the rows a board is drawn from (server-side only: the pieces hold every true token, which only
  ``board`` and ``key`` read);
- the public HTML: the status (who is to play, what the game waits for), the latest log entries, and
  each seat as the other players see it, drawn from ``board`` for a viewer with no seat (no key, no
  replace button, no choices).

What only one player sees (their own seat, their choices, the forms with their CSRF token) is drawn
per request by the view from the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games import kit
from core.games.shared_parts import Pieces, SharedPart, values
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.board import board
from games.soylent_ghoul.play.models import Game

ENTRY = "soylentgames/events.html#entry"
SEAT = "soylentgames/_seat.html"
DRONE_HEAD = "soylentgames/_seat.html#drone_head"
DRONE_TOKENS = "soylentgames/_seat.html#drone_tokens"
STATUS = "soylentgames/_status.html"
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
    # the entries one by one, not joined: the same strings as the build's pieces, which pickle keeps once
    entry_html: tuple[str, ...] = ()
    seat_html: dict[int, str] = field(default_factory=dict)
    # each drone's head and tokens, the same for every viewer: the seat's own player's seat is drawn
    # around them per request
    drone_html: dict[int, tuple[str, str]] = field(default_factory=dict)
    status_html: str = ""  # who is to play and what the game waits for

    @property
    def log_html(self) -> str:
        return "".join(self.entry_html)

    def log(self) -> SafeString:
        return mark_safe(self.log_html)  # our own rendering, escaped when it was drawn

    def seat(self, seat: int) -> SafeString:
        return mark_safe(self.seat_html[seat])

    def with_drones(self, seat: dict) -> dict:
        """``seat`` (a viewer's own, from ``board``) with each drone's shared head and tokens."""
        for d in seat["drones"]:
            d["head_html"], d["tokens_html"] = (mark_safe(html) for html in self.drone_html[d["id"]])
        return seat

    def status(self) -> SafeString:
        return mark_safe(self.status_html)


def _seat_key(s: dict, waiting) -> tuple:
    """Everything a seat is drawn from: its player's fields, its pieces as the board shows them."""
    player = s["player"]
    return values(player), player.user.username, {k: v for k, v in s.items() if k != "player"}, waiting


def _entry_key(e) -> tuple:
    return e.pk, e.number, e.turn, e.undone, e.actor.username if e.actor else None, e.payload, e.seed


def _with_actors(events: list, users: dict) -> None:
    """Each entry's actor, from the seats' users already read (the rare other one in one query): cheaper
    than joining every entry with its user's row."""
    missing = {e.actor_id for e in events if e.actor_id is not None and e.actor_id not in users}
    if missing:
        users = {**users, **get_user_model().objects.in_bulk(missing)}
    for e in events:
        if e.actor_id is not None:
            e.actor = users[e.actor_id]


def build(game: Game, pieces: Pieces | None = None) -> Shared:
    """The shared part of ``game``; the seats and log entries a move left as they were are taken from
    ``pieces`` (the previous build's) rather than drawn again."""
    pieces = pieces or Pieces()
    players = list(game.players.select_related("user").order_by("seat"))
    rows = list(game.pieces.all()) if game.status != Game.SETUP else []
    # not ``before``: an engine snapshot per entry, read only by undo
    events, older = kit.latest_events(game.events.defer("before"))
    _with_actors(events, {p.user_id: p.user for p in players})
    public = board(game, players, rows, events, _NoSeat())
    waiting = public.get("waiting")
    seat_html, drone_html = {}, {}
    for s in public.get("seats", ()):
        key = repr(_seat_key(s, waiting))  # once per seat, before the drawn parts join its drones
        for d in s["drones"]:
            drone_html[d["id"]] = (
                mark_safe(pieces.render(DRONE_HEAD, {"s": s, "d": d}, (key, d["id"]))),  # escaped when drawn
                mark_safe(pieces.render(DRONE_TOKENS, {"d": d}, (key, d["id"]))),
            )
            d["head_html"], d["tokens_html"] = drone_html[d["id"]]
        seat_html[s["player"].seat] = pieces.render(SEAT, {"s": s, "game": game, "waiting": waiting}, (key,))
    entry_html = tuple(pieces.render(ENTRY, {"e": e}, _entry_key(e)) for e in events)
    standing = services.latest_standing_event(game, events)
    status_html = render_to_string(STATUS, public) if game.status != Game.SETUP else ""
    return Shared(
        game,
        players,
        rows,
        [standing] if standing is not None else [],
        events[0].number if events else None,
        older,
        entry_html=entry_html,
        seat_html=seat_html,
        drone_html=drone_html,
        status_html=status_html,
    )


PART = SharedPart(services.LABEL, NAME, Game.objects.all, build)


def for_game(game: Game) -> Shared:
    """The shared part of ``game`` as it is (a redraw after a move: the seats' polls then find it)."""
    return PART.for_game(game)


def current(pk: int) -> Shared | None:
    """The shared part of the game's current version (a poll); None for no such game."""
    return PART.current(pk)
