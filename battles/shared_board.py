"""What every seat of one version of a battle sees alike, built once per version and shared by every
seat's poll (and the read-only link) through the kit's cache (``core.games.shared_parts``).

- the rows the board is drawn from (server-side only): the battle, its seats and its state read once
  (the state holds every hand and deck order; only ``board`` reads it, through ``legal.view_for``);
- the public HTML, drawn from the spectator's view (``view_for(state, None)``: no hand at all): each
  crew as the others see it, and the first page of the log (its entries taken from the previous
  version's build when unchanged).

What one seat sees (its hand of Fate cards, its options and odds, the game master's moves, the forms
with its CSRF token, its own crew's badge) is drawn per request by the view from the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games.kit import events_page
from core.games.shared_parts import Pieces, SharedPart
from rules.cybernekro.battle import codec
from rules.cybernekro.battle.state import Battle as State

from . import services
from .board import board
from .models import Battle

NAME = "board"
ENTRY = "battles/_log.html#entry"


@dataclass(frozen=True)
class Shared:
    battle: Battle
    seats: list
    state: State | None
    log_html: str
    crew_html: dict[str, str] = field(default_factory=dict)

    def crews(self, context: dict) -> list[tuple]:
        """(player, models, html) per crew for ``context``'s viewer: the shared HTML, but the viewer's own
        crew drawn for them (html empty)."""
        me = context.get("me")
        own = str(me.seat) if me is not None else None
        return [
            (player, models, "" if player.seat == own else mark_safe(self.crew_html[player.seat]))
            for player, models in context.get("models_by_seat", ())
        ]

    def log(self) -> SafeString:
        return mark_safe(self.log_html)  # our own rendering, escaped when it was drawn


def _entry_key(e) -> tuple:
    return e.pk, e.number, e.text, e.seed, e.rolls


def build(battle: Battle, pieces: Pieces | None = None) -> Shared:
    """The shared part of ``battle``; the log entries a move left as they were are taken from ``pieces``
    (the previous build's) rather than drawn again."""
    pieces = pieces or Pieces()
    seats = list(battle.seats.select_related("user").order_by("seat"))
    state = codec.loads(battle.state) if battle.state else None
    page = events_page(battle.events.all(), None)
    public = board(battle, seats, None, page, state=state)
    entry_html = mark_safe("".join(pieces.render(ENTRY, {"e": e}, _entry_key(e)) for e in page))  # escaped when drawn
    crew_html = {
        player.seat: render_to_string("battles/_crew.html", {**public, "player": player, "models": models})
        for player, models in public.get("models_by_seat", ())
    }
    log_html = render_to_string("battles/_log.html", {**public, "entry_html": entry_html})
    return Shared(battle, seats, state, log_html, crew_html)


def games():
    """The battles with what the page names of them (its campaign, scenario, game master), read at once."""
    return Battle.objects.select_related("campaign", "campaign_scenario", "game_master")


PART = SharedPart(services.LABEL, NAME, games, build)


def for_game(battle: Battle) -> Shared:
    return PART.for_game(battle)


def current(pk: int) -> Shared | None:
    return PART.current(pk)


def may_see(shared: Shared, user) -> bool:
    """A seat at the battle or its game master (as ``Battle.objects.for_user``)."""
    return user.pk == shared.battle.game_master_id or any(s.user_id == user.pk for s in shared.seats)
