"""Ghoulash in the game registry."""

from django.urls import reverse

from core.games.registry import GameEntry, InProgress

from .models import Game


def in_progress(user, limit: int) -> list[InProgress]:
    games = Game.objects.filter(players__user=user, status=Game.PLAYING).distinct()[:limit]
    return [
        InProgress(
            url=reverse("ghoulash-game", args=[game.pk]),
            name=game.name,
            game="Ghoulash",
            state=game.get_status_display(),
            at=game.created_at,
        )
        for game in games
    ]


ENTRY = GameEntry(
    slug="ghoulash",
    title="Ghoulash",
    blurb="Character decks and a game tracker with hidden hands and encounter tokens.",
    home_url_name="ghoulash-home",
    order=30,
    in_progress=in_progress,
    pdf_kinds=("decks",),
)
