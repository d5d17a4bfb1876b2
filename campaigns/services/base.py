"""What every campaign service shares: the refusal, the history entry, the catalogue."""

from __future__ import annotations

import functools

from campaigns.errors import CampaignError
from campaigns.models import Campaign, HistoryEntry
from catalogue.loader import snapshot_for_system
from crewbuilder import crew_edits


def log(
    campaign, actor, kind, summary, *, crew=None, before=None, after=None, reverses=None, game=None
) -> HistoryEntry:
    return HistoryEntry.objects.create(
        campaign=campaign,
        campaign_crew=crew,
        actor=actor,
        kind=kind,
        summary=summary[:300],
        before=before or {},
        after=after or {},
        reverses=reverses,
        game=game,
    )


def people_errors(function):
    """Input checks borrowed from the builder raise EditError; callers of this package get CampaignError."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except crew_edits.EditError as exc:
            raise CampaignError(str(exc)) from None

    return wrapper


def catalogue_for(campaign: Campaign):
    """The campaign's catalogue snapshot (cached per catalogue version: no query when warm)."""
    return snapshot_for_system(campaign.system)
