import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE, assert_fits_a_phone, wait_for_htmx


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _pct(page: Page, key: str) -> float:
    return float(page.locator(f'#odds [data-key="{key}"] strong').inner_text().rstrip("%"))


def test_odds_update_in_place_then_roll_and_share(page: Page, server_url: str, catalogue, browser):
    page.goto(f"{server_url}/dice/?weapon=pistol&a_discipline=2&t_toughness=0&t_armor=0")
    page.evaluate("window.__noReload = 7")
    open_field = _pct(page, "hit")
    page.get_by_label("In cover or in melee (Shoot −4)").check()
    wait_for_htmx(page)
    # 4 fewer faces of the D20 hit: 20 percentage points
    expect(page.locator('#odds [data-key="hit"] strong')).to_have_text(f"{open_field - 20:.1f}%")
    page.get_by_label("Darkness (ranged −3)").check()
    wait_for_htmx(page)
    expect(page.locator('#odds [data-key="hit"] strong')).to_have_text(f"{open_field - 35:.1f}%")
    assert page.evaluate("window.__noReload") == 7

    page.get_by_role("link", name="Roll it").click()
    expect(page.locator("#roll-outcome")).to_be_visible()
    assert re.search(r"seed=\d+", page.url)
    dice = page.locator(".die").all_inner_texts()
    assert dice, "the roll shows its dice"
    assert_fits_a_phone(page)

    stranger = browser.new_context()
    other = stranger.new_page()
    other.goto(page.url)
    expect(other.locator("#roll-outcome")).to_have_text(page.locator("#roll-outcome").inner_text())
    assert other.locator(".die").all_inner_texts() == dice
    stranger.close()


def test_darkness_that_does_not_apply_says_why_then_a_lantern_near_the_target(page: Page, server_url: str, catalogue):
    """Darkborn: "Ignores effects of darkness". Lantern: "Models ignore darkness when targeting a model that
    is within 3" of a lantern." Darkness: "All ranged attacks suffer a -3 modifier" (reading E12b)."""
    page.set_viewport_size(PHONE)
    page.goto(f"{server_url}/dice/?weapon=pistol&a_discipline=2&a_traits=darkborn")
    plain = _pct(page, "hit")
    page.get_by_label("Darkness (ranged −3)").check()
    wait_for_htmx(page)
    expect(page.locator("#no-effect")).to_have_text("Darkness: no effect — the shooter is Darkborn")
    assert _pct(page, "hit") == plain
    # a Shoot in darkness asks about light the engine cannot see; Darkborn gone, the -3 is back
    page.locator('[data-picker="a_traits"] summary').click()
    page.locator("#a_traits-darkborn").uncheck()
    wait_for_htmx(page)
    expect(page.locator("#no-effect")).to_have_count(0)
    expect(page.locator('#odds [data-key="hit"] strong')).to_have_text(f"{plain - 15:.1f}%")
    page.get_by_label("The target is within 3\" of a lantern (anyone's)").check()
    wait_for_htmx(page)
    expect(page.locator("#no-effect")).to_have_text('Darkness: no effect — the target is within 3" of a lantern')
    expect(page.locator('#odds [data-key="hit"] strong')).to_have_text(f"{plain:.1f}%")
    assert_fits_a_phone(page)
    # the roll, and its link, keep the tick and say it again
    page.get_by_role("link", name="Roll it").click()
    expect(page.locator("#no-effect")).to_have_text('Darkness: no effect — the target is within 3" of a lantern')
    assert "target_near_lantern=1" in page.url


PASSWORD = "neon-bones-1138"


def test_morale_with_a_character_from_my_crew_then_share_the_roll(
    page: Page, server_url: str, catalogue, browser, django_user_model
):
    from crewbuilder.models import Character, CharacterTrait, Crew, GameSystem, Trait

    user = django_user_model.objects.create_user("vox", password=PASSWORD)
    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=user, system=system, name="Saints")
    jinx = Character.objects.create(
        crew=crew, name="Jinx", position=0, strength=2, toughness=1, agility=1, intellect=-1, discipline=1
    )
    CharacterTrait.objects.create(character=jinx, trait=Trait.objects.get(system=system, slug="jinxed"))

    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill("vox")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Welcome back, vox")).to_be_visible()

    page.goto(f"{server_url}/dice/morale/")
    page.get_by_label("Dread", exact=True).fill("3")
    page.get_by_label("Dread", exact=True).dispatch_event("change")
    wait_for_htmx(page)
    typed = page.locator('#quick [data-key="0"] .exact').first.text_content()  # inside "exact", shown on request
    page.get_by_label("Who tests").select_option(label="Jinx (Saints)")
    wait_for_htmx(page)
    expect(page.locator("#picked-character")).to_contain_text("Jinx (Saints): Discipline 1, jinxed")
    assert page.locator('#quick [data-key="0"] .exact').first.text_content() != typed

    page.get_by_role("button", name="Roll").click()
    expect(page.locator("#roll-outcome")).to_be_visible()
    assert re.search(r"seed=\d+", page.url)
    dice = page.locator("#quick .die").all_inner_texts()
    assert len(dice) == 3  # one Discipline test per Dread held
    link = page.get_by_role("link", name="link to this roll").get_attribute("href")
    assert "character=" not in link

    stranger = browser.new_context()
    other = stranger.new_page()
    other.goto(server_url + link)
    expect(other.locator("#roll-outcome")).to_have_text(page.locator("#roll-outcome").inner_text())
    assert other.locator("#quick .die").all_inner_texts() == dice
    stranger.close()

    # The attack's crew search is a field like the others on a phone (it was a bare 21 px box).
    page.set_viewport_size(PHONE)
    page.goto(f"{server_url}/dice/")
    search = page.get_by_label("Find a crew").bounding_box()
    assert search and search["height"] >= 44 and search["width"] > 300


def test_a_big_damage_roll_wraps_its_dice_on_a_phone(page: Page, server_url: str, catalogue):
    """Twelve dice or more ran off a phone's screen in one row (the page scrolled sideways)."""
    page.set_viewport_size(PHONE)
    page.goto(server_url + "/dice/damage/?dice=20&seed=5")
    assert page.locator(".dice .die").count() >= 20
    assert_fits_a_phone(page)
