"""The Ghoul role sheet's services: goals at creation, each turn action, undo, seeded replay."""

import random

import pytest

from crewbuilder.models import RulesEntry
from games.ghoul_role import services
from games.ghoul_role.models import Event, GhoulSheet, Kind, Phase, TerrorCard
from rules import ghoul_role as rules
from tests.games.ghoul_role.conftest import CHART, post_act

# The numbers below are typed from vast-ghoul-role.txt, not read from the catalogue.
FURY_BASE = {"ragpicker": 5, "scavenger": 6, "ghoul": 7, "stalker": 7, "hunter": 8}  # Difficulty Variants
DICE = {"ragpicker": 3, "scavenger": 3, "ghoul": 3, "stalker": 2, "hunter": 2}  # "You use only 2 Ghoul dice"
TWO_PLAYER = ["knight-vs-ghoul", "goblins-vs-ghoul", "dragon-vs-ghoul", "cave-vs-ghoul", "thief-vs-ghoul"]
SOLO = {"solo-easy": (7, 5), "solo-medium": (8, 6), "solo-hard": (9, 7)}
VILE = {  # (Knight's Health, Dragon's Health, Crystals)
    "ragpicker": (5, 3, 3),
    "scavenger": (6, 4, 4),
    "ghoul": (7, 5, 5),
    "stalker": (7, 5, 5),
    "hunter": (8, 6, 6),
}


