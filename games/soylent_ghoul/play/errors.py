"""The refusals of a Soylent Ghoul game, apart so that the permissions and the services both raise them."""

from __future__ import annotations

from core.games import kit


class GameError(kit.Refused):
    """A refusal with a message for the player."""


class StaleVersion(kit.Stale, GameError):
    """The game moved on since the page was drawn."""
