"""Hold to see my key, on a phone: the key appears only while the finger stays down (a real touch, through
Chromium's touch input), and leaves the page when it lifts; the same with a mouse."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import _OPEN_CONTEXTS, PHONE, assert_fits_a_phone
from tests.e2e.test_soylent_game_journey import PASSWORD, _drone_set


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _game(django_user_model):
    from games.soylent_ghoul.play import services
    from games.soylent_ghoul.play.models import Piece

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    mine = _drone_set(vox, "Pale Hands", "gardeners", ["PA3K", "PB3K", "PC3K", "PD3K", "PE3K"], "PC3K")
    theirs = _drone_set(mara, "Watchers", "eyes", ["WA7Q", "WB7Q", "WC7Q", "WD7Q", "WE7Q"], "WD7Q")
    game = services.create_game(vox, mine, ["mara"])
    services.join(game.pk, mara, theirs)
    game = services.start(game.pk, vox, 0)
    services.play(
        game.pk,
        vox,
        version=game.version,
        kind="place",
        piece=Piece.objects.get(game=game, player__user=vox, kind="drone").pk,
    )
    return game


def _phone(browser: Browser, server_url: str, username: str) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    _OPEN_CONTEXTS.append(context)
    page = context.new_page()
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name=f"Welcome back, {username}")).to_be_visible()
    return page


def _centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_key_shows_only_while_held_on_a_phone(browser: Browser, server_url: str, catalogue, django_user_model):
    game = _game(django_user_model)
    page = _phone(browser, server_url, "vox")
    page.goto(f"{server_url}/games/soylent/games/{game.pk}/")
    hold = page.get_by_role("button", name="Hold to see my key")
    expect(hold).to_be_visible()
    assert_fits_a_phone(page)
    box = hold.bounding_box()
    assert box["height"] >= 44  # a thumb-sized target
    panel = page.locator("#key-panel")
    expect(panel).to_be_hidden()
    assert "sg-key-shown" not in page.content()

    # a finger goes down and stays: Chromium's own touch input, held past a long press
    x, y = _centre(page, "#hold-key")
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    expect(panel).to_contain_text("Pale Hands 1: true token PC3K")
    page.wait_for_timeout(1200)
    expect(panel).to_be_visible()
    expect(hold).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => window.getSelection().toString()") == ""  # nothing got selected
    # the finger lifts: the key leaves the page, not only the screen
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(panel).to_be_hidden()
    expect(hold).to_have_attribute("aria-pressed", "false")
    assert "PC3K" not in panel.inner_html() and "sg-key-shown" not in page.content()
    assert page.url.endswith(f"/games/soylent/games/{game.pk}/")  # the tap did not follow the link

    # a finger that slides off the button keeps the key until it lifts (no flicker), then hides it
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    expect(panel).to_contain_text("true token PC3K")
    touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + 200}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(panel).to_be_hidden()


def test_the_key_shows_only_while_the_mouse_button_is_down(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    game = _game(django_user_model)
    context = browser.new_context()
    _OPEN_CONTEXTS.append(context)
    page = context.new_page()
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill("mara")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{server_url}/games/soylent/games/{game.pk}/")
    panel = page.locator("#key-panel")
    page.get_by_role("button", name="Hold to see my key").hover()
    page.mouse.down()
    expect(panel).to_contain_text("Watchers 1: true token WD7Q")
    assert "PC3K" not in panel.inner_html()  # mara's own key only
    page.mouse.up()
    expect(panel).to_be_hidden()
    assert "WD7Q" not in panel.inner_html()
    # and with the keyboard: held Space shows it, released hides it
    page.get_by_role("button", name="Hold to see my key").focus()
    page.keyboard.down(" ")
    expect(panel).to_contain_text("true token WD7Q")
    page.keyboard.up(" ")
    expect(panel).to_be_hidden()
