"""Character specialties and token moves: Cornealius reveals a token on his tile with each Specialty card
(GT16), moving an unrevealed Encounter Token and Lake's own tile (GT17), one Action per turn (GT18), entering a
revealed Hole or Ghoo Gun (GT19)."""

import pytest

from games.ghoulash import services
from games.ghoulash.models import BoxCard, Game, Player, TileToken
from games.ghoulash.moves import Move
from tests.clients import logged_in

from .conftest import act_url, arrange_hand, ghoul, page_url, player, refresh, token_of
from .test_rules_fixes import HTMX, act, give, texts


def cornealius_box(box_factory, owner):
    """The test box plus two Cornealius Specialty cards of the owner's printed deck (test data): a plain
    Specialty card and a SPECIALTY VALUE card worth 4 ("Certain Specialty cards have a value of 4")."""
    box = box_factory(owner)
    BoxCard.objects.create(
        box=box, character="cornealius", card_type=BoxCard.SPECIALTY, name="Recon", count=1, position=200
    )
    BoxCard.objects.create(
        box=box,
        character="cornealius",
        card_type=BoxCard.SPECIALTY_VALUE,
        name="Sure Shot",
        value=4,
        count=1,
        position=201,
    )
    return box


@pytest.fixture
def cornealius_vs_gray(del_brian, box_factory):
    """Del (Cornealius, seat 0, first) and Brian (Gray, seat 1)."""
    del_, brian = del_brian
    return services.create_game(
        del_, cornealius_box(box_factory, del_), "C and G", [("del", "cornealius"), ("brian", "gray")]
    )


def card_named(p: Player, name: str) -> int:
    """The card ``name`` put in ``p``'s hand; returns its id."""
    p.refresh_from_db()
    cid = next(c["id"] for c in p.deck if c["name"] == name)
    if cid not in p.hand:
        p.draw = [i for i in p.draw if i != cid]
        p.discard = [i for i in p.discard if i != cid]
        p.hand = p.hand + [cid]
        p.save()
    return cid


def face_down_ghoul_on(game, tile=None) -> TileToken:
    qs = TileToken.objects.filter(game=game, kind="ghoul", revealed=False)
    return (qs.filter(tile=tile) if tile else qs).first()


# --- GT16. Cornealius' specialty --------------------------------------------------------------------------


def test_cornealius_reveals_a_token_on_his_tile_when_he_uses_a_specialty_card(cornealius_vs_gray, del_brian):
    """ "Cornealius can reveal a token on his tile every time he uses a Specialty card." The token is revealed
    (flipped over) where it lies; he does not enter its square, so it is no encounter: no battle, his movement
    and his turn's encounter are untouched, and the Ghoul stays on its square for whoever enters it."""
    game = cornealius_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    recon = card_named(player(game, del_), "Recon")
    token = face_down_ghoul_on(game)
    act(game, del_, "card", card=recon, reveal=token.pk)
    game, token = refresh(game), TileToken.objects.get(pk=token.pk)
    assert token.revealed and token.state == TileToken.ON_BOARD
    assert game.phase == Game.TURN and game.battle is None and not game.encountered
    assert recon in player(game, del_).discard
    log = texts(game, "specialty-reveal")
    assert log == [
        f"del (Cornealius' specialty, with the Specialty card) reveals {token.label.lower()} on his "
        f"tile: a strength-{token.strength} Ghoul ({token.victory_points} Victory Point"
        f"{'' if token.victory_points == 1 else 's'}). It stays on "
        "its square, face up; no encounter."
    ]
    # his turn's encounter is still to come: he may now enter the revealed Ghoul's square and battle it
    act(game, del_, "fight", token=token.pk)
    assert refresh(game).phase == Game.BATTLE


