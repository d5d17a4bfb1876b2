"""Ghoulash: game boxes and the game tracker, one transactional function per change.

Every rule is the engine's (``rules.ghoulash``): a play locks the
game row (``select_for_update``), rebuilds the engine's ``Piles`` and numbers
from the rows, calls the engine, writes the result back and appends a public
``Event``. Random steps (the token deal, shuffles, replenishing, wound picks)
use ``random.Random(seed)`` with ``seed = secrets.randbits(32)`` stored on the
event; those seeds would replay hidden cards and tokens, so pages show them
only once the game is over.

Numbers come from the catalogue (``RulesEntry`` rows of "ghoulash", house
rules included) or, where the rules text has none, from the owner's game box.

This module holds the refusals, the catalogue reader, the lock, the event log
and ``act``; the rest is in modules by role: ``decks`` (cards, decks and the
box's numbers for the engine, and what stops a box being played), ``boxes``
(box editing), ``setup`` (a new game), ``state`` (rows to the engine's state),
``actions`` (one handler per play: load, call the engine, save) and
``presenter`` (the page's view). Their public names are still
reachable here (``services.create_game``) for existing callers.
"""

from __future__ import annotations

from catalogue.loader import current_system
from core.games import kit
from core.locking import run_locked
from crewbuilder.models import RulesEntry
from games.ghoulash import actions, boxes, decks, presenter, setup, state
from games.ghoulash.errors import GameError, SetupProblems  # noqa: F401 (services.SetupProblems: its callers' name)
from games.ghoulash.models import Event, Game
from games.ghoulash.moves import NO_CHOICES, Move
from games.ghoulash.permissions import check_user_is_playing
from rules import ghoulash as gh

SYSTEM = "ghoulash"
PARTS = ("characters", "encounter_tokens", "other_tokens", "cards", "rules")


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------


def catalogue() -> dict[str, list[dict]]:
    """The Ghoulash sections of the last loaded edition (house rules included): two queries."""
    system = current_system(SYSTEM)
    parts: dict[str, list[dict]] = {p: [] for p in PARTS}
    if system is None:
        return parts
    for row in RulesEntry.objects.filter(system=system, part__in=PARTS).order_by(
        "part", "house_rule", "position", "id"
    ):
        parts[row.part].append(row.to_entry())
    return parts


# ---------------------------------------------------------------------------
# Creating a game
# ---------------------------------------------------------------------------

LABEL = Game._meta.label_lower  # the key of the game's version in the cache (the polls')


def current_version(pk: int) -> int | None:
    """The game's version from the database (the polls' fallback when the cache has none)."""
    return Game.objects.filter(pk=pk).values_list("version", flat=True).first()


def _locked(pk: int, work):
    """Run ``work(game)`` in a transaction holding the game row's lock (core.locking, which bumps its
    version); the new version is published to the polls once committed."""

    def locked(game: Game):
        result = work(game)
        kit.bump_version(LABEL, game.pk, game.version)
        return result

    return run_locked(
        Game, pk, locked, missing=GameError("No such game."), busy=GameError("The game is busy: try again.")
    )


def _log(game: Game, actor, kind: str, text: str, seed: int | None = None) -> Event:
    return Event.objects.create(
        game=game,
        number=kit.next_event_number(Event.objects.filter(game=game)),
        turn=game.turn,
        actor=actor,
        kind=kind,
        text=text[:500],
        seed=seed,
    )


def act(game_pk: int, user, *, action: str, move: Move = NO_CHOICES) -> Game:
    """One player's move, its choices read by the game page's ``PlayForm``."""
    if action not in gh.ACTIONS:
        raise GameError("Unknown action.")

    def work(game: Game) -> Game:
        if game.status != Game.PLAYING:
            raise GameError("The game is over.")
        players = list(game.players.select_related("user").order_by("seat"))
        me = check_user_is_playing(user, players)
        tokens = list(game.tokens.all())
        actions.play(game, players, tokens, me, action, move)
        game.save()
        return game

    return _locked(game_pk, work)


_MOVED = (decks, boxes, setup, state, actions, presenter)


def __getattr__(name: str):
    """The names that moved to the role modules, for existing callers (``services.create_game``)."""
    for module in _MOVED:
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
