"""A player keeps the Ghoul's sheet at the table: new sheet, roll, choose dice, spend points,
Fury and a Terror card, then a read-only link for a friend."""

import random
import shutil

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from rules import ghoul_role as rules
from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in, wait_for_htmx

PASSWORD = "fury-cube-0014"


@pytest.fixture
def catalogue(transactional_db, tmp_path):
    shutil.copy(rules.CATALOGUE, tmp_path / rules.CATALOGUE.name)
    call_command("loadcatalogue", "--dir", str(tmp_path), verbosity=0)


def _seed(wanted) -> int:
    return next(s for s in range(100000) if wanted(rules.roll_ghoul_dice(random.Random(s), 3).dice))


def _login(browser: Browser, server_url: str, username: str) -> Page:
    return log_in(browser, server_url, username, PASSWORD, viewport=PHONE)  # a phone at the table


def test_ghoul_sheet_turn_fury_and_terror_card(
    browser: Browser, server_url: str, catalogue, django_user_model, monkeypatch
):
    from games.ghoul_role import services

    django_user_model.objects.create_user("ghoul", password=PASSWORD)
    # The live server runs in this process: fix the seed the sheet will draw and log.
    seed = _seed(lambda r: r[0] >= 5 and r[1] >= 3 and sum(r) > 7)
    dice = rules.roll_ghoul_dice(random.Random(seed), 3).dice
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)

    page = _login(browser, server_url, "ghoul")
    page.goto(server_url + "/games/")
    page.get_by_role("link", name="The Ghoul role").click()
    expect(page.get_by_role("heading", name="The Ghoul role", exact=True)).to_be_visible()
    form = page.locator("#new-cave")
    form.get_by_label("Player variant").select_option(label="Knight vs. Ghoul")
    form.get_by_label("Name (optional)").fill("Cave night")
    form.get_by_role("button", name="Start the Ghoul's sheet").click()

    expect(page.get_by_role("heading", name="Cave night")).to_be_visible()
    expect(page.locator(".ghoul-goal")).to_contain_text("Kill the Knight, or gain 9 Fury")
    expect(page.locator('#odds [data-key="terror"] strong')).to_have_text("16.2%")
    page.evaluate("window.__noReload = 9")

    page.get_by_role("button", name="Roll 3 Ghoul dice").click()
    wait_for_htmx(page)
    expect(page.get_by_role("heading", name="Choose two dice", exact=True)).to_be_visible()
    assert page.locator("#sheet .dice .die").all_inner_texts() == [str(d) for d in dice]
    expect(page.locator(".ghoul-log")).to_contain_text(f"seed {seed}")

    high, low = max(dice[0], dice[1]), min(dice[0], dice[1])
    page.get_by_label(f"Keep {dice[0]} and {dice[1]}: movement {high}, attack {low}").check()
    page.get_by_role("button", name="Set statistics").click()
    wait_for_htmx(page)
    expect(page.locator("#stat-movement")).to_have_text(str(high))
    expect(page.locator("#stat-attack")).to_have_text(str(low))

    move = page.locator("form.ghoul-action").filter(has=page.get_by_role("heading", name="Move one space"))
    move.get_by_label("Through a wall (+1)").check()
    move.get_by_role("button", name="Move").click()
    wait_for_htmx(page)
    expect(page.locator("#stat-movement")).to_have_text(str(high - 2))

    attack = page.locator("form.ghoul-action").filter(has=page.get_by_role("heading", name="Attack a player piece"))
    attack.get_by_label("Target").select_option(label="Knight")
    attack.get_by_label("Its defense statistic (Strength, Armor or Stealth)").fill("1")
    attack.get_by_role("button", name="Attack").click()
    wait_for_htmx(page)
    expect(page.locator("#stat-fury")).to_have_text("1 / 9")
    expect(page.locator("#stat-attack")).to_have_text(str(low - 2))
    expect(page.get_by_role("heading", name="Terror cards in hand (0)")).to_be_visible()

    # attacking the Knight again this turn is refused, with the reason, and changes nothing
    attack.get_by_label("Target").select_option(label="Knight")
    attack.get_by_label("Its defense statistic (Strength, Armor or Stealth)").fill("0")
    attack.get_by_role("button", name="Attack").click()
    wait_for_htmx(page)
    expect(page.locator("#sheet-error")).to_contain_text("already attacked")
    expect(page.locator("#stat-fury")).to_have_text("1 / 9")

    attack.get_by_label("Target").select_option(label="Dragon")
    attack.get_by_label("Its defense statistic (Strength, Armor or Stealth)").fill("0")
    attack.get_by_role("button", name="Attack").click()
    wait_for_htmx(page)
    expect(page.locator("#stat-fury")).to_have_text("2 / 9")
    expect(page.get_by_role("heading", name="Terror cards in hand (1)")).to_be_visible()
    expect(page.locator(".terror-card")).to_contain_text("even Fury")
    expect(page.locator(".fury-cell.fury-reached")).to_have_count(2)

    page.get_by_label("Name of Terror card 1").fill("Chase")
    page.locator(".terror-card").get_by_role("button", name="Save").click()
    wait_for_htmx(page)
    expect(page.get_by_label("Name of Terror card 1")).to_have_value("Chase")

    page.get_by_role("button", name=f"End turn: Defense {low - 3}").click()
    wait_for_htmx(page)
    expect(page.locator("#stat-defense")).to_have_text(str(low - 3))
    expect(page.get_by_role("button", name="Roll 3 Ghoul dice")).to_be_visible()
    assert page.evaluate("window.__noReload") == 9  # every step was an htmx swap

    assert_fits_a_phone(page)  # a Terror card's discard menu once pushed it sideways

    page.get_by_role("button", name="Share a read-only link").click()
    link = page.locator(".share-link").inner_text()
    friend = browser.new_context().new_page()
    friend.goto(link)
    expect(friend.get_by_role("heading", name="Cave night")).to_be_visible()
    expect(friend.locator("#stat-fury")).to_have_text("2 / 9")
    expect(friend.locator(".terror-card")).to_contain_text("Chase")
    expect(friend.get_by_role("button", name="Roll 3 Ghoul dice")).to_have_count(0)
    friend.context.close()