def _create(owner, cat, *args, **kwargs):
    goals = services.goals_for(cat, *args, **kwargs)
    chart = {f: (f, (f + 1) // 2) for f in range(1, 7)} if goals["kind"] == "vile" else None
    return services.create_sheet(owner, goals, chart=chart)


# --- goals through sheet creation ---------------------------------------------------------------


def test_the_texts_own_examples(cat, owner):
    # "in a two-player game, you would need 9 Fury, while in a five-player game, you would need 12 Fury"
    two = _create(owner, cat, "cave", "ghoul", "knight-vs-ghoul")
    five = _create(owner, cat, "cave", "ghoul", "4-players", 5)
    assert (two.players, two.fury_goal) == (2, 9)
    assert (five.players, five.fury_goal) == (5, 12)
    assert GhoulSheet.objects.get(pk=five.pk).fury_goal == 12


@pytest.mark.parametrize("difficulty", FURY_BASE)
@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_four_plus_players_every_difficulty_capped_at_14(cat, owner, difficulty, players):
    sheet = _create(owner, cat, "cave", difficulty, "4-players", players)
    assert sheet.fury_goal == min(FURY_BASE[difficulty] + players, 14)
    assert sheet.crystal_goal is None and sheet.kill_goal == ""
    assert sheet.dice == DICE[difficulty]
    assert sheet.phase == GhoulSheet.ROLL and sheet.turn == 0


@pytest.mark.parametrize("difficulty", FURY_BASE)
@pytest.mark.parametrize("variant", TWO_PLAYER + ["3-players-any-2-roles-vs-ghoul"])
def test_two_and_three_player_variants_every_difficulty(cat, owner, difficulty, variant):
    sheet = _create(owner, cat, "cave", difficulty, variant, players=6)  # the variant fixes the number
    players = 3 if variant.startswith("3-") else 2
    assert sheet.players == players
    assert sheet.fury_goal == FURY_BASE[difficulty] + players
    if difficulty == "ghoul":  # "The Ghoul wins if it gains 10 Fury" / "9 Fury"
        assert sheet.fury_goal == (10 if players == 3 else 9)
    assert sheet.crystal_goal == (6 if variant == "cave-vs-ghoul" else None)  # "or smashes 6 Crystals"
    assert sheet.kill_goal == {"knight-vs-ghoul": "knight", "dragon-vs-ghoul": "dragon"}.get(variant, "")
    assert sheet.dice == DICE[difficulty]


@pytest.mark.parametrize("difficulty", FURY_BASE)
@pytest.mark.parametrize("variant", SOLO)
def test_solo_goals_are_the_solo_levels(cat, owner, difficulty, variant):
    sheet = _create(owner, cat, "cave", difficulty, variant)
    assert (sheet.players, sheet.fury_goal, sheet.crystal_goal) == (1, *SOLO[variant])
    assert sheet.dice == DICE[difficulty]


@pytest.mark.parametrize("difficulty", VILE)
def test_vile_goals_every_difficulty(cat, owner, difficulty):
    knight, dragon, crystals = VILE[difficulty]
    with_knight = _create(owner, cat, "vile", difficulty, "knight", 3)
    assert (with_knight.kill_goal, with_knight.kill_health, with_knight.target_health) == ("knight", knight, knight)
    assert with_knight.crystal_goal is None and with_knight.fury_goal is None
    with_dragon = _create(owner, cat, "vile", difficulty, "dragon", 2)
    assert (with_dragon.kill_goal, with_dragon.kill_health) == ("dragon", dragon)
    neither = _create(owner, cat, "vile", difficulty, "neither", 2)
    assert (neither.kill_goal, neither.crystal_goal) == ("", crystals)
    assert {with_knight.dice, with_dragon.dice, neither.dice} == {DICE[difficulty]}
    assert with_knight.phase == GhoulSheet.PREPARE


@pytest.mark.parametrize("difficulty", VILE)
def test_vile_variants(cat, owner, difficulty):
    assert _create(owner, cat, "vile", difficulty, "vile-ghoul-vs-cave").crystal_goal == 6
    assert _create(owner, cat, "vile", difficulty, "vile-ghoul-vs-thief-vs-cave", 2, 5).crystal_goal == 6
    assert _create(owner, cat, "vile", difficulty, "vile-ghoul-vs-thief-vs-cave", 3, 6).crystal_goal == 7
    for level, crystals in (("easy", 5), ("medium", 6), ("hard", 7)):
        sheet = _create(owner, cat, "vile", difficulty, f"vile-ghoul-solo-{level}")
        assert (sheet.players, sheet.crystal_goal, sheet.kill_goal) == (1, crystals, "")


@pytest.mark.parametrize(
    "args, message",
    [
        (("cave", "ghoul", "4-players", 3), "4 to 7"),
        (("cave", "ghoul", "4-players", 8), "4 to 7"),
        (("cave", "ghoul", "4-players", None), "number of players"),
        (("cave", "nightmare", "4-players", 4), "difficulty"),
        (("cave", "ghoul", "ghost-vs-ghoul", 2), "player variant"),
        (("vile", "ghoul", "knight", 1), "2 to 7"),
        (("vile", "ghoul", "vile-ghoul-vs-thief-vs-cave", 2, 4), "5 or 6"),
        (("vile", "ghoul", "vile-ghoul-vs-thief-vs-cave", 4, 5), "2 or 3"),
        (("vile", "ghoul", "4-players", 4), "plays against"),
        (("ghost", "ghoul", "4-players", 4), "Ghoul"),
    ],
)
def test_impossible_set_ups_say_why(cat, args, message):
    with pytest.raises(services.SheetError, match=message):
        services.goals_for(cat, *args)


def test_vile_sheet_needs_the_whole_chart(cat, owner):
    goals = services.goals_for(cat, "vile", "ghoul", "knight", 2)
    with pytest.raises(services.SheetError, match="every face"):
        services.create_sheet(owner, goals, chart={1: (1, 1)})
    assert not GhoulSheet.objects.exists()


def test_house_rules_in_the_database_set_the_goal(cat, owner):
    row = RulesEntry.objects.get(system__slug="ghoul-role", part="difficulties", slug="ghoul")
    row.effects = {**row.effects, "fury_base": 6, "dice": 2}
    row.house_rule = True
    row.save()
    sheet = _create(owner, services.catalogue(), "cave", "ghoul", "4-players", 5)
    assert (sheet.fury_goal, sheet.dice) == (11, 2)
    cap = RulesEntry.objects.get(system__slug="ghoul-role", part="rules", slug="fury-goal")
    cap.effects = {**cap.effects, "fury_cap": 10}
    cap.save()
    assert _create(owner, services.catalogue(), "cave", "ghoul", "4-players", 5).fury_goal == 10


# --- helpers -----------------------------------------------------------------------------


def _seed_for(dice: int, wanted) -> int:
    """A seed whose roll satisfies ``wanted`` (found with the engine, as the service rolls)."""
    for seed in range(100000):
        roll = rules.roll_ghoul_dice(random.Random(seed), dice, seed).dice
        if wanted(roll):
            return seed
    raise AssertionError("no seed found")


def _act(sheet, action, **data):
    post_act(sheet.pk, sheet.owner, action, {k: str(v) for k, v in data.items()})
    sheet.refresh_from_db()
    return sheet


def _acting(make_sheet, movement=6, attack=6, **state):
    return make_sheet(phase=GhoulSheet.ACT, turn=1, movement=movement, attack_discs=attack, **state)


# --- roll and set statistics -------------------------------------------------------------------


def test_roll_is_seeded_and_replays_from_its_logged_seed(make_sheet):
    sheet = make_sheet()
    for _turn in range(5):
        _act(sheet, "roll")
        event = sheet.events.first()
        assert event.kind == "roll" and event.seed is not None
        assert list(services.replay_roll(sheet, event)) == event.data["dice"] == sheet.roll
        assert list(rules.roll_ghoul_dice(random.Random(event.seed), 3).dice) == sheet.roll
        _act(sheet, "choose", pair="0-1")
        _act(sheet, "end")
    assert sheet.turn == 5


def test_low_roll_draws_a_terror_card(make_sheet, monkeypatch):
    seed = _seed_for(3, lambda r: sum(r) <= 7)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    sheet = _act(make_sheet(), "roll")
    assert sum(sheet.roll) <= 7 and sheet.phase == GhoulSheet.CHOOSE
    card = sheet.terror_cards.get()
    assert (card.reason, card.drawn_turn, card.status, card.name) == ("roll", 1, "hand", "")
    assert "draw a Terror card" in sheet.events.first().summary


def test_high_roll_draws_none_and_choosing_sets_movement_and_attack(make_sheet, monkeypatch):
    seed = _seed_for(3, lambda r: sum(r) >= 8 and len(set(r)) == 3)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    sheet = _act(make_sheet(defense=2, attack_discs=2), "roll")
    assert not sheet.terror_cards.exists()
    assert (sheet.attack_discs, sheet.defense) == (0, 0)  # the discs go back at the start of the turn
    roll = sheet.roll
    _act(sheet, "choose", pair="0-2")
    assert (sheet.movement, sheet.attack_discs) == (max(roll[0], roll[2]), min(roll[0], roll[2]))
    assert sheet.phase == GhoulSheet.ACT


def test_backstab_lowers_movement_not_below_zero(make_sheet, monkeypatch):
    seed = _seed_for(3, lambda r: r[0] == 6 and r[1] == 2)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    sheet = _act(make_sheet(), "roll", backstab=2)
    _act(sheet, "choose", pair="0-1")
    assert (sheet.movement, sheet.attack_discs) == (4, 2)
    sheet = _act(make_sheet(), "roll", backstab=9)
    _act(sheet, "choose", pair="0-1")
    assert sheet.movement == 0


def test_two_dice_need_no_choice_and_terror_at_four(make_sheet, monkeypatch):
    seed = _seed_for(2, lambda r: sum(r) == 4)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    sheet = _act(make_sheet(difficulty="hunter"), "roll")
    assert len(sheet.roll) == 2 and sheet.phase == GhoulSheet.ACT
    assert (sheet.movement, sheet.attack_discs) == (max(sheet.roll), min(sheet.roll))
    assert sheet.terror_cards.count() == 1
    seed = _seed_for(2, lambda r: sum(r) == 5)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    assert not _act(make_sheet(difficulty="stalker"), "roll").terror_cards.exists()


@pytest.mark.parametrize("data", [{}, {"pair": "0-0"}, {"pair": "0-5"}, {"pair": "a-b"}, {"keep": "1"}])
def test_choosing_needs_two_different_dice(make_sheet, data):
    sheet = _act(make_sheet(), "roll")
    with pytest.raises(services.SheetError):
        post_act(sheet.pk, sheet.owner, "choose", data)
    sheet.refresh_from_db()
    assert sheet.phase == GhoulSheet.CHOOSE and sheet.events.count() == 2


def test_actions_belong_to_their_phase(make_sheet):
    sheet = make_sheet()
    for action in ("choose", "move", "attack", "end", "prepare", "select"):
        with pytest.raises(services.SheetError):
            post_act(sheet.pk, sheet.owner, action, {})
    _act(sheet, "roll")
    with pytest.raises(services.SheetError, match="Roll and Set Statistics"):
        post_act(sheet.pk, sheet.owner, "roll", {})


# --- move and act ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, cost",
    [
        ({}, 1),
        ({"wall": 1}, 2),
        ({"occupied": 1}, 2),
        ({"occupied": 1, "attacking": 1, "defense": 2}, 1),
        ({"occupied": 1, "attacking": 1, "defense": 0, "unattackable": 1}, 2),
        ({"occupied": 1, "unattackable": 1}, 2),
        ({"wall": 1, "occupied": 1}, 3),
    ],
)
def test_move_costs(make_sheet, flags, cost):
    sheet = _act(_acting(make_sheet, movement=5), "move", **flags)
    assert sheet.movement == 5 - cost
    assert sheet.events.first().data["cost"] == cost


def test_a_move_too_dear_changes_nothing(make_sheet):
    sheet = _acting(make_sheet, movement=1)
    with pytest.raises(services.SheetError, match="costs 2"):
        post_act(sheet.pk, sheet.owner, "move", {"wall": "1"})
    sheet.refresh_from_db()
    assert sheet.movement == 1 and sheet.events.count() == 1


def test_two_treasures_make_one_fury_and_even_fury_draws(make_sheet):
    sheet = _acting(make_sheet, movement=5, fury=1)
    _act(sheet, "collect", what="treasure")
    assert (sheet.movement, sheet.treasures, sheet.fury) == (3, 1, 1)
    _act(sheet, "collect", what="gem")  # a Gem that is no trap becomes a Treasure token
    assert (sheet.movement, sheet.treasures, sheet.fury) == (1, 0, 2)
    assert [c.reason for c in sheet.terror_cards.all()] == ["fury"]
    with pytest.raises(services.SheetError, match="2 movement"):
        post_act(sheet.pk, sheet.owner, "collect", {"what": "treasure"})


def test_a_trapped_gem_costs_movement_and_gives_nothing(make_sheet):
    sheet = _act(_acting(make_sheet, movement=4, treasures=1), "collect", what="trap")
    assert (sheet.movement, sheet.treasures, sheet.fury) == (2, 1, 0)


def test_attack_costs_one_plus_defense_and_gains_fury(make_sheet):
    sheet = _act(_acting(make_sheet, attack=6), "attack", target="knight", defense=2)
    assert (sheet.attack_discs, sheet.fury, sheet.attacked) == (3, 1, ["Knight"])
    assert not sheet.terror_cards.exists()
    with pytest.raises(services.SheetError, match="already attacked"):
        post_act(sheet.pk, sheet.owner, "attack", {"target": "knight", "defense": "0"})
    with pytest.raises(services.SheetError, match="costs 4"):
        post_act(sheet.pk, sheet.owner, "attack", {"target": "dragon", "defense": "3"})
    _act(sheet, "attack", target="goblins", label="Red", defense=0)
    assert (sheet.attack_discs, sheet.fury) == (2, 2)
    assert [c.reason for c in sheet.terror_cards.all()] == ["fury"]  # Fury 2 is even
    _act(sheet, "attack", target="goblins", label="Blue", defense=0)
    assert sheet.fury == 3 and sheet.terror_cards.count() == 1


@pytest.mark.parametrize(
    "data",
    [
        {"target": "ghost", "defense": "1"},
        {"target": "knight"},
        {"target": "knight", "defense": "-1"},
        {"target": "knight", "defense": "x"},
    ],
)
def test_attack_bad_input(make_sheet, data):
    sheet = _acting(make_sheet)
    with pytest.raises(services.SheetError):
        post_act(sheet.pk, sheet.owner, "attack", data)


def test_killing_the_thief_keeps_one_terror_card(make_sheet):
    sheet = _act(_acting(make_sheet, attack=6, fury=1), "attack", target="thief", defense=1)
    assert sorted(c.reason for c in sheet.terror_cards.all()) == ["fury", "thief"]


def test_a_terror_card_at_every_even_fury(make_sheet):
    sheet = _acting(make_sheet, attack=0, movement=20)
    fury_cards = []
    for n in range(1, 9):
        sheet.attack_discs, sheet.attacked = 1, []
        sheet.save()
        _act(sheet, "attack", target="unicorn", defense=0)
        fury_cards.append(sheet.terror_cards.filter(reason="fury").count())
    assert sheet.fury == 8
    assert fury_cards == [0, 1, 1, 2, 2, 3, 3, 4]


def test_crystal_costs_three_discs_and_gives_no_fury(make_sheet):
    sheet = _act(_acting(make_sheet, attack=4), "crystal")
    assert (sheet.attack_discs, sheet.crystals, sheet.fury) == (1, 1, 0)
    with pytest.raises(services.SheetError, match="3 Ghoul discs"):
        post_act(sheet.pk, sheet.owner, "crystal", {})


def test_end_turn_sets_defense_from_the_discs_left(make_sheet):
    sheet = _act(_acting(make_sheet, movement=3, attack=2), "end")
    assert (sheet.defense, sheet.movement, sheet.phase) == (2, 0, GhoulSheet.ROLL)


def test_spend_and_gain_points(make_sheet):
    sheet = _act(_acting(make_sheet, movement=2, attack=1), "spend", points=1, why="Flare")
    assert sheet.movement == 1 and "Flare" in sheet.events.first().summary
    _act(sheet, "gain", what="movement", points=5)
    _act(sheet, "gain", what="attack", points=2)
    assert (sheet.movement, sheet.attack_discs) == (6, 3)
    with pytest.raises(services.SheetError):
        post_act(sheet.pk, sheet.owner, "spend", {"points": "7"})


def test_spores_lose_fury_and_regaining_an_even_space_draws_again(make_sheet):
    sheet = _act(_acting(make_sheet, fury=2), "spores")
    assert sheet.fury == 1
    _act(sheet, "attack", target="knight", defense=0)
    assert sheet.fury == 2 and sheet.terror_cards.filter(reason="fury").count() == 1


def test_pickpocket(make_sheet):
    sheet = _act(make_sheet(treasures=1), "pickpocket")
    assert sheet.treasures == 0
    with pytest.raises(services.SheetError):
        post_act(sheet.pk, sheet.owner, "pickpocket", {})


# --- winning ----------------------------------------------------------------------------------


def test_win_needs_the_fury_goal_then_the_entrance(make_sheet):
    sheet = _acting(make_sheet, movement=5, fury=10)  # 4 players: goal 11
    _act(sheet, "move", entrance=1)
    assert sheet.result == "" and sheet.phase == GhoulSheet.ACT
    sheet.attacked = []
    _act(sheet, "attack", target="knight", defense=0)
    assert sheet.fury == 11 and sheet.result == ""
    _act(sheet, "move")
    assert sheet.result == ""
    _act(sheet, "move", entrance=1)
    assert (sheet.result, sheet.phase) == ("won", GhoulSheet.OVER)
    with pytest.raises(services.SheetError, match="over"):
        post_act(sheet.pk, sheet.owner, "move", {})


def test_cave_vs_ghoul_crystals_also_win(make_sheet):
    sheet = _acting(make_sheet, variant="cave-vs-ghoul", movement=2, crystals=5, attack=3)
    _act(sheet, "crystal")
    _act(sheet, "move", entrance=1)
    assert sheet.result == "won"


def test_kill_goals(make_sheet):
    sheet = _act(make_sheet(variant="knight-vs-ghoul"), "killed")
    assert sheet.result == "won"
    plain = make_sheet()
    with pytest.raises(services.SheetError, match="not a goal"):
        post_act(plain.pk, plain.owner, "killed", {})
    lost = _act(make_sheet(), "lost")
    assert (lost.result, lost.phase) == ("lost", GhoulSheet.OVER)


# --- Terror cards ----------------------------------------------------------------------------------


def test_cards_are_named_played_and_discarded(make_sheet, stranger):
    sheet = _act(make_sheet(), "draw")
    _act(sheet, "draw")
    first, second = sheet.terror_cards.all()
    services.name_card(sheet.pk, sheet.owner, card_id=first.pk, name="  Chase ")
    first.refresh_from_db()
    assert first.name == "Chase" and first.reason == "manual"
    with pytest.raises(services.SheetError):
        services.name_card(sheet.pk, sheet.owner, card_id=first.pk, name="")
    with pytest.raises(services.SheetError):
        services.name_card(sheet.pk, stranger, card_id=first.pk, name="Hunt")
    _act(sheet, "play", card=first.pk)
    _act(sheet, "discard", card=second.pk)
    assert [c.status for c in sheet.terror_cards.all()] == [TerrorCard.PLAYED, TerrorCard.DISCARDED]
    with pytest.raises(services.SheetError, match="not in your hand"):
        post_act(sheet.pk, sheet.owner, "play", {"card": str(first.pk)})


def test_a_card_of_another_sheet_cannot_be_played(make_sheet):
    one, two = make_sheet(), make_sheet()
    _act(two, "draw")
    with pytest.raises(services.SheetError):
        post_act(one.pk, one.owner, "play", {"card": str(two.terror_cards.get().pk)})


# --- undo ---------------------------------------------------------------------------------------


def test_undo_restores_the_state(make_sheet):
    sheet = _acting(make_sheet, attack=5, fury=0)
    _act(sheet, "attack", target="knight", defense=1)  # Fury 1 is odd: no card drawn
    assert (sheet.fury, sheet.attack_discs, sheet.terror_cards.count()) == (1, 3, 0)
    services.undo(sheet.pk, sheet.owner)
    sheet.refresh_from_db()
    assert (sheet.fury, sheet.attack_discs, sheet.attacked) == (0, 5, [])
    assert sheet.events.first().undone
    with pytest.raises(services.SheetError, match="Nothing to undo"):
        services.undo(sheet.pk, sheet.owner)


def test_undo_walks_back_several_actions_and_card_statuses(make_sheet):
    sheet = _acting(make_sheet)
    _act(sheet, "draw")
    card = sheet.terror_cards.get()
    _act(sheet, "move", wall=1)
    _act(sheet, "discard", card=card.pk)
    services.undo(sheet.pk, sheet.owner)
    card.refresh_from_db()
    assert card.status == TerrorCard.HAND
    services.undo(sheet.pk, sheet.owner)
    sheet.refresh_from_db()
    assert sheet.movement == 6
    with pytest.raises(services.SheetError, match="drew a Terror card"):  # the draw is final (GS12)
        services.undo(sheet.pk, sheet.owner)
    assert sheet.terror_cards.count() == 1
    assert list(sheet.events.values_list("undone", flat=True)) == [True, True, False, False]


def test_a_ghoul_roll_cannot_be_undone_and_rolled_again(make_sheet, monkeypatch):
    """GS12: undoing the roll would let the player roll again (and again draw or dodge a Terror card)."""
    seed = _seed_for(3, lambda r: sum(r) >= 8)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    sheet = _act(make_sheet(), "roll")
    roll = list(sheet.roll)
    with pytest.raises(services.SheetError, match="rolled dice, and a roll is final"):
        services.undo(sheet.pk, sheet.owner)
    sheet.refresh_from_db()
    assert (sheet.roll, sheet.phase, sheet.turn) == (roll, GhoulSheet.CHOOSE, 1)
    _act(sheet, "choose", pair="0-1")
    services.undo(sheet.pk, sheet.owner)  # choosing the pair is not random: it can be taken back
    sheet.refresh_from_db()
    assert (sheet.roll, sheet.phase) == (roll, GhoulSheet.CHOOSE)
    with pytest.raises(services.SheetError, match="a roll is final"):
        services.undo(sheet.pk, sheet.owner)


def test_a_terror_draw_cannot_be_undone(make_sheet, monkeypatch):
    low = _seed_for(3, lambda r: sum(r) <= 7)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: low)
    sheet = _act(make_sheet(), "roll")
    with pytest.raises(services.SheetError, match="a roll is final"):
        services.undo(sheet.pk, sheet.owner)
    assert sheet.terror_cards.count() == 1
    acting = _acting(make_sheet, attack=5, fury=1)
    _act(acting, "attack", target="knight", defense=1)  # Fury 2: even, a Terror card
    with pytest.raises(services.SheetError, match="drew a Terror card, and a card drawn is final"):
        services.undo(acting.pk, acting.owner)
    acting.refresh_from_db()
    assert (acting.fury, acting.terror_cards.count()) == (2, 1)


