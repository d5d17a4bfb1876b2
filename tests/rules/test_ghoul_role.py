"""The Ghoul role and the Vile Ghoul (vast-ghoul-role.txt)."""

import itertools
import json
import random
import re
from collections import Counter
from fractions import Fraction as F

import pytest

from rules import ghoul_role as g

# --- Fury goal: the text's own examples -------------------------------------------------


def test_fury_goal_examples_from_the_text():
    # "in a two-player game, you would need 9 Fury, while in a five-player game, you would need 12 Fury"
    assert g.fury_goal(2) == 9
    assert g.fury_goal(5) == 12


@pytest.mark.parametrize(
    "difficulty, base", [("ragpicker", 5), ("scavenger", 6), ("ghoul", 7), ("stalker", 7), ("hunter", 8)]
)
@pytest.mark.parametrize("players", range(1, 9))
def test_fury_goal_by_difficulty_capped_at_14(difficulty, base, players):
    assert g.fury_goal(players, difficulty) == min(base + players, 14)


def test_cap_reached():
    assert (
        g.fury_goal(7) == 14
        and g.fury_goal(8) == 14
        and g.fury_goal(6, "hunter") == 14
        and g.fury_goal(5, "hunter") == 13
    )


def test_player_variants_match_the_formula_at_standard_difficulty():
    assert g.variant_goal("3-players-any-2-roles-vs-ghoul") == {"fury": 10, "crystals": None}
    assert g.fury_goal(3) == 10
    for v in ("knight-vs-ghoul", "goblins-vs-ghoul", "dragon-vs-ghoul", "thief-vs-ghoul"):
        assert g.variant_goal(v)["fury"] == 9 == g.fury_goal(2)
    assert g.variant_goal("cave-vs-ghoul") == {"fury": 9, "crystals": 6}
    assert [g.variant_goal(f"solo-{lvl}") for lvl in ("easy", "medium", "hard")] == [
        {"fury": 7, "crystals": 5},
        {"fury": 8, "crystals": 6},
        {"fury": 9, "crystals": 7},
    ]


def test_bad_players_and_difficulty():
    with pytest.raises(ValueError):
        g.fury_goal(0)
    with pytest.raises(ValueError, match="difficulty"):
        g.fury_goal(3, "nightmare")


def test_win_needs_the_goal_then_the_entrance():
    assert not g.has_won(9, 9, entered_entrance=False)
    assert g.has_won(9, 9, entered_entrance=True) and not g.has_won(8, 9, True)
    assert g.has_won(2, 9, True, crystals=6, crystal_goal=6)


# --- Ghoul dice ------------------------------------------------------------------------


def test_dice_by_difficulty():
    assert [g.ghoul_dice_for(d) for d in ("ragpicker", "scavenger", "ghoul", "stalker", "hunter")] == [3, 3, 3, 2, 2]


def test_terror_thresholds_on_the_sum_of_all_dice():
    assert g.draws_terror((2, 2, 3)) and not g.draws_terror((2, 2, 4))  # 7 or less
    assert g.draws_terror((1, 1, 5)) and not g.draws_terror((1, 1, 6))
    assert g.draws_terror((1, 3)) and g.draws_terror((2, 2)) and not g.draws_terror((2, 3))  # 4 or less with 2 dice


def _brute(dice):
    terror = 0
    move, att = Counter(), Counter()
    for roll in itertools.product(range(1, 7), repeat=dice):
        terror += sum(roll) <= {3: 7, 2: 4}[dice]
        top = sorted(roll, reverse=True)
        move[top[0]] += 1  # the highest die is always keepable as movement
        att[top[1]] += 1  # the second highest is the best lower die of any pair
    return terror, move, att


@pytest.mark.parametrize("dice", [2, 3])
def test_ghoul_dice_odds_brute_force(dice):
    answer = g.ghoul_dice_odds(dice)
    total = 6**dice
    terror, move, att = _brute(dice)
    assert answer["terror"] == {"yes": F(terror, total), "no": F(total - terror, total)}
    for plan in ("max_movement", "max_attack"):
        assert answer[plan]["movement"] == {str(f): F(move[f], total) for f in range(1, 7)}
        assert answer[plan]["attack"] == {str(f): F(att[f], total) for f in range(1, 7)}


