"""The limits of crewbuilder/limits.py at every entry point (issue 17, finding 1)."""

import pytest
from django.urls import reverse

from crewbuilder import limits

pytestmark = pytest.mark.django_db


def _post_edit(client, crew, action, **data):
    crew.refresh_from_db()
    data.setdefault("version", crew.version)
    return client.post(reverse("crew-edit-action", args=[crew.pk, action]), data, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize(
    "action, slug, field, most, message",
    [
        ("add-gear", "knife", "gear", limits.GEAR_MAX_PER_CHARACTER, "at most 22 items"),
        ("add-trait", "small", "traits", limits.TRAITS_MAX_PER_CHARACTER, "at most 21 traits"),
        ("add-body-mod", "neural-cabling", "body_mods", limits.BODY_MODS_MAX_PER_CHARACTER, "at most 10 body-mods"),
    ],
)
def test_the_editor_stops_at_the_limit_with_a_message(client, user, make_crew, action, slug, field, most, message):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    character = crew.characters.get()
    for _ in range(most):
        assert _post_edit(client, crew, action, character=character.pk, slug=slug).status_code == 200
    response = _post_edit(client, crew, action, character=character.pk, slug=slug)
    assert response.status_code == 422
    assert message in response.content.decode()
    rows = getattr(character, field)
    count = sum(rows.values_list("copies", flat=True)) if field == "gear" else rows.count()
    assert count == most


def test_the_editor_stops_at_twelve_characters(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": f"C{i}"} for i in range(limits.CHARACTERS_MAX)])
    client.force_login(user)
    response = _post_edit(client, crew, "add-character", name="One too many")
    assert response.status_code == 422
    assert f"at most {limits.CHARACTERS_MAX} characters" in response.content.decode()
    assert crew.characters.count() == limits.CHARACTERS_MAX


def test_character_notes_over_the_limit_are_refused_and_kept_in_the_form(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    character = crew.characters.get()
    notes = "n" * (limits.CHARACTER_NOTES_MAX + 1)
    response = _post_edit(client, crew, "character", character=character.pk, name="Vox", notes=notes)
    assert response.status_code == 422
    assert f"the limit is {limits.CHARACTER_NOTES_MAX}" in response.content.decode()
    character.refresh_from_db()
    assert character.notes == ""
    ok = _post_edit(
        client, crew, "character", character=character.pk, name="Vox", notes="n" * limits.CHARACTER_NOTES_MAX
    )
    assert ok.status_code == 200


def test_a_campaign_description_over_the_limit_is_refused_and_kept(client, user, catalogue):
    from campaigns.models import Campaign

    client.force_login(user)
    description = "d" * (limits.CAMPAIGN_DESCRIPTION_MAX + 1)
    response = client.post(
        reverse("campaign-list"), {"name": "Long", "description": description, "starting_budget": 150}
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert f"at most {limits.CAMPAIGN_DESCRIPTION_MAX} characters" in html
    assert description in html  # the player's text is kept in the form
    assert not Campaign.objects.exists()
    ok = client.post(
        reverse("campaign-list"), {"name": "Long", "description": description[:-1], "starting_budget": 150}
    )
    assert ok.status_code == 302
    assert len(Campaign.objects.get().description) == limits.CAMPAIGN_DESCRIPTION_MAX


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("text", "t" * (limits.CARD_TEXT_MAX + 1), f"at most {limits.CARD_TEXT_MAX} characters"),
        ("count", str(limits.CARD_COUNT_MAX + 1), f"less than or equal to {limits.CARD_COUNT_MAX}"),
    ],
)
def test_a_ghoulash_card_over_the_limit_is_refused(client, user, field, value, message):
    from django.core.management import call_command

    from games.ghoulash import services

    call_command("loadcatalogue", verbosity=0)
    box = services.create_box(user, "Box")
    client.force_login(user)
    ok = {"character": "lake", "card_type": "action", "name": "Big card", "value": "", "count": "1", "text": ""}
    add = reverse("ghoulash-card-add", args=[box.pk])
    response = client.post(add, {**ok, field: value})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not box.cards.filter(name="Big card").exists()
