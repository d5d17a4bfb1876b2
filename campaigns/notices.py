"""What waits for a player: games recorded by someone else that count only
once the player confirms their crew's part (issue 19). Shown on the home page
and on the campaign page, so a game never waits unseen."""

from __future__ import annotations

from campaigns.models import GameCrew

SHOWN = 10  # a notice, not an archive: the campaign page lists every game


def awaiting_confirmation(user, campaign=None) -> list[GameCrew]:
    """The user's unconfirmed parts in games still waiting, newest first (one query)."""
    parts = GameCrew.objects.awaiting_confirmation_by(user)
    if campaign is not None:
        parts = parts.filter(game__campaign=campaign)
    return list(
        parts.select_related(
            "game__campaign", "game__recorded_by", "game__winner__crew", "campaign_crew__crew"
        ).order_by("-game__created_at", "-game_id")[:SHOWN]
    )
