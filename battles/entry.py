"""Cybernekr0 battles in the game registry: the home tile and the user's battles in progress."""

from django.db.models import Exists, OuterRef

from core.games.registry import GameEntry, InProgress

from .models import Battle, BattleSeat


def in_progress(user, limit: int) -> list[InProgress]:
    # An invited player has a seat and no crew yet: the home page says the battle waits for them.
    to_join = BattleSeat.objects.filter(battle=OuterRef("pk"), user=user, crew={})
    battles = (
        Battle.objects.for_user(user).exclude(status=Battle.Status.FINISHED).annotate(to_join=Exists(to_join))[:limit]
    )
    return [
        InProgress(
            url=b.get_absolute_url(),
            name=str(b),
            game="Cybernekr0",
            state="you are invited: choose your crew" if b.to_join else b.get_status_display(),
            at=b.updated_at,
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
