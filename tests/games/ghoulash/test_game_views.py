"""The game page: who may see and act, hidden hands and tokens, htmx polling, the query budget."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.ghoulash import services
from games.ghoulash.models import Event, Game, Player, TileToken
from tests.clients import logged_in

from .conftest import act_url, arrange_hand, ghoul, page_url, player, refresh, token_of

HTMX = {"HTTP_HX_REQUEST": "true"}


def stable(html: str) -> str:
    """The page without its per-render CSRF tokens."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)


# --- permissions -------------------------------------------------------------


def test_non_players_get_404_on_every_game_url(lake_vs_gray, make_user):
    game = lake_vs_gray
    zed = logged_in(make_user("zed"))
    assert zed.get(page_url(game)).status_code == 404
    assert zed.get(page_url(game), **HTMX).status_code == 404
    assert zed.get(page_url(game) + f"?v={game.version}", **HTMX).status_code == 404
    for action in ("replenish", "reveal", "end-turn", "decline", "challenge"):
        assert zed.post(act_url(game), {"action": action}).status_code == 404
    assert refresh(game).version == game.version
    assert "Del and Brian" not in zed.get(reverse("ghoulash-home")).content.decode()


def test_anonymous_is_sent_to_log_in(client, lake_vs_gray):
    assert client.get(page_url(lake_vs_gray)).status_code == 302
    assert client.post(act_url(lake_vs_gray), {"action": "replenish"}).status_code == 302