def test_a_hole_revealed_by_cornealius_takes_nobody_until_entered(cornealius_vs_gray, del_brian):
    """The revealed Hole stays on its square ("can be encountered by other players"); entering it later is an
    encounter: "Because the Hole is the uppermost token, he is out of the game until the beginning of his next
    turn" (Stacking, Example 1)."""
    game = cornealius_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    hole = token_of(game, "hole")
    act(game, del_, "card", card=card_named(player(game, del_), "Recon"), reveal=hole.pk)
    assert not player(game, del_).in_hole and refresh(game).current_seat == 0
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "enter", token=hole.pk)
    game = refresh(game)
    assert player(game, brian).in_hole and game.current_seat == 0  # a Hole ends the turn (GT7)
    assert f"brian enters {hole.label.lower()}, a Hole, and stops." in texts(game, "enter")


def test_cornealius_reveals_with_a_specialty_value_card_in_battle_and_out_of_turn(cornealius_vs_gray, del_brian):
    """ "every time he uses a Specialty card": a SPECIALTY VALUE card put down in a Ghoul battle is used too;
    Specialty cards "can be played at almost any time during the game, even when it is not the player's
    turn"."""
    game = cornealius_vs_gray
    del_, brian = del_brian
    arrange_hand(player(game, del_), [1, 1])
    act(game, del_, "replenish")
    sure = card_named(player(game, del_), "Sure Shot")
    battle = ghoul(game, 5)
    act(game, del_, "reveal", token=battle.pk)
    other = face_down_ghoul_on(game)
    act(game, del_, "play", cards=[sure], reveal=other.pk)  # ICV 2 + 4 = 6 beats a 5
    assert TileToken.objects.get(pk=other.pk).revealed
    assert refresh(game).phase == Game.CHALLENGE and refresh(game).battle["token"] == battle.pk
    act(game, brian, "decline")
    act(game, del_, "end-turn")
    # on Brian's turn, a Specialty card that is not an Action card
    act(game, brian, "replenish")
    third = face_down_ghoul_on(game)
    act(game, del_, "card", card=card_named(player(game, del_), "Recon"), reveal=third.pk)
    assert TileToken.objects.get(pk=third.pk).revealed and refresh(game).current_seat == 1


def test_the_specialty_reveal_is_refused_where_the_text_does_not_give_it(cornealius_vs_gray, del_brian):
    """Only Cornealius; only with a Specialty card; one token per card; a face-down token; on one tile; not
    without a playing piece. A refused play changes nothing."""
    game = cornealius_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    d = player(game, del_)
    recon, parry = card_named(d, "Recon"), give(d, "parry")
    a, b = TileToken.objects.filter(game=game, revealed=False, tile=1)[:2]
    elsewhere = TileToken.objects.filter(game=game, revealed=False, tile=2).first()
    with pytest.raises(services.GameError, match="not Specialty cards"):
        act(game, del_, "card", card=parry, reveal=a.pk)
    with pytest.raises(services.GameError, match="One token per Specialty card"):
        act(game, del_, "card", card=recon, reveal=[str(a.pk), str(b.pk)])
    with pytest.raises(services.GameError, match="Choose a token"):
        act(game, del_, "card", card=recon, reveal="x")
    act(game, brian, "card", card=give(player(game, brian), "ready-for-anything"))  # plain play is fine
    with pytest.raises(services.GameError, match="Only Cornealius"):
        act(game, brian, "card", card=give(player(game, brian), "ready-for-anything"), reveal=a.pk)
    assert not TileToken.objects.filter(pk__in=[a.pk, b.pk]).filter(revealed=True).exists()
    assert recon in player(game, del_).hand and parry in player(game, del_).hand
    act(game, del_, "card", card=recon, reveal=a.pk)
    with pytest.raises(services.GameError, match="already face up"):
        act(game, del_, "card", card=card_named(player(game, del_), "Sure Shot"), reveal=a.pk)
    with pytest.raises(services.GameError, match="on one tile"):  # two Specialty cards put down at once
        services._specialty_reveals(
            player(game, del_),
            list(game.tokens.all()),
            [{"type": BoxCard.SPECIALTY_VALUE}, {"type": BoxCard.SPECIALTY_VALUE}],
            Move(reveal=(b.pk, elsewhere.pk)),
        )
    Player.objects.filter(game=game, user=del_).update(dead=True)
    with pytest.raises(services.GameError, match="no tile"):
        act(game, del_, "card", card=card_named(player(game, del_), "Recon"), reveal=elsewhere.pk)
    assert not TileToken.objects.get(pk=elsewhere.pk).revealed