def test_ghoul_dice_odds_known_values():
    three = g.ghoul_dice_odds(3)
    assert three["terror"]["yes"] == F(35, 216)  # 1+3+6+10+15 ways to roll 3..7
    assert three["max_movement"]["movement"]["6"] == F(91, 216)  # 1 - (5/6)^3
    assert three["max_attack"]["attack"]["6"] == F(16, 216)  # at least two sixes
    two = g.ghoul_dice_odds(2)
    assert two["terror"]["yes"] == F(1, 6)
    assert two["max_movement"]["movement"]["6"] == F(11, 36) and two["max_movement"]["attack"]["6"] == F(1, 36)


@pytest.mark.parametrize("dice", [2, 3])
def test_every_group_sums_to_one_with_string_keys(dice):
    answer = g.ghoul_dice_odds(dice)
    assert set(answer) == {"terror", "max_movement", "max_attack"}
    assert sum(answer["terror"].values()) == 1
    for plan in ("max_movement", "max_attack"):
        assert set(answer[plan]) == {"movement", "attack"}
        for dist in answer[plan].values():
            assert sum(dist.values()) == 1 and all(isinstance(k, str) for k in dist)
            assert all(isinstance(v, F) for v in dist.values())


@pytest.mark.parametrize("dice", [0, 1, 4, 6, -3, True, "3", 3.0])
def test_impossible_dice_counts(dice):
    with pytest.raises(ValueError, match="Ghoul dice"):
        g.ghoul_dice_odds(dice)


def test_choosing_two_dice_higher_is_movement_lower_is_attack():
    assert g.statistics_from((2, 5)) == (5, 2)
    assert g.choose_dice((5, 2, 4), (1, 2)) == (4, 2)
    assert g.choose_dice((5, 2, 4), (0, 1)) == (5, 2)
    assert g.choose((5, 2, 4), "movement") == (5, 4) == g.choose((5, 2, 4), "attack")
    with pytest.raises(ValueError):
        g.choose_dice((5, 2, 4), (1, 1))


def test_seeded_roll():
    a = g.roll_ghoul_dice(random.Random(11), 3, 11)
    assert a == g.roll_ghoul_dice(random.Random(11), 3, 11)
    assert len(a.dice) == 3 and a.terror == (sum(a.dice) <= 7)
    assert len(g.roll_ghoul_dice(random.Random(1), 2).dice) == 2


# --- A turn ----------------------------------------------------------------------------


def test_attack_cost_is_one_plus_defense():
    assert [g.attack_cost(d) for d in range(4)] == [1, 2, 3, 4]
    assert g.CRYSTAL_COST == 3


def test_terror_card_at_every_even_fury():
    assert g.terror_cards_for_fury(0, 14) == 7
    assert (
        g.terror_cards_for_fury(1, 2) == 1 and g.terror_cards_for_fury(2, 3) == 0 and g.terror_cards_for_fury(1, 4) == 2
    )


def test_turn_attacks_treasures_and_fury():
    s = g.start_turn(g.GhoulState(), (6, 5, 1))
    assert (s.movement, s.attack_discs, s.terror_draws) == (6, 5, 0)
    s = g.attack(s, "knight", 2)  # 1 + Strength 2 = 3 discs
    assert (s.attack_discs, s.fury, s.terror_draws) == (2, 1, 0)
    with pytest.raises(g.IllegalGhoulAction):
        g.attack(s, "knight", 0)  # not the same piece twice in a turn
    with pytest.raises(g.IllegalGhoulAction):
        g.attack(s, "thief", 2)  # needs 3 discs, 2 left
    s = g.attack(s, "thief", 1)
    assert (s.attack_discs, s.fury, s.terror_draws) == (0, 2, 1)  # Fury 2: even space, a Terror card
    s = g.collect_treasure(s)
    assert (s.movement, s.treasures, s.fury) == (4, 1, 2)
    s = g.collect_treasure(s)  # two Treasures make one Fury
    assert (s.movement, s.treasures, s.fury) == (2, 0, 3)
    s = g.set_defense(s)
    assert s.defense == 0
    s = g.start_turn(s, (1, 1, 2))  # sum 4: a Terror card; new turn clears the attacked list
    assert s.terror_draws == 2 and s.attacked == frozenset() and (s.movement, s.attack_discs) == (2, 1)


