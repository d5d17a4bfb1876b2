"""Audit fixes: the end after any last token (GT12), Heavy Artillery / The Right Ghoo (GT13), only SPECIALTY
VALUE cards as Values (GT2), Hole and Debris Action cards on players and Debris squares (GT14, GT15)."""

import pytest
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from games.ghoulash import services
from games.ghoulash.models import BoxCard, Event, Game, Player, TileToken
from rules import ghoulash as gh
from tests.clients import logged_in
from tests.games.ghoulash import posted

from .conftest import act_url, arrange_hand, ghoul, page_url, player, refresh, token_of

HTMX = {"HTTP_HX_REQUEST": "true"}


def data(**kw) -> MultiValueDict:
    return MultiValueDict({k: v if isinstance(v, list) else [v] for k, v in kw.items()})


def act(game, user, action, **kw):
    return posted.act(game.pk, user, action, data(**kw))


def give(p: Player, slug: str) -> int:
    """A card ``slug`` in ``p``'s hand: one already there, or the first of the deck moved there; returns its id."""
    p.refresh_from_db()
    held = next((i for i in p.hand if next(c for c in p.deck if c["id"] == i).get("slug") == slug), None)
    if held is not None:
        return held
    cid = next(c["id"] for c in p.deck if c.get("slug") == slug and c["id"] not in p.hand)
    p.draw = [i for i in p.draw if i != cid]
    p.discard = [i for i in p.discard if i != cid]
    p.hand = p.hand + [cid]
    p.save()
    return cid


def only_left(game, kind) -> TileToken:
    """Every token but one of ``kind`` already revealed and resolved (used)."""
    last = token_of(game, kind)
    TileToken.objects.filter(game=game).exclude(pk=last.pk).update(revealed=True, state=TileToken.USED)
    return last


def texts(game, *kinds) -> list[str]:
    return [e.text for e in Event.objects.filter(game=game, kind__in=kinds).order_by("number")]


# --- 1. the game ends once every token is revealed and resolved, whatever the last one (GT12) ----------------


def test_the_last_token_a_hole_ends_the_game_at_once(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    last = only_left(game, "hole")
    Player.objects.filter(game=game, user=brian).update(victory_points=1)
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=last.pk)
    game = refresh(game)
    assert game.status == Game.FINISHED and game.winners == ["brian"]
    assert "every Encounter Token is revealed and resolved" in texts(game, "win")[0]
    assert not texts(game, "turn")[1:]  # the turn did not pass on after the end
    with pytest.raises(services.GameError, match="over"):
        act(game, brian, "replenish")


def test_the_last_token_a_first_aid_kit_without_wounds_ends_the_game(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    last = only_left(game, "first-aid")
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=last.pk)
    game = refresh(game)
    assert game.status == Game.FINISHED and sorted(game.winners) == ["brian", "del"]  # 0-0: a tie (H9)


@pytest.mark.parametrize("choice", ["first-aid", "leave-first-aid"])
def test_the_last_token_a_first_aid_kit_ends_the_game_once_used_or_left(lake_vs_gray, del_brian, choice):
    game = lake_vs_gray
    del_, brian = del_brian
    last = only_left(game, "first-aid")
    Player.objects.filter(game=game, user=del_).update(victory_points=2)
    act(game, del_, "replenish")
    d = player(game, del_)
    d.wounds, d.hand = d.hand[:1], d.hand[1:]
    d.save()
    act(game, del_, "reveal", token=last.pk)
    assert refresh(game).status == Game.PLAYING and refresh(game).phase == Game.FIRST_AID  # not resolved yet
    act(game, del_, choice)
    game = refresh(game)
    assert game.status == Game.FINISHED and game.winners == ["del"]


def test_the_last_token_a_ghoo_gun_ends_the_game(del_brian, box_factory):
    del_, brian = del_brian
    game = services.create_game(del_, box_factory(del_), "", [("del", "lake"), ("brian", "gray")], lock_and_load=True)
    last = only_left(game, "ghoo-gun")
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=last.pk)
    game = refresh(game)
    assert game.status == Game.FINISHED
    assert TileToken.objects.get(pk=last.pk).state == TileToken.TAKEN


def test_the_game_goes_on_while_a_token_is_face_down(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    hole = token_of(game, "hole")
    TileToken.objects.filter(game=game).exclude(pk=hole.pk).exclude(kind="first-aid").update(
        revealed=True, state=TileToken.USED
    )
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=hole.pk)
    assert refresh(game).status == Game.PLAYING