def test_a_vile_roll_into_the_supply_is_final_a_slide_is_not(make_sheet):
    sheet = _act(_vile(make_sheet), "prepare")
    with pytest.raises(services.SheetError, match="a roll is final"):
        services.undo(sheet.pk, sheet.owner)
    _act(sheet, "select", face=sheet.supply[0])
    _act(sheet, "end")
    _act(sheet, "prepare")  # slides the left die: nothing random
    services.undo(sheet.pk, sheet.owner)
    sheet.refresh_from_db()
    assert sheet.phase == GhoulSheet.PREPARE and sheet.turn == 1


def test_vile_attack_draw_is_final(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.ACT, turn=1, attack_discs=3, movement=4)
    _act(sheet, "attack", target="goblins", defense=1)
    with pytest.raises(services.SheetError, match="drew a Terror card"):
        services.undo(sheet.pk, sheet.owner)


def test_only_the_owner_acts(make_sheet, stranger):
    sheet = make_sheet()
    with pytest.raises(services.SheetError, match="No such sheet"):
        post_act(sheet.pk, stranger, "roll", {})
    with pytest.raises(services.SheetError, match="No such sheet"):
        services.undo(sheet.pk, stranger)
    assert Event.objects.filter(sheet=sheet).count() == 1


# --- the Vile Ghoul ------------------------------------------------------------------------------


