"""Soylent Ghoul games in the game registry: the user's games in progress."""

from core.games.registry import InProgress

from .models import Game


def in_progress(user, limit: int) -> list[InProgress]:
    games = Game.objects.filter(players__user=user).exclude(status=Game.FINISHED).distinct()[:limit]
    return [
        InProgress(
            url=game.get_absolute_url(),
            name=str(game),
            game="Soylent Ghoul",
            state=game.get_status_display(),
            at=game.created_at,
        )
        for game in games
    ]