# --- 2. Heavy Artillery / The Right Ghoo for the Job (GT13) ------------------------------------------------


def gray_battle(game, del_, brian):
    """Brian (Gray) holds The Right Ghoo For The Job and a 1 and has just revealed a strength-5 Ghoul."""
    act(game, del_, "replenish")
    act(game, del_, "end-turn")
    b = player(game, brian)
    hand = arrange_hand(b, [1, 1])
    card = give(b, "the-right-ghoo-for-the-job")
    act(game, brian, "replenish")
    token = ghoul(game, 5)
    act(game, brian, "reveal", token=token.pk)
    return game, card, hand, token


@pytest.fixture
def gray_battles(lake_vs_gray, del_brian):
    return gray_battle(lake_vs_gray, *del_brian)


def test_the_right_ghoo_faq_example_a_1_wins_against_a_5(gray_battles, del_brian):
    game, card, hand, token = gray_battles
    del_, brian = del_brian
    act(game, brian, "card", card=card)
    b = player(game, brian)
    assert card in b.discard and card not in b.hand
    assert services.current_icv(b, list(game.tokens.all()), refresh(game).battle) == 5  # Gray's 1 is now 5
    assert services.current_icv(b, list(game.tokens.all())) == 1  # only in this battle
    act(game, brian, "play", cards=[hand[0]])  # "The player need only place a Value card of 1 to win"
    assert "Initial Combat Value 5 + 1 = 6" in texts(game, "play")[0]
    act(game, del_, "decline")
    b = player(game, brian)
    assert b.victory_points == 2 and not b.wounds
    assert TileToken.objects.get(pk=token.pk).holder_id == b.pk
    assert "defeats the strength-5 Ghoul" in texts(game, "battle-won")[0]


def test_the_strength_card_drops_the_ghoo_guns_bonus(gray_battles, del_brian):
    """H4: the card replaces the Initial Combat Value, Ghoo Guns included."""
    game, card, hand, token = gray_battles
    del_, brian = del_brian
    b = player(game, brian)
    gun = TileToken.objects.filter(game=game, revealed=False).exclude(pk=token.pk).first()
    gun.kind, gun.revealed, gun.state, gun.holder = "ghoo-gun", True, TileToken.TAKEN, b
    gun.save()
    tokens = list(game.tokens.all())
    assert services.current_icv(b, tokens) == 2
    act(game, brian, "card", card=card)
    assert services.current_icv(b, tokens, refresh(game).battle) == 5


