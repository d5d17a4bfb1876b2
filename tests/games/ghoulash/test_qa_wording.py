"""Words and the phone layout of the Ghoulash table: a card's value once ("Ghoo Shot 3", not "Ghoo Shot 3 3"),
"1 green dot", and the players table laid out per player on a phone (each number under its own label)."""

import re

from tests.clients import logged_in

from .conftest import arrange_hand, ghoul, page_url, player
from .test_rules_fixes import act, texts


def test_the_battle_total_and_the_log_name_each_card_once(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, brian = del_brian
    act(game, del_, "replenish")
    hand = arrange_hand(player(game, del_), [3, 2, 1, 1, 1, 2, 3])
    act(game, del_, "reveal", token=ghoul(game, 5).pk)
    act(game, del_, "play", cards=hand[:2])
    html = logged_in(brian).get(page_url(game)).content.decode()
    assert "Initial Combat Value 1 + Ghoo Shot 3 + Ghoo Shot 2 = " in html
    assert "Ghoo Shot 3 3" not in html and "Ghoo Shot 2 2" not in html
    assert texts(game, "play") == [
        "del puts down Ghoo Shot 3, Ghoo Shot 2: Initial Combat Value 1 + 5 = 6 against strength 5 (6 needed)."
    ]


def test_one_green_dot_is_singular(lake_vs_gray, del_brian):
    game = lake_vs_gray
    del_, _brian = del_brian
    act(game, del_, "replenish")
    arrange_hand(player(game, del_), [1, 1, 1, 1, 2, 2, 2])
    act(game, del_, "reveal", token=ghoul(game, 4).pk)  # the box's strength-4 Ghoul: 1 Victory Point
    act(game, del_, "play", cards=[])
    wounds = texts(game, "wounds")
    assert wounds == ["del suffers 1 wound (a lost Ghoul battle, 1 green dot): cards taken at random."]


def test_the_players_table_labels_each_number_for_the_phone_layout(lake_vs_gray, del_brian):
    html = logged_in(del_brian[0]).get(page_url(lake_vs_gray)).content.decode()
    table = re.search(r'<table class="gh-players">(.*?)</table>', html, re.S).group(1)
    row = re.search(r"<tbody>(.*?)</tr>", table, re.S).group(1)
    labels = re.findall(r'data-label="([^"]+)"', row)
    assert labels == ["Character", "Combat", "Move", "Wounds / Health", "Hand", "Victory Points"]
