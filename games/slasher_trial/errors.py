"""The refusals of a Slasher trial, apart so that the permissions and the services both raise them."""

from __future__ import annotations

from core.games import kit


class TrialError(kit.Refused):
    """A refused change, with a message for the player."""
