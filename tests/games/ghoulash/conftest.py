"""Ghoulash boxes and games built through the services, with helpers to arrange hands."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.ghoulash import services
from games.ghoulash.models import BoxCard, Game, Player, TileToken

# the owner's numbers in these tests (test data standing for a printed box, not rules content)
STATS = {
    "lake": {"movement": 4, "health": 5},
    "gray": {"movement": 4, "health": 5},
    "cornealius": {"initial_combat_value": 2, "movement": 5, "health": 6},
    "zone": {"initial_combat_value": 2, "movement": 4, "health": 6},
}
GHOUL_VP = {6: 3, 4: 1}
VALUES = {1: 4, 2: 4, 3: 4}  # four Value cards of each value per deck


@pytest.fixture
def ghoulash_catalogue(db):
    call_command("loadcatalogue", verbosity=0)


def complete_box(owner, name="My box"):
    """A box whose four decks pass the checks: the catalogue cards counted, 12 Value cards each."""
    box = services.create_box(owner, name)
    services.save_numbers(box, STATS, GHOUL_VP)
    for card in box.cards.all():
        if card.catalogue_slug in ("steal", "value"):  # this printed box's Value cards are the Ghoo Shots below
            card.delete()
            continue
        card.count = 1 if card.card_type == BoxCard.SPECIALTY else 2
        card.save()
    for slug in ("lake", "gray", "cornealius", "zone"):
        for value, count in VALUES.items():
            BoxCard.objects.create(
                box=box,
                character=slug,
                card_type=BoxCard.VALUE,
                name=f"Ghoo Shot {value}",
                value=value,
                count=count,
                position=100 + value,
            )
    box.refresh_from_db()
    return box


@pytest.fixture
def ghoulash_game(ghoulash_catalogue, make_user):
    """Del (Lake, first) and Brian (Gray) at a Ghoulash table, from a complete box."""
    del_, _brian = make_user("del"), make_user("brian")
    return services.create_game(del_, complete_box(del_), "Del and Brian", [("del", "lake"), ("brian", "gray")])


@pytest.fixture
def box_factory(ghoulash_catalogue):
    return complete_box


@pytest.fixture
def del_brian(make_user):
    return make_user("del"), make_user("brian")


@pytest.fixture
def lake_vs_gray(del_brian, box_factory):
    """Del (Lake, seat 0, first) and Brian (Gray, seat 1, to Del's left)."""
    del_, brian = del_brian
    box = box_factory(del_)
    return services.create_game(del_, box, "Del and Brian", [("del", "lake"), ("brian", "gray")])


def player(game, user) -> Player:
    return Player.objects.get(game=game, user=user)


def arrange_hand(p: Player, values, others=0) -> dict[int, int]:
    """Give player ``p`` a hand of Value cards of these values (and ``others`` non-Value cards), the rest in
    the draw deck; returns {value: [ids]} of the hand's Value cards in order."""
    deck = p.deck
    pool = {c["id"]: c for c in deck}
    hand = []
    for v in values:
        cid = next(c["id"] for c in deck if c["type"] == "value" and c["value"] == v and c["id"] not in hand)
        hand.append(cid)
    for _ in range(others):
        hand.append(next(c["id"] for c in deck if c["type"] != "value" and c["id"] not in hand))
    p.hand = hand
    p.draw = [i for i in pool if i not in hand]
    p.discard, p.wounds = [], []
    p.save()
    return hand


def ghoul(game, strength=5) -> TileToken:
    return TileToken.objects.filter(game=game, kind="ghoul", strength=strength, revealed=False).first()


def token_of(game, kind) -> TileToken:
    return TileToken.objects.filter(game=game, kind=kind, revealed=False).first()


def refresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def page_url(game):
    return reverse("ghoulash-game", args=[game.pk])


def act_url(game):
    return reverse("ghoulash-game-act", args=[game.pk])
