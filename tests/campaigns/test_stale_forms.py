"""A form from an older tab never overwrites newer data (issue 17, finding 6):
the campaign crew's and its characters' names and notes answer 409, keep the
newer values, and show what the player typed."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import HistoryEntry
from crewbuilder.models import Character, Crew

pytestmark = pytest.mark.django_db


def _form_version(html: str) -> str:
    versions = set(re.findall(r'name="version" value="(\d+)"', html))
    assert len(versions) == 1, versions  # every form on the page carries the page's one version
    return versions.pop()


def _open_tab(client, campaign) -> str:
    return _form_version(client.get(reverse("campaign-shop", args=[campaign.pk])).content.decode())


def test_older_tab_cannot_overwrite_the_crew_name_and_notes(client, campaign, user, two_crews):
    mine, _ = two_crews
    client.force_login(user)
    url = reverse("campaign-crew-edit", args=[campaign.pk])
    old_tab, new_tab = _open_tab(client, campaign), _open_tab(client, campaign)
    response = client.post(url, {"name": "Rust Saints", "notes": "Sworn to the road", "version": new_tab})
    assert response.status_code == 302
    response = client.post(url, {"name": "Saints of Old", "notes": "Typed in the old tab", "version": old_tab})
    assert response.status_code == 409
    html = response.content.decode()
    assert "This crew changed elsewhere" in html and "not saved" in html
    assert "Saints of Old" in html and "Typed in the old tab" in html  # the player's text is not lost
    crew = Crew.objects.get(pk=mine.crew_id)
    assert (crew.name, crew.notes) == ("Rust Saints", "Sworn to the road")
    assert HistoryEntry.objects.filter(kind="edit").count() == 1
    # reloaded, the form carries the new version and saves
    response = client.post(url, {"name": "Saints of Old", "notes": "", "version": _open_tab(client, campaign)})
    assert response.status_code == 302 and Crew.objects.get(pk=mine.crew_id).name == "Saints of Old"


def test_older_tab_cannot_overwrite_a_characters_name_and_notes(client, campaign, user, two_crews):
    mine, _ = two_crews
    character = mine.crew.characters.first()
    client.force_login(user)
    url = reverse("campaign-crew-edit", args=[campaign.pk])
    old_tab, new_tab = _open_tab(client, campaign), _open_tab(client, campaign)
    assert (
        client.post(
            url, {"character": character.pk, "name": "Rust Saint", "notes": "Limps", "version": new_tab}
        ).status_code
        == 302
    )
    response = client.post(url, {"character": character.pk, "name": "Ghoul 1", "notes": "", "version": old_tab})
    assert response.status_code == 409
    character.refresh_from_db()
    assert (character.name, character.notes) == ("Rust Saint", "Limps")


def test_a_change_made_by_the_campaign_makes_the_form_stale(client, campaign, user, two_crews):
    """A purchase between loading the form and saving it is newer data too."""
    mine, _ = two_crews
    client.force_login(user)
    tab = _open_tab(client, campaign)
    services.edit_character(mine, user, mine.crew.characters.first().pk, notes="Written on another device")
    response = client.post(
        reverse("campaign-crew-edit", args=[campaign.pk]),
        {"name": "Saints", "notes": "From the stale tab", "version": tab},
    )
    assert response.status_code == 409
    assert Crew.objects.get(pk=mine.crew_id).notes == ""


@pytest.mark.parametrize("version", [None, "", "abc", "-1"])
def test_a_form_without_a_usable_version_is_refused_not_saved(client, campaign, user, two_crews, version):
    mine, _ = two_crews
    client.force_login(user)
    data = {"name": "No version", "notes": ""} | ({} if version is None else {"version": version})
    response = client.post(reverse("campaign-crew-edit", args=[campaign.pk]), data)
    assert response.status_code == 409
    assert Crew.objects.get(pk=mine.crew_id).name == "Saints"


def test_saving_what_is_already_stored_is_not_a_conflict(client, campaign, user, two_crews):
    mine, _ = two_crews
    client.force_login(user)
    tab = _open_tab(client, campaign)
    services.edit_crew(mine, user, notes="newer")
    response = client.post(
        reverse("campaign-crew-edit", args=[campaign.pk]),
        {"name": "Saints", "notes": "newer", "version": tab},
        follow=True,
    )
    assert response.status_code == 200 and "Nothing changed" in response.content.decode()
    assert Character.objects.filter(crew_id=mine.crew_id).count() == 3
