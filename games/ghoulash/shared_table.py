"""What every seat of one version of a Ghoulash game sees alike, built once per version and shared by
every seat's poll through the kit's cache (``core.games.shared_parts``).

- the rows the table is drawn from (server-side only: the players hold every hand and deck order, the
  tokens their hidden kinds; only the presenter reads them for display);
- the public HTML, drawn for a viewer with no seat: the turn and the battle, the board (tokens face down
  unless revealed), the players' table and the latest log entries.

What only one player sees (their hand, wounds and moves, the forms with their CSRF token, and the board
while they may reveal, enter or battle on it) is drawn per request by the view from the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games import kit
from core.games.shared_parts import Pieces, SharedPart
from games.ghoulash import services
from games.ghoulash.models import Game
from games.ghoulash.presenter import public_table

NAME = "table"
# the moves drawn on the board itself: a seat allowed one of them gets its own board
BOARD_MOVES = ("move", "here", "debris_square", "hole_square")
NOBODY = {"me": None, "mine": {}, "can": {}}


@dataclass(frozen=True)
class Shared:
    game: Game
    players: list
    tokens: list
    public: dict  # the public context (the seats, tiles and battle as everyone sees them)
    top_html: str
    board_html: str
    bottom_html: str

    def html(self, part: str) -> SafeString:
        return mark_safe(getattr(self, f"{part}_html"))  # our own rendering, escaped when it was drawn


def build(game: Game, pieces: Pieces | None = None) -> Shared:
    """Drawn whole each version: ``pieces`` is not used (``SharedPart`` passes it to every build). The log
    lines are one short line each: drawn again, they cost about what fingerprinting them would save."""
    players = list(game.players.select_related("user").order_by("seat"))
    tokens = list(game.tokens.all())
    events, older = kit.latest_events(game.events.all())  # the table carries the latest entries only
    public = {**public_table(game, players, tokens, events), "older_events": older}
    context = {**public, **NOBODY}
    return Shared(
        game,
        players,
        tokens,
        public,
        render_to_string("ghoulash/_table_top.html", context),
        render_to_string("ghoulash/_table_board.html", context),
        render_to_string("ghoulash/_table_bottom.html", context),
    )


PART = SharedPart(services.LABEL, NAME, Game.objects.all, build)


def for_game(game: Game) -> Shared:
    return PART.for_game(game)


def current(pk: int) -> Shared | None:
    return PART.current(pk)
