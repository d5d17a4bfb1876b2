"""The player renames their campaign crew or a character, or changes notes."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import CampaignCrew, HistoryEntry
from campaigns.permissions import check_user_can_edit_crew
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from campaigns.services.base import people_errors as _people_errors
from crewbuilder import crew_edits
from crewbuilder.models import Character, Crew


@_people_errors
@transaction.atomic
def edit_crew(entry: CampaignCrew, actor, *, name=None, notes=None, expected_version=None) -> HistoryEntry | None:
    """Rename the campaign crew or change its notes; logged with before and after.

    ``expected_version`` is the crew version the form was rendered with: when
    the crew changed since (another tab, a purchase, a game), this raises
    ``crew_edits.StaleCrew`` and nothing is saved (issue 17, finding 6).
    """
    check_user_can_edit_crew(actor, entry)
    crew = Crew.objects.select_for_update().get(pk=entry.crew_id)
    before = {"crew": crew.pk, "name": crew.name, "notes": crew.notes}
    if name is not None:
        crew.name = crew_edits._clean_text(name, "Crew name", crew_edits.NAME_MAX, required=True)
    if notes is not None:
        crew.notes = crew_edits._clean_text(notes, "Notes", crew_edits.NOTES_MAX, required=False)
    after = {"crew": crew.pk, "name": crew.name, "notes": crew.notes}
    if after == before:
        return None
    _claim_crew_version(crew, expected_version)
    crew.save(update_fields=["name", "notes", "updated_at"])
    return _log(
        entry.campaign,
        actor,
        "edit",
        f"{actor.username} edited the crew “{crew.name}”.",
        crew=entry,
        before=before,
        after=after,
    )


@_people_errors
@transaction.atomic
def edit_character(
    entry: CampaignCrew, actor, character_id, *, name=None, notes=None, expected_version=None
) -> HistoryEntry | None:
    """Rename a character of the campaign crew or change its notes; logged with before and after.

    ``expected_version``: as for ``edit_crew``, a stale form raises ``crew_edits.StaleCrew``."""
    check_user_can_edit_crew(actor, entry)
    crew = Crew.objects.select_for_update().get(pk=entry.crew_id)
    try:
        character = Character.objects.select_for_update().get(pk=int(character_id), crew=crew)
    except (TypeError, ValueError, Character.DoesNotExist):
        raise CampaignError("That character is not in your campaign crew.") from None
    before = {"character": character.pk, "name": character.name, "notes": character.notes}
    if name is not None:
        character.name = crew_edits._clean_text(name, "Character name", crew_edits.NAME_MAX, required=True)
    if notes is not None:
        character.notes = crew_edits._clean_text(notes, "Notes", crew_edits.NOTES_MAX, required=False)
    after = {"character": character.pk, "name": character.name, "notes": character.notes}
    if after == before:
        return None
    _claim_crew_version(crew, expected_version)
    character.save(update_fields=["name", "notes"])
    crew_edits.house_rules_follow_the_name(crew, before["name"], character.name)
    return _log(
        entry.campaign,
        actor,
        "edit",
        f"{actor.username} edited {before['name']} of {crew.name}.",
        crew=entry,
        before=before,
        after=after,
    )


def _claim_crew_version(crew: Crew, expected_version) -> None:
    """Bump the crew's version in one conditional UPDATE (atomic on SQLite too); a
    form rendered from an older version raises StaleCrew. ``None``: no form, no check."""
    crew_edits.claim_version(crew.pk, crew.version if expected_version is None else expected_version)
    crew.version += 1
