"""A shared game page keeps itself up to date without losing the player's half-made choice, and a poll
that never gets an answer (a phone on a bad network, a proxy that drops the request) is given up after
a while and polling goes on."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Route, expect

from tests.e2e.conftest import log_in
from tests.e2e.test_ghoulash_journey import _box

PASSWORD = "ghoo-for-the-job-42"


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def test_a_poll_that_never_answers_does_not_stop_the_updates(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    from games.ghoulash import services
    from games.ghoulash.models import Game

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    box = _box(vox)
    game = services.create_game(vox, box, "Stuck poll", [("vox", "lake"), ("mara", "gray")])

    guest = log_in(browser, server_url, "mara", PASSWORD)
    held: list[Route] = []

    def hold_the_first_poll(route: Route) -> None:
        if route.request.headers.get("hx-request") and not held:
            held.append(route)  # never fulfilled: the request hangs like one lost on the network
        else:
            route.continue_()

    guest.route("**/games/ghoulash/games/*/?v=*", hold_the_first_poll)
    guest.goto(f"{server_url}/games/ghoulash/games/{game.pk}/")
    expect(guest.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()
    guest.wait_for_timeout(4000)  # the first poll has gone out and hangs
    assert len(held) == 1

    services.act(game.pk, vox, action="replenish")
    assert Game.objects.get(pk=game.pk).phase == Game.TURN
    expect(guest.get_by_text("vox moves, encounters and takes an action, then ends the turn.")).to_be_visible(
        timeout=20000
    )


def test_a_redraw_keeps_the_choice_the_player_was_making(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    from django.db.models import F

    from core.games import kit
    from games.ghoulash import services
    from games.ghoulash.models import Game

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    django_user_model.objects.create_user("mara", password=PASSWORD)
    game = services.create_game(vox, _box(vox), "Half a move", [("vox", "lake"), ("mara", "gray")])
    services.act(game.pk, vox, action="replenish")

    page = log_in(browser, server_url, "vox", PASSWORD)
    page.goto(f"{server_url}/games/ghoulash/games/{game.pk}/")
    move = page.locator("form.gh-move-token")
    move.get_by_label("to tile").select_option("3")
    move.get_by_label("mara").check()
    page.evaluate("document.getElementById('table').dataset.before = 'yes'")

    # another player's move, as the poll sees it: a new version, published to the polls as a move publishes it
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    kit.bump_version(services.LABEL, game.pk, Game.objects.get(pk=game.pk).version)
    expect(page.locator("#table[data-before]")).to_have_count(0)  # the board was redrawn
    expect(page.locator("#table")).to_be_visible()
    expect(move.get_by_label("to tile")).to_have_value("3")
    expect(move.get_by_label("mara")).to_be_checked()
    expect(move.get_by_label("you", exact=True)).not_to_be_checked()
