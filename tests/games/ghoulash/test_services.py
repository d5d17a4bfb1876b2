"""The tracker's services: setting up (deal, hands, refusals), turns, encounters, wounds, death and winning."""

import random
from collections import Counter

import pytest
from django.utils.datastructures import MultiValueDict

from games.ghoulash import services
from games.ghoulash.models import BoxCard, Event, Game, TileToken
from rules import ghoulash as gh
from tests.games.ghoulash import posted

from .conftest import arrange_hand, ghoul, player, refresh, token_of


def data(**kw) -> MultiValueDict:
    return MultiValueDict({k: v if isinstance(v, list) else [v] for k, v in kw.items()})


def act(game, user, action, **kw):
    return posted.act(game.pk, user, action, data(**kw))


# --- setting up ------------------------------------------------------------------


def test_the_deal_puts_the_24_core_tokens_six_per_tile_replayable_from_its_seed(lake_vs_gray):
    game = lake_vs_gray
    tokens = list(TileToken.objects.filter(game=game))
    assert len(tokens) == 24
    assert Counter(t.tile for t in tokens) == {1: 6, 2: 6, 3: 6, 4: 6}
    assert Counter((t.kind, t.strength) for t in tokens) == {
        ("ghoul", 6): 6,
        ("ghoul", 5): 6,
        ("ghoul", 4): 8,
        ("hole", None): 2,
        ("first-aid", None): 2,
    }
    assert not any(t.revealed for t in tokens)
    vp = {t.strength: t.victory_points for t in tokens if t.kind == "ghoul"}
    assert vp == {5: 2, 6: 3, 4: 1}  # 5 -> 2 from the rules; 6 and 4 from the box
    # the logged seed replays the board exactly
    cat = services.catalogue()
    core, extras = services.game_tokens(cat, game.box, False)
    board = gh.deal_board(random.Random(game.deal_seed), core, extras)
    assert [(p.token.kind, p.token.strength) for tile in board for p in tile] == [
        (t.kind, t.strength) for t in sorted(tokens, key=lambda t: (t.tile, t.slot))
    ]
    assert Event.objects.get(game=game, kind="deal").seed == game.deal_seed


def test_lock_and_load_adds_the_three_ghoo_guns(del_brian, box_factory):
    box = box_factory(del_brian[0])
    game = services.create_game(del_brian[0], box, "", [("del", "lake"), ("brian", "gray")], lock_and_load=True)
    tokens = list(game.tokens.all())
    assert len(tokens) == 27 and sum(t.kind == "ghoo-gun" for t in tokens) == 3
    assert game.name == "My box game"


def test_each_player_is_dealt_seven_from_their_own_shuffled_deck(lake_vs_gray, del_brian):
    game = lake_vs_gray
    for user, slug in zip(del_brian, ("lake", "gray")):
        p = player(game, user)
        assert p.character == slug and len(p.hand) == gh.HAND_SIZE
        assert sorted(p.hand + p.draw) == sorted(c["id"] for c in p.deck)
        assert all(c["owner"] == slug for c in p.deck)
    lake = player(game, del_brian[0])
    assert lake.initial_combat_value == 1 and lake.health == 5 and lake.movement == 4  # 1 from the rules
    assert refresh(game).phase == Game.TURN_START and refresh(game).current_seat == 0


@pytest.mark.parametrize(
    "seats, message",
    [
        ([("del", "lake")], "2 to 4 players"),
        ([("del", "lake"), ("brian", "lake")], "one player only"),
        ([("del", "lake"), ("del", "gray")], "one seat"),
        ([("del", "lake"), ("nobody", "gray")], "no user called"),
        ([("brian", "lake"), ("brian2", "gray")], "no user called"),
        ([("del", "lake"), ("brian", "")], "a player and a character"),
    ],
)
def test_bad_seats_are_refused(seats, message, del_brian, box_factory):
    box = box_factory(del_brian[0])
    with pytest.raises(services.GameError, match=message):
        services.create_game(del_brian[0], box, "x", seats)
    assert not Game.objects.exists()


def test_the_creator_takes_a_seat_and_uses_their_own_box(del_brian, box_factory, make_user):
    del_, brian = del_brian
    make_user("emma")
    box = box_factory(del_)
    with pytest.raises(services.GameError, match="Take a seat yourself"):
        services.create_game(del_, box, "x", [("emma", "lake"), ("brian", "gray")])
    with pytest.raises(services.GameError, match="own game boxes"):
        services.create_game(brian, box, "x", [("del", "lake"), ("brian", "gray")])


