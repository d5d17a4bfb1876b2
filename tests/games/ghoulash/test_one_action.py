"""One Action per turn and Zone's trade of movement for two Action cards, through the tracker (GT9)."""

import pytest

from games.ghoulash import services
from tests.clients import logged_in

from .conftest import act_url, ghoul, page_url, player, refresh
from .test_rules_fixes import HTMX, act, give, texts


@pytest.fixture
def zone_vs_gray(del_brian, box_factory):
    """Del (Zone, seat 0, first) and Brian (Gray, seat 1)."""
    del_, brian = del_brian
    return services.create_game(del_, box_factory(del_), "Z and G", [("del", "zone"), ("brian", "gray")])


def test_a_second_action_card_is_refused(lake_vs_gray, del_brian):
    """ "Usually only one Action card is played per turn": Lake plays Debris, then neither a Hole nor a SPECIALTY
    ACTION card ("played with the limitations of the second label"); a Rescue card is no Action."""
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    act(game, del_, "card", card=give(player(game, del_), "debris"))
    with pytest.raises(services.GameError, match="taken your Action this turn: 1 Action card already played"):
        act(game, del_, "card", card=give(player(game, del_), "hole"))
    with pytest.raises(services.GameError, match="taken your Action"):
        act(game, del_, "hole", card=give(player(game, del_), "hole"), targets=["1"])
    with pytest.raises(services.GameError, match="Only Zone can give up movement"):
        act(game, del_, "give-up-movement")
    act(game, del_, "card", card=give(player(game, del_), "parry"))
    d_html = logged_in(del_).get(page_url(game)).content.decode()
    assert 'value="give-up-movement"' not in d_html and 'value="hole"' not in d_html
    act(game, del_, "end-turn")
    act(game, brian, "replenish")
    act(game, brian, "card", card=give(player(game, brian), "hole"))  # a new turn, a new Action


def test_zone_gives_up_movement_and_plays_two_action_cards(zone_vs_gray, del_brian):
    """ "the character of Zone has the special ability to sacrifice movement during a turn in order to play two
    Action cards in that turn, rather than one.\""""
    game = zone_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    d = logged_in(del_)
    assert 'value="give-up-movement"' in d.get(page_url(game)).content.decode()
    act(game, del_, "card", card=give(player(game, del_), "debris"))
    with pytest.raises(services.GameError, match="two if you give up your movement"):
        act(game, del_, "card", card=give(player(game, del_), "hole"))
    act(game, del_, "give-up-movement")
    assert texts(game, "give-up-movement") == [
        "del gives up movement this turn to play 2 Action cards (Zone's specialty)."
    ]
    html = d.get(page_url(game)).content.decode()
    assert 'value="give-up-movement"' not in html and "Reveal Tile" not in html and 'value="hole"' in html
    with pytest.raises(services.GameError, match="gave up your movement"):
        act(game, del_, "reveal", token=ghoul(game, 5).pk)
    with pytest.raises(services.GameError, match="gave up your movement"):
        act(game, del_, "debris-square", tokens="1")
    r = d.post(act_url(game), {"action": "hole", "card": give(player(game, del_), "hole"), "targets": ["1"]}, **HTMX)
    assert r.status_code == 200 and player(game, brian).in_hole
    with pytest.raises(services.GameError, match="2 Action cards already played"):
        act(game, del_, "card", card=give(player(game, del_), "debris"))
    act(game, del_, "end-turn")
    assert not refresh(game).gave_up_movement and refresh(game).action_cards == 0


def test_zone_keeps_his_movement_once_he_has_moved(zone_vs_gray, del_brian):
    """Movement is what he trades: after entering a square ("Any encounter ... ends the player's movement")
    there is none left to give up, and a token move is the turn's one Action."""
    game = zone_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    token = ghoul(game, 5)
    act(game, del_, "reveal", token=token.pk)
    act(game, del_, "play", cards=[])  # too little: lost at once
    with pytest.raises(services.GameError, match="already moved"):
        act(game, del_, "give-up-movement")
    for user, action in ((del_, "end-turn"), (brian, "replenish"), (brian, "end-turn"), (del_, "replenish")):
        act(game, user, action)
    face_down = [t for t in game.tokens.filter(revealed=False, tile=2)]
    act(game, del_, "move-token", token=face_down[0].pk, to_tile="2", my_tile="1")
    with pytest.raises(services.GameError, match="moving an Encounter Token"):
        act(game, del_, "give-up-movement")


def test_zone_in_a_trade_may_still_battle_the_ghoul_on_his_square(zone_vs_gray, del_brian):
    """ "If a player begins a turn in the same square as a Ghoul and decides to battle the Ghoul that turn, that
    is considered an encounter": no movement needed, so the trade leaves it open."""
    game = zone_vs_gray
    del_, brian = del_brian
    token = ghoul(game, 5)
    token.revealed = True
    token.save()
    act(game, del_, "replenish")
    act(game, del_, "give-up-movement")
    html = logged_in(del_).get(page_url(game)).content.decode()
    assert 'value="fight"' in html
    act(game, del_, "fight", token=token.pk)
    assert refresh(game).phase == "battle"
