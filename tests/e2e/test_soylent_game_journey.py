"""Two players in two browsers play a short Soylent Ghoul game to a win (the Gardeners' lantern included)."""

import random
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import assert_fits_a_phone, log_in

PASSWORD = "neon-bones-1138"
SLOW = 25000  # the other player's board refreshes every 5 s; a lost poll is given up after 10 s


def seed_rolling_eight() -> int:
    return next(s for s in range(10000) if random.Random(s).randint(1, 8) == 8)


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _drone_set(user, name, group, codes, true_code):
    from crewbuilder.models import Crew, GameSystem
    from games.soylent_ghoul.sets.models import Drone, DroneSet, Token

    system = GameSystem.objects.filter(slug="soylent-ghoul").order_by("-id").first()
    crew = Crew.objects.create(owner=user, system=system, name=name)
    drone_set = DroneSet.objects.create(crew=crew, group=group)
    drone = Drone.objects.create(drone_set=drone_set, name=f"{name} 1", position=0)
    for i, code in enumerate(codes):
        Token.objects.create(drone=drone, code=code, position=i, is_true=code == true_code)
    return drone_set


def _login(browser: Browser, server_url: str, username: str) -> Page:
    return log_in(browser, server_url, username, PASSWORD)


def test_two_players_play_soylent_ghoul_to_a_win(
    browser: Browser, server_url: str, catalogue, django_user_model, monkeypatch
):
    from games.soylent_ghoul.play import services

    # every panic test rolls an 8: over the Eyes' Nerve 3, so each panic token Snaps
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed_rolling_eight())
    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    _drone_set(vox, "Pale Hands", "gardeners", ["PA3K", "PB3K", "PC3K", "PD3K", "PE3K"], "PC3K")
    _drone_set(mara, "Watchers", "eyes", ["WA7Q", "WB7Q", "WC7Q", "WD7Q", "WE7Q"], "WD7Q")

    host = _login(browser, server_url, "vox")
    host.goto(server_url + "/games/soylent/games/")
    host.get_by_label("Your drone set").select_option(label="Pale Hands (1 drone)")
    host.get_by_label("Invite players by username").fill("mara")
    host.get_by_role("button", name="Set up the game").click()
    expect(host.get_by_role("heading", name="Waiting for players")).to_be_visible()

    guest = _login(browser, server_url, "mara")
    guest.goto(server_url + "/games/soylent/games/")
    expect(guest.get_by_text("invitation: choose your drone set")).to_be_visible()
    guest.get_by_role("link", name=re.compile(r"^Game \d+$")).click()
    guest.get_by_label("Your drone set").select_option(label="Watchers (1 drone)")
    guest.get_by_role("button", name="Join with this set").click()
    expect(guest.get_by_text("Watchers (Eyes)")).to_be_visible()

    # the host's board polls and shows mara's set; vox is the most morally suspect
    expect(host.get_by_text("Watchers (Eyes)")).to_be_visible(timeout=SLOW)
    host.get_by_label("Who goes first").select_option(label="vox")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()
    # the key is off the page, even the owner's: "Hold to see my key" fetches it (test_soylent_key_hold.py)
    expect(host.get_by_role("button", name="Hold to see my key")).to_be_visible()
    expect(host.locator(".sg-key-shown")).to_have_count(0)

    host.get_by_role("button", name="Place Pale Hands 1").click()
    expect(host.get_by_role("heading", name="Turn 2: mara to play")).to_be_visible()
    guest.get_by_role("button", name="Place Watchers 1").click(timeout=SLOW)
    expect(guest.get_by_role("heading", name="Turn 3: vox to play")).to_be_visible()
    assert "WD7Q" in guest.content() and "sg-key-shown" not in guest.content()
    host_source = host.content()
    assert host_source.count("WD7Q") == host_source.count("WA7Q")
    assert "TRUE" not in host_source.split("WD7Q", 1)[1].split("</li>", 1)[0]

    host.get_by_role("button", name="Activate PA3K").click(timeout=SLOW)
    expect(host.get_by_text("may place a panic token or pass")).to_be_visible()
    # odds before rolling: Eyes Nerve 3 with no panic, 4-8 snaps
    host.get_by_label("Place a panic token on").select_option(
        label="token WA7Q (mara's Watchers 1), 0 panic: 62.5% chance to Snap"
    )
    host.get_by_role("button", name="Place the panic token and roll").click()
    expect(host.get_by_text("Snaps and is removed.")).to_be_visible()
    expect(host.get_by_text("Waiting for mara to choose")).to_be_visible()

    # mara chooses where the snapped token's panic goes
    guest.get_by_label("Move the 1 panic token of WA7Q to").select_option(label="WB7Q (0 panic)", timeout=SLOW)
    guest.get_by_role("button", name="Move the panic tokens").click()
    expect(guest.get_by_text("1 panic token(s) move from WA7Q")).to_be_visible()
    guest.get_by_role("button", name="Pass").click()
    expect(guest.get_by_text("Nothing to do until your go.")).to_be_visible()

    # vox passes too: the panic phase is over and PA3K may perform one action: Lighter (SG14)
    host.get_by_role("button", name="Pass").click(timeout=SLOW)
    expect(host.locator(".sg-phase")).to_contain_text("may perform one action")
    host.get_by_label("Light level").select_option("4")
    host.get_by_label("token WD7Q (mara's Watchers 1)").check()
    host.get_by_role("button", name="Perform Lighter").click()
    expect(host.get_by_text("Lantern number (light level): 4")).to_be_visible()
    expect(host.locator(".sg-token .sg-light")).to_have_count(2)  # PA3K ("including this drone") and WD7Q
    host.get_by_role("button", name="End the turn").click()
    expect(host.get_by_role("heading", name="Turn 4: mara to play")).to_be_visible()
    expect(guest.get_by_text("Lantern number (light level): 4")).to_be_visible(timeout=SLOW)
    guest.get_by_role("button", name="Activate WB7Q").click()
    guest.get_by_role("button", name="Pass").click()
    # an Eyes token has no action (Check is a Drone's): the panic phase over, vox's turn comes (SG23)
    host.get_by_role("button", name="Pass").click(timeout=SLOW)

    # turn 5: vox's Darker rolls its D8 (8: over the reduction of 1, the lantern is now 3), then vox
    # ticks who is out of the light: WD7Q gains 5 panic tokens and its first test Snaps it (SG16)
    expect(host.get_by_role("heading", name="Turn 5: vox to play")).to_be_visible(timeout=SLOW)
    host.get_by_role("button", name="Activate PB3K").click()
    host.get_by_role("button", name="Pass").click()
    guest.get_by_role("button", name="Pass").click(timeout=SLOW)
    host.get_by_label("Reduce the lantern number by").select_option("1", timeout=SLOW)
    host.get_by_role("button", name="Perform Darker").click()
    expect(host.get_by_text("who is out of the light?")).to_be_visible()
    assert_fits_a_phone(host)  # the light form, the board and the log on the table's phone
    expect(host.get_by_text("Lantern number (light level): 3")).to_be_visible()
    expect(guest.get_by_text("to mark who is out of the light")).to_be_visible(timeout=SLOW)
    host.get_by_label("token WD7Q (mara's Watchers 1)").check()
    host.get_by_role("button", name="Give the panic tokens and roll").click()
    expect(host.get_by_role("heading", name="vox wins!")).to_be_visible()
    expect(host.get_by_text("Odds before the roll: 1/8 (12.5%) of losing the lantern.")).to_be_visible()
    expect(host.get_by_text("is out of the light: it gains 5 panic tokens")).to_be_visible()
    expect(host.get_by_text("was the true token")).to_be_visible()
    expect(guest.get_by_role("heading", name="vox wins!")).to_be_visible(timeout=SLOW)
    expect(guest.get_by_text("Odds before the roll: 5/8 (62.5%) of Snapping.").first).to_be_visible()