def _vile(make_sheet, **state):
    return make_sheet("vile", variant="knight", players=3, **state)


def test_vile_prepare_rolls_an_empty_supply_from_a_logged_seed(make_sheet):
    sheet = _act(_vile(make_sheet), "prepare")
    event = sheet.events.first()
    assert len(sheet.supply) == 3 and sheet.phase == GhoulSheet.SELECT and sheet.turn == 1
    assert list(services.replay_roll(sheet, event)) == sheet.supply == event.data["dice"]
    assert not sheet.terror_cards.exists()  # the Vile Ghoul's roll draws no Terror card


def test_vile_turns_slide_dice_and_give_boost_dice(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.SELECT, turn=1, supply=[3, 3, 5])
    _act(sheet, "select", face=3)
    # the chart typed for these tests: row f = (f, (f + 1) // 2)
    assert (sheet.movement, sheet.attack_discs, sheet.boost_dice, sheet.left) == (3, 2, 0, 3)
    assert sheet.supply == [3, 5]
    _act(sheet, "end")
    assert (sheet.defense, sheet.phase) == (2, GhoulSheet.PREPARE)
    _act(sheet, "prepare")
    assert (sheet.left, sheet.right, sheet.supply, sheet.events.first().seed) == (None, [3], [3, 5], None)  # no roll
    _act(sheet, "select", face=3)
    assert sheet.boost_dice == 1
    with pytest.raises(services.SheetError):
        post_act(sheet.pk, sheet.owner, "select", {"face": "6"})


