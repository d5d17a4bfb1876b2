"""Two players in two browsers set up a Ghoulash game and fight a Ghoul battle with a challenge
(the rules' Example 2: Del's 3 + 2, Brian's challenge 2 + 1, Del's answer 3)."""

import pytest
from django.core.cache import cache
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import assert_fits_a_phone, log_in

PASSWORD = "ghoo-for-the-job-42"
SLOW = 25000  # the other player's page polls every 3 s; a lost poll is given up after 10 s


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _box(owner):
    """A game box whose Lake and Gray decks pass the rules' checks (test data for the printed cards)."""
    from games.ghoulash import services
    from games.ghoulash.models import BoxCard

    box = services.create_box(owner, "Attic copy")
    services.save_numbers(
        box, {"lake": {"movement": 4, "health": 5}, "gray": {"movement": 4, "health": 5}}, {6: 3, 4: 1}
    )
    for card in box.cards.all():
        if card.catalogue_slug in ("steal", "value"):  # this printed box's Value cards are the Ghoo Shots below
            card.delete()
        else:
            card.count = 1 if card.card_type == BoxCard.SPECIALTY else 2
            card.save()
    for slug in ("lake", "gray", "cornealius", "zone"):
        for value in (1, 2, 3):
            BoxCard.objects.create(
                box=box,
                character=slug,
                card_type=BoxCard.VALUE,
                name=f"Ghoo Shot {value}",
                value=value,
                count=4,
                position=100 + value,
            )
    return box


def _hand(player, values, secret=""):
    """Arrange a dealt hand: these Value cards first, then non-Value cards up to seven."""
    hand = []
    for v in values:
        hand.append(
            next(c["id"] for c in player.deck if c["value"] == v and c["type"] == "value" and c["id"] not in hand)
        )
    while len(hand) < 7:
        hand.append(next(c["id"] for c in player.deck if c["type"] != "value" and c["id"] not in hand))
    if secret:
        for c in player.deck:
            if c["id"] == hand[-1]:
                c["name"] = secret
    player.hand = hand
    player.draw = [c["id"] for c in player.deck if c["id"] not in hand]
    player.save()
    cache.clear()  # a scene set by hand, not a move (same version): the table's shared part is rebuilt


def _login(browser: Browser, server_url: str, username: str) -> Page:
    return log_in(browser, server_url, username, PASSWORD)


def test_two_players_fight_a_ghoul_battle_with_a_challenge(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    from games.ghoulash.models import Game, Player, TileToken

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    django_user_model.objects.create_user("mara", password=PASSWORD)
    _box(vox)

    host = _login(browser, server_url, "vox")
    host.goto(server_url + "/games/ghoulash/")
    host.get_by_label("Name of the game", exact=True).fill("Friday fight")
    host.get_by_label("Seat 1: character").select_option(label="Professor David Lake")
    host.get_by_label("Seat 2: player").fill("mara")
    host.get_by_label("Seat 2: character").select_option(label="Doctor Pamela Gray")
    host.get_by_role("button", name="Deal and start the game").click()
    expect(host.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()

    game = Game.objects.get(name="Friday fight")
    _hand(Player.objects.get(game=game, user__username="vox"), [3, 2, 3], secret="Vox Secret Card")
    _hand(Player.objects.get(game=game, user__username="mara"), [2, 1])
    ghoul = TileToken.objects.filter(game=game, kind="ghoul", strength=5).first()
    host.reload()
    expect(host.locator(".gh-card-name", has_text="Vox Secret Card")).to_be_visible()

    guest = _login(browser, server_url, "mara")
    guest.goto(server_url + "/games/ghoulash/")
    guest.get_by_role("link", name="Friday fight").click()
    expect(guest.get_by_role("heading", name="Turn 1: vox to play")).to_be_visible()
    expect(guest.get_by_role("heading", name="You: Doctor Pamela Gray")).to_be_visible()
    assert "Vox Secret Card" not in guest.content()  # vox's hand is vox's alone
    assert "Ghoul 5" not in guest.content() and "Ghoul 5" not in host.content()  # every token face down

    # vox begins his turn, moves onto a token and reveals a strength-5 Ghoul
    host.get_by_role("button", name="Replenish my hand").click()
    host.get_by_role("button", name=f"Reveal Tile {ghoul.tile}, token {ghoul.slot}").click()
    expect(host.get_by_role("heading", name="Ghoul battle: vox against strength 5")).to_be_visible()
    expect(guest.get_by_text(f"{ghoul.slot}: Ghoul 5 (2 VP)")).to_be_visible(timeout=SLOW)

    # Step 2: a 3 and a 2 (Initial Combat Value 1 + 5 = 6 beats 5 by one)
    host.get_by_label("Ghoo Shot 3 (3)").first.check()
    host.get_by_label("Ghoo Shot 2 (2)").check()
    host.get_by_role("button", name="Put down these cards").click()
    expect(host.get_by_text("The challenge is offered to mara")).to_be_visible()

    # Step 3: mara challenges with a 2 and a 1
    guest.get_by_label("Ghoo Shot 2 (2)").check(timeout=SLOW)
    guest.get_by_label("Ghoo Shot 1 (1)").check()
    guest.get_by_role("button", name="Challenge", exact=True).click()
    expect(guest.get_by_text("vox has one answer")).to_be_visible()

    # Step 4: vox answers with his other 3 and wins the two Victory Points
    host.get_by_label("Ghoo Shot 3 (3)").check(timeout=SLOW)
    host.get_by_role("button", name="Answer with these cards").click()
    expect(host.get_by_text("wins 2 Victory Points (now 2)")).to_be_visible()
    expect(host.locator('td.gh-vp[data-player="vox"]')).to_have_text("2")
    expect(guest.locator('td.gh-vp[data-player="vox"]')).to_have_text("2", timeout=SLOW)
    expect(guest.get_by_text("— vox")).to_be_visible()
    assert "Vox Secret Card" not in guest.content()
    for player in (host, guest):
        assert_fits_a_phone(player)  # the table's phones: hands, forms and board wrap
