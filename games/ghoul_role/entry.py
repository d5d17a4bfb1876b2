"""The Ghoul role in the game registry."""

from django.urls import reverse

from core.games.registry import GameEntry, InProgress

from .models import GhoulSheet


def in_progress(user, limit: int) -> list[InProgress]:
    sheets = GhoulSheet.objects.owned_by(user).in_progress().order_by("-id")[:limit]
    return [
        InProgress(
            url=reverse("ghoulrole-sheet", args=[sheet.pk]),
            name=sheet.name or str(sheet),
            game="The Ghoul role",
            state=f"turn {sheet.turn}",
            at=sheet.created_at,
        )
        for sheet in sheets
    ]


ENTRY = GameEntry(
    slug="ghoul-role",
    title="The Ghoul role",
    blurb="A role sheet for the Cave's Ghoul and the Vile Ghoul: goals, Ghoul dice, Fury and Terror cards.",
    home_url_name="ghoulrole-home",
    order=20,
    in_progress=in_progress,
)