def test_vile_select_needs_a_die_in_the_supply(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.SELECT, turn=1, supply=[2, 4, 6])
    with pytest.raises(services.SheetError, match="no die showing 5"):
        post_act(sheet.pk, sheet.owner, "select", {"face": "5"})


def test_vile_attack_must_beat_defense_and_draws_a_card(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.ACT, turn=1, attack_discs=3, movement=4, boost_dice=1)
    with pytest.raises(services.SheetError, match="not greater"):
        post_act(sheet.pk, sheet.owner, "attack", {"target": "knight", "defense": "3"})
    _act(sheet, "boost", source="boost", use="attack", points=1)
    assert (sheet.bonus, sheet.boost_spent) == (1, 1)
    _act(sheet, "attack", target="knight", defense=3)
    assert sheet.attack_discs == 3 and sheet.bonus == 0  # Attack stays; the bonus is used up
    assert sheet.target_health == 6  # "The Knight must lose 1 Health" (7 at standard)
    assert [c.reason for c in sheet.terror_cards.all()] == ["attack"]
    with pytest.raises(services.SheetError, match="No unspent Boost die"):
        post_act(sheet.pk, sheet.owner, "boost", {"source": "boost", "use": "movement", "points": "1"})
    _act(sheet, "attack", target="dragon", defense=2)
    assert sheet.terror_cards.count() == 2 and sheet.fury == 0


