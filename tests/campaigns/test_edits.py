"""Edits to a campaign crew go through the campaign, so each is in the history with before and after."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import HistoryEntry
from campaigns.services import reversal
from crewbuilder.models import Character, Crew

pytestmark = pytest.mark.django_db


def test_character_edit_is_logged_with_before_and_after(campaign, user, two_crews):
    mine, _ = two_crews
    character = mine.crew.characters.first()
    entry = services.edit_character(mine, user, character.pk, name="Rust Saint", notes="Scar over the eye")
    character.refresh_from_db()
    assert (character.name, character.notes) == ("Rust Saint", "Scar over the eye")
    assert entry.kind == "edit" and entry.actor == user and entry.campaign_crew == mine
    assert entry.before == {"character": character.pk, "name": "Ghoul 1", "notes": ""}
    assert entry.after == {"character": character.pk, "name": "Rust Saint", "notes": "Scar over the eye"}
    assert ("name", "Ghoul 1", "Rust Saint") in entry.changes()
    assert services.edit_character(mine, user, character.pk, name="Rust Saint", notes="Scar over the eye") is None


def test_crew_edit_and_its_reversal(campaign, user, two_crews):
    mine, _ = two_crews
    services.edit_crew(mine, user, name="Rust Saints", notes="Sworn to the road")
    crew = Crew.objects.get(pk=mine.crew_id)
    assert (crew.name, crew.notes) == ("Rust Saints", "Sworn to the road")
    reversal = services.reverse_entry(HistoryEntry.objects.get(kind="edit"), user)
    crew.refresh_from_db()
    assert (crew.name, crew.notes) == ("Saints", "")
    assert (reversal.before["name"], reversal.after["name"]) == ("Rust Saints", "Saints")


def test_edit_reversal_refused_after_a_later_edit(campaign, user, two_crews):
    mine, _ = two_crews
    character = mine.crew.characters.first()
    services.edit_character(mine, user, character.pk, name="First")
    services.edit_character(mine, user, character.pk, name="Second")
    first, second = HistoryEntry.objects.filter(kind="edit").order_by("pk")
    with pytest.raises(services.CampaignError, match="edited again since.*edited First"):
        services.reverse_entry(first, user)
    services.reverse_entry(second, user)
    services.reverse_entry(first, user)
    character.refresh_from_db()
    assert character.name == "Ghoul 1"


def test_edit_failure_applies_nothing(campaign, user, two_crews, monkeypatch):
    mine, _ = two_crews
    character = mine.crew.characters.first()
    entries = HistoryEntry.objects.count()

    def explode(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("campaigns.services.edits._log", explode)
    with pytest.raises(RuntimeError):
        services.edit_character(mine, user, character.pk, name="Lost")
    with pytest.raises(RuntimeError):
        services.edit_crew(mine, user, name="Lost")
    character.refresh_from_db()
    assert character.name == "Ghoul 1" and Crew.objects.get(pk=mine.crew_id).name == "Saints"
    assert HistoryEntry.objects.count() == entries


def test_edit_reversal_failure_applies_nothing(campaign, user, two_crews, monkeypatch):
    mine, _ = two_crews
    character = mine.crew.characters.first()
    services.edit_character(mine, user, character.pk, name="Renamed")
    entries = HistoryEntry.objects.count()
    real_log = reversal._log

    def log_then_fail(*args, **kwargs):
        real_log(*args, **kwargs)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(reversal, "_log", log_then_fail)
    with pytest.raises(RuntimeError):
        services.reverse_entry(HistoryEntry.objects.get(kind="edit"), user)
    character.refresh_from_db()
    assert character.name == "Renamed" and HistoryEntry.objects.count() == entries
    assert HistoryEntry.objects.get(kind="edit").undone_by is None


def test_players_edit_only_their_own_crew(campaign, user, other_user, two_crews):
    mine, theirs = two_crews
    with pytest.raises(services.CampaignError, match="Only the crew's player"):
        services.edit_character(theirs, user, theirs.crew.characters.first().pk, name="Hijacked")
    with pytest.raises(services.CampaignError, match="not in your campaign crew"):
        services.edit_character(mine, user, theirs.crew.characters.first().pk, name="Hijacked")
    with pytest.raises(services.CampaignError, match="Character name"):
        services.edit_character(mine, user, mine.crew.characters.first().pk, name="   ")
    assert not HistoryEntry.objects.filter(kind="edit").exists()


def test_edit_page_and_history(client, campaign, user, other_user, two_crews):
    mine, theirs = two_crews
    character = mine.crew.characters.first()
    client.force_login(user)
    shop = client.get(reverse("campaign-shop", args=[campaign.pk])).content.decode()
    assert f'id="notes-{character.pk}"' in shop
    response = client.post(
        reverse("campaign-crew-edit", args=[campaign.pk]),
        {"character": character.pk, "name": "Rust Saint", "notes": "Limps", "version": mine.crew.version},
        follow=True,
    )
    assert "Saved (see the history)" in response.content.decode()
    history = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    assert "vox edited Ghoul 1 of Saints" in history
    assert (
        "“Ghoul 1” was renamed “Rust Saint”." in history
        and "The notes on Rust Saint changed from nothing to “Limps”." in history
    )
    # the other player can only post to their own crew: a character id from mine is refused
    client.force_login(other_user)
    response = client.post(
        reverse("campaign-crew-edit", args=[campaign.pk]),
        {
            "character": character.pk,
            "name": "Hijacked",
            "notes": "",
            "version": Crew.objects.get(pk=mine.crew_id).version,
        },
        follow=True,
    )
    assert "not in your campaign crew" in response.content.decode()
    assert Character.objects.get(pk=character.pk).name == "Rust Saint"


def test_builder_editor_sends_campaign_copies_to_the_campaign(client, campaign, user, two_crews):
    mine, _ = two_crews
    client.force_login(user)
    character = mine.crew.characters.first()
    response = client.post(
        reverse("crew-edit-action", args=[mine.crew.pk, "character"]),
        {"version": mine.crew.version, "character": character.pk, "name": "Sneaky", "notes": ""},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "through the campaign" in response.content.decode()
    assert Character.objects.get(pk=character.pk).name == "Ghoul 1"
