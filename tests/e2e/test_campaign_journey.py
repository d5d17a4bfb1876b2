"""Two players in two browsers run a campaign game from invitation to timeline."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import assert_fits_a_phone, log_in

PASSWORD = "neon-bones-1138"
LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _crew(user, name):
    from crewbuilder.models import Character, CharacterGear, Crew, GameSystem, Item

    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=user, system=system, name=name)
    for i in range(3):
        ch = Character.objects.create(crew=crew, name=f"{name} {i + 1}", position=i, **LEGAL)
        CharacterGear.objects.create(character=ch, item=Item.objects.get(system=system, slug="light-armor"))
    return crew


def _login(browser: Browser, server_url: str, username: str) -> Page:
    return log_in(browser, server_url, username, PASSWORD)


def test_two_players_record_and_confirm_a_game(browser: Browser, server_url: str, catalogue, django_user_model):
    organiser = django_user_model.objects.create_user("vox", password=PASSWORD)
    player = django_user_model.objects.create_user("mara", password=PASSWORD)
    _crew(organiser, "Saints")
    _crew(player, "Sinners")

    org = _login(browser, server_url, "vox")
    org.goto(server_url + "/campaigns/")
    org.get_by_label("Name").fill("The Rust Road")
    org.get_by_label("Points per Treasure Token").fill("5")
    org.get_by_role("button", name="Start campaign").click()
    expect(org.get_by_role("heading", name="The Rust Road")).to_be_visible()
    campaign_url = org.url

    org.get_by_text("New table").click()
    org.get_by_label("Kind").select_option("injury")
    org.get_by_label("Name", exact=True).fill("Scars")
    org.get_by_label("Die").fill("D6")
    org.get_by_label("Rows").fill("1-6 | Lost an eye | discipline -1")
    org.get_by_role("button", name="Save table").click()
    expect(org.get_by_text("Scars (Injury, D6)")).to_be_visible()

    org.get_by_label("Invite a player by username").fill("mara")
    org.get_by_role("button", name="Invite").click()
    expect(org.get_by_text("Invited mara.")).to_be_visible()
    org.get_by_role("button", name="Enrol").click()

    mara = _login(browser, server_url, "mara")
    mara.goto(server_url + "/campaigns/")
    mara.get_by_role("button", name="Accept").click()
    expect(mara.get_by_role("heading", name="The Rust Road")).to_be_visible()
    mara.get_by_role("button", name="Enrol").click()
    expect(mara.get_by_text("is enrolled")).to_be_visible()

    org.goto(campaign_url)
    org.get_by_role("link", name="Record a game").click()
    org.get_by_label("Saints won").check()
    org.get_by_label("Treasure Tokens carried off").first.fill("2")
    org.get_by_label("Outcome for Sinners 1").select_option("dead")
    org.get_by_label("Table roll for Sinners 2").select_option(label="Scars (D6)")
    org.get_by_role("button", name="Record the game").click()
    expect(org.get_by_text("Lost an eye")).to_be_visible()
    expect(org.get_by_text("waiting for confirmation")).to_be_visible()
    game_url = org.url
    org.get_by_role("button", name="Confirm this result").click()
    expect(org.get_by_text("Waiting for the other players")).to_be_visible()

    # Mara hears of the game on her home page and goes from there to confirm it.
    mara.goto(server_url + "/")
    expect(mara.get_by_role("heading", name="A game waits for your confirmation")).to_be_visible()
    mara.get_by_role("link", name="Check and confirm").click()
    assert mara.url == game_url
    mara.get_by_role("button", name="Confirm this result").click()
    expect(mara.get_by_text("The result now counts")).to_be_visible()

    org.goto(campaign_url)
    expect(org.get_by_text("In memoriam")).to_be_visible()
    org.get_by_role("link", name="Spend treasure (2)").click()
    org.get_by_label("Item").select_option(label="sword (4 pts)")
    org.get_by_role("button", name="Buy").click()
    expect(org.get_by_text("Treasury: 1")).to_be_visible()

    org.goto(campaign_url + "history/")
    for text in ("Sinners 1 of Sinners died", "Scars: Lost an eye", "bought sword", "carried off 2 Treasure Token"):
        expect(org.locator("ol.timeline > li").filter(has_text=text).first).to_be_visible()

    # The organiser reverses the death: Sinners 1 is back on the roster, both entries stay.
    org.once("dialog", lambda dialog: dialog.accept())
    death = (
        org.locator("ol.timeline > li").filter(has_text="Sinners 1 of Sinners died").filter(has_not_text="reversed:")
    )
    death.get_by_role("button", name="reverse").click()
    expect(org.get_by_text("Entry reversed.")).to_be_visible()
    expect(org.locator("ol.timeline > li").filter(has_text="reversed: Sinners 1 of Sinners died")).to_be_visible()
    org.goto(campaign_url)
    expect(org.get_by_text("In memoriam")).to_have_count(0)
    expect(org.get_by_role("heading", name="Rosters")).to_be_visible()
    assert_fits_a_phone(org)  # standings and rosters on a phone


def test_the_game_form_one_scenario_picker_and_enter_records(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    """Drawing the agreed scenario's Complication keeps what was entered; Enter in a field records the game."""
    from campaigns import services
    from crewbuilder.models import GameSystem

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    campaign = services.create_campaign(vox, name="The Rust Road", system=GameSystem.objects.get(slug="cybernekro"))
    services.invite(campaign, vox, "mara")
    services.respond(campaign, mara, accept=True)
    services.enrol(campaign, vox, _crew(vox, "Saints"))
    services.enrol(campaign, mara, _crew(mara, "Sinners"))

    page = _login(browser, server_url, "vox")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server_url + f"/campaigns/{campaign.pk}/games/new/")
    expect(page.get_by_label("Scenario", exact=True)).to_have_count(1)
    page.get_by_label("Saints won").check()
    page.get_by_label("Scenario", exact=True).select_option("Exploration")
    page.get_by_role("button", name="Draw its complication").click()
    expect(page.get_by_text("Agreed scenario: Exploration")).to_be_visible()
    expect(page.get_by_label("Saints won")).to_be_checked()
    expect(page.get_by_label("Scenario", exact=True)).to_have_value("Exploration")
    treasure = page.get_by_label("Treasure Tokens carried off").first
    treasure.fill("2")
    treasure.press("Enter")
    expect(page.get_by_text("Game recorded.")).to_be_visible()
    from campaigns.models import Game

    assert Game.objects.get().scenario == "Exploration"
    assert_fits_a_phone(page)