def test_vile_entering_an_occupied_space(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.ACT, turn=1, attack_discs=3, movement=6)
    _act(sheet, "move", occupied=1, attacking=1, defense=2)
    assert sheet.movement == 5
    _act(sheet, "move", occupied=1, attacking=1, defense=3)
    assert sheet.movement == 3
    _act(sheet, "move", occupied=1, defense=0, wall=1)
    assert sheet.movement == 0


def test_vile_treasure_pairs_draw_cards_and_crystals_need_attack_three(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.ACT, turn=1, attack_discs=2, movement=4)
    _act(sheet, "collect", what="treasure")
    _act(sheet, "collect", what="gem")
    assert (sheet.treasures, sheet.fury, [c.reason for c in sheet.terror_cards.all()]) == (0, 0, ["treasures"])
    with pytest.raises(services.SheetError, match="at least 3 Attack"):
        post_act(sheet.pk, sheet.owner, "crystal", {})
    _act(sheet, "boost", source="hunt", use="attack", points=1)
    _act(sheet, "crystal")
    assert (sheet.crystals, sheet.attack_discs, sheet.terror_cards.count()) == (1, 2, 1)


def test_vile_crystal_goal_then_entrance(make_sheet):
    sheet = make_sheet(
        "vile", variant="vile-ghoul-vs-cave", phase=GhoulSheet.ACT, turn=1, attack_discs=3, movement=2, crystals=5
    )
    _act(sheet, "move", entrance=1)
    assert sheet.result == ""
    _act(sheet, "crystal")
    _act(sheet, "move", entrance=1)
    assert sheet.result == "won"


def test_vile_cannot_roll_or_lose_fury(make_sheet):
    sheet = _vile(make_sheet)
    for action in ("roll", "choose", "spores"):
        with pytest.raises(services.SheetError):
            post_act(sheet.pk, sheet.owner, action, {})
    _act(sheet, "health", delta=-2)
    assert sheet.target_health == 5


def test_vile_backstab_lowers_movement_not_below_zero(make_sheet):
    """VG-L189 Backstab; VG-L321 the Vile Ghoul follows the Ghoul's rules (GS13)."""
    sheet = _act(_vile(make_sheet), "prepare", backstab=2)
    assert sheet.backstab == 2 and "Backstab −2" in sheet.events.first().summary
    face = max(sheet.supply)
    _act(sheet, "select", face=face)
    assert sheet.movement == max(CHART[face][0] - 2, 0) and sheet.attack_discs == CHART[face][1]
    assert "Backstab −2" in sheet.events.first().summary
    _act(sheet, "end")
    _act(sheet, "prepare", backstab=9)
    _act(sheet, "select", face=sheet.supply[0])
    assert sheet.movement == 0
    _act(sheet, "end")
    with pytest.raises(services.SheetError, match="Backstab"):
        post_act(sheet.pk, sheet.owner, "prepare", {"backstab": "-1"})
    _act(sheet, "prepare")  # no cubes this time
    _act(sheet, "select", face=sheet.supply[0])
    assert sheet.backstab == 0 and sheet.movement == CHART[sheet.left][0]


# --- Terror card limits (GS14) ------------------------------------------------------------------


def test_not_both_effects_of_one_card_on_the_same_turn(make_sheet):
    sheet = _act(_acting(make_sheet), "draw")
    card = sheet.terror_cards.get()
    _act(sheet, "use", card=card.pk)
    _act(sheet, "use", card=card.pk)  # a persistent effect applies every time it is triggered
    with pytest.raises(services.SheetError, match="cannot use both of a card's effects"):
        post_act(sheet.pk, sheet.owner, "play", {"card": str(card.pk)})
    _act(sheet, "end")
    _act(sheet, "roll")  # the next turn
    _act(sheet, "play", card=card.pk)
    card.refresh_from_db()
    assert card.status == TerrorCard.PLAYED


def test_undoing_the_other_effect_allows_the_once_per_game_one(make_sheet):
    sheet = _act(_acting(make_sheet), "draw")
    card = sheet.terror_cards.get()
    _act(sheet, "use", card=card.pk)
    services.undo(sheet.pk, sheet.owner)
    _act(sheet, "play", card=card.pk)
    card.refresh_from_db()
    assert card.status == TerrorCard.PLAYED


def test_not_the_once_per_game_effect_of_identical_cards_on_the_same_turn(make_sheet):
    sheet = _acting(make_sheet)
    for _ in range(3):
        _act(sheet, "draw")
    chase, chase_too, hunt = sheet.terror_cards.all()
    for card, name in ((chase, "Chase"), (chase_too, " chase"), (hunt, "Hunt")):
        services.name_card(sheet.pk, sheet.owner, card_id=card.pk, name=name)
    _act(sheet, "play", card=chase.pk)
    _act(sheet, "play", card=hunt.pk)  # "the once per game effect of a Chase card and ... a Hunt card"
    with pytest.raises(services.SheetError, match="identical cards"):
        post_act(sheet.pk, sheet.owner, "play", {"card": str(chase_too.pk)})
    _act(sheet, "end")
    _act(sheet, "roll")
    _act(sheet, "play", card=chase_too.pk)


