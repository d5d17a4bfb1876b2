"""The crew editor in a real browser: the pinned summary, the keyboard picker, drag reordering, and
lists that fit a phone."""

import os

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in, wait_for_htmx

LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}
PASSWORD = "neon-bones-1138"
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


@pytest.fixture
def choir(catalogue, django_user_model):
    """A 5-character crew, every character with a trait and gear (the editor is long)."""
    from crewbuilder.models import Character, CharacterGear, CharacterTrait, Crew, GameSystem, Item, Trait

    user = django_user_model.objects.create_user(username="choir", password=PASSWORD)
    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=user, system=system, name="The Rust Choir")
    for position, name in enumerate(["Sister Rake", "Vox", "Mara", "Ish", "Tallow"]):
        character = Character.objects.create(crew=crew, name=name, position=position, **LEGAL)
        CharacterTrait.objects.create(character=character, trait=Trait.objects.get(system=system, slug="big"))
        for slot, slug in enumerate(["sword", "light-armor"]):
            CharacterGear.objects.create(
                character=character, item=Item.objects.get(system=system, slug=slug), position=slot
            )
    return crew


def _shot(page: Page, name: str) -> None:
    """With E2E_SCREENSHOTS=DIR, keep a picture for people to look at (nothing is asserted on it)."""
    out = os.environ.get("E2E_SCREENSHOTS")
    if out:
        page.screenshot(path=f"{out}/{name}.png")


def _card(page: Page, name: str):
    return page.locator("li.character", has=page.get_by_role("heading", name=name, exact=True))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_pinned_summary_stays_visible_after_scrolling(browser, server_url, choir, viewport):
    page = log_in(browser, server_url, "choir", PASSWORD, viewport=viewport)
    tallow = choir.characters.get(name="Tallow")
    page.goto(f"{server_url}/crews/{choir.pk}/edit/?open={tallow.pk}")
    summary = page.locator("#crew-summary")
    expect(page.locator("#crew-points")).to_have_text("140 / 150 pts")
    expect(summary).to_contain_text("Valid")
    expect(summary).to_contain_text("no errors")

    # Scroll to the last character's gear, far below the summary's place in the page.
    add_gear = _card(page, "Tallow").get_by_role("link", name="Add gear")
    add_gear.scroll_into_view_if_needed()
    page.mouse.wheel(0, 5000)
    page.wait_for_function("() => window.scrollY > 300")
    expect(summary).to_be_in_viewport(ratio=1)
    box = page.locator(".summary-bar").bounding_box()
    if viewport == PHONE:
        # a bottom bar on a phone
        assert abs(box["y"] + box["height"] - viewport["height"]) <= 12, box
    else:
        assert box["y"] <= 2, box  # pinned to the top of the window
    # no card hides behind it: the page scrolls far enough for the last controls to clear the bar
    add_character = page.get_by_role("button", name="Add character")
    add_character.scroll_into_view_if_needed()
    button = add_character.bounding_box()
    bar = summary.bounding_box()
    assert button["y"] + button["height"] <= bar["y"] or button["y"] >= bar["y"] + bar["height"]
    _shot(page, f"pinned-summary-{'phone' if viewport == PHONE else 'desktop'}")

    # An edit down there updates the pinned summary in place (over budget: an error).
    _card(page, "Tallow").get_by_role("button", name="Raise Strength of Tallow").click()
    wait_for_htmx(page)
    expect(summary).to_contain_text("1 error")
    # The error count leads to the error, unfolding the character it is on.
    _card(page, "Tallow").locator("summary.character-summary").click()
    expect(_card(page, "Tallow").locator("details.character-fold")).not_to_have_attribute("open", "")
    summary.get_by_role("link", name="1 error").click()
    expect(_card(page, "Tallow").locator('[data-code="attribute-modifiers"]')).to_be_in_viewport()
    _card(page, "Tallow").get_by_role("button", name="Lower Strength of Tallow").click()
    wait_for_htmx(page)
    expect(summary).to_contain_text("no errors")
    expect(summary).to_be_in_viewport(ratio=1)
    assert_fits_a_phone(page)


def test_the_picker_is_usable_by_keyboard_alone(browser, server_url, choir):
    page = log_in(browser, server_url, "choir", PASSWORD)
    vox = choir.characters.get(name="Vox")
    page.goto(f"{server_url}/crews/{choir.pk}/edit/?open={vox.pk}")
    expect(page.locator("#crew-points")).to_have_text("140 / 150 pts")
    opener = page.locator(f"#add-gear-{vox.pk}")

    # Tab to the "Add gear" button, as a keyboard user does (from the last control of Vox's gear list).
    _card(page, "Vox").get_by_label("Gear of Vox").locator("summary").last.focus()
    page.keyboard.press("Tab")
    expect(opener).to_be_focused()
    page.keyboard.press("Enter")
    wait_for_htmx(page)
    box = page.get_by_label("Find gear")
    expect(box).to_be_focused()  # focus moves into the picker

    page.keyboard.type("sw")
    picker = page.locator(f"#picker-gear-{vox.pk}")
    visible = picker.locator("li.picker-option:visible")
    expect(visible).to_have_count(1)
    expect(picker.locator("[data-picker-count]")).to_have_text("1 match")  # said to screen readers
    expect(visible).to_contain_text("sword")
    expect(visible).to_contain_text("4 pts")
    expect(picker.get_by_role("heading", name="Armor, shields and suits")).to_be_hidden()  # empty groups go

    page.keyboard.press("ArrowDown")
    expect(picker.get_by_role("button", name="Add sword (4 points)")).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(box).to_be_focused()
    page.keyboard.press("Escape")  # closes, focus goes back where it came from
    expect(picker.locator("[data-picker]")).to_have_count(0)
    expect(opener).to_be_focused()

    page.keyboard.press("Enter")
    wait_for_htmx(page)
    expect(page.get_by_label("Find gear")).to_be_focused()
    page.keyboard.type("armor")
    # each entry says why it is unavailable, in the validator's words
    medium = picker.locator("li.picker-option", has_text="medium armor")
    expect(medium).to_contain_text("⚠")
    page.keyboard.press("Backspace")
    page.keyboard.press("Control+A")
    page.keyboard.type("sword")
    page.keyboard.press("Enter")  # Enter in the box goes to the first match
    expect(picker.get_by_role("button", name="Add sword (4 points)")).to_be_focused()
    page.keyboard.press("Enter")  # and Enter there adds it
    wait_for_htmx(page)
    expect(page.locator("#crew-points")).to_have_text("144 / 150 pts")
    expect(_card(page, "Vox").locator(".character-line")).to_contain_text("BIG, sword, light armor, sword")
    expect(page.locator(f"#add-gear-{vox.pk}")).to_be_focused()  # and back to the opener
    _shot(page, "picker-after-adding")