def test_crystal_costs_three_discs():
    s = g.start_turn(g.GhoulState(), (4, 3, 3))
    s = g.smash_crystal(s)
    assert (s.attack_discs, s.crystals, s.fury) == (0, 1, 0)
    with pytest.raises(g.IllegalGhoulAction):
        g.smash_crystal(s)
    assert g.smash_crystal(g.start_turn(g.GhoulState(), (4, 3, 3)), crystal_gives_fury=True).fury == 1


def test_lost_fury_regained_reaches_the_even_space_again():
    s = g.GhoulState(fury=2, terror_draws=1)
    s = g.lose_fury(s)
    assert s.fury == 1
    s = g.attack(g.start_turn(s, (6, 6, 1)), "dragon", 0)
    assert (s.fury, s.terror_draws) == (2, 2)


def test_backstab_reduces_movement_not_below_zero():
    assert g.start_turn(g.GhoulState(), (5, 4, 1), backstab=2).movement == 3
    assert g.start_turn(g.GhoulState(), (2, 1, 1), backstab=4).movement == 0


def test_move_costs():
    assert g.move_cost() == 1
    assert g.move_cost(through_wall=True) == 2
    assert g.move_cost(occupied=True) == 2 and g.move_cost(occupied=True, attacking=True) == 1
    assert g.move_cost(occupied=True, attacking=True, holds_unattackable=True) == 2
    assert g.move_cost(through_wall=True, occupied=True) == 3


def test_other_players_enter_only_if_greater_than_defense():
    assert g.can_enter_ghoul_space(3, 2) and not g.can_enter_ghoul_space(2, 2)


# --- The Vile Ghoul ----------------------------------------------------------------------

CHART = {f: (7 - f, f) for f in range(1, 7)}  # a made-up chart: the printed board's rows are not in the text


def test_vile_dice_cycle():
    b = g.prepare_board(g.VileBoard(), random.Random(5))
    assert len(b.supply) == 3 and b.left is None and b.right == ()
    face = b.supply[0]
    b, stats = g.select_statistics(b, face, CHART)
    assert (stats.movement, stats.attack, stats.boost_dice) == (7 - face, face, 0) and b.left == face
    b = g.prepare_board(b, random.Random(0))  # slide the left die to the right
    assert b.left is None and b.right == (face,) and len(b.supply) == 2
    b2 = g.VileBoard(supply=(face,), right=(face,))
    _, stats = g.select_statistics(b2, face, CHART)
    assert stats.boost_dice == 1  # a die on the right side of the selected row
    empty = g.VileBoard(supply=(), left=2, right=(3, 4))
    assert len(g.prepare_board(empty, random.Random(1), dice=2).supply) == 2  # collect and roll (2 on Hard)
    with pytest.raises(ValueError):
        g.select_statistics(b, 7, CHART)


def test_vile_attack_and_crystal():
    assert g.vile_can_attack(3, 2) and not g.vile_can_attack(2, 2) and g.vile_can_attack(2, 2, bonus=1)
    assert g.vile_can_smash_crystal(3) and not g.vile_can_smash_crystal(2)
    assert g.vile_enter_cost(2, 2, attacking=True) == 2 and g.vile_enter_cost(3, 2, attacking=True) == 1
    assert g.vile_enter_cost(3, 2, attacking=False) == 2
    assert g.vile_terror_draws(2, 5) == 4


def test_vile_goals():
    assert g.vile_goal("ghoul") == {"kill": "knight", "health": 7}
    assert g.vile_goal("hunter", knight=False) == {"kill": "dragon", "health": 6}
    assert g.vile_goal("ragpicker", knight=False, dragon=False) == {"smash_crystals": 3, "then_escape": True}
    assert [g.vile_goal(d)["health"] for d in ("ragpicker", "scavenger", "ghoul", "stalker", "hunter")] == [
        5,
        6,
        7,
        7,
        8,
    ]
    assert g.vile_crystals_vs_thief(5) == 6 and g.vile_crystals_vs_thief(6) == 7
    with pytest.raises(ValueError):
        g.vile_crystals_vs_thief(4)


