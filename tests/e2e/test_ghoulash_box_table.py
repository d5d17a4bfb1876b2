"""The Ghoulash box on a phone: every count entered in one table and saved once, errors all at once, a card
removed from its row (a button of a form outside the table)."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in

PASSWORD = "ghoo-for-the-job-42"


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def test_the_deck_table_on_a_phone(browser: Browser, server_url: str, catalogue, django_user_model):
    from games.ghoulash.models import BoxCard, GhoulashBox

    django_user_model.objects.create_user("vox", password=PASSWORD)
    page = log_in(browser, server_url, "vox", PASSWORD)
    page.set_viewport_size(PHONE)
    page.goto(server_url + "/games/ghoulash/")
    page.get_by_label("Name of the game box").fill("Attic copy")
    page.get_by_role("button", name="Create the box").click()
    expect(page.get_by_role("heading", name="The decks: one table")).to_be_visible()
    assert_fits_a_phone(page)
    box = GhoulashBox.objects.get(name="Attic copy")
    # one mistake and the rest: every count typed, the Steal rows left untyped but held in Lake's deck
    for card in box.cards.all():
        who = card.get_character_display()
        count = "4" if card.catalogue_slug == "value" else "0" if card.catalogue_slug == "steal" else "1"
        page.get_by_label(f"How many {card.name} ({who})", exact=True).fill(count)
    page.get_by_label("How many Steal (Lake)", exact=True).fill("1")
    page.get_by_role("button", name="Save the deck table").click()
    expect(page.get_by_text("Nothing was saved: 1 thing to fix")).to_be_visible()
    expect(page.get_by_text("Lake, Steal: Choose its type")).to_be_visible()
    assert not BoxCard.objects.filter(box=box, count__isnull=False).exists()
    # what was typed is still there: choose the type and save once
    expect(page.get_by_label("How many Hole (Zone)", exact=True)).to_have_value("1")
    page.get_by_label("Type of Steal (Lake)", exact=True).select_option(label="Action")
    page.get_by_role("button", name="Save the deck table").click()
    expect(page.get_by_text("Deck table saved")).to_be_visible()
    assert not BoxCard.objects.filter(box=box, count__isnull=True).exists()
    expect(page.get_by_text("Action cards differ between Lake and Gray")).to_be_visible()  # Steal as an Action
    page.get_by_role("button", name="Remove Steal (Lake)").click()
    expect(page.get_by_text("The four decks pass the checks.")).to_be_visible()
    assert not BoxCard.objects.filter(box=box, character="lake", catalogue_slug="steal").exists()
