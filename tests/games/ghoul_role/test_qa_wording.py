"""What the sheet says, checked against vast-ghoul-role.txt: the Terror card of two Treasures reaching an even
Fury, the goal in the text's own shape, what a difficulty level combined with a player variant sets, the dice
pairs to keep and the words of the odds and of the cards gone."""

import re

import pytest

from games.ghoul_role import services
from games.ghoul_role.models import GhoulSheet, TerrorCard
from tests.games.ghoul_role.conftest import post_act

HX = {"HTTP_HX_REQUEST": "true"}


def _act(sheet, action, **data):
    post_act(sheet.pk, sheet.owner, action, {k: str(v) for k, v in data.items()})
    sheet.refresh_from_db()
    return sheet


def _page(client, sheet) -> str:
    client.force_login(sheet.owner)
    return client.get(sheet.get_absolute_url()).content.decode()


# --- "Whenever it reaches an even-numbered space, draw a Terror card" ----------------------------------------


def test_two_treasures_reaching_an_even_fury_say_a_terror_card_is_drawn(make_sheet):
    # "Whenever you have 2 Treasure tokens, you gain 1 Fury"; "Whenever it reaches an even-numbered space, draw
    # a Terror card": the log says so, as an attack's line does
    sheet = _act(make_sheet(phase=GhoulSheet.ACT, turn=1, movement=6, fury=1, treasures=1), "collect", what="treasure")
    assert (sheet.fury, sheet.terror_cards.count()) == (2, 1)
    assert sheet.events.first().summary == (
        "Collected a Treasure token. Two Treasures make 1 Fury (now 2): even Fury, draw a Terror card; "
        "both go back to the Cave's supply."
    )
    # an odd space draws none, and the line says none
    sheet = _act(make_sheet(phase=GhoulSheet.ACT, turn=1, movement=6, fury=2, treasures=1), "collect", what="gem")
    assert (sheet.fury, sheet.terror_cards.count()) == (3, 0)
    assert "Terror" not in sheet.events.first().summary


# --- the goal in the text's shape ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, goal",
    [
        # "The Ghoul wins if the Knight is killed, or if it gains 9 Fury and then escapes the Cave"
        ("knight-vs-ghoul", "Kill the Knight, or gain 9 Fury and then escape the Cave by entering the Entrance tile"),
        # "if the Dragon is killed, or if it escapes the Cave after gaining 9 Fury"
        ("dragon-vs-ghoul", "Kill the Dragon, or gain 9 Fury and then escape the Cave by entering the Entrance tile"),
        # "if it gains 9 Fury or smashes 6 Crystals, and then escapes the Cave"
        (
            "cave-vs-ghoul",
            "Gain 9 Fury or smash 6 Crystals, and then escape the Cave by entering the Entrance tile",
        ),
        ("goblins-vs-ghoul", "Gain 9 Fury and then escape the Cave by entering the Entrance tile"),
    ],
)
def test_the_goal_puts_the_escape_after_the_fury_only(make_sheet, variant, goal):
    sheet = make_sheet(variant=variant, players=None)
    assert services.describe_goal(sheet) == goal
    assert ", then escape" not in goal


# --- a difficulty level with a player variant: the sheet says what it combines ------------------------------


@pytest.mark.parametrize(
    "difficulty, variant, fury, basis",
    [
        (
            "ragpicker",
            "knight-vs-ghoul",
            7,
            "Fury goal 7 = Ragpicker (Easiest) 5 + 2 players; the Knight vs. Ghoul variant prints 9, the Standard "
            "difficulty&#x27;s number: the difficulty level changes it; 3 Ghoul dice.",
        ),
        (
            "hunter",
            "goblins-vs-ghoul",
            10,
            "Fury goal 10 = Hunter (Expert) 8 + 2 players; the Goblins vs. Ghoul variant prints 9, the Standard "
            "difficulty&#x27;s number: the difficulty level changes it; 2 Ghoul dice.",
        ),
        ("ghoul", "knight-vs-ghoul", 9, "Fury goal 9 = Ghoul (Standard) 7 + 2 players, as the Knight vs. Ghoul "),
        (
            "stalker",
            "solo-hard",
            9,
            "Solo: Hard: 9 Fury or 7 Crystals, the solo level&#x27;s own goal; the difficulty Stalker (Hard) sets "
            "only the dice here: 2 Ghoul dice.",
        ),
    ],
)
def test_the_sheet_says_what_the_difficulty_and_the_variant_each_set(
    client, make_sheet, difficulty, variant, fury, basis
):
    sheet = make_sheet(difficulty=difficulty, variant=variant, players=None)
    assert sheet.fury_goal == fury
    assert basis in _page(client, sheet)


def test_the_vile_ghouls_variant_goal_and_the_difficultys_dice_are_told_apart(client, make_sheet):
    sheet = make_sheet(kind="vile", difficulty="hunter", variant="vile-ghoul-vs-cave", players=2)
    assert (
        "6 Crystals: the Vile Ghoul vs. Cave variant&#x27;s own number; the difficulty Hunter (Expert) sets only "
        "the dice here: 2 Ghoul dice." in _page(client, sheet)
    )


# --- the dice to keep and the odds' words ------------------------------------------------------------------


def test_pairs_of_the_same_faces_are_one_choice(client, make_sheet):
    # "choose two dice and set aside the third": in 4, 1, 1 keeping "4 and 1" is one choice, not two
    sheet = make_sheet(phase=GhoulSheet.CHOOSE, turn=1, roll=[4, 1, 1])
    page = _page(client, sheet)
    labels = re.findall(r'name="pair" value="(\d-\d)" required( checked)?> (Keep \d and \d)', page)
    assert [(value, label) for value, _checked, label in labels] == [("0-1", "Keep 4 and 1"), ("1-2", "Keep 1 and 1")]
    assert [checked for _v, checked, _l in labels] == [" checked", ""]  # the most movement and attack
    # the kept pair still sets the statistics
    client.post(f"/games/ghoul-role/{sheet.pk}/act/choose/", {"v": str(sheet.version), "pair": "0-1"}, **HX)
    sheet.refresh_from_db()
    assert (sheet.movement, sheet.attack_discs) == (4, 1)


def test_the_two_dice_odds_do_not_speak_of_keeping_the_two_highest(client, make_sheet):
    three = _page(client, make_sheet())
    assert "keeping the two highest dice" in three
    two = _page(client, make_sheet(difficulty="stalker"))  # "You use only 2 Ghoul dice": nothing to choose
    assert "keeping the two highest dice" not in two
    assert "both dice are kept: the higher is movement, the lower attack" in two


def test_a_card_whose_once_per_game_effect_was_used_reads_plainly(client, make_sheet):
    sheet = _act(make_sheet(), "draw")
    card = sheet.terror_cards.get()
    services.name_card(sheet.pk, sheet.owner, card_id=card.pk, name="Chase")
    _act(sheet, "play", card=card.pk)
    assert sheet.terror_cards.get().status == TerrorCard.PLAYED
    page = _page(client, sheet)
    assert "Chase (removed from the game: its once per game effect was used)" in page
    assert "(removed))" not in page
