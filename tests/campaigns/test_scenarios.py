"""Organiser-defined scenarios and the random scenario generation (readings C4, C8)."""

import random
from html import escape as html_escape

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import CampaignScenario, HistoryEntry
from rules.cybernekro import scenarios as scenario_rules

pytestmark = pytest.mark.django_db


def _seed_for(number, method="deck"):
    """A seed whose first draw is ``number`` (computed with the engine, not assumed)."""
    return next(s for s in range(10_000) if scenario_rules.draw(random.Random(s), method).number == number)


def test_organiser_defines_a_scenario(campaign, user, other_user):
    scenario = services.create_scenario(
        campaign, user, name="Scrapyard Brawl", text="Fight over scrap.", draws_complication=True, card=12
    )
    assert (scenario.card_label, scenario.draws_complication) == ("Q", True)
    assert HistoryEntry.objects.get(kind="scenario-created").after["card"] == "Q"
    with pytest.raises(services.CampaignError, match="already gives “Scrapyard Brawl”"):
        services.create_scenario(campaign, user, name="Other", card=12)
    with pytest.raises(services.CampaignError, match="already a scenario called"):
        services.create_scenario(campaign, user, name="scrapyard brawl")
    with pytest.raises(services.CampaignError, match="already a scenario called"):
        services.create_scenario(campaign, user, name="Exploration")  # the rules' own
    with pytest.raises(services.CampaignError, match="Card must be between 1 and 13"):
        services.create_scenario(campaign, user, name="Joker", card=14)
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    with pytest.raises(services.CampaignError, match="Only the organiser"):
        services.create_scenario(campaign, other_user, name="Mine")
    assert CampaignScenario.objects.count() == 1


def test_draw_lands_on_the_campaign_scenario_with_that_card(campaign, user):
    services.create_scenario(campaign, user, name="Scrapyard Brawl", draws_complication=False, card=5)
    generated = services.generate_scenario(campaign, method="deck", seed=_seed_for(5))
    assert generated["card"].number == 5
    assert generated["scenario"]["name"] == "Scrapyard Brawl" and generated["scenario"]["source"] == "campaign"
    assert generated["complication_card"] is None and generated["complication"] is None  # it draws none
    assert generated["rounds"] == []


def test_draw_on_a_card_without_a_scenario_is_not_in_the_free_rules(campaign, user):
    services.create_scenario(campaign, user, name="Scrapyard Brawl", card=5)
    seed = _seed_for(7, "d12")
    generated = services.generate_scenario(campaign, method="d12", seed=seed)
    assert generated["card"].number == 7 and generated["scenario"] is None
    rng = random.Random(seed)
    scenario_rules.draw(rng, "d12")
    assert generated["complication_card"] == scenario_rules.draw(rng, "d12")  # the next draw of the same seed
    assert len(generated["rounds"]) == 6
    assert services.generate_scenario(campaign, method="d12", seed=seed) == generated  # replayable


def test_agreed_scenario_draws_a_complication_only_if_it_says_so(campaign, user):
    own = services.create_scenario(campaign, user, name="Ambush", draws_complication=True)
    quiet = services.create_scenario(campaign, user, name="Parley", draws_complication=False)
    drawn = services.generate_scenario(campaign, seed=1, pick=f"campaign:{own.pk}")
    assert drawn["card"] is None and drawn["scenario"]["name"] == "Ambush" and drawn["complication_card"] is not None
    assert services.generate_scenario(campaign, seed=1, pick=f"campaign:{quiet.pk}")["complication_card"] is None
    exploration = services.generate_scenario(campaign, seed=1, pick="rules:exploration")
    assert exploration["complication"] is not None  # the rules' scenarios say "Draw a card for a Complication"
    quick = services.generate_scenario(campaign, seed=1, pick="rules:quick-start-scenario")
    assert quick["complication_card"] is None and len(quick["rounds"]) == 6
    with pytest.raises(services.CampaignError, match="Choose one of the scenarios"):
        services.generate_scenario(campaign, seed=1, pick="campaign:999999")


def test_scenario_page_and_game_form(client, campaign, user, other_user, two_crews):
    client.force_login(user)
    client.post(
        reverse("campaign-scenario-create", args=[campaign.pk]),
        {"name": "Scrapyard Brawl", "text": "Fight over scrap.", "draws_complication": "on", "card": "5"},
    )
    scenario = CampaignScenario.objects.get()
    assert (scenario.card, scenario.draws_complication) == (5, True)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert 'Scrapyard Brawl <span class="badge">card 5</span> <span class="muted">draws a complication' in html

    url = reverse("game-create", args=[campaign.pk])
    html = client.get(f"{url}?generate=deck&seed={_seed_for(5)}").content.decode()
    assert 'Scrapyard Brawl</strong>, <span class="badge">campaign scenario</span>' in html
    assert '<option value="Scrapyard Brawl" selected>' in html
    assert "This campaign's scenarios (not in the free rules)" in html

    mine, theirs = two_crews
    response = client.post(
        url,
        {
            "played_on": "2026-11-20",
            "scenario": "Scrapyard Brawl",
            "result": "draw",
            f"played-{mine.pk}": "1",
            f"played-{theirs.pk}": "1",
        },
    )
    assert response.status_code == 302
    assert campaign.games.get().scenario == "Scrapyard Brawl"


def test_bad_generator_input_is_a_clear_message(client, campaign, user):
    client.force_login(user)
    url = reverse("game-create", args=[campaign.pk])
    response = client.get(f"{url}?generate=deck&seed=abc")
    assert response.status_code == 422 and "The seed must be a whole number" in response.content.decode()
    response = client.get(f"{url}?generate=deck&pick=campaign:424242")
    assert response.status_code == 422 and "Choose one of the scenarios" in response.content.decode()


def test_players_cannot_add_scenarios(client, campaign, user, other_user, make_user):
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    client.force_login(other_user)
    response = client.post(reverse("campaign-scenario-create", args=[campaign.pk]), {"name": "Mine"}, follow=True)
    assert "Only the organiser" in response.content.decode()
    client.force_login(make_user("outsider"))
    assert client.post(reverse("campaign-scenario-create", args=[campaign.pk]), {"name": "X"}).status_code == 404
    assert not CampaignScenario.objects.exists()


@pytest.mark.parametrize(
    ("url_name", "data", "problem"),
    [
        (
            "campaign-table-create",
            {
                "kind": "injury",
                "name": "Injuries",
                "die": "D7",
                "rows": "1-2 | Lost an eye | discipline -1\n3-6 | Fine",
            },
            "dice are D3, D4, D6",
        ),
        ("campaign-table-create", {"kind": "injury", "name": "", "die": "D6", "rows": "1-6 | Fine"}, "required"),
        ("campaign-scenario-create", {"name": "Scrapyard Brawl", "text": "Fight over scrap.", "card": "99"}, "card"),
    ],
)
def test_a_refused_table_or_scenario_keeps_what_the_organiser_typed(client, campaign, user, url_name, data, problem):
    """A bad die or a missing name sent the organiser back to an empty form: every typed row was lost."""
    client.force_login(user)
    response = client.post(reverse(url_name, args=[campaign.pk]), data)
    html = response.content.decode()
    assert response.status_code == 422 and problem in html and "Your text is kept below." in html
    assert '<details class="card" open>' in html
    for value in data.values():
        if value:
            assert html_escape(value) in html
    assert not campaign.tables.exists() and not CampaignScenario.objects.exists()
