"""The Ghoul role's turn rules in the engine: ``legal(sheet)`` says what one player's sheet may do now,
``check`` refuses the rest with the player's message. No database."""

from dataclasses import replace

import pytest

from rules import ghoul_role as rules

CAVE = rules.Sheet(kind=rules.CAVE, phase=rules.ROLL, deck_left=10)
VILE = rules.Sheet(kind=rules.VILE, phase=rules.PREPARE, deck_left=10)
ANY_TIME = {"lost", "draw", "play", "use", "discard"}


def refusal(sheet, action) -> str:
    with pytest.raises(rules.NotNow) as exc:
        rules.check(sheet, action)
    return str(exc.value)


def test_the_ghouls_turn_roll_choose_then_move_and_act():
    assert rules.legal(CAVE) == {"roll"} | ANY_TIME
    assert rules.legal(replace(CAVE, phase=rules.CHOOSE)) == {"choose"} | ANY_TIME
    assert (
        rules.legal(replace(CAVE, phase=rules.ACT))
        == {"move", "spend", "gain", "collect", "attack", "crystal", "end"} | ANY_TIME
    )
    assert refusal(CAVE, "end") == "That belongs to Move and Act; now it is Roll and Set Statistics."


def test_the_vile_ghouls_turn_prepare_select_then_move_and_act_with_boosts():
    assert rules.legal(VILE) == {"prepare"} | ANY_TIME
    assert rules.legal(replace(VILE, phase=rules.SELECT)) == {"select"} | ANY_TIME
    assert "boost" in rules.legal(replace(VILE, phase=rules.ACT))
    assert refusal(VILE, "roll") == "Only The Ghoul does that."
    assert refusal(CAVE, "prepare") == "Only The Vile Ghoul does that."


def test_what_depends_on_the_sheet():
    assert "spores" in rules.legal(replace(CAVE, fury=1)) and "spores" not in rules.legal(CAVE)
    assert refusal(CAVE, "spores") == "The Ghoul has no Fury to lose."
    assert refusal(CAVE, "pickpocket") == "No Treasure token on your Treasure space."
    assert "pickpocket" in rules.legal(replace(CAVE, treasures=1))
    assert refusal(CAVE, "health") == "This sheet does not track a target's Health."
    assert refusal(CAVE, "killed") == "Killing a player is not a goal of this game."
    assert {"health", "killed"} <= rules.legal(replace(CAVE, tracks_health=True, kill_goal=True))


def test_no_draw_from_an_empty_terror_deck():
    empty = replace(CAVE, deck_left=0, deck_size=30)
    assert "draw" not in rules.legal(empty)
    assert refusal(empty, "draw").startswith("The Terror deck is empty: all 30 Terror cards")


def test_nothing_once_the_game_is_over_but_the_kind_is_said_first():
    over = replace(CAVE, phase=rules.OVER, fury=3, treasures=2)
    assert rules.legal(over) == frozenset()
    assert refusal(over, "end") == "The game is over. Undo the last action to go back."
    assert refusal(over, "prepare") == "Only The Vile Ghoul does that."
    assert refusal(CAVE, "fly") == "Unknown action."


# --- what an action chooses ------------------------------------------------------------


def test_entering_a_space_to_attack_needs_a_piece_there_and_a_disc():
    rules.check_move_choice(vile=False, attack_discs=1, occupied=True, attacking=True, unattackable=False)
    with pytest.raises(rules.NotNow, match="^You can only attack on entering a space that holds a player piece"):
        rules.check_move_choice(False, 3, occupied=False, attacking=True, unattackable=False)
    with pytest.raises(rules.NotNow, match="^With no Ghoul discs"):
        rules.check_move_choice(False, 0, occupied=True, attacking=True, unattackable=False)
    rules.check_move_choice(True, 0, occupied=True, attacking=True, unattackable=False)  # the Vile Ghoul: Attack
    with pytest.raises(rules.NotNow, match="^A piece you cannot attack is only there if the space is occupied"):
        rules.check_move_choice(False, 1, occupied=False, attacking=False, unattackable=True)


def test_entering_to_attack_at_once_needs_one_plus_the_pieces_defense_in_discs():
    """The attack on entering costs "Ghoul discs equal to 1 + the target's defense statistic": without them the
    entry cannot be "immediately attacking" and is refused before it is paid (GS19)."""
    rules.check_move_choice(False, 3, occupied=True, attacking=True, unattackable=False, defense=2)
    with pytest.raises(rules.NotNow, match="^Attacking a piece with defense 2 costs 3 Ghoul discs and your Attack"):
        rules.check_move_choice(False, 2, occupied=True, attacking=True, unattackable=False, defense=2)
    rules.check_move_choice(True, 1, occupied=True, attacking=True, unattackable=False, defense=2)  # the Vile: +1


def test_the_vile_ghoul_attacks_each_piece_once_with_more_than_its_defense():
    rules.check_vile_attack("Knight", False, 3, 2)
    rules.check_vile_attack("Knight", False, 2, 3, bonus=2)
    with pytest.raises(rules.NotNow, match="^Knight was already attacked this turn.$"):
        rules.check_vile_attack("Knight", True, 9, 0)
    with pytest.raises(rules.NotNow, match=r"^Attack 2 \+ 1 is not greater than the Knight's defense 3.$"):
        rules.check_vile_attack("Knight", False, 2, 3, bonus=1)
    rules.check_vile_crystal(rules.VILE_CRYSTAL_ATTACK)
    with pytest.raises(rules.NotNow, match="needs at least"):
        rules.check_vile_crystal(rules.VILE_CRYSTAL_ATTACK - 1)


def test_boosts_and_once_per_game_effects():
    rules.check_boost("attack", "hunt")
    with pytest.raises(rules.NotNow, match="^Only Boost dice"):
        rules.check_boost("movement", "hunt")
    with pytest.raises(rules.NotNow, match="^Choose what the bonus is for"):
        rules.check_boost("fly", "boost")
    with pytest.raises(rules.NotNow, match="^No unspent Boost die"):
        rules.check_boost_die(0)
    rules.check_once_per_game("Terror card 1", False)
    with pytest.raises(rules.NotNow, match="^You used the other effect of Terror card 1 this turn"):
        rules.check_once_per_game("Terror card 1", True)
    with pytest.raises(rules.NotNow, match="^You already used the once per game effect of a Flare card"):
        rules.check_once_per_game("Flare", False, "Flare", identical_played=True)