def test_missing_numbers_are_never_invented(del_brian, ghoulash_catalogue):
    del_ = del_brian[0]
    from .conftest import complete_box

    box = complete_box(del_)
    box.stats = {}
    box.save()
    with pytest.raises(services.GameError, match="Professor David Lake: enter Health in the game box"):
        services.create_game(del_, box, "x", [("del", "lake"), ("brian", "gray")])
    box.stats = {"lake": {"health": 5}, "gray": {"health": 5}}
    box.ghoul_vp = {"6": 3}
    box.save()
    with pytest.raises(services.GameError, match="strength 4 Ghouls"):
        services.create_game(del_, box, "x", [("del", "lake"), ("brian", "gray")])
    box.ghoul_vp = {"6": 3, "4": 1}
    box.save()
    with pytest.raises(services.GameError, match="Initial Combat Value"):
        services.create_game(del_, box, "x", [("del", "cornealius"), ("brian", "gray")])
    assert services.create_game(del_, box, "x", [("del", "lake"), ("brian", "gray")]).pk


def test_decks_that_fail_the_rules_checks_cannot_play_together(del_brian, box_factory):
    del_ = del_brian[0]
    box = box_factory(del_)
    extra = BoxCard.objects.create(box=box, character="gray", card_type=BoxCard.VALUE, name="Extra", value=3, count=1)
    with pytest.raises(services.GameError, match="Value cards differ between Lake and Gray"):
        services.create_game(del_, box, "x", [("del", "lake"), ("brian", "gray")])
    # the decks not in the game do not matter
    extra.character = "zone"
    extra.save()
    services.create_game(del_, box, "x", [("del", "lake"), ("brian", "gray")])
    hole = box.cards.get(character="gray", catalogue_slug="hole")
    hole.count = 3
    hole.save()
    with pytest.raises(services.GameError, match="Action cards differ between Lake and Gray"):
        services.create_game(del_, box, "y", [("del", "lake"), ("brian", "gray")])
    hole.count = None
    hole.save()
    with pytest.raises(services.GameError, match="Gray: enter how many Hole cards"):
        services.create_game(del_, box, "z", [("del", "lake"), ("brian", "gray")])


def test_specialty_cards_are_each_characters_own(del_brian, box_factory):
    """Double-labelled Specialty cards (even SPECIALTY VALUE / ACTION) are not in the Value and Action checks."""
    box = box_factory(del_brian[0])
    BoxCard.objects.create(
        box=box, character="gray", card_type=BoxCard.SPECIALTY_VALUE, name="Marked", value=4, count=2
    )
    BoxCard.objects.create(box=box, character="lake", card_type=BoxCard.SPECIALTY_ACTION, name="Study", count=1)
    assert services.deck_problems(list(box.cards.all()), ["lake", "gray"]) == []


# --- turns -----------------------------------------------------------------------