def test_duplicate_and_drag_to_reorder(browser, server_url, choir):
    page = log_in(browser, server_url, "choir", PASSWORD, viewport={"width": 1280, "height": 1000})
    page.goto(f"{server_url}/crews/{choir.pk}/edit/")
    page.evaluate("window.__noReload = 7")

    def order():
        return page.locator("#characters > li.character h2").all_inner_texts()

    _card(page, "Vox").locator("summary.character-summary").click()
    page.get_by_role("button", name="Duplicate Vox").click()
    wait_for_htmx(page)
    assert order() == ["Sister Rake", "Vox", "Vox (copy)", "Mara", "Ish", "Tallow"]
    expect(_card(page, "Vox (copy)").locator("details.character-fold")).to_have_attribute("open", "")
    expect(page.locator("#crew-points")).to_have_text("168 / 150 pts")
    expect(page.locator('[data-code="too-many-characters"], [data-code="over-budget"]')).to_have_count(1)

    # Drag Tallow's handle above Sister Rake.
    _card(page, "Vox (copy)").locator("summary.character-summary").click()  # collapse: all in view
    page.evaluate("window.scrollTo(0, 0)")
    handle = _card(page, "Tallow").locator(".drag-handle")
    top = _card(page, "Sister Rake").bounding_box()
    start = handle.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 5, top["y"] + top["height"] / 4, steps=12)  # the top half of the first card
    expect(_card(page, "Sister Rake")).to_have_class("card character drop-before")
    page.mouse.up()
    wait_for_htmx(page)
    expect(page.locator("#characters > li.character h2").first).to_have_text("Tallow")
    assert order() == ["Tallow", "Sister Rake", "Vox", "Vox (copy)", "Mara", "Ish"]
    assert list(choir.characters.order_by("position").values_list("name", flat=True)) == order()
    # the drag did not open or close anything, and nothing reloaded the page
    expect(page.locator("details.character-fold[open]")).to_have_count(0)
    assert page.evaluate("window.__noReload") == 7

    # The buttons do the same without a pointer.
    _card(page, "Ish").locator("summary.character-summary").click()
    page.get_by_role("button", name="Move Ish up").click()
    wait_for_htmx(page)
    assert order() == ["Tallow", "Sister Rake", "Vox", "Vox (copy)", "Ish", "Mara"]


def test_crews_list_and_campaign_copy_read_at_phone_width(browser, server_url, choir):
    from campaigns.models import Campaign, CampaignCrew
    from crewbuilder import crew_service

    copy = crew_service.duplicate(choir, choir.owner)
    copy.name = choir.name
    copy.save()
    campaign = Campaign.objects.create(name="Ashes of Vell", system=choir.system, organiser=choir.owner)
    CampaignCrew.objects.create(campaign=campaign, player=choir.owner, crew=copy, source_crew=choir)

    page = log_in(browser, server_url, "choir", PASSWORD, viewport=PHONE)
    page.goto(server_url + "/crews/")
    rows = page.locator(".crew-table tbody tr")
    expect(rows).to_have_count(2)
    marked = rows.filter(has=page.locator("[data-campaign-copy]"))
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text("in Ashes of Vell")
    assert_fits_a_phone(page)
    # every row's name, points, status and actions are inside the screen, not cut off
    for row in rows.all():
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    _shot(page, "crews-phone")

    marked.get_by_role("link", name="The Rust Choir", exact=True).click()
    expect(page.get_by_role("heading", name="Campaign copy · Ashes of Vell")).to_be_visible()
    expect(page.get_by_role("link", name="Edit", exact=True)).to_have_count(0)
    page.get_by_role("link", name="Change it through the campaign").click()
    expect(page).to_have_url(f"{server_url}/campaigns/{campaign.pk}/shop/")
    assert_fits_a_phone(page)


def test_a_drafts_error_count_in_the_crews_list_is_not_coloured_as_fine(browser, server_url, choir):
    """The editor's green "no errors" rule also painted the list's "1 error" green."""
    from crewbuilder.models import Crew

    Crew.objects.create(owner=choir.owner, system=choir.system, name="Half-built")
    page = log_in(browser, server_url, "choir", PASSWORD, viewport=PHONE)
    page.goto(server_url + "/crews/")
    count = page.locator(".crew-table .error-count")
    expect(count).to_have_text("1 error")
    colour, fine = count.evaluate(
        """el => {
          const probe = document.createElement("span");
          probe.style.color = "var(--ok)";
          document.body.append(probe);
          const fine = getComputedStyle(probe).color;
          probe.remove();
          return [getComputedStyle(el).color, fine];
        }"""
    )
    assert colour != fine