def test_the_strength_card_only_in_ones_own_battle_as_it_begins(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    act(game, del_, "end-turn")
    b = player(game, brian)
    arrange_hand(b, [3, 3])
    card = give(b, "the-right-ghoo-for-the-job")
    act(game, brian, "replenish")
    with pytest.raises(services.GameError, match="own Ghoul battle"):
        act(game, brian, "card", card=card)  # no battle yet
    act(game, brian, "reveal", token=ghoul(game, 5).pk)
    act(game, brian, "play", cards=[i for i in player(game, brian).hand if i != card][:2])  # 1 + 6 = 7
    assert refresh(game).phase == Game.CHALLENGE
    with pytest.raises(services.GameError, match="own Ghoul battle"):
        act(game, brian, "card", card=card)  # the Value cards are down: too late for this battle
    assert card in player(game, brian).hand and refresh(game).battle.get("icv_card") is None


def test_the_strength_card_cannot_be_played_twice_in_a_battle(del_brian, box_factory):
    del_, brian = del_brian
    box = box_factory(del_)
    box.cards.filter(catalogue_slug="the-right-ghoo-for-the-job").update(count=2)
    game = services.create_game(del_, box, "Two", [("del", "lake"), ("brian", "gray")])
    game, card, hand, token = gray_battle(game, del_, brian)
    act(game, brian, "card", card=card)
    b = player(game, brian)
    second = next(c["id"] for c in b.deck if c.get("slug") == "the-right-ghoo-for-the-job" and c["id"] != card)
    b.hand, b.draw = b.hand + [second], [i for i in b.draw if i != second]
    b.save()
    with pytest.raises(services.GameError, match="already"):
        act(game, brian, "card", card=second)
    assert second in player(game, brian).hand


def test_the_page_offers_the_strength_card_in_the_battle_and_shows_the_new_value(gray_battles, del_brian):
    game, card, hand, token = gray_battles
    del_, brian = del_brian
    b = logged_in(brian)
    html = b.get(page_url(game)).content.decode()
    assert f'name="card" value="{card}"' in html  # a Play button for it now
    r = b.post(act_url(game), {"action": "card", "card": card}, **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "Initial Combat Value in this battle is the Ghoul's strength, <strong>5</strong>" in html
    assert "plus the cards must reach 6" in html and "Initial Combat Value 5 plus" in html
    d = logged_in(del_).get(page_url(game)).content.decode()
    assert "The Right Ghoo For The Job: brian" in d  # public: the card was played face up


# --- 3. only SPECIALTY VALUE cards are Values (GT2) ---------------------------------------------------------


@pytest.fixture
def specialty_with_values(del_brian, box_factory):
    """Gray's deck holds a SPECIALTY VALUE 4, a SPECIALTY ACTION 3 and a plain Specialty 2 (values saved before)."""
    del_, brian = del_brian
    box = box_factory(del_)
    for slug in ("lake", "gray"):  # the same Specialty cards in both decks keep the checks simple
        BoxCard.objects.create(
            box=box, character=slug, card_type=BoxCard.SPECIALTY_VALUE, name="Marked", value=4, count=1, position=200
        )
        BoxCard.objects.create(
            box=box, character=slug, card_type=BoxCard.SPECIALTY_ACTION, name="Study", value=3, count=1, position=201
        )
        BoxCard.objects.create(
            box=box, character=slug, card_type=BoxCard.SPECIALTY, name="Lucky", value=2, count=1, position=202
        )
    return box, services.create_game(del_, box, "Specials", [("del", "lake"), ("brian", "gray")])


def _card(p, name):
    return next(c["id"] for c in p.deck if c["name"] == name)


@pytest.mark.parametrize("name, ok", [("Marked", True), ("Study", False), ("Lucky", False)])
def test_only_a_specialty_value_card_is_put_down_in_a_battle(specialty_with_values, del_brian, name, ok):
    box, game = specialty_with_values
    del_, brian = del_brian
    d = player(game, del_)
    arrange_hand(d, [3])
    cid = _card(d, name)
    d.refresh_from_db()
    d.hand, d.draw = d.hand + [cid], [i for i in d.draw if i != cid]
    d.save()
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    if ok:
        act(game, del_, "play", cards=[cid])  # 1 + 4 = 5: lost, but put down
        assert "Marked 4" in texts(game, "play")[0]
    else:
        with pytest.raises(services.GameError, match="not a Value card"):
            act(game, del_, "play", cards=[cid])
        assert cid in player(game, del_).hand


def test_a_non_value_specialty_card_cannot_challenge(specialty_with_values, del_brian):
    box, game = specialty_with_values
    del_, brian = del_brian
    arrange_hand(player(game, del_), [3, 3])
    b = player(game, brian)
    cid = _card(b, "Study")
    b.hand = b.hand[:5] + [cid]
    b.draw = [i for i in b.draw if i not in b.hand]
    b.save()
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    act(game, del_, "play", cards=player(game, del_).hand[:2])
    with pytest.raises(services.GameError, match="not a Value card"):
        act(game, brian, "challenge", cards=[cid])


def test_the_game_page_offers_only_value_cards_and_marks_unused_values(specialty_with_values, del_brian):
    box, game = specialty_with_values
    del_, brian = del_brian
    d = player(game, del_)
    ids = {name: _card(d, name) for name in ("Marked", "Study", "Lucky")}
    d.hand, d.draw = list(ids.values()), [i for i in d.draw + d.hand if i not in ids.values()]
    d.save()
    act(game, del_, "replenish", cards=[])
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    html = logged_in(del_).get(page_url(game)).content.decode()
    assert f'id="play-{ids["Marked"]}"' in html
    assert f'id="play-{ids["Study"]}"' not in html and f'id="play-{ids["Lucky"]}"' not in html
    assert "(value 3 not used" in html


def test_the_box_form_refuses_a_value_on_non_value_specialty_cards_and_keeps_saved_ones(
    specialty_with_values, del_brian
):
    box, game = specialty_with_values
    del_, brian = del_brian
    c = logged_in(del_)
    add = reverse("ghoulash-card-add", args=[box.pk])
    for kind in ("specialty", "specialty-action", "specialty-rescue"):
        r = c.post(add, {"character": "zone", "card_type": kind, "name": "X", "value": "2", "count": "1", "text": ""})
        assert r.status_code == 422 and "Only Value and Specialty Value cards have a value" in r.content.decode()
        assert (
            c.post(
                add,
                {"character": "zone", "card_type": kind, "name": f"X {kind}", "value": "", "count": "1", "text": ""},
            ).status_code
            == 302
        )
    assert (
        c.post(
            add,
            {"character": "zone", "card_type": "specialty-value", "name": "Y", "value": "4", "count": "1", "text": ""},
        ).status_code
        == 302
    )
    # a value saved before stays (unused) and the card can still be edited
    study = box.cards.get(character="gray", name="Study")
    edit = reverse("ghoulash-card-edit", args=[box.pk, study.pk])
    assert "The value 3 saved on this Specialty Action card is kept but not used" in c.get(edit).content.decode()
    assert (
        c.post(
            edit,
            {
                "character": "gray",
                "card_type": "specialty-action",
                "name": "Study",
                "value": "3",
                "count": "2",
                "text": "",
                "seen_version": str(study.version),
            },
        ).status_code
        == 302
    )
    study.refresh_from_db()
    assert (study.value, study.count) == (3, 2)
    r = c.post(
        edit,
        {
            "character": "gray",
            "card_type": "specialty-action",
            "name": "Study",
            "value": "2",
            "count": "2",
            "text": "",
            "seen_version": str(study.version),
        },
    )
    assert r.status_code == 422
    assert (
        "not used: only Value and Specialty Value cards"
        in c.get(reverse("ghoulash-box", args=[box.pk])).content.decode()
    )


# --- 4a. a Hole Action card on a player (GT14) -------------------------------------------------------------


def test_a_hole_card_puts_the_opponent_out_until_their_next_turn(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    hole = give(player(game, del_), "hole")
    act(game, del_, "replenish")
    act(game, del_, "hole", card=hole, targets=["1"])
    b, d = player(game, brian), player(game, del_)
    assert b.in_hole and hole in d.discard and hole not in d.hand
    assert "brian falls into the Hole" in texts(game, "hole")[0]
    # no cards while in the Hole, no challenge offered
    with pytest.raises(services.GameError, match="in a Hole"):
        act(game, brian, "card", card=give(b, "parry"))  # a Rescue card, playable at any time otherwise
    arrange_hand(player(game, del_), [3, 3])
    act(game, del_, "reveal", token=ghoul(game, 4).pk)
    act(game, del_, "play", cards=player(game, del_).hand[:2])
    assert refresh(game).phase == Game.TURN and "nobody challenged" in texts(game, "battle-won")[0]
    act(game, del_, "end-turn")
    assert not player(game, brian).in_hole  # climbed out at the beginning of their turn
    assert "brian climbs out of the Hole" in texts(game, "hole")[-1]


def _not_a_hole(p: Player) -> int:
    """A card of the hand that is not a Hole card (the deal may have given two Holes)."""
    slugs = {c["id"]: c.get("slug") for c in p.deck}
    return next(i for i in p.hand if slugs.get(i) != "hole")


def test_a_hole_card_is_refused_out_of_turn_without_the_card_or_on_oneself(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    hole = give(player(game, del_), "hole")
    with pytest.raises(services.GameError, match="Replenish"):
        act(game, del_, "hole", card=hole, targets=["1"])
    act(game, del_, "replenish")
    hole = give(player(game, del_), "hole") if hole not in player(game, del_).hand else hole
    with pytest.raises(services.GameError, match="opponents"):
        act(game, del_, "hole", card=hole, targets=["0"])
    with pytest.raises(services.GameError, match="Hole Action card"):
        act(
            game,
            del_,
            "hole",
            card=_not_a_hole(player(game, del_)),
            targets=["1"],
        )
    b = player(game, brian)
    bhole = give(b, "hole")
    with pytest.raises(services.GameError, match="del's turn"):
        act(game, brian, "hole", card=bhole, targets=["0"])
    assert not player(game, brian).in_hole and not player(game, del_).in_hole


# --- 4b. Debris: an Action card on a player, and a square entered (GT15) -----------------------------------


def test_debris_wounds_are_cumulative_per_token():
    assert gh.debris_wounds(by_action=False, tokens=3) == 3
    assert gh.debris_wounds(by_action=False) == 1
    with pytest.raises(ValueError):
        gh.debris_wounds(by_action=False, tokens=0)
    with pytest.raises(ValueError):
        gh.debris_wounds(by_action=True, value_card=2, tokens=2)


def brians_turn_with_debris(game, del_, brian, value):
    """Del passes the turn; Brian holds a Debris card and a Value card of `value`."""
    act(game, del_, "replenish")
    act(game, del_, "end-turn")
    b = player(game, brian)
    hand = arrange_hand(b, [value])
    debris = give(b, "debris")
    act(game, brian, "replenish")
    return hand, debris


def test_a_debris_card_with_a_3_gives_four_wounds_from_the_hand(lake_vs_gray, del_brian):
    """Debris example: "Brian plays a Debris Action card upon Del, increasing its impact with a 3 Value card ...
    he suffers four wounds"."""
    game = lake_vs_gray
    del_, brian = del_brian
    hand, debris = brians_turn_with_debris(game, del_, brian, 3)
    d = player(game, del_)
    before = list(d.hand)
    act(game, brian, "debris", card=debris, targets=["0"], value=str(hand[0]))
    d, b = player(game, del_), player(game, brian)
    assert len(d.wounds) == 4 and set(d.wounds) <= set(before) and len(d.hand) == len(before) - 4
    assert debris in b.discard and hand[0] in b.discard
    log = texts(game, "debris", "wounds")
    assert "brian plays Debris (Action) with Ghoo Shot 3 on the square of del" in log[0]
    assert "del suffers 4 wounds (a Debris Action card enhanced by a 3): cards taken at random." == log[1]
    assert not d.dead


def test_debris_wounds_come_from_the_draw_pile_and_can_kill(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    hand, debris = brians_turn_with_debris(game, del_, brian, 2)
    d = player(game, del_)
    won = ghoul(game, 5)
    won.revealed, won.state, won.holder = True, TileToken.TAKEN, d
    won.save()
    d.hand, d.wounds, d.victory_points = d.hand[:1], d.hand[1:3], 2  # 1 card in hand, 2 wounds already
    d.draw = [i for i in d.draw if i not in d.hand + d.wounds]
    d.save()
    top = d.draw[:2]
    act(game, brian, "debris", card=debris, targets=["0"], value=str(hand[0]))  # 3 wounds: 2 + 3 = 5 = Health
    d = player(game, del_)
    assert len(d.wounds) == 5 and not d.hand and d.wounds[-2:] == top
    assert d.dead and d.victory_points == 0
    assert TileToken.objects.get(pk=won.pk).state == TileToken.SET_ASIDE
    assert texts(game, "wounds")[-1].startswith("del suffers 3 wounds (a Debris Action card enhanced by a 2)")
    assert "5 wounds reach Health 5" in texts(game, "wounds")[-1]


def test_a_debris_square_gives_one_wound_per_token_and_is_the_encounter(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    with pytest.raises(services.GameError, match="Debris tokens on the square"):
        act(game, del_, "debris-square", tokens="0")
    act(game, del_, "debris-square", tokens="2")
    d = player(game, del_)
    assert len(d.wounds) == 2 and len(d.hand) == gh.HAND_SIZE - 2
    assert "del enters a square with 2 Debris tokens and stops." in texts(game, "debris")
    with pytest.raises(services.GameError, match="already had an encounter"):
        act(game, del_, "reveal", token=token_of(game, "hole").pk)


def test_the_page_offers_hole_and_debris_on_opponents_and_the_log_names_no_hidden_card(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    hole = give(player(game, del_), "hole")
    debris = give(player(game, del_), "debris")
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    html = d.get(page_url(game)).content.decode()
    assert 'value="hole"' in html and 'value="debris"' in html and 'value="debris-square"' in html
    assert 'name="targets" value="1"' in html
    before = list(player(game, brian).hand)
    r = d.post(act_url(game), {"action": "debris", "card": debris, "targets": ["1"], "value": ""}, **HTMX)
    assert r.status_code == 200 and len(player(game, brian).wounds) == 1
    # one Action card per turn (GT9): the Hole waits for del's next turn
    r = d.post(act_url(game), {"action": "hole", "card": hole, "targets": ["1"]}, **HTMX)
    assert r.status_code == 422 and "1 Action card already played" in r.content.decode()
    for user, action in ((del_, "end-turn"), (brian, "replenish"), (brian, "end-turn"), (del_, "replenish")):
        act(game, user, action)
    r = d.post(act_url(game), {"action": "hole", "card": hole, "targets": ["1"]}, **HTMX)
    assert r.status_code == 200 and player(game, brian).in_hole
    # the log and del's page name no card of brian's hand or wound pile
    names = {c["name"] for c in player(game, brian).deck if c["id"] in before}
    log = " ".join(texts(game, "debris", "wounds", "hole"))
    assert not any(n in log for n in names if n not in ("Debris", "Hole"))
    assert 'badge-warn">in a Hole' in r.content.decode()
    b_html = logged_in(brian).get(page_url(game)).content.decode()
    assert 'name="action" value="card"' not in b_html  # no card to play while in the Hole
