"""Red-team probes of Ghoulash: hidden hands, face-down tokens, the seeds of the deal,
shuffles and wound picks, who may act, other games' ids, bad input.

Secrecy probes compare what a player can fetch before and after a hidden thing is
changed (face-down tokens permuted, another player's hand or wound cards swapped):
the answers must be identical (CSRF tokens aside). Each first shows the owner's or
the revealed view does change, so the probe can fail.
"""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.ghoulash import services, views
from games.ghoulash.models import BoxCard, Event, Game, TileToken
from tests.clients import logged_in

from .conftest import act_url, arrange_hand, ghoul, page_url, player, refresh

HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
BAD = ["", "abc", "1.5", "-1", "0", "99999999999999999999999"]


def stable(response) -> tuple:
    return response.status_code, response.get("Location"), CSRF.sub(r"\1", response.content.decode())


def unrevealed(game):
    return list(TileToken.objects.filter(game=game, revealed=False).order_by("tile", "slot"))


def rotate_hidden_tokens(game) -> None:
    """Every face-down token takes the identity of the next one: nothing else changes."""
    tokens = unrevealed(game)
    faces = [(t.kind, t.strength, t.victory_points) for t in tokens]
    assert len(set(faces)) > 1
    for t, (kind, strength, vp) in zip(tokens, faces[1:] + faces[:1]):
        t.kind, t.strength, t.victory_points = kind, strength, vp
        t.save(update_fields=["kind", "strength", "victory_points"])
    cache.clear()  # an edit, not a move: same version, so the shared part is rebuilt from the new secret by hand


def everything(client, game, refusals=True) -> dict:
    game = refresh(game)
    out = {
        "page": client.get(page_url(game)),
        "partial": client.get(page_url(game) + "?v=0", **HTMX),
        "poll": client.get(page_url(game) + f"?v={game.version}", **HTMX),
        "home": client.get(reverse("ghoulash-home")),
    }
    if refusals:
        for t in unrevealed(game):
            for action in ("fight", "first-aid"):
                out[f"{action}-{t.pk}"] = client.post(act_url(game), {"action": action, "token": t.pk}, **HTMX)
    return {k: stable(r) for k, r in out.items()}