def test_a_during_this_turn_card_stays_in_play_until_the_end_of_the_turn(make_sheet):
    sheet = _act(_acting(make_sheet), "draw")
    card = sheet.terror_cards.get()
    _act(sheet, "play", card=card.pk, during=1)
    card.refresh_from_db()
    assert card.status == TerrorCard.ACTIVE and "until the end of the turn" in sheet.events.first().summary
    with pytest.raises(services.SheetError, match="not in your hand"):
        post_act(sheet.pk, sheet.owner, "discard", {"card": str(card.pk)})
    _act(sheet, "end")
    card.refresh_from_db()
    assert card.status == TerrorCard.PLAYED and "leaves the game" in sheet.events.first().summary
    services.undo(sheet.pk, sheet.owner)  # ending the turn is bookkeeping: the card is back in play
    card.refresh_from_db()
    assert card.status == TerrorCard.ACTIVE


# --- the Terror deck (GS15-GS17) ------------------------------------------------------------------

DECK = 13  # Components: "13 Terror Cards"


def _out_of_deck(sheet, n, status=TerrorCard.HAND):
    """``n`` cards already drawn (in hand, or another status out of the deck)."""
    TerrorCard.objects.bulk_create(
        [TerrorCard(sheet=sheet, drawn_turn=0, reason="manual", status=status) for _ in range(n)]
    )


def test_the_sheet_keeps_the_catalogues_thirteen_card_deck(cat, owner, make_sheet):
    assert make_sheet().terror_deck == DECK
    assert _vile(make_sheet).terror_deck == DECK
    assert services.deck_left(make_sheet()) == DECK
    row = RulesEntry.objects.get(system__slug="ghoul-role", part="components", slug="terror-cards")
    row.number, row.house_rule = 15, True
    row.save()
    assert _create(owner, services.catalogue(), "cave", "ghoul", "4-players", 4).terror_deck == 15


def test_no_fourteenth_terror_card(make_sheet):
    sheet = _acting(make_sheet)
    _out_of_deck(sheet, DECK - 1)
    _act(sheet, "draw")
    assert sheet.terror_cards.count() == DECK and services.deck_left(sheet) == 0
    with pytest.raises(services.SheetError, match="Terror deck is empty: all 13 Terror cards"):
        post_act(sheet.pk, sheet.owner, "draw", {})
    assert sheet.terror_cards.count() == DECK


def test_cards_removed_or_discarded_stay_out_of_the_deck_pickpocket_returns_one(make_sheet):
    sheet = _acting(make_sheet)
    _out_of_deck(sheet, 10)
    _out_of_deck(sheet, 3, TerrorCard.PLAYED)  # once per game effects used: "remove the card from the game"
    first, second = sheet.terror_cards.filter(status=TerrorCard.HAND)[:2]
    _act(sheet, "discard", card=first.pk, why="scratch")  # Scratch "forces you to discard 1 Terror card"
    first.refresh_from_db()
    assert first.status == TerrorCard.DISCARDED and "Scratch" in sheet.events.first().summary
    assert services.deck_left(sheet) == 0
    # Pickpocket: "discard a Terror card, shuffling it back into the Terror deck"
    _act(sheet, "discard", card=second.pk, why="pickpocket")
    second.refresh_from_db()
    assert second.status == TerrorCard.RETURNED and services.deck_left(sheet) == 1
    assert "shuffling it back into the Terror deck" in sheet.events.first().summary
    _act(sheet, "draw")
    with pytest.raises(services.SheetError, match="empty"):
        post_act(sheet.pk, sheet.owner, "draw", {})


def test_undoing_a_pickpocket_puts_the_card_back_in_the_hand(make_sheet):
    sheet = _acting(make_sheet)
    _out_of_deck(sheet, DECK)
    card = sheet.terror_cards.first()
    _act(sheet, "discard", card=card.pk, why="pickpocket")
    assert services.deck_left(sheet) == 1
    services.undo(sheet.pk, sheet.owner)
    card.refresh_from_db()
    assert card.status == TerrorCard.HAND and services.deck_left(sheet) == 0


@pytest.mark.parametrize("why", ["steal", "x" * 50, "returned"])
def test_discard_needs_a_known_reason(make_sheet, why):
    sheet = _acting(make_sheet)
    _out_of_deck(sheet, 1)
    with pytest.raises(services.SheetError, match="why"):
        post_act(sheet.pk, sheet.owner, "discard", {"card": str(sheet.terror_cards.get().pk), "why": why})
    assert sheet.terror_cards.get().status == TerrorCard.HAND


def test_an_even_fury_space_with_an_empty_deck_draws_nothing_and_says_so(make_sheet):
    sheet = _acting(make_sheet, attack=3, fury=1)
    _out_of_deck(sheet, DECK)
    _act(sheet, "attack", target="knight", defense=0)
    assert sheet.fury == 2 and sheet.terror_cards.count() == DECK  # the Fury is gained, no 14th card
    event = sheet.events.first()
    assert "The Terror deck is empty: 1 Terror card not drawn (even Fury)." in event.summary
    assert event.data["not_drawn"] == ["fury"]
    services.undo(sheet.pk, sheet.owner)  # nothing was drawn: the attack is bookkeeping (GS12)
    sheet.refresh_from_db()
    assert (sheet.fury, sheet.attack_discs) == (1, 3)


def test_a_low_roll_with_an_empty_deck_draws_nothing(make_sheet, monkeypatch):
    seed = _seed_for(3, lambda r: sum(r) <= 7)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    sheet = make_sheet()
    _out_of_deck(sheet, DECK)
    _act(sheet, "roll")
    assert sheet.terror_cards.count() == DECK and sheet.phase == GhoulSheet.CHOOSE
    assert "The Terror deck is empty: 1 Terror card not drawn (low roll)." in sheet.events.first().summary


