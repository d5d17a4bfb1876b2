"""The Ghoul role's refusals: the game kit's, with a message for people."""

from __future__ import annotations

from core.games import kit


class SheetError(kit.Refused, ValueError):
    """The action is not allowed now; the message says why, for people (the game kit's refusal)."""


class StaleSheet(kit.Stale, SheetError):
    """The action was sent from a page drawn before the sheet's last change (409)."""
