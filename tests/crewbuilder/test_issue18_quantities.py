"""Issue 18, bug 1: a bought second weapon is listed with its quantity everywhere."""

import json

import pytest
from django.urls import reverse

from crewbuilder.models import Crew

from .conftest import LEGAL

RAKE = {"name": "Sister Rake", "attributes": dict(LEGAL), "traits": ["ambidextrous"], "gear": ["sword"]}
OTHERS = [{"name": f"Ghoul {i}", "attributes": dict(LEGAL), "gear": ["axe"]} for i in (1, 2)]


@pytest.fixture
def rake_crew(make_crew, user):
    """Sister Rake bought a second sword through the editor's own edit (one row, copies=2)."""
    crew = make_crew(user, name="The Rust Choir", characters=[RAKE, *OTHERS])
    crew.characters.get(name="Sister Rake").gear.update(copies=2)
    return crew


def _rake_weapons(crew):
    from crewbuilder.crew_service import report_for

    report = report_for(Crew.objects.with_everything().get(pk=crew.pk))
    return {w["slug"]: w for w in report["characters"][0]["weapons"]}


def test_the_report_counts_the_copies_of_a_weapon(rake_crew):
    weapons = _rake_weapons(rake_crew)
    assert weapons["sword"]["copies"] == 2
    assert "copies" not in weapons["fists"]


def test_two_gear_rows_of_the_same_weapon_count_as_two(make_crew, user):
    crew = make_crew(user, characters=[{**RAKE, "gear": ["sword", "sword"]}, *OTHERS])
    assert _rake_weapons(crew)["sword"]["copies"] == 2


def test_crew_page_and_share_page_show_two_swords(client, user, rake_crew):
    client.force_login(user)
    html = client.get(reverse("crew-detail", args=[rake_crew.pk])).content.decode()
    assert "sword ×2" in html
    rake_crew.share_token = "rake-share-token"
    rake_crew.save(update_fields=["share_token"])
    client.logout()
    shared = client.get(reverse("crew-shared", args=["rake-share-token"])).content.decode()
    assert "sword ×2" in shared


def test_one_sword_shows_no_quantity(client, user, make_crew):
    crew = make_crew(user, characters=[RAKE, *OTHERS])
    client.force_login(user)
    html = client.get(reverse("crew-detail", args=[crew.pk])).content.decode()
    assert "sword ×" not in html and "sword</td>" in html


def test_crew_file_lists_the_sword_twice(client, user, rake_crew):
    client.force_login(user)
    data = json.loads(client.get(reverse("crew-export", args=[rake_crew.pk])).content)
    assert data["characters"][0]["gear"] == ["sword", "sword"]  # crew-format.md: repeated once per copy


def test_roster_pdf_text_shows_two_swords(client, user, rake_crew):
    from io import BytesIO

    from pypdf import PdfReader

    client.force_login(user)
    response = client.get(reverse("crew-roster", args=[rake_crew.pk]))
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(response.content)).pages)
    assert "Sword ×2" in text


def test_dice_assistant_offers_the_swords_with_their_quantity(client, user, rake_crew):
    client.force_login(user)
    rake = rake_crew.characters.get(name="Sister Rake")
    html = client.get(reverse("dice-home"), {"attacker": f"crew:{rake.pk}"}).content.decode()
    assert "Sword ×2" in html or "sword ×2" in html
