"""A Monster and two Survivors, each in their own browser, play a short Slasher trial."""

import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from catalogue.loader import CATALOGUE_DIR
from tests.e2e.conftest import log_in, wait_for_htmx

PASSWORD = "neon-bones-1138"


@pytest.fixture
def catalogue(transactional_db, tmp_path):
    shutil.copy(CATALOGUE_DIR / "slasher-trial-1.json", tmp_path / "slasher-trial-1.json")
    call_command("loadcatalogue", "--dir", str(tmp_path), verbosity=0)


def _login(browser: Browser, server_url: str, username: str) -> Page:
    return log_in(browser, server_url, username, PASSWORD)


def _square(page: Page, label_start: str, which: str = "first") -> str:
    """Click one of the highlighted grid buttons; return its Square."""
    buttons = page.locator(f'button[aria-label^="{label_start}"]')
    button = buttons.first if which == "first" else buttons.last
    square = button.get_attribute("aria-label").rsplit(" ", 1)[-1]
    button.click()
    wait_for_htmx(page)
    return square


def _log(page: Page):
    return page.locator("ol.trial-log")


def test_a_short_trial(browser: Browser, server_url: str, catalogue, django_user_model):
    for name in ("vox", "mara", "zed"):
        django_user_model.objects.create_user(name, password=PASSWORD)

    # The Monster opens a trial from the Games menu.
    vox = _login(browser, server_url, "vox")
    vox.goto(server_url + "/games/")
    vox.get_by_role("link", name="The Slasher trial").click()
    vox.get_by_label("Name of the trial").fill("Night at the yard")
    vox.get_by_label("Adjacent Squares").select_option("diagonals")
    vox.get_by_role("button", name="Open the trial").click()
    expect(vox.get_by_role("heading", name="Night at the yard")).to_be_visible()
    expect(vox.get_by_text("the 8 surrounding Squares, diagonals included")).to_be_visible()
    join_link = vox.locator("code.trial-link").inner_text().strip()
    trial_url = vox.url

    # Two Survivors join by the link; the Monster's page shows them without a reload.
    survivors = {}
    for name in ("mara", "zed"):
        page = _login(browser, server_url, name)
        page.goto(join_link)
        page.get_by_role("button", name="Join as a Survivor").click()
        expect(page.get_by_text("You joined Night at the yard as a Survivor.")).to_be_visible()
        survivors[name] = page
    mara, zed = survivors["mara"], survivors["zed"]
    expect(_log(vox)).to_contain_text("zed joined as a Survivor.")
    expect(vox.locator("table.trial-people")).to_contain_text("mara")

    # The Monster places the seven Generators (one seeded action).
    vox.get_by_role("button", name=re.compile(r"Place the 7 Generators")).click()
    wait_for_htmx(vox)
    expect(_log(vox)).to_contain_text("placed the 7 Generators on")
    expect(_log(vox)).to_contain_text("(seed ")
    expect(vox.locator("td.sq-generator")).to_have_count(7)

    # Everyone takes a Location: the Monster bottom right, the Survivors top left.
    monster_at = _square(vox, "Set your Location to", "last")
    expect(vox.locator(f'td.sq-monster[data-square="{monster_at}"]')).to_be_visible()
    expect(mara.locator("td.sq-generator")).to_have_count(7)  # mara's page caught up by polling
    mara_at = _square(mara, "Set your Location to")
    expect(zed.locator(f'td.sq-survivor[data-square="{mara_at}"]')).to_be_visible()
    zed_at = _square(zed, "Set your Location to")

    # Without Energy the Survivors can only be Ready.
    expect(mara.get_by_text("Waiting for mara, zed to be Ready")).to_be_visible()
    expect(mara.locator('button[aria-label^="Move to"]')).to_have_count(0)
    mara.get_by_role("button", name="I am Ready").click()
    wait_for_htmx(mara)
    zed.get_by_role("button", name="I am Ready").click()
    wait_for_htmx(zed)

    # The Monster's Advance: Energy, a Monster Move, the end of the Advance.
    vox.get_by_role("button", name=re.compile(r"^Advance \(Monster \+15, each Living Survivor \+30\)")).click()
    wait_for_htmx(vox)
    expect(_log(vox)).to_contain_text("vox begins Advance 1")
    expect(mara.get_by_text("Advance 1 under way")).to_be_visible()
    monster_to = _square(vox, "Move to")
    expect(_log(vox)).to_contain_text(f"vox moved to {monster_to}. (-1 Energy)")
    vox.get_by_role("button", name=re.compile(r"^End the Advance")).click()
    wait_for_htmx(vox)
    expect(_log(vox)).to_contain_text("vox ends Advance 1")
    expect(vox.locator("table.trial-people")).to_contain_text("14")

    # The Survivors now have 30 Energy each and move.
    expect(mara.get_by_role("heading", name="Cycle 2")).to_be_visible()
    expect(mara.get_by_text("Energy 30")).to_be_visible()
    mara_to = _square(mara, "Move to")
    expect(_log(mara)).to_contain_text(f"mara moved to {mara_to}. (-1 Energy)")
    expect(mara.get_by_text("Energy 29")).to_be_visible()

    # zed sees mara's move on the grid and in the public log without reloading.
    expect(zed.locator(f'td.sq-survivor[data-square="{mara_to}"]')).to_be_visible()
    expect(_log(zed)).to_contain_text(f"mara moved to {mara_to}.")
    assert zed_at != mara_to and monster_at != mara_to

    # A refused action says why (the Monster's Square is far from zed).
    zed.get_by_label("Action", exact=True).select_option("move")
    zed.get_by_label("Square or Survivor").fill(monster_to)
    zed.get_by_role("button", name="Do it").click()
    wait_for_htmx(zed)
    expect(zed.get_by_role("alert")).to_contain_text("not adjacent")

    # A stranger cannot see the trial.
    django_user_model.objects.create_user("eve", password=PASSWORD)
    eve = _login(browser, server_url, "eve")
    response = eve.goto(trial_url)
    assert response.status == 404