def test_killing_the_thief_draws_his_loot_drop_level_and_keeps_one(make_sheet):
    sheet = _act(_acting(make_sheet, attack=6, fury=0), "attack", target="thief", defense=1, loot=3)
    assert [c.reason for c in sheet.terror_cards.all()] == ["thief"]  # kept one; Fury 1 is odd
    assert services.deck_left(sheet) == DECK - 1  # the other two went to the bottom of the deck
    summary = sheet.events.first().summary
    assert "drew 3 Terror cards (Loot Drop Level 3, minimum 1), keep one, return 2 to the bottom" in summary
    zero = _act(_acting(make_sheet, attack=6), "attack", target="thief", defense=0, loot=0)
    assert "drew 1 Terror card (Loot Drop Level 0, minimum 1), keep one." in zero.events.first().summary
    with pytest.raises(services.SheetError, match="Loot Drop Level"):
        post_act(zero.pk, zero.owner, "attack", {"target": "thief", "label": "2", "defense": "0", "loot": "x"})


def test_the_thiefs_card_comes_before_the_even_fury_card(make_sheet):
    """The Thief's cards are part of resolving the attack; "After resolving the attack, you gain 1 Fury"."""
    sheet = _acting(make_sheet, attack=6, fury=1)
    _out_of_deck(sheet, DECK - 1)
    _act(sheet, "attack", target="thief", defense=0, loot=2)
    assert sheet.fury == 2
    assert [c.reason for c in sheet.terror_cards.exclude(reason="manual")] == ["thief"]
    summary = sheet.events.first().summary
    assert "drew 1 Terror card (Loot Drop Level 2, minimum 1), keep one." in summary
    assert "1 Terror card not drawn (even Fury)" in summary


def test_killing_the_thief_with_an_empty_deck(make_sheet):
    sheet = _acting(make_sheet, attack=6)
    _out_of_deck(sheet, DECK)
    _act(sheet, "attack", target="thief", defense=0, loot=3)
    assert sheet.terror_cards.count() == DECK
    assert "1 Terror card not drawn (killed the Thief)" in sheet.events.first().summary


def test_vile_draws_stop_at_the_empty_deck(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.ACT, turn=1, attack_discs=4, movement=4)
    _out_of_deck(sheet, DECK - 1)
    _act(sheet, "attack", target="thief", defense=1)  # the Thief's card, then the successful attack's
    assert [c.reason for c in sheet.terror_cards.exclude(reason="manual")] == ["thief"]
    assert "1 Terror card not drawn (successful attack)" in sheet.events.first().summary
    _act(sheet, "collect", what="treasure")
    _act(sheet, "collect", what="treasure")
    assert sheet.treasures == 0 and sheet.terror_cards.count() == DECK
    assert "not drawn (two Treasures or Gems)" in sheet.events.first().summary


def test_vile_entering_a_space_that_also_holds_a_piece_it_cannot_attack(make_sheet):
    sheet = _vile(make_sheet, phase=GhoulSheet.ACT, turn=1, attack_discs=3, movement=6)
    _act(sheet, "move", occupied=1, attacking=1, defense=1, unattackable=1)
    assert sheet.movement == 4 and "holding a piece you cannot attack" in sheet.events.first().summary
    with pytest.raises(services.SheetError, match="only there if the space is occupied"):
        post_act(sheet.pk, sheet.owner, "move", {"unattackable": "1"})


def test_cards_cannot_be_played_or_discarded_after_the_game(make_sheet):
    sheet = _act(_acting(make_sheet), "draw")
    card = sheet.terror_cards.get()
    _act(sheet, "lost")
    for action in ("play", "discard", "use"):
        with pytest.raises(services.SheetError, match="over"):
            post_act(sheet.pk, sheet.owner, action, {"card": str(card.pk)})


def test_no_discs_no_attack_on_entering(make_sheet):
    """An attack costs "1 + the target's defense statistic" discs: with none left the Ghoul cannot
    "immediately attack", so entering an occupied space costs +1."""
    sheet = _acting(make_sheet, movement=3, attack=0)
    with pytest.raises(services.SheetError, match="cannot attack"):
        post_act(sheet.pk, sheet.owner, "move", {"occupied": "1", "attacking": "1"})
    _act(sheet, "move", occupied=1)
    assert sheet.movement == 1


def test_an_entry_to_attack_at_once_needs_the_discs_of_that_attack(make_sheet):
    """ "you can attack the player piece by spending Ghoul discs equal to 1 + the target's defense statistic";
    "+1 movement point to enter a space that holds any number of other player pieces without immediately
    attacking": with 1 disc the Ghoul cannot attack the Knight (defense 2), so the entry "to attack at once"
    is refused before it is paid, not paid at 1 and then its attack refused (GS19)."""
    sheet = _acting(make_sheet, movement=3, attack=1)
    with pytest.raises(services.SheetError, match="costs 3 Ghoul discs and your Attack space holds 1"):
        post_act(sheet.pk, sheet.owner, "move", {"occupied": "1", "attacking": "1", "defense": "2"})
    with pytest.raises(services.SheetError, match="Give the defense statistic of the piece you attack"):
        post_act(sheet.pk, sheet.owner, "move", {"occupied": "1", "attacking": "1"})
    sheet.refresh_from_db()
    assert (sheet.movement, sheet.attack_discs) == (3, 1) and sheet.events.count() == 1
    _act(sheet, "move", occupied=1)  # it cannot attack the Knight: entering costs +1
    assert sheet.movement == 1
    _act(sheet, "move", occupied=1, attacking=1, defense=0)  # a piece with defense 0: 1 disc is enough
    assert sheet.movement == 0 and "defense 0" in sheet.events.first().summary
    _act(sheet, "attack", target="goblins", defense=0)
    assert (sheet.attack_discs, sheet.fury) == (0, 1)


def test_the_engine_names_the_phases_and_roles_as_the_sheet_does():
    assert rules.PHASES == dict(Phase.choices)
    assert rules.KINDS == dict(Kind.choices)
