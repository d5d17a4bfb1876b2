"""Cybernekr0 battles in the game registry: the home tile and the user's battles in progress."""

from core.games.registry import GameEntry, InProgress

from .models import Battle


def in_progress(user, limit: int) -> list[InProgress]:
    battles = Battle.objects.for_user(user).exclude(status=Battle.Status.FINISHED)[:limit]
    return [
        InProgress(
            url=b.get_absolute_url(), name=str(b), game="Cybernekr0", state=b.get_status_display(), at=b.updated_at
        )
        for b in battles
    ]


ENTRY = GameEntry(
    slug="cybernekro-battles",
    title="Cybernekr0 battles",
    blurb="Play a Cybernekr0 game at the table: rounds, AP, exact odds before every roll, fate cards, morale.",
    home_url_name="battle-list",
    order=5,
    in_progress=in_progress,
)