def test_on_a_phone_the_row_letters_stay_in_view_while_the_grid_scrolls(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    from games.slasher_trial import services
    from tests.e2e.conftest import PHONE, assert_fits_a_phone

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    trial = services.create_trial(vox, "Phone night")
    services.join(trial, mara)
    services.act(trial, vox, "generators")
    # The Generators land at random: mara stands on a free Square at the far right of row C.
    taken = set(trial.generators.values_list("square", flat=True))
    square = next(f"C{column}" for column in (18, 19, 20, 17, 16) if f"C{column}" not in taken)
    services.act(trial, mara, "location", square)

    page = log_in(browser, server_url, "mara", PASSWORD, viewport=PHONE)
    page.goto(f"{server_url}/games/trials/{trial.pk}/")
    wrap = page.locator(".trial-grid-wrap")
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")  # 20 tappable columns do not fit 390 px
    wrap.evaluate("w => { w.scrollIntoView({block: 'start'}); w.scrollLeft = w.scrollWidth; }")
    row_c = page.locator("table.trial-grid tbody th", has_text="C")
    left_edge = wrap.bounding_box()["x"]
    assert abs(row_c.bounding_box()["x"] - left_edge) < 2  # the letter is pinned at the left edge
    mara_square = page.locator(f'td.sq-survivor[data-square="{square}"]')
    expect(mara_square).to_be_in_viewport()
    assert_fits_a_phone(page)  # only the grid's own box scrolls sideways
    assert mara_square.bounding_box()["x"] > row_c.bounding_box()["x"] + row_c.bounding_box()["width"] - 1
    if "E2E_SCREENSHOTS" in os.environ:  # for looking at the page, not for asserting
        page.screenshot(path=str(Path(os.environ["E2E_SCREENSHOTS"]) / "trial-phone-scrolled.png"))
