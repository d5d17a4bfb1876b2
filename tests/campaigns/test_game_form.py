"""The game form has one scenario picker (issue 19); drawing the agreed
scenario's Complication from it records nothing and keeps every choice."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Game

pytestmark = pytest.mark.django_db


def test_one_scenario_picker(client, campaign, user, two_crews):
    client.force_login(user)
    html = client.get(reverse("game-create", args=[campaign.pk])).content.decode()
    assert 'name="pick"' not in html
    assert len(re.findall(r'<select[^>]*name="scenario"', html)) == 1
    assert 'name="draw" value="deck"' in html


def test_drawing_the_complication_of_the_chosen_scenario_keeps_the_form(client, campaign, user, two_crews):
    mine, theirs = two_crews
    services.create_scenario(campaign, user, name="Scrapyard Brawl", draws_complication=True)
    table = services.create_table(campaign, user, kind="injury", name="Scars", die="D6", rows_text="1-6 | Scarred")
    hurt = mine.crew.characters.first()
    client.force_login(user)
    response = client.post(reverse("game-create", args=[campaign.pk]), {
        "draw": "deck", "played_on": "2026-11-20", "scenario": "Scrapyard Brawl", "result": str(theirs.pk),
        f"played-{mine.pk}": "1", f"treasure-{mine.pk}": "3", f"outcome-{hurt.pk}": "ooa",
        f"table-{hurt.pk}": str(table.pk), "submission": "s" * 24,
    })
    assert response.status_code == 200 and not Game.objects.exists()
    html = response.content.decode()
    assert "Agreed scenario: <strong>Scrapyard Brawl</strong>" in html
    assert "<p>Complication (" in html and "draws no Complication" not in html  # Scrapyard Brawl draws one
    assert '<option value="Scrapyard Brawl" selected>' in html
    assert f'name="result" value="{theirs.pk}" checked' in html
    assert f'name="played-{mine.pk}" value="1" checked' in html
    assert f'name="played-{theirs.pk}" value="1" checked' not in html  # unticked stays unticked
    assert f'name="treasure-{mine.pk}" value="3"' in html
    assert '<option value="ooa" selected>' in html
    assert f'<option value="{table.pk}" selected>' in html
    assert 'name="submission" value="' + "s" * 24 + '"' in html
    assert "&amp;pick=campaign%3A" in html  # the link to this draw replays it


def test_drawing_for_your_own_scenario_says_what_to_do(client, campaign, user, two_crews):
    client.force_login(user)
    response = client.post(reverse("game-create", args=[campaign.pk]),
                           {"draw": "deck", "scenario": "Exploration", "scenario_other": "Bridge at dawn"})
    assert response.status_code == 422 and not Game.objects.exists()
    html = response.content.decode()
    assert "for your own scenario, choose its Complication" in html and 'value="Bridge at dawn"' in html