def test_a_move_from_an_older_tab_shows_the_sheet_as_it_is(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    """Two tabs of one sheet (or a phone and a tablet): the older tab's move is refused (409) and
    the tab is redrawn with the sheet as it is now, its message on it; nothing is applied twice."""
    from games.ghoul_role import services
    from games.ghoul_role.models import GhoulSheet

    owner = django_user_model.objects.create_user("ghoul", password=PASSWORD)
    goals = services.goals_for(services.catalogue(), "cave", "ghoul", "4-players", 4, None)
    sheet = services.create_sheet(owner, goals, name="Two tabs")
    GhoulSheet.objects.filter(pk=sheet.pk).update(phase=GhoulSheet.ACT, turn=1, movement=6, attack_discs=3)

    first = _login(browser, server_url, "ghoul")
    first.goto(server_url + sheet.get_absolute_url())
    second = first.context.new_page()  # the same session, another tab
    second.goto(server_url + sheet.get_absolute_url())
    second.evaluate("window.__noReload = 1")

    spend = "form.ghoul-action:has(#spend-points)"
    first.locator(spend).get_by_label("Movement points").fill("2")
    first.locator(spend).get_by_role("button", name="Spend").click()
    wait_for_htmx(first)
    expect(first.locator("#stat-movement")).to_have_text("4")

    second.locator(spend).get_by_label("Movement points").fill("3")
    second.locator(spend).get_by_role("button", name="Spend").click()
    wait_for_htmx(second)
    expect(second.locator("#sheet-error")).to_contain_text("The sheet changed since this page was drawn")
    expect(second.locator("#stat-movement")).to_have_text("4")  # the sheet as it is now, 3 not spent
    assert second.evaluate("window.__noReload") == 1  # redrawn in place
    # sent again from the redrawn sheet, the move goes through
    second.locator(spend).get_by_label("Movement points").fill("3")
    second.locator(spend).get_by_role("button", name="Spend").click()
    wait_for_htmx(second)
    expect(second.locator("#stat-movement")).to_have_text("1")
    assert GhoulSheet.objects.get(pk=sheet.pk).movement == 1
