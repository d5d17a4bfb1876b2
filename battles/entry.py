"""Cybernekr0 battles in the game registry: the home tile and the user's battles in progress."""

from django.db.models import Q

from core.games.registry import GameEntry, InProgress

from .models import Battle


def in_progress(user, limit: int) -> list[InProgress]:
    mine = Q(seats__user=user) | Q(game_master=user)  # played in, or run as the game master
    battles = Battle.objects.filter(mine).exclude(status=Battle.FINISHED).distinct()[:limit]
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
