"""When a click's request fails, the page says so (a move is never lost in silence), and a page whose
session has ended goes to the login form as a whole page, then back."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import log_in
from tests.e2e.test_ghoulash_journey import _box

PASSWORD = "ghoo-for-the-job-42"
ACT = "**/games/ghoulash/games/*/act/"


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


@pytest.fixture
def game(catalogue, django_user_model):
    from games.ghoulash import services

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    django_user_model.objects.create_user("mara", password=PASSWORD)
    return services.create_game(vox, _box(vox), "Bad signal", [("vox", "lake"), ("mara", "gray")])


def _open(browser: Browser, server_url: str, game) -> Page:
    page = log_in(browser, server_url, "vox", PASSWORD)
    page.goto(f"{server_url}/games/ghoulash/games/{game.pk}/")
    expect(page.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()
    return page


def _problem(page: Page):
    return page.locator("#request-problem")


def test_a_move_that_cannot_reach_the_server_says_so_and_can_be_tried_again(browser: Browser, server_url: str, game):
    page = _open(browser, server_url, game)
    page.route(ACT, lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Replenish my hand").click()
    expect(_problem(page)).to_contain_text("The server could not be reached. Check your connection, then try again.")
    expect(page.get_by_role("alert")).to_be_visible()
    game.refresh_from_db()
    assert game.phase == "turn-start"  # nothing happened, and the page does not pretend otherwise

    page.unroute(ACT)
    page.get_by_role("button", name="Replenish my hand").click()
    expect(page.get_by_text("vox moves, encounters and takes an action, then ends the turn.")).to_be_visible()
    expect(_problem(page)).to_be_empty()  # the retry worked: the notice goes


def test_a_server_error_says_the_move_was_not_saved(browser: Browser, server_url: str, game):
    page = _open(browser, server_url, game)
    page.route(ACT, lambda route: route.fulfill(status=500, body="Server Error (500)"))
    page.get_by_role("button", name="Replenish my hand").click()
    expect(_problem(page)).to_contain_text("Something went wrong on the server, and your last change was not saved.")
    expect(page.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()  # the board was not replaced
    page.get_by_role("button", name="Dismiss").click()
    expect(_problem(page)).to_be_empty()


def test_polls_that_keep_failing_say_the_page_may_be_out_of_date_until_they_work_again(
    browser: Browser, server_url: str, game
):
    page = _open(browser, server_url, game)
    polls = f"**/games/ghoulash/games/{game.pk}/?v=*"
    page.route(polls, lambda route: route.abort("internetdisconnected"))
    expect(_problem(page)).to_contain_text("Lost contact with the server: this page may be out of date.")
    page.unroute(polls)
    expect(_problem(page)).to_be_empty()


def test_a_page_whose_session_ended_goes_to_the_login_form_and_back(browser: Browser, server_url: str, game):
    page = _open(browser, server_url, game)
    other_tab = page.context.new_page()
    other_tab.goto(server_url + "/")
    other_tab.get_by_role("button", name="Log out").click()

    # the game page's next poll finds no session: the whole page goes to the login form
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    assert page.url.endswith(f"/accounts/login/?next=%2Fgames%2Fghoulash%2Fgames%2F{game.pk}%2F")
    assert page.locator("#table").count() == 0  # not a login form inside the board
    page.get_by_label("Username").fill("vox")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()