def test_the_page_offers_cornealius_the_reveal_with_his_specialty_cards_only(cornealius_vs_gray, del_brian):
    game = cornealius_vs_gray
    del_, brian = del_brian
    card_named(player(game, del_), "Recon")
    give(player(game, brian), "ready-for-anything")
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    recon = card_named(player(game, del_), "Recon")
    html = d.get(page_url(game)).content.decode()
    assert f'id="reveal-card-{recon}"' in html
    assert 'name="reveal"' not in logged_in(brian).get(page_url(game)).content.decode()
    token = face_down_ghoul_on(game)
    r = d.post(act_url(game), {"action": "card", "card": recon, "reveal": token.pk}, **HTMX)
    assert r.status_code == 200 and f"Ghoul {token.strength}" in r.content.decode()
    r = d.post(act_url(game), {"action": "card", "card": recon, "reveal": token.pk}, **HTMX)
    assert r.status_code == 422 and "not in your hand" in r.content.decode()


# --- GT17. Moving an unrevealed token; Lake's own tile ----------------------------------------------------


def test_lake_moves_a_ghoul_from_his_tile_onto_brian_who_battles_out_of_turn(lake_vs_gray, del_brian):
    """Lake moves a token on his own tile; "A token can be moved into a square occupied by another player, in
    which case that player must resolve that encounter immediately, even though it is not their turn." The
    challenge begins to the battling player's left (here Del); the turn stays Del's."""
    game = lake_vs_gray
    del_, brian = del_brian
    arrange_hand(player(game, brian), [3, 2])
    act(game, del_, "replenish")
    token = ghoul(game, 5)
    act(
        game,
        del_,
        "move-token",
        token=token.pk,
        to_tile=str(token.tile % 4 + 1),
        my_tile=str(token.tile),
        on_square=["1"],
    )
    game, moved = refresh(game), TileToken.objects.get(pk=token.pk)
    assert moved.revealed and moved.tile == token.tile % 4 + 1
    assert game.phase == Game.BATTLE and game.battle["seat"] == 1 and game.current_seat == 0
    assert "Lake's specialty" in texts(game, "move-token")[0]
    with pytest.raises(services.GameError, match="brian is resolving the encounter"):
        act(game, del_, "play", cards=[])
    with pytest.raises(services.GameError, match="Wait for the player"):
        act(game, del_, "end-turn")
    b = player(game, brian)
    act(game, brian, "play", cards=b.hand[:2])  # Gray 1 + 3 + 2 = 6 beats a 5
    act(game, del_, "decline")
    game = refresh(game)
    assert player(game, brian).victory_points == 2 and game.phase == Game.TURN and game.current_seat == 0
    act(game, del_, "end-turn")
    assert refresh(game).current_seat == 1


