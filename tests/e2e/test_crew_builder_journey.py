import json
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx

PLACEMENT = [
    ("Strength", "Raise"),
    ("Strength", "Raise"),
    ("Toughness", "Raise"),
    ("Agility", "Raise"),
    ("Intellect", "Lower"),
    ("Discipline", "Lower"),
    ("Discipline", "Lower"),
]


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _click(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    wait_for_htmx(page)


def _add_character(page: Page, name: str) -> None:
    page.get_by_label("New character's name").fill(name)
    page.get_by_role("button", name="Add character").click()
    wait_for_htmx(page)
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def _card(page: Page, character: str):
    return page.locator("li.character", has=page.get_by_role("heading", name=character, exact=True))


def _open(page: Page, character: str) -> None:
    """Expand a character's card (the editor shows one at a time; the others are one-line summaries)."""
    fold = _card(page, character).locator("details.character-fold")
    if fold.get_attribute("open") is None:
        fold.locator("summary.character-summary").click()
    expect(fold).to_have_attribute("open", "")


def _pick(page: Page, character: str, kind: str, option: str) -> None:
    _open(page, character)
    card = _card(page, character)
    card.get_by_role("link", name=f"Add {kind}").click()
    wait_for_htmx(page)
    card.get_by_role("button", name=re.compile(rf"^Add {re.escape(option)} \(", re.IGNORECASE)).click()
    wait_for_htmx(page)


def _points(page: Page) -> str:
    return page.locator("#crew-points").inner_text()


def test_build_fix_export_import_and_share(page: Page, server_url: str, catalogue, browser, tmp_path):
    page.goto(server_url + "/accounts/signup/")
    page.get_by_label("Username").fill("rustsaint")
    page.get_by_label("Password", exact=True).fill("neon-bones-1138")
    page.get_by_label("Password confirmation").fill("neon-bones-1138")
    page.get_by_role("button", name="Sign up").click()

    page.get_by_role("link", name="Crews", exact=True).click()
    page.get_by_role("link", name="New crew").click()
    page.get_by_label("Crew name").fill("Saints of Rust")
    page.get_by_role("button", name="Create crew").click()
    expect(page.get_by_role("heading", name="Saints of Rust")).to_be_visible()

    # Everything below happens in place: the marker would vanish on a reload.
    page.evaluate("window.__noReload = 42")

    _add_character(page, "Vox")
    expect(page.locator('[data-code="too-few-characters"]')).to_be_visible()
    expect(page.locator("[data-status]").first).to_have_text("Not valid (draft)")
    _add_character(page, "Mara")
    _add_character(page, "Ish")
    assert _points(page) == "45 / 150 pts"
    expect(page.locator('[data-code="too-few-characters"]')).to_have_count(0)
    # base attributes all 0: each character's modifiers are not placed yet
    expect(page.locator('[data-code="attribute-modifiers"]')).to_have_count(3)

    for name in ("Vox", "Mara", "Ish"):
        _open(page, name)
        for attribute, verb in PLACEMENT:
            _click(page, f"{verb} {attribute} of {name}")
    expect(page.locator('[data-code="attribute-modifiers"]')).to_have_count(0)

    _pick(page, "Vox", "trait", "big")
    vox = page.locator("li.character", has=page.get_by_role("heading", name="Vox", exact=True))
    # Big: +2 Toughness on top of the base +1
    expect(vox.locator("td.effective").nth(1)).to_have_text("+3")
    _pick(page, "Mara", "gear", "sword")
    _pick(page, "Ish", "gear", "rifle")
    assert _points(page) == "45 / 150 pts".replace("45", str(45 + 5 + 4 + 8))
    expect(page.locator("[data-status]").first).to_have_text("Valid")
    assert_fits_a_phone(page)  # the editor is used on a phone at the table too

    # Break it (over budget), see the error, then fix it.
    page.get_by_text("Crew name, budget and notes").click()
    page.get_by_label("Budget (points)").fill("40")
    page.get_by_role("button", name="Save crew details").click()
    wait_for_htmx(page)
    expect(page.locator('[data-code="over-budget"]')).to_be_visible()
    expect(page.locator("#crew-points")).to_have_class(re.compile("points-over"))
    page.get_by_text("Crew name, budget and notes").click()
    page.get_by_label("Budget (points)").fill("150")
    page.get_by_role("button", name="Save crew details").click()
    wait_for_htmx(page)
    expect(page.locator('[data-code="over-budget"]')).to_have_count(0)
    expect(page.locator("[data-status]").first).to_have_text("Valid")
    assert page.evaluate("window.__noReload") == 42

    # Export the file.
    page.get_by_role("link", name="Crew page").first.click()
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export crew file").click()
    exported = tmp_path / "saints.json"
    download_info.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert [c["name"] for c in data["characters"]] == ["Vox", "Mara", "Ish"]

    # Import it as a second crew.
    page.goto(server_url + "/crews/import/")
    page.get_by_label("Crew file").set_input_files(str(exported))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported “Saints of Rust”.")).to_be_visible()
    page.get_by_role("link", name="Crews", exact=True).click()
    expect(page.get_by_role("link", name="Saints of Rust", exact=True)).to_have_count(2)

    # Share the first crew and open the link logged out.
    page.get_by_role("link", name="view").first.click()
    page.get_by_role("button", name="Create share link").click()
    link = page.locator("#share-link").get_attribute("href")
    stranger = browser.new_context()
    other = stranger.new_page()
    other.goto(server_url + link)
    expect(other.get_by_role("heading", name="Saints of Rust")).to_be_visible()
    expect(other.get_by_role("heading", name=re.compile("^Vox"))).to_be_visible()
    expect(other.get_by_role("link", name="Edit")).to_have_count(0)
    assert_fits_a_phone(other)
    stranger.close()


def test_two_tabs_get_a_conflict_not_an_overwrite(page: Page, server_url: str, catalogue, django_user_model):
    from crewbuilder.models import Crew, GameSystem

    user = django_user_model.objects.create_user(username="twotabs", password="neon-bones-1138")
    crew = Crew.objects.create(owner=user, system=GameSystem.objects.get(slug="cybernekro"), name="Tabs")
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill("twotabs")
    page.get_by_label("Password").fill("neon-bones-1138")
    page.get_by_role("button", name="Log in").click()

    first = page
    first.goto(f"{server_url}/crews/{crew.pk}/edit/")
    second = page.context.new_page()
    second.set_viewport_size({"width": 390, "height": 640})  # a phone: the form is screens below the notice's slot
    second.goto(f"{server_url}/crews/{crew.pk}/edit/")

    _add_character(first, "Written in tab one")
    second.get_by_label("New character's name").fill("Typed in tab two")
    second.get_by_role("button", name="Add character").click()
    wait_for_htmx(second)
    expect(second.get_by_text("This crew changed elsewhere")).to_be_visible()
    expect(second.locator("#conflict .conflict")).to_be_in_viewport()  # seen where the tap was, on a phone too
    # the stale tab keeps what was typed, and nothing was overwritten
    expect(second.get_by_label("New character's name")).to_have_value("Typed in tab two")
    assert list(crew.characters.values_list("name", flat=True)) == ["Written in tab one"]
    second.get_by_role("button", name="Add character").click()  # a second try: still told, in the same slot
    wait_for_htmx(second)
    expect(second.locator("#conflict .conflict")).to_have_count(1)
    assert list(crew.characters.values_list("name", flat=True)) == ["Written in tab one"]
    second.get_by_role("link", name="Reload the crew").click()
    expect(second.get_by_role("heading", name="Written in tab one")).to_be_visible()


def test_back_and_forward_show_the_crew_as_it_is_now(page: Page, server_url: str, catalogue, django_user_model):
    """The editor changes in place: a page from the browser's cache would show the crew before the edits and send
    a stale version with the next one."""
    from crewbuilder.models import Crew, GameSystem

    user = django_user_model.objects.create_user(username="history", password="neon-bones-1138")
    crew = Crew.objects.create(owner=user, system=GameSystem.objects.get(slug="cybernekro"), name="History")
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill("history")
    page.get_by_label("Password").fill("neon-bones-1138")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{server_url}/crews/{crew.pk}/edit/")
    _add_character(page, "Added before leaving")
    page.goto(f"{server_url}/crews/{crew.pk}/")
    page.go_back()
    expect(page.get_by_role("heading", name="Added before leaving", exact=True)).to_be_visible()
    _add_character(page, "Added after coming back")  # no conflict: the page knows the crew's version
    expect(page.get_by_text("This crew changed elsewhere")).to_have_count(0)
    page.go_forward()
    page.go_back()
    expect(page.get_by_role("heading", name="Added after coming back", exact=True)).to_be_visible()