def test_acting_out_of_turn_is_refused(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    b = logged_in(brian)
    before = refresh(game)
    for action, data in (
        ("replenish", {}),
        ("end-turn", {}),
        ("reveal", {"token": ghoul(game).pk}),
        ("play", {}),
        ("respond", {}),
    ):
        r = b.post(act_url(game), {"action": action, **data}, **HTMX)
        assert r.status_code == 422, action
        assert "del&#x27;s turn" in r.content.decode()
    r = b.post(act_url(game), {"action": "decline"}, **HTMX)
    assert r.status_code == 422 and "No challenge is being offered" in r.content.decode()
    after = refresh(game)
    assert (after.phase, after.current_seat, after.turn) == (before.phase, before.current_seat, before.turn)
    assert not TileToken.objects.filter(game=game, revealed=True).exists()
    # Del must replenish before anything else; he cannot challenge his own battle
    d = logged_in(del_)
    r = d.post(act_url(game), {"action": "reveal", "token": ghoul(game).pk}, **HTMX)
    assert r.status_code == 422 and "Replenish your hand first" in r.content.decode()
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    d.post(act_url(game), {"action": "reveal", "token": ghoul(game).pk}, **HTMX)
    ids = arrange_hand(player(game, del_), [3, 3])
    d.post(act_url(game), {"action": "play", "cards": ids}, **HTMX)
    r = d.post(act_url(game), {"action": "challenge", "cards": ids}, **HTMX)
    assert r.status_code == 422 and "offered to brian" in r.content.decode()


def test_cards_that_are_not_in_your_hand_are_refused(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    d.post(act_url(game), {"action": "reveal", "token": ghoul(game, 4).pk}, **HTMX)
    brian_card = player(game, brian).hand[0]
    mine = player(game, del_)
    not_in_hand = mine.draw[0]
    for cards in ([not_in_hand], [mine.hand[0], mine.hand[0]], ["x"]):
        r = d.post(act_url(game), {"action": "play", "cards": cards}, **HTMX)
        assert r.status_code == 422
    assert refresh(game).phase == "battle"
    assert player(game, del_).hand == mine.hand
    assert player(game, brian).hand[0] == brian_card


def test_non_htmx_post_redirects_and_shows_the_error_as_a_message(lake_vs_gray, del_brian):
    b = logged_in(del_brian[1])
    r = b.post(act_url(lake_vs_gray), {"action": "end-turn"}, follow=True)
    assert r.status_code == 200
    assert "del&#x27;s turn" in r.content.decode()


# --- hidden information ---------------------------------------------------------


def secret_card(p: Player, name: str, where: str = "hand") -> None:
    """Rename the first card of ``where`` in the player's game deck to ``name``."""
    cid = getattr(p, where)[0]
    for c in p.deck:
        if c["id"] == cid:
            c["name"] = name
    p.save()


def every_page(client, game) -> dict[str, str]:
    return {
        "page": client.get(page_url(game)).content.decode(),
        "partial": client.get(page_url(game), **HTMX).content.decode(),
        "home": client.get(reverse("ghoulash-home")).content.decode(),
        "act-refused": client.post(act_url(game), {"action": "nonsense"}, **HTMX).content.decode(),
    }


def test_a_hand_is_seen_by_its_owner_only(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    secret_card(player(game, del_), "Zebra Secret")
    secret_card(player(game, del_), "Draw Secret", where="draw")
    mine = every_page(logged_in(del_), game)
    assert "Zebra Secret" in mine["page"] and "Zebra Secret" in mine["partial"]
    assert all("Draw Secret" not in html for html in mine.values())  # the Draw Deck is nobody's to see
    theirs = every_page(logged_in(brian), game)
    for name, html in theirs.items():
        assert "Zebra Secret" not in html, name
        assert "Draw Secret" not in html, name
    assert "Your hand" in theirs["page"]  # Brian sees his own hand


def test_the_other_pages_do_not_change_with_a_hidden_hand(lake_vs_gray, del_brian):
    """Swap Del's hand with other cards of his deck: Brian's pages stay byte for byte the same."""
    game = lake_vs_gray
    del_, brian = del_brian
    b = logged_in(brian)
    before = {k: stable(v) for k, v in every_page(b, game).items() if k != "act-refused"}
    p = player(game, del_)
    p.hand, p.draw = p.draw[:7], p.hand + p.draw[7:]
    p.save()
    cache.clear()  # an edit, not a move: same version, so the shared part is rebuilt from the new secret by hand
    after = {k: stable(v) for k, v in every_page(b, game).items() if k != "act-refused"}
    assert before == after


def test_unrevealed_tokens_do_not_show_in_any_page_source(lake_vs_gray, del_brian):
    """Swap what two face-down tokens are (a Hole and a strength-6 Ghoul): no page changes."""
    game = lake_vs_gray
    clients = [logged_in(u) for u in del_brian]
    clients[0].post(act_url(game), {"action": "replenish"}, **HTMX)  # Del now sees the Reveal buttons
    game = refresh(game)
    before = [{k: stable(v) for k, v in every_page(c, game).items() if k != "act-refused"} for c in clients]
    hole, six = token_of(game, "hole"), ghoul(game, 6)
    for t, (kind, strength, vp) in (
        (hole, (six.kind, six.strength, six.victory_points)),
        (six, (hole.kind, hole.strength, hole.victory_points)),
    ):
        t.kind, t.strength, t.victory_points = kind, strength, vp
        t.save()
    cache.clear()  # as above: rebuilt from the new secret
    after = [{k: stable(v) for k, v in every_page(c, game).items() if k != "act-refused"} for c in clients]
    assert before == after
    html = before[0]["page"]
    assert str(game.deal_seed) not in html
    assert all(str(e.seed) not in html for e in Event.objects.filter(game=game, seed__isnull=False))
    assert "gh-token-ghoul" not in html and "gh-token-down" in html and "Reveal Tile 1, token 1" in html


def test_a_revealed_token_is_shown_to_everyone(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    token = ghoul(game, 6)
    d.post(act_url(game), {"action": "reveal", "token": token.pk}, **HTMX)
    html = logged_in(brian).get(page_url(game)).content.decode()
    assert f"{token.slot}: Ghoul 6 (3 VP)" in html
    assert "Ghoul battle: del against strength 6" in html


def test_seeds_are_shown_once_the_game_is_over(lake_vs_gray, del_brian):
    game = lake_vs_gray
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, winners=["del"])
    html = logged_in(del_brian[1]).get(page_url(game)).content.decode()
    assert f"(seed {game.deal_seed})" in html
    assert "Winner: <strong>del</strong>" in html


def test_other_players_boxes_are_404(lake_vs_gray, del_brian):
    game = lake_vs_gray
    b = logged_in(del_brian[1])
    box = game.box
    card = box.cards.first()
    assert b.get(reverse("ghoulash-box", args=[box.pk])).status_code == 404
    assert b.post(reverse("ghoulash-box", args=[box.pk]), {"lake__health": 9}).status_code == 404
    assert b.get(reverse("ghoulash-box-pdf", args=[box.pk])).status_code == 404
    assert b.get(reverse("ghoulash-card-edit", args=[box.pk, card.pk])).status_code == 404
    assert b.post(reverse("ghoulash-card-delete", args=[box.pk, card.pk])).status_code == 404
    assert b.post(reverse("ghoulash-card-add", args=[box.pk]), {"name": "x"}).status_code == 404
    assert box.cards.filter(pk=card.pk).exists()


# --- htmx and the query budget ------------------------------------------------------


def test_the_poll_answers_204_until_something_changes(lake_vs_gray, del_brian):
    game = lake_vs_gray
    b = logged_in(del_brian[1])
    r = b.get(page_url(game) + f"?v={game.version}", **HTMX)
    assert r.status_code == 204 and "HX-Request" in r["Vary"]
    logged_in(del_brian[0]).post(act_url(game), {"action": "replenish"}, **HTMX)
    r = b.get(page_url(game) + f"?v={game.version}", **HTMX)
    assert r.status_code == 200 and 'id="table"' in r.content.decode() and "<html" not in r.content.decode()
    full = b.get(page_url(game))
    assert "<html" in full.content.decode() and "HX-Request" in full["Vary"]


@pytest.fixture
def four_player_game(box_factory, make_user):
    users = [make_user(n) for n in ("del", "brian", "emma", "alisha")]
    box = box_factory(users[0])
    game = services.create_game(
        users[0], box, "Four", list(zip(("del", "brian", "emma", "alisha"), ("lake", "gray", "cornealius", "zone")))
    )
    return game, users


def _mid_battle(game, users):
    """Del reveals a 4 and puts down a 3 and a 2: the challenge is being offered."""
    d = logged_in(users[0])
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    d.post(act_url(game), {"action": "reveal", "token": ghoul(game, 4).pk}, **HTMX)
    ids = arrange_hand(player(game, users[0]), [3, 2])
    d.post(act_url(game), {"action": "play", "cards": ids}, **HTMX)
    assert refresh(game).phase == "challenge"


@pytest.mark.parametrize("size", [2, 4])
def test_game_page_query_budget_does_not_grow_with_players(
    size, lake_vs_gray, django_assert_num_queries, box_factory, make_user, del_brian
):
    if size == 2:
        game, users = lake_vs_gray, list(del_brian)
    else:
        users = list(del_brian) + [make_user("emma"), make_user("alisha")]
        box = box_factory(users[0], "Box 2")
        game = services.create_game(
            users[0], box, "Four", list(zip(("del", "brian", "emma", "alisha"), ("lake", "gray", "cornealius", "zone")))
        )
    _mid_battle(game, users)
    c = logged_in(users[1])
    cache.clear()  # this seat is the first to draw the version: it builds the shared part
    # session (the cache was just emptied), user, game, players+users, tokens, events
    with django_assert_num_queries(6):
        r = c.get(page_url(game))
    assert r.status_code == 200 and "The challenge is offered to" in r.content.decode()
    # none (the session and the user from the cache again): the game's rows and public part from the cache, this
    # seat's own part drawn from them
    with django_assert_num_queries(0):
        assert c.get(page_url(game) + "?v=0", **HTMX).status_code == 200
    other = logged_in(users[0])
    with django_assert_num_queries(1):  # the user, on the first page after signing in
        assert other.get(page_url(game)).status_code == 200


def test_play_buttons_only_for_cards_the_player_may_play_now(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    b = player(game, brian)
    arrange_hand(b, [1], others=6)  # Gray: Hole, Debris, Parry, Inaction, Specialty cards
    b.refresh_from_db()
    deck = {c["id"]: c for c in b.deck}
    html = logged_in(brian).get(page_url(game)).content.decode()
    hole = next(deck[i] for i in b.hand if deck[i]["slug"] == "hole")
    parry = next(deck[i] for i in b.hand if deck[i]["slug"] == "parry")
    assert f'name="card" value="{parry["id"]}"' in html  # a Rescue card: any time
    assert f'name="card" value="{hole["id"]}"' not in html  # an Action card: on your own turn
    r = logged_in(brian).post(act_url(game), {"action": "card", "card": hole["id"]}, **HTMX)
    assert r.status_code == 422


def test_the_answer_form_offers_a_parry_card_added_by_hand(lake_vs_gray, del_brian):
    """A Parry the owner typed in (no catalogue slug, named "Parry") is a Parry: "the Parry card allows the player
    to ignore a Value card played against them" (l.546-552). The service took it; the page must offer it too."""
    game = lake_vs_gray
    del_, brian = del_brian
    c = logged_in(del_)
    assert c.post(act_url(game), {"action": "replenish"}, **HTMX).status_code == 200
    assert c.post(act_url(game), {"action": "reveal", "token": ghoul(game, 5).pk}, **HTMX).status_code == 200
    d = player(game, del_)
    ids = arrange_hand(d, [3, 3])
    parry = next(card for card in d.deck if card["slug"] == "parry")
    parry["slug"] = ""  # as a card added on the box page under the name "Parry"
    d.hand = ids + [parry["id"]]
    d.draw = [i for i in d.draw if i != parry["id"]]
    d.save()
    assert c.post(act_url(game), {"action": "play", "cards": ids}, **HTMX).status_code == 200  # 1 + 6 = 7
    b = logged_in(brian)
    challenge = arrange_hand(player(game, brian), [3])
    assert b.post(act_url(game), {"action": "challenge", "cards": challenge}, **HTMX).status_code == 200  # 4
    html = c.get(page_url(game)).content.decode()
    assert f'name="parry" value="{parry["id"]}"' in html
    assert c.post(act_url(game), {"action": "respond", "parry": [parry["id"]]}, **HTMX).status_code == 200
    assert player(game, del_).victory_points == 2
