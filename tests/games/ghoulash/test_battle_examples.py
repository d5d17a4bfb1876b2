"""The rules' four Ghoul battle examples (Del plays Lake, Brian plays Gray), played through the tracker's
pages: each POST goes through the view, the service and the engine."""

import pytest
from django.urls import reverse

from games.ghoulash.models import Event, TileToken

from .conftest import arrange_hand, ghoul, player, refresh

HTMX = {"HTTP_HX_REQUEST": "true"}


def act(client, game, action, **data):
    return client.post(reverse("ghoulash-game-act", args=[game.pk]), {"action": action, **data}, **HTMX)


@pytest.fixture
def del_client(client, del_brian):
    client.force_login(del_brian[0])
    return client


@pytest.fixture
def brian_client(client_factory, del_brian):
    return client_factory(del_brian[1])


@pytest.fixture
def client_factory():
    from django.test import Client

    def make(user):
        c = Client()
        c.force_login(user)
        return c

    return make


def del_meets_a_five(game, del_client, hand):
    """Del replenishes (discarding nothing), enters the square of a strength-5 Ghoul and reveals it."""
    del_, brian = game.players.order_by("seat")
    ids = arrange_hand(del_, hand)
    assert act(del_client, game, "replenish").status_code == 200
    del_.refresh_from_db()
    del_.hand = ids  # replenishing drew to seven; keep only the example's cards for a clear example
    del_.save()
    token = ghoul(game, 5)
    r = act(del_client, game, "reveal", token=token.pk)
    assert r.status_code == 200
    assert "reveals a strength-5 Ghoul (2 Victory Points)" in r.content.decode()
    return token, ids


def test_example_1_nobody_challenges_and_del_wins_two_victory_points(lake_vs_gray, del_client, brian_client, del_brian):
    game = lake_vs_gray
    token, ids = del_meets_a_five(game, del_client, [3, 2, 1])
    r = act(del_client, game, "play", cards=[ids[0], ids[1]])  # a 3 and a 2: 1 + 5 = 6 beats 5 by one
    assert r.status_code == 200
    assert "= 6" in r.content.decode()
    assert refresh(game).phase == "challenge"
    r = act(brian_client, game, "decline")
    assert r.status_code == 200
    del_ = player(game, del_brian[0])
    assert del_.victory_points == 2
    token.refresh_from_db()
    assert token.holder_id == del_.pk and token.state == TileToken.TAKEN
    assert sorted(del_.discard) == sorted(ids[:2]) and del_.hand == [ids[2]]
    assert refresh(game).phase == "turn"  # Del may still take his Action
    assert "wins 2 Victory Points (now 2)" in r.content.decode()


def test_example_2_brian_challenges_with_2_and_1_and_del_answers_with_a_3(
    lake_vs_gray, del_client, brian_client, del_brian
):
    game = lake_vs_gray
    token, ids = del_meets_a_five(game, del_client, [3, 2, 3])
    brian_ids = arrange_hand(player(game, del_brian[1]), [2, 1, 3])
    act(del_client, game, "play", cards=[ids[0], ids[1]])
    r = act(brian_client, game, "challenge", cards=[brian_ids[0], brian_ids[1]])
    assert r.status_code == 200
    assert "total drops to 3" in r.content.decode()  # "the original 5 + 1, minus 3"
    assert refresh(game).phase == "response"
    r = act(del_client, game, "respond", cards=[ids[2]])
    assert r.status_code == 200
    del_, brian = player(game, del_brian[0]), player(game, del_brian[1])
    assert del_.victory_points == 2 and del_.wounds == []
    assert sorted(brian.discard) == sorted(brian_ids[:2]) and brian.hand == [brian_ids[2]]
    token.refresh_from_db()
    assert token.holder_id == del_.pk


def test_example_3_del_has_no_answer_and_suffers_two_wounds(lake_vs_gray, del_client, brian_client, del_brian):
    game = lake_vs_gray
    token, ids = del_meets_a_five(game, del_client, [3, 2])
    del_ = player(game, del_brian[0])
    del_.hand = ids + [next(c["id"] for c in del_.deck if c["type"] == "action")]  # no other Value card
    del_.draw = [i for i in del_.draw if i not in del_.hand]
    del_.save()
    brian_ids = arrange_hand(player(game, del_brian[1]), [2, 1])
    act(del_client, game, "play", cards=ids)
    act(brian_client, game, "challenge", cards=brian_ids)
    r = act(del_client, game, "respond")
    assert r.status_code == 200
    del_.refresh_from_db()
    assert del_.victory_points == 0
    assert len(del_.wounds) == 2  # two green dots, two wounds: his last card, then the top of the Draw Pile
    token.refresh_from_db()
    assert token.state == TileToken.ON_BOARD and token.revealed and token.holder is None  # the Ghoul stays
    assert Event.objects.filter(game=game, kind="wounds", seed__isnull=False).count() == 1


def test_example_4_brian_lacks_the_value_and_loses_at_once(lake_vs_gray, del_client, brian_client, del_brian):
    game = lake_vs_gray
    act(del_client, game, "replenish")
    act(del_client, game, "end-turn")
    brian = player(game, del_brian[1])
    ids = arrange_hand(brian, [2, 1, 1], others=4)
    assert act(brian_client, game, "replenish").status_code == 200
    act(brian_client, game, "reveal", token=ghoul(game, 5).pk)
    r = act(brian_client, game, "play", cards=ids[:3])  # 1 + 4 = 5 does not beat 5
    assert r.status_code == 200
    game = refresh(game)
    assert game.phase == "turn" and game.battle is None  # no challenge offered: lost at once
    brian.refresh_from_db()
    assert len(brian.wounds) == 2 and brian.victory_points == 0
    assert "loses the battle" in r.content.decode()