def test_catalogue_shape():
    data = json.loads(g.CATALOGUE.read_text(encoding="utf-8"))
    assert (data["system"], data["edition"], data["source"]) == ("ghoul-role", "1", "vast-ghoul-role.txt")
    for key, value in data.items():
        if isinstance(value, list):
            for entry in value:
                assert entry["slug"] == re.sub(r"[^a-z0-9]+", "-", entry["name"].lower()).strip("-")
                assert entry["text"] and entry["section"]
    assert [d["slug"] for d in data["difficulties"]] == ["ragpicker", "scavenger", "ghoul", "stalker", "hunter"]


# --- Tables passed by the caller (house rules from the database) -----------------------


def test_goals_and_dice_from_a_table_given_by_the_caller():
    house = {slug: dict(entry) for slug, entry in g.difficulties().items()}
    house["ghoul"]["fury_base"] = 6
    house["ghoul"]["dice"] = 2
    assert g.fury_goal(2, "ghoul", table=house) == 8 and g.fury_goal(2, "ghoul") == 9
    assert g.ghoul_dice_for("ghoul", table=house) == 2 and g.ghoul_dice_for("ghoul") == 3
    assert g.fury_goal(7, "hunter", cap=12, table=house) == 12
    with pytest.raises(ValueError, match="difficulty"):
        g.fury_goal(2, "ghoul", table={})
    variants = [{"slug": "cave-vs-ghoul", "fury": 8, "crystals": 5}]
    assert g.variant_goal("cave-vs-ghoul", variants) == {"fury": 8, "crystals": 5}
    with pytest.raises(ValueError):
        g.variant_goal("knight-vs-ghoul", variants)
    vile = {slug: dict(entry) for slug, entry in g.vile_difficulties().items()}
    vile["ghoul"]["knight_health"] = 9
    assert g.vile_goal("ghoul", table=vile) == {"kill": "knight", "health": 9}
    assert g.vile_crystals_vs_thief(6, {"thief_stash": [6, 7], "crystals_over_stash": 1}) == 7
    with pytest.raises(ValueError):
        g.vile_crystals_vs_thief(5, {"thief_stash": [6, 7], "crystals_over_stash": 1})


def test_variant_kill_goals_from_the_text():
    # "The Ghoul wins if the Knight is killed" / "The Ghoul wins if the Dragon is killed"
    assert g.variant_kill("knight-vs-ghoul") == "knight"
    assert g.variant_kill("dragon-vs-ghoul") == "dragon"
    for slug in (
        "goblins-vs-ghoul",
        "cave-vs-ghoul",
        "thief-vs-ghoul",
        "3-players-any-2-roles-vs-ghoul",
        "4-players",
        "solo-easy",
    ):
        assert g.variant_kill(slug) is None
    slugs = {v["slug"] for v in json.loads(g.CATALOGUE.read_text(encoding="utf-8"))["player_variants"]}
    assert set(g.VARIANT_KILLS) <= slugs


def test_start_turn_ends_last_turns_defense():
    """VG-L129: Defense lasts "until the start of your next turn"."""
    state = g.start_turn(g.GhoulState(defense=4, attack_discs=4, fury=3), (6, 5, 1))
    assert state.defense == 0 and state.fury == 3 and (state.movement, state.attack_discs) == (6, 5)


# --- The Terror deck (GS15-GS17) -------------------------------------------------------


def test_the_terror_deck_is_the_components_thirteen_cards():
    # Components: "13 Terror Cards"
    assert g.terror_deck_size() == 13 == g.TERROR_DECK
    assert g.terror_deck_size([{"slug": "ghoul-dice", "number": 3}, {"slug": "terror-cards", "number": 15}]) == 15
    for bad in (
        [],
        [{"slug": "terror-cards", "number": -1}],
        [{"slug": "terror-cards", "number": "13"}],
        [{"slug": "terror-cards", "number": True}],
    ):
        with pytest.raises(ValueError):
            g.terror_deck_size(bad)


