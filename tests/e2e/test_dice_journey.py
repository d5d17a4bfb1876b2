import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.e2e.conftest import wait_for_htmx


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

    stranger = browser.new_context()
    other = stranger.new_page()
    other.goto(page.url)
    expect(other.locator("#roll-outcome")).to_have_text(page.locator("#roll-outcome").inner_text())
    assert other.locator(".die").all_inner_texts() == dice
    stranger.close()