def test_other_characters_keep_off_their_own_tile(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    token = token_of(game, "ghoul")
    with pytest.raises(services.GameError, match="cannot be on the tile you occupy"):
        act(game, brian, "move-token", token=token.pk, to_tile=str(token.tile % 4 + 1), my_tile=str(token.tile))
    with pytest.raises(services.GameError, match="onto your own tile"):
        act(
            game,
            brian,
            "move-token",
            token=token.pk,
            to_tile="4" if token.tile != 4 else "3",
            my_tile="4" if token.tile != 4 else "3",
        )
    with pytest.raises(services.GameError, match="Give the tile your playing piece is on"):
        act(game, brian, "move-token", token=token.pk, to_tile="1", my_tile="")
    with pytest.raises(services.GameError, match="Choose the tile"):
        act(game, brian, "move-token", token=token.pk, to_tile="9", my_tile="1")
    assert not refresh(game).action_taken


def test_a_token_moved_to_an_empty_square_stays_face_down(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    token = token_of(game, "hole")
    to = token.tile % 4 + 1
    act(game, del_, "move-token", token=token.pk, to_tile=str(to), my_tile=str(to))  # Lake: onto his tile
    moved = TileToken.objects.get(pk=token.pk)
    assert moved.tile == to and not moved.revealed and moved.slot == 7
    assert refresh(game).action_taken and not refresh(game).encountered


def test_a_hole_moved_onto_brian_takes_him_out_until_his_turn(lake_vs_gray, del_brian):
    """ "Encountering a Hole removes a player from the game temporarily. This occurs whether the player
    encounters a Hole by movement into the square, or if the Hole is placed upon the player by an opponent.\""""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    hole = token_of(game, "hole")
    act(game, del_, "move-token", token=hole.pk, to_tile=str(hole.tile), my_tile=str(hole.tile), on_square=["1"])
    game = refresh(game)
    assert player(game, brian).in_hole and game.current_seat == 0 and game.phase == Game.TURN
    act(game, del_, "end-turn")
    assert not player(game, brian).in_hole


def test_a_ghoul_moved_onto_a_player_in_a_hole_is_lost_at_once(lake_vs_gray, del_brian):
    """ "If a Ghoul token is placed on the square, forcing a Ghoul Battle, the player in the Hole automatically
    suffers the wounds as a result of that battle because they cannot play Value cards in response.\""""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    Player.objects.filter(game=game, user=brian).update(in_hole=True)
    token = ghoul(game, 5)
    act(game, del_, "move-token", token=token.pk, to_tile=str(token.tile), my_tile=str(token.tile), on_square=["1"])
    game = refresh(game)
    assert len(player(game, brian).wounds) == 2 and game.phase == Game.TURN
    assert TileToken.objects.get(pk=token.pk).state == TileToken.ON_BOARD  # the Ghoul stays on its square
    assert "is in a Hole and cannot play Value cards" in texts(game, "battle-lost")[0]


def test_a_hole_moved_onto_a_hole_is_removed(lake_vs_gray, del_brian):
    """ "Only one Hole token can be placed on a square. (If two Hole tokens are inadvertently stacked, remove the
    uppermost Hole token from the board.)\""""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    Player.objects.filter(game=game, user=brian).update(in_hole=True)
    hole = token_of(game, "hole")
    act(game, del_, "move-token", token=hole.pk, to_tile=str(hole.tile), my_tile=str(hole.tile), on_square=["1"])
    assert TileToken.objects.get(pk=hole.pk).state == TileToken.REMOVED
    assert refresh(game).current_seat == 0


def test_lake_moves_a_token_onto_his_own_square_and_encounters_it(lake_vs_gray, del_brian):
    """With his specialty Lake may move a token onto his own tile; a token moved into an occupied square is
    encountered by whoever stands there, and "Any encounter ... ends the player's movement"."""
    game = lake_vs_gray
    del_, brian = del_brian
    arrange_hand(player(game, del_), [3, 2])
    act(game, del_, "replenish")
    token = ghoul(game, 5)
    act(game, del_, "move-token", token=token.pk, to_tile="1", my_tile="1", on_square=["0"])
    game = refresh(game)
    assert game.phase == Game.BATTLE and game.battle["seat"] == 0 and game.encountered


def test_a_first_aid_kit_moved_onto_a_wounded_opponent_is_theirs_to_use(lake_vs_gray, del_brian):
    """ "A First-Aid Kit, whether encountered through movement or Action, heals all of a player's wounds.\""""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    b = player(game, brian)
    b.wounds, b.hand = b.hand[:2], b.hand[2:]
    b.save()
    kit = token_of(game, "first-aid")
    act(game, del_, "move-token", token=kit.pk, to_tile=str(kit.tile), my_tile=str(kit.tile), on_square=["1"])
    assert refresh(game).phase == Game.FIRST_AID
    with pytest.raises(services.GameError, match="brian is resolving"):
        act(game, del_, "first-aid")
    act(game, brian, "first-aid")
    game = refresh(game)
    assert not player(game, brian).wounds and game.phase == Game.TURN and game.current_seat == 0
    assert TileToken.objects.get(pk=kit.pk).state == TileToken.USED


# --- GT18. One Action: an Action card or a token move ---------------------------------------------------


def test_one_action_a_card_or_a_token_move(lake_vs_gray, del_brian):
    """ "When taking an action, a player has two options: A. They can play an Action card from their hand. B.
    They can move an unrevealed Encounter Token up to five spaces.\""""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    a, b = TileToken.objects.filter(game=game, revealed=False, tile=1)[:2]
    act(game, del_, "move-token", token=a.pk, to_tile="1", my_tile="1")
    with pytest.raises(services.GameError, match="taken your Action"):
        act(game, del_, "move-token", token=b.pk, to_tile="1", my_tile="1")
    with pytest.raises(services.GameError, match="moving an Encounter Token"):
        act(game, del_, "card", card=give(player(game, del_), "hole"))
    act(game, del_, "card", card=give(player(game, del_), "parry"))  # a Rescue card is no Action
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "card", card=give(player(game, brian), "debris"))
    with pytest.raises(services.GameError, match="taken your Action"):
        act(game, brian, "move-token", token=b.pk, to_tile="1", my_tile="2")


def test_the_move_form_and_bad_input_show_messages_not_errors(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    d = logged_in(del_)
    d.post(act_url(game), {"action": "replenish"}, **HTMX)
    html = d.get(page_url(game)).content.decode()
    assert 'value="move-token"' in html and "Lake's specialty" in html and 'name="on_square" value="0"' in html
    b_html = logged_in(brian).get(page_url(game)).content.decode()
    assert 'value="move-token"' not in b_html
    for bad in (
        {"token": "x"},
        {"token": "1", "to_tile": "q"},
        {"token": "999999", "to_tile": "1"},
        {"token": str(token_of(game, "hole").pk), "to_tile": "1", "my_tile": "1", "on_square": "z"},
        {"token": str(token_of(game, "hole").pk), "to_tile": "1", "my_tile": "1", "on_square": "7"},
    ):
        r = d.post(act_url(game), {"action": "move-token", **bad}, **HTMX)
        assert r.status_code == 422 and 'role="alert"' in r.content.decode()
    r = d.post(act_url(game), {"action": "enter", "token": str(token_of(game, "hole").pk)}, **HTMX)
    assert r.status_code == 422 and "revealed Hole or Ghoo Gun" in r.content.decode()


def test_entering_a_square_with_a_hole_placed_by_a_card(lake_vs_gray, del_brian):
    """ "The Hole token stays on the square for the remainder of the game and can be encountered by other
    players"; Stacking, Example 1: Brian "chooses to move back into the square. Because the Hole is the
    uppermost token, he is out of the game until the beginning of his next turn ... On his next turn, he will
    have the opportunity to battle the Ghoul.\""""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    token = ghoul(game, 5)
    act(game, del_, "reveal", token=token.pk)
    act(game, del_, "play", cards=[])  # too little: lost at once, the Ghoul stays
    with pytest.raises(services.GameError, match="already had an encounter"):
        act(game, del_, "hole-square")
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "end-turn")
    act(game, del_, "replenish")
    d = logged_in(del_)
    assert 'value="hole-square"' in d.get(page_url(game)).content.decode()
    act(game, del_, "hole-square")
    game = refresh(game)
    assert player(game, del_).in_hole and game.current_seat == 1
    assert "enters a square with a Hole token placed by a Hole card" in texts(game, "hole")[-1]
    act(game, brian, "replenish")
    act(game, brian, "end-turn")
    assert not player(game, del_).in_hole
    act(game, del_, "replenish")
    act(game, del_, "fight", token=token.pk)
    assert refresh(game).phase == Game.BATTLE
