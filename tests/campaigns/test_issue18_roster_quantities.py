"""Issue 18, bug 1: the campaign roster lists each character's items with their quantities."""

from io import BytesIO

from django.urls import reverse
from pypdf import PdfReader

from campaigns import services
from crewbuilder.models import CharacterGear

from .conftest import LEGAL

RAKE = {"name": "Sister Rake", "attributes": dict(LEGAL), "traits": ["ambidextrous"], "gear": ["sword", "light-armor"]}


def test_the_campaign_roster_shows_two_swords(client, campaign, user, make_crew):
    crew = make_crew(
        user,
        name="The Rust Choir",
        characters=[RAKE, *({"name": f"G{i}", "attributes": dict(LEGAL)} for i in range(2))],
    )
    crew.characters.get(name="Sister Rake").gear.filter(item__slug="sword").update(copies=2)
    entry = services.enrol(campaign, user, crew)
    copy = entry.crew if hasattr(entry, "crew") else entry
    assert CharacterGear.objects.filter(character__crew=copy, item__slug="sword", copies=2).exists()
    client.force_login(user)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert '<span class="roster-gear">sword ×2, light armor</span>' in html
    pdf = client.get(reverse("campaign-summary-pdf", args=[campaign.pk]), {"paper": "A4"}).content
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    assert "sword ×2" in text