def test_refusals_on_face_down_tokens_do_not_depend_on_what_they_are(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d, b = logged_in(del_), logged_in(brian)
    assert d.post(act_url(game), {"action": "replenish"}, **HTMX).status_code == 200
    version = refresh(game).version
    before = [everything(d, game), everything(b, game)]
    rotate_hidden_tokens(game)
    after = [everything(d, game), everything(b, game)]
    for who, (x, y) in enumerate(zip(before, after)):
        for key in x:
            assert x[key] == y[key], (who, key)
    assert refresh(game).version == version  # every refusal changed nothing
    # the probe can fail: a revealed token does show what it is
    token = ghoul(game, 6)
    d.post(act_url(game), {"action": "reveal", "token": token.pk}, **HTMX)
    assert f"{token.slot}: Ghoul 6" in b.get(page_url(game)).content.decode()


@pytest.fixture
def lost_battle(lake_vs_gray, del_brian):
    """Del loses a battle against a strength-6 Ghoul: three wound cards taken at random (seeded)."""
    game = lake_vs_gray
    del_, brian = del_brian
    d = logged_in(del_)
    assert d.post(act_url(game), {"action": "replenish"}, **HTMX).status_code == 200
    hand = arrange_hand(player(game, del_), [1, 1, 2, 2, 3, 3, 3])
    token = ghoul(game, 6)
    assert d.post(act_url(game), {"action": "reveal", "token": token.pk}, **HTMX).status_code == 200
    assert d.post(act_url(game), {"action": "play", "cards": [hand[0]]}, **HTMX).status_code == 200
    assert Event.objects.filter(game=game, kind="wounds").exists()
    return refresh(game)


def test_wound_picks_and_their_seed_stay_hidden_while_the_game_is_on(lost_battle, del_brian):
    game = lost_battle
    del_, brian = del_brian
    b = logged_in(brian)
    wounded = player(game, del_)
    assert len(wounded.wounds) == 3
    seeds = [str(e.seed) for e in Event.objects.filter(game=game, seed__isnull=False)]
    assert len(seeds) >= 4  # deal, two shuffles, replenish, wounds
    for c in (logged_in(del_), b):
        for html in (c.get(page_url(game)).content.decode(), c.get(page_url(game) + "?v=0", **HTMX).content.decode()):
            for s in seeds + [str(game.deal_seed)]:
                assert f"seed {s}" not in html and f">{s}<" not in html
    # del sees his wound stack; brian's pages do not change when the wound cards are other cards
    own = logged_in(del_).get(page_url(game)).content.decode()
    assert "Wound stack:" in own
    before = everything(b, game, refusals=False)
    deck = {c["id"]: c for c in wounded.deck}
    swap = [i for i in wounded.draw if deck[i]["name"] not in {deck[w]["name"] for w in wounded.wounds}][:3]
    assert len(swap) == 3
    wounded.wounds, wounded.draw = swap, [i for i in wounded.draw if i not in swap] + wounded.wounds
    wounded.save()
    cache.clear()  # an edit, not a move: same version, so the shared part is rebuilt from the new secret by hand
    assert everything(b, game, refusals=False) == before
    assert logged_in(del_).get(page_url(game)).content.decode() != own
    # once the game is over every seed is public (a replay can check the referee)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, winners=["brian"])
    cache.clear()
    html = b.get(page_url(game)).content.decode()
    assert all(f"(seed {s})" in html for s in seeds)


def test_the_log_never_names_hidden_cards(lost_battle):
    text = " ".join(Event.objects.filter(game=lost_battle).values_list("text", flat=True))
    assert "taken at random" in text
    for p in lost_battle.players.all():
        deck = {c["id"]: c for c in p.deck}
        for i in p.hand + p.draw + p.wounds:
            # a card's name shows only where it was put down in the open (battle, challenge, played card)
            if deck[i]["name"].startswith("Ghoo Shot"):
                continue
            assert f"plays {deck[i]['name']}" not in text


# --- access and other games' ids -------------------------------------------------------


def box_urls(box):
    card = box.cards.first()
    return [
        reverse("ghoulash-box", args=[box.pk]),
        reverse("ghoulash-card-add", args=[box.pk]),
        reverse("ghoulash-card-edit", args=[box.pk, card.pk]),
        reverse("ghoulash-card-delete", args=[box.pk, card.pk]),
        reverse("ghoulash-box-pdf", args=[box.pk]),
    ]


def test_a_visitor_is_sent_to_log_in_everywhere(client, lake_vs_gray):
    game = lake_vs_gray
    for u in [reverse("ghoulash-home"), page_url(game), act_url(game)] + box_urls(game.box):
        for method in (client.get, client.post):
            r = method(u, {"action": "end-turn"})
            assert r.status_code in (302, 405), u
            if r.status_code == 302:
                assert r["Location"].startswith("/accounts/login/"), u
    assert refresh(game).version == game.version


def test_a_stranger_gets_404_and_the_game_is_not_listed(lake_vs_gray, make_user):
    game = lake_vs_gray
    z = logged_in(make_user("zed"))
    for action in services.HANDLERS:
        assert z.post(act_url(game), {"action": action}, **HTMX).status_code == 404
    assert z.get(page_url(game)).status_code == 404
    assert z.get(page_url(game) + "?v=1", **HTMX).status_code == 404
    for u in box_urls(game.box):
        assert z.get(u).status_code in (404, 405) and z.post(u, {"name": "x"}).status_code in (404, 405)
    assert game.name not in z.get(reverse("ghoulash-home")).content.decode()
    assert refresh(game).version == game.version


def test_a_token_of_another_game_is_refused(lake_vs_gray, del_brian, make_user, box_factory):
    game = lake_vs_gray
    del_, brian = del_brian
    zed = make_user("zed")
    other = services.create_game(zed, box_factory(zed, "Zed's"), "Zed and Brian", [("zed", "lake"), ("brian", "gray")])
    foreign = TileToken.objects.filter(game=other).first()
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    version = refresh(game).version
    for action in ("reveal", "fight", "first-aid"):
        r = d.post(act_url(game), {"action": action, "token": foreign.pk}, **HTMX)
        assert r.status_code == 422, action
        assert "Zed and Brian" not in r.content.decode()
    assert not TileToken.objects.get(pk=foreign.pk).revealed
    assert refresh(game).version == version


def test_cards_not_in_your_own_hand_are_refused_even_with_the_right_ids(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    mine = player(game, del_)
    theirs = player(game, brian)
    foreign = [i for i in theirs.hand if i not in mine.hand]
    assert foreign
    r = d.post(act_url(game), {"action": "card", "card": foreign[0]}, **HTMX)
    assert r.status_code == 422 and "not in your hand" in r.content.decode()
    r = d.post(act_url(game), {"action": "replenish", "cards": mine.hand[:1] * 2}, **HTMX)
    assert r.status_code == 422
    assert player(game, brian).hand == theirs.hand and player(game, del_).hand == mine.hand


def test_out_of_turn_is_refused_and_changes_nothing(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    b = logged_in(brian)
    version = refresh(game).version
    token = unrevealed(game)[0]
    for action, data in (
        ("replenish", {}),
        ("reveal", {"token": token.pk}),
        ("end-turn", {}),
        ("decline", {}),
        ("challenge", {"cards": player(game, brian).hand[:1]}),
        ("respond", {}),
        ("play", {}),
        ("leave-first-aid", {}),
    ):
        assert b.post(act_url(game), {"action": action, **data}, **HTMX).status_code == 422, action
    assert refresh(game).version == version and not TileToken.objects.get(pk=token.pk).revealed


def test_another_users_box_cannot_be_used_or_edited_through_my_own(lake_vs_gray, del_brian, box_factory):
    game = lake_vs_gray
    del_, brian = del_brian
    mine = box_factory(brian, "Brian's box")
    theirs_card = game.box.cards.first()
    b = logged_in(brian)
    # del's card through brian's own box URL
    assert b.get(reverse("ghoulash-card-edit", args=[mine.pk, theirs_card.pk])).status_code == 404
    assert (
        b.post(
            reverse("ghoulash-card-edit", args=[mine.pk, theirs_card.pk]),
            {"character": "lake", "card_type": "value", "name": "Hacked", "value": 1, "count": 1},
        ).status_code
        == 404
    )
    assert b.post(reverse("ghoulash-card-delete", args=[mine.pk, theirs_card.pk])).status_code == 404
    assert BoxCard.objects.get(pk=theirs_card.pk).name != "Hacked"
    # a game set up with del's box
    games = Game.objects.count()
    r = b.post(
        reverse("ghoulash-home"),
        {
            "form": "game",
            "box": game.box.pk,
            "player_1": "brian",
            "character_1": "lake",
            "player_2": "del",
            "character_2": "gray",
        },
    )
    assert r.status_code == 422 and Game.objects.count() == games


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("action", sorted(services.HANDLERS) + ["nonsense", ""])
def test_bad_input_on_every_action_is_a_422(lake_vs_gray, del_brian, action):
    game = lake_vs_gray
    del_, brian = del_brian
    d = logged_in(del_)
    for phase in ("turn-start", "turn"):
        if phase == "turn":
            d.post(act_url(game), {"action": "replenish"}, **HTMX)
        for bad in BAD:
            r = d.post(
                act_url(game),
                {"action": action, "token": bad, "card": bad, "cards": [bad, bad], "parry": [bad]},
                **HTMX,
            )
            assert r.status_code in (200, 422), (action, bad, r.status_code)
            if action not in ("replenish", "end-turn", "hole-square") or bad:  # these take no input
                assert r.status_code == 422, (action, bad)
        r = d.post(act_url(game), {"action": action}, **HTMX)
        assert r.status_code in (200, 422)


def test_bad_input_on_box_pages_is_a_4xx(lake_vs_gray, del_brian):
    box = lake_vs_gray.box
    d = logged_in(del_brian[0])
    card = box.cards.first()
    huge = "99999999999999999999"
    for data in (
        {"character": "nobody", "card_type": "value", "name": "x", "value": 1, "count": 1},
        {"character": "lake", "card_type": "nonsense", "name": "x", "value": 1, "count": 1},
        {"character": "lake", "card_type": "value", "name": "x", "value": huge, "count": huge},
        {"character": "lake", "card_type": "value", "name": "x", "value": "abc", "count": -1},
        {},
    ):
        assert d.post(reverse("ghoulash-card-add", args=[box.pk]), data).status_code == 422
        assert d.post(reverse("ghoulash-card-edit", args=[box.pk, card.pk]), data).status_code == 422
    for value in (huge, "abc", "-5"):
        assert (
            d.post(reverse("ghoulash-box", args=[box.pk]), {"cornealius__health": value, "ghoul_6": value}).status_code
            == 422
        )
    for data in (
        {"form": "game", "box": "abc"},
        {"form": "game", "box": huge},
        {"form": "box", "name": ""},
        {"form": "game", "box": box.pk, "player_1": "del", "character_1": "nobody"},
        {
            "form": "game",
            "box": box.pk,
            "player_1": "del",
            "character_1": "lake",
            "player_2": "ghost",
            "character_2": "gray",
        },
    ):
        assert d.post(reverse("ghoulash-home"), data).status_code == 422, data
    assert d.get(reverse("ghoulash-card-edit", args=[box.pk, 99999999])).status_code == 404


def test_no_view_is_csrf_exempt_and_csrf_is_enforced(lake_vs_gray, del_brian):
    for name in (
        "home",
        "box_detail",
        "box_card_add",
        "box_card_edit",
        "box_card_delete",
        "box_pdf",
        "game_detail",
        "game_act",
    ):
        assert not getattr(getattr(views, name), "csrf_exempt", False), name
    c = Client(enforce_csrf_checks=True)
    c.force_login(del_brian[0])
    assert c.post(act_url(lake_vs_gray), {"action": "replenish"}).status_code == 403
    assert refresh(lake_vs_gray).phase == Game.TURN_START


def test_the_admin_is_closed_to_players(lake_vs_gray, del_brian):
    b = logged_in(del_brian[1])
    for u in ("/admin/", f"/admin/ghoulash/ghoulashbox/{lake_vs_gray.box.pk}/change/", "/admin/ghoulash/ghoulashbox/"):
        r = b.get(u)
        assert r.status_code == 302 and "/admin/login/" in r["Location"], u
