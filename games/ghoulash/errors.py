"""The refusals of Ghoulash, apart so that the permissions, the services and their role modules all raise them."""

from __future__ import annotations

from core.games import kit


class GameError(kit.Refused):
    """A refused change, with a message for the player."""


class SetupProblems(GameError):
    """A game box not ready for these characters: every gap at once (``problems``), not one per try."""

    def __init__(self, problems: list[str]):
        super().__init__("The game box is not ready for this game: " + " ".join(problems))
        self.problems = problems