def test_replenish_discards_then_draws_back_to_seven(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_ = del_brian[0]
    p = player(game, del_)
    discards = p.hand[:3]
    act(game, del_, "replenish", cards=discards)
    p.refresh_from_db()
    assert len(p.hand) == 7 and p.discard == discards and not set(discards) & set(p.hand)
    assert refresh(game).phase == Game.TURN
    with pytest.raises(services.GameError, match="Not now|already"):
        act(game, del_, "replenish")
    e = Event.objects.filter(game=game, kind="replenish").get()
    assert e.seed is not None and "discards 3 cards and draws 3" in e.text


def test_end_turn_passes_to_the_left_and_wraps(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    act(game, del_, "end-turn")
    game = refresh(game)
    assert (game.current_seat, game.turn, game.phase) == (1, 2, Game.TURN_START)
    act(game, brian, "replenish")
    act(game, brian, "end-turn")
    assert refresh(game).current_seat == 0


def test_one_encounter_per_turn(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_ = del_brian[0]
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=token_of(game, "first-aid").pk)  # no wounds: it stays revealed
    with pytest.raises(services.GameError, match="already had an encounter"):
        act(game, del_, "reveal", token=ghoul(game).pk)


def test_a_hole_takes_the_player_out_until_their_next_turn(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=token_of(game, "hole").pk)
    game = refresh(game)
    assert player(game, del_).in_hole and game.current_seat == 1  # no action: the turn is over
    # in the Hole Del cannot challenge: Brian's battle offers nobody a challenge
    act(game, brian, "replenish")
    act(game, brian, "reveal", token=ghoul(game, 4).pk)
    ids = arrange_hand(player(game, brian), [3, 1])
    act(game, brian, "play", cards=ids)
    assert player(game, brian).victory_points == 1  # won unchallenged
    act(game, brian, "end-turn")
    assert not player(game, del_).in_hole  # climbs out at the beginning of his turn
    assert Event.objects.filter(game=game, text__contains="climbs out").exists()


def test_first_aid_heals_all_wounds_or_stays_revealed(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_ = del_brian[0]
    p = player(game, del_)
    p.wounds, p.hand = p.hand[:2], p.hand[2:]
    p.save()
    act(game, del_, "replenish")
    kit = token_of(game, "first-aid")
    act(game, del_, "reveal", token=kit.pk)
    assert refresh(game).phase == Game.FIRST_AID
    act(game, del_, "leave-first-aid")
    kit.refresh_from_db()
    assert kit.revealed and kit.state == TileToken.ON_BOARD
    assert len(player(game, del_).wounds) == 2
    act(game, del_, "end-turn")
    game = refresh(game)
    act(game, del_brian[1], "replenish")
    act(game, del_brian[1], "end-turn")
    act(game, del_, "replenish")
    act(game, del_, "first-aid", token=kit.pk)  # a revealed kit used by entering its square
    p.refresh_from_db()
    assert p.wounds == [] and len(p.discard) >= 2
    kit.refresh_from_db()
    assert kit.state == TileToken.USED


def test_ghoo_guns_add_one_to_the_initial_combat_value(del_brian, box_factory):
    del_, brian = del_brian
    box = box_factory(del_)
    game = services.create_game(del_, box, "", [("del", "lake"), ("brian", "gray")], lock_and_load=True)
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=token_of(game, "ghoo-gun").pk)
    p = player(game, del_)
    assert services.current_icv(p, list(game.tokens.all())) == 2
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "end-turn")
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    ids = arrange_hand(p, [2, 2])  # 2 + 4 = 6 beats 5 only with the gun
    act(game, del_, "play", cards=ids)
    assert refresh(game).phase == Game.CHALLENGE


def _before_a_strength_5_ghoul_holding_parry(game, del_, values):
    """Del has revealed a strength-5 Ghoul and holds Value cards of ``values`` and a Parry: (player, ids, parry)."""
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    p = player(game, del_)
    ids = arrange_hand(p, values)
    parry = next(c["id"] for c in p.deck if c["slug"] == "parry")
    p.hand = ids + [parry]
    p.draw = [i for i in p.draw if i != parry]
    p.save()
    return p, ids, parry


def test_parry_ignores_the_highest_challenge_card(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    p, ids, parry = _before_a_strength_5_ghoul_holding_parry(game, del_, [3, 2, 2])
    b = arrange_hand(player(game, brian), [3, 2])
    act(game, del_, "play", cards=ids[:2])
    act(game, brian, "challenge", cards=b)  # 6 - 5 = 1
    with pytest.raises(services.GameError, match="Only Parry cards"):
        act(game, del_, "respond", cards=[], parry=[ids[2]])
    act(game, del_, "respond", cards=[ids[2]], parry=[parry])  # the 3 ignored: 6 - 2 + 2 = 6 (without: 3)
    p.refresh_from_db()
    assert p.victory_points == 2 and p.wounds == [] and parry in p.discard
    assert "Parry ignores 3: total 6" in Event.objects.get(game=game, kind="respond").text
    with pytest.raises(services.GameError):
        act(game, del_, "respond")


def test_a_challenge_parried_with_no_value_card_is_logged_as_parried(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    _, ids, parry = _before_a_strength_5_ghoul_holding_parry(game, del_, [3, 3])
    act(game, del_, "play", cards=ids)  # 1 + 6 = 7 beats 5
    act(game, brian, "challenge", cards=arrange_hand(player(game, brian), [3]))  # 7 - 3 = 4
    act(game, del_, "respond", cards=[], parry=[parry])  # the 3 ignored: 7
    won = Event.objects.get(game=game, kind="battle-won").text
    assert "(the challenge was parried)" in won and "not answered" not in won


def test_a_challenge_is_one_or_two_value_cards(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 4).pk)
    act(game, del_, "play", cards=arrange_hand(player(game, del_), [3, 2]))
    b = arrange_hand(player(game, brian), [1, 1, 1], others=1)
    with pytest.raises(services.GameError, match="1 to 2 Value cards"):
        act(game, brian, "challenge", cards=b[:3])
    with pytest.raises(services.GameError, match="not a Value card"):
        act(game, brian, "challenge", cards=[b[3]])
    act(game, brian, "challenge", cards=b[:1])  # 6 - 1 = 5 still beats 4: won at once, no response
    assert player(game, del_).victory_points == 1
    assert refresh(game).phase == Game.TURN


def _wounded_to(game, user, n):
    p = player(game, user)
    p.wounds = p.draw[:n]
    p.draw = p.draw[n:]
    p.save()
    return p


def test_death_at_health_sets_the_ghoul_tokens_aside(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    won = ghoul(game, 6)
    p = player(game, del_)
    won.revealed, won.holder, won.state = True, p, TileToken.TAKEN
    won.save()
    p.victory_points = 3
    p.save()
    _wounded_to(game, del_, 4)  # Health 5
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    act(game, del_, "play", cards=[])  # nothing put down: lost, 2 wounds
    p.refresh_from_db()
    won.refresh_from_db()
    assert p.dead and len(p.wounds) == 6 and p.victory_points == 0 and won.state == TileToken.SET_ASIDE
    with pytest.raises(services.GameError, match="dead"):
        act(game, del_, "reveal", token=ghoul(game).pk)
    # the dead still play cards and challenge
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "reveal", token=ghoul(game, 4).pk)
    act(game, brian, "play", cards=arrange_hand(player(game, brian), [3, 1]))
    assert refresh(game).battle["offers"] == [0]


def test_ten_victory_points_win_at_once(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_ = del_brian[0]
    p = player(game, del_)
    for t in TileToken.objects.filter(game=game, kind="ghoul", strength=6)[:3]:  # 9 VP
        t.revealed, t.holder, t.state = True, p, TileToken.TAKEN
        t.save()
    p.victory_points = 9
    p.save()
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=ghoul(game, 4).pk)
    act(game, del_, "play", cards=arrange_hand(p, [3, 2]))
    act(game, del_brian[1], "decline")
    game = refresh(game)
    assert game.status == Game.FINISHED and game.winners == ["del"]
    assert "reached 10 Victory Points" in Event.objects.get(game=game, kind="win").text
    with pytest.raises(services.GameError, match="over"):
        act(game, del_, "end-turn")


def test_when_every_token_is_resolved_the_most_victory_points_win(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    last = ghoul(game, 4)
    TileToken.objects.filter(game=game).exclude(pk=last.pk).update(revealed=True, state=TileToken.USED)
    b = player(game, brian)
    b.victory_points = 1
    b.save()
    act(game, del_, "replenish")
    act(game, del_, "reveal", token=last.pk)
    act(game, del_, "play", cards=[])  # lost: the Ghoul stays on the board, so the game goes on
    assert refresh(game).status == Game.PLAYING
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "fight", token=last.pk)
    act(game, brian, "play", cards=arrange_hand(b, [3, 2]))
    act(game, del_, "decline")
    game = refresh(game)
    assert game.status == Game.FINISHED and game.winners == ["brian"]
    assert "revealed and resolved" in Event.objects.get(game=game, kind="win").text


def test_playing_an_action_card_is_logged_and_discarded(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    p = player(game, del_)
    arrange_hand(p, [1], others=1)
    p.refresh_from_db()
    action = p.hand[1]
    act(game, del_, "replenish")
    p.refresh_from_db()
    act(game, del_, "card", card=action)
    p.refresh_from_db()
    assert action in p.discard and action not in p.hand
    b = player(game, brian)
    arrange_hand(b, [1], others=1)
    b.refresh_from_db()
    with pytest.raises(services.GameError, match="del's turn"):
        act(game, brian, "card", card=b.hand[1])  # an Action card waits for your own turn
    with pytest.raises(services.GameError, match="Value cards are put down"):
        act(game, brian, "card", card=b.hand[0])
