"""The editor without JavaScript: every control is a plain form post."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, expect


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def test_editor_works_with_javascript_off(browser: Browser, server_url: str, catalogue, django_user_model):
    from crewbuilder.models import Crew, GameSystem

    user = django_user_model.objects.create_user(username="nojs", password="neon-bones-1138")
    crew = Crew.objects.create(owner=user, system=GameSystem.objects.get(slug="cybernekro"), name="Plain")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill("nojs")
    page.get_by_label("Password").fill("neon-bones-1138")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{server_url}/crews/{crew.pk}/edit/")

    page.get_by_label("New character's name").fill("Vox")
    page.get_by_role("button", name="Add character").click()
    expect(page.get_by_role("heading", name="Vox", exact=True)).to_be_visible()
    page.get_by_role("button", name="Raise Strength of Vox").click()
    expect(page.locator("td.effective").first).to_have_text("+1")
    page.get_by_role("link", name="Add gear").click()  # a full page picker
    page.get_by_label("Find gear").fill("swo")
    page.get_by_role("button", name="Find").click()  # filtered by the server
    expect(page.get_by_role("button", name="Add rifle (8 points)")).to_have_count(0)
    page.get_by_role("button", name="Add sword (4 points)").click()
    expect(page.locator("#crew-points")).to_have_text("19 / 150 pts")
    # one character open at a time works without JavaScript too: Vox came back open after each change
    expect(page.locator("details.character-fold[open]")).to_have_count(1)
    page.get_by_role("button", name="Duplicate Vox").click()
    expect(page.get_by_role("heading", name="Vox (copy)", exact=True)).to_be_visible()
    expect(page.locator("#crew-points")).to_have_text("38 / 150 pts")
    context.close()