def test_no_card_is_drawn_from_an_empty_deck():
    assert g.terror_cards_left(13, 0) == 13 and g.terror_cards_left(13, 12) == 1 and g.terror_cards_left(13, 13) == 0
    assert g.draw_terror_cards(13, 1) == (1, 0)
    assert g.draw_terror_cards(1, 2) == (1, 1)  # e.g. the Thief's card, then the even Fury space's
    assert g.draw_terror_cards(0, 1) == (0, 1)
    with pytest.raises(ValueError):
        g.draw_terror_cards(-1, 1)


def test_the_thief_killed_draws_his_loot_drop_level_keeps_one_returns_the_others():
    # "Draw Terror cards equal in number to the Thief's Loot Drop Level (minimum 1), keep one, and
    # return the others to the bottom of the Terror deck."
    assert g.thief_loot(3, 13) == (3, 1, 2)
    assert g.thief_loot(1, 13) == (1, 1, 0)
    assert g.thief_loot(0, 13) == (1, 1, 0)  # minimum 1
    assert g.thief_loot(4, 2) == (2, 1, 1)  # only what the deck holds
    assert g.thief_loot(2, 0) == (0, 0, 0)


def test_vile_entering_a_space_that_also_holds_a_piece_it_cannot_attack():
    # The Ghoul's "+1 movement point even if you immediately attack another player piece on that space",
    # with the Vile Ghoul's "cannot attack" (Attack <= the piece's defense): +1 once (GS18)
    assert g.vile_enter_cost(3, 1, attacking=True) == 1
    assert g.vile_enter_cost(3, 1, attacking=True, holds_unattackable=True) == 2
    assert g.vile_enter_cost(3, 1, attacking=False, holds_unattackable=True) == 2
    assert g.vile_enter_cost(3, 1, attacking=True, through_wall=True, holds_unattackable=True) == 3


def test_best_keep_is_the_pair_no_other_beats_on_movement_or_attack():
    """ "The die with the higher value is your movement points, and the die with the lower value is your
    attack points": the two highest dice win on both counts, for every roll of 3 or 2 dice."""
    for dice in (3, 2):
        for roll in itertools.product(range(1, 7), repeat=dice):
            best = g.choose_dice(roll, g.best_keep(roll))
            for pair in itertools.combinations(range(dice), 2):
                other = g.choose_dice(roll, pair)
                assert best[0] >= other[0] and best[1] >= other[1], (roll, pair)
    assert g.best_keep((2, 6, 6)) == (1, 2) and g.best_keep((5, 1, 5)) == (0, 2)


def test_flare_on_own_space_costs_one_movement_and_only_some_variants_give_it():
    """3 PLAYERS: "Give the Ghoul the *Flare* Variant card ... The Ghoul may target its current space with
    *Flare*, spending 1 movement point each time." Goblins vs., Cave vs., Thief vs. Ghoul and Solo give (or
    share) Flare too; Knight vs. Ghoul, Dragon vs. Ghoul and 4+ players give only Past Plunder. The Vile
    Ghoul's solo: "Take ... the Flare Variant card"; its vs. Cave / vs. Thief games use the Goblins' set-up,
    which this text does not print (None)."""
    assert g.FLARE_COST == 1
    with_flare = ["3-players-any-2-roles-vs-ghoul", "goblins-vs-ghoul", "cave-vs-ghoul", "thief-vs-ghoul"]
    with_flare += ["solo-easy", "solo-medium", "solo-hard", "vile-ghoul-solo-easy", "vile-ghoul-solo-hard"]
    for variant in with_flare:
        assert g.variant_flare(variant) is True, variant
    for variant in ("knight-vs-ghoul", "dragon-vs-ghoul"):
        assert g.variant_flare(variant) is False, variant
    for variant in ("4-players", "vile-ghoul-vs-cave", "vile-ghoul-vs-thief-vs-cave", "knight"):
        assert g.variant_flare(variant) is None, variant
    assert g.variant_flare("knight-vs-ghoul", [{"slug": "knight-vs-ghoul", "flare": True}]) is True
