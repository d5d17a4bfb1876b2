"""Ghoulash's turn rules in the engine: ``legal(state, seat)`` says what a seat may do now, ``check`` refuses
the rest with the player's message. No database."""

from dataclasses import replace

import pytest

from rules import ghoulash as gh

SEATS = (gh.SeatState(0, "ann", "lake"), gh.SeatState(1, "bob", "zone"), gh.SeatState(2, "cat", "cornealius"))


def table(**kw) -> gh.TableState:
    return gh.TableState(seats=kw.pop("seats", SEATS), current=kw.pop("current", 0), **kw)


def with_seat(seat: int, **kw) -> tuple[gh.SeatState, ...]:
    return tuple(replace(s, **kw) if s.seat == seat else s for s in SEATS)


def refusal(state, seat, action) -> str:
    with pytest.raises(gh.NotNow) as exc:
        gh.check(state, seat, action)
    return str(exc.value)


def test_a_turn_begins_with_replenishing_and_only_for_the_current_player():
    state = table(phase=gh.TURN_START)
    # a Rescue or Specialty card may be played any time (a Steal card too, as its type allows: GT20)
    assert gh.legal(state, 0) == {"replenish", "card", "steal"}
    assert gh.legal(state, 1) == {"card", "steal"}
    assert refusal(state, 1, "replenish") == "It is ann's turn."
    assert refusal(state, 0, "end-turn") == "Replenish your hand first: it begins the turn."


def test_on_ones_turn_everything_is_open_until_an_encounter():
    state = table(phase=gh.TURN, holes=1, debris=1)
    assert gh.legal(state, 0) == {
        "reveal",
        "enter",
        "fight",
        "debris-square",
        "hole-square",
        "card",
        "hole",
        "debris",
        "end-turn",
        "move-token",
        "steal",
    }
    after = replace(state, encountered=True)
    assert not {"reveal", "fight", "enter"} & gh.legal(after, 0)
    assert refusal(after, 0, "reveal") == "You already had an encounter this turn: it ended your movement."
    assert refusal(after, 0, "fight") == "You already had an encounter this turn."


def test_no_hole_or_debris_square_without_the_cards_that_place_them():
    state = table(phase=gh.TURN)
    assert not {"hole-square", "debris-square"} & gh.legal(state, 0)
    assert refusal(state, 0, "hole-square") == (
        "The decks hold no Hole cards: no Hole token can have been placed by a card."
    )
    assert refusal(state, 0, "debris-square") == (
        "The decks hold no Debris cards: no Debris token can be on the board."
    )


def test_one_action_per_turn_an_action_card_or_a_token_move():
    played = table(phase=gh.TURN, action_cards=1, action_taken=True)
    assert not {"hole", "debris", "move-token"} & gh.legal(played, 0)
    assert refusal(played, 0, "move-token") == (
        "You have taken your Action this turn: one Action, an Action card or a token move."
    )
    moved = table(phase=gh.TURN, action_taken=True)
    assert refusal(moved, 0, "hole") == ("Your Action this turn was moving an Encounter Token: no Action card as well.")


def test_zone_gives_up_movement_for_a_second_action_card():
    state = table(phase=gh.TURN, current=1, action_cards=1, action_taken=True)
    assert "give-up-movement" in gh.legal(state, 1) and "hole" not in gh.legal(state, 1)
    traded = replace(state, gave_up_movement=True)
    assert {"hole", "debris"} <= gh.legal(traded, 1)
    assert "reveal" not in gh.legal(traded, 1)  # no square entered after the trade
    assert refusal(table(phase=gh.TURN), 0, "give-up-movement") == (
        "Only Zone can give up movement for a second Action card."
    )


def test_a_dead_character_or_one_in_a_hole_enters_no_square():
    dead = table(phase=gh.TURN, seats=with_seat(0, dead=True))
    assert not {"reveal", "fight", "enter"} & gh.legal(dead, 0)
    assert refusal(dead, 0, "fight").startswith("Your character is dead")
    assert "end-turn" in gh.legal(dead, 0)
    holed = table(phase=gh.TURN_START, current=1, seats=with_seat(0, in_hole=True))
    assert "card" not in gh.legal(holed, 0)
    assert refusal(holed, 0, "card") == "You are in a Hole: no cards until the beginning of your next turn."


def test_a_battle_waits_for_the_battler_then_the_challenge_goes_round_in_order():
    battle = table(phase=gh.BATTLE, resolver=0)
    assert "play" in gh.legal(battle, 0) and "play" not in gh.legal(battle, 1)
    assert refusal(battle, 0, "end-turn") == "Put down your Value cards against the Ghoul first."
    offered = table(phase=gh.CHALLENGE, resolver=0, offers=(2, 1))
    assert {"challenge", "decline"} <= gh.legal(offered, 2)
    assert refusal(offered, 1, "challenge") == "The challenge is offered to cat now."
    assert refusal(battle, 1, "decline") == "No challenge is being offered now."
    response = table(phase=gh.RESPONSE, resolver=0)
    assert "respond" in gh.legal(response, 0) and "respond" not in gh.legal(response, 2)


def test_a_token_moved_onto_another_player_is_resolved_by_that_player():
    state = table(phase=gh.BATTLE, current=0, resolver=1)
    assert "play" in gh.legal(state, 1) and "play" not in gh.legal(state, 0)
    assert refusal(state, 0, "play") == "bob is resolving the encounter now."
    assert refusal(state, 0, "end-turn") == (
        "Wait for the player on whose square the token was moved to resolve the encounter."
    )


def test_a_first_aid_kit_needs_wounds():
    kit = table(phase=gh.FIRST_AID, resolver=0)
    assert gh.legal(kit, 0) & {"first-aid", "leave-first-aid"} == {"leave-first-aid"}
    assert refusal(kit, 0, "first-aid") == "You must have wounds to use a First-Aid Kit."
    wounded = table(phase=gh.FIRST_AID, resolver=0, seats=with_seat(0, wounded=True))
    assert {"first-aid", "leave-first-aid"} <= gh.legal(wounded, 0)


def test_heavy_artillery_only_in_ones_own_battle_once():
    battle = table(phase=gh.BATTLE, resolver=0)
    gh.check_card(battle, 0, is_action=False, sets_icv=True, name="Heavy Artillery")
    with pytest.raises(gh.NotNow, match="^Heavy Artillery changes your Initial Combat Value"):
        gh.check_card(battle, 1, is_action=False, sets_icv=True, name="Heavy Artillery")
    with pytest.raises(gh.NotNow, match="already the Ghoul's strength"):
        gh.check_card(replace(battle, icv_card=True), 0, is_action=False, sets_icv=True)


def test_nothing_once_the_game_is_over():
    over = table(phase=gh.TURN, playing=False)
    assert gh.legal(over, 0) == frozenset()
    assert refusal(over, 0, "end-turn") == "The game is over."
    assert refusal(table(), 0, "dance") == "Unknown action."


def test_legal_is_exactly_what_check_allows():
    states = [
        table(phase=p, resolver=0, offers=(1,), holes=1, debris=1)
        for p in (gh.TURN_START, gh.TURN, gh.BATTLE, gh.CHALLENGE, gh.RESPONSE, gh.FIRST_AID)
    ]
    for state in states:
        for seat in (0, 1, 2):
            for action in gh.ACTIONS:
                try:
                    gh.check(state, seat, action)
                    allowed = True
                except gh.NotNow:
                    allowed = False
                assert (action in gh.legal(state, seat)) is allowed


# --- what a play chooses ----------------------------------------------------------------


def test_each_play_acts_on_its_own_kind_of_token():
    gh.check_token_choice("reveal", "ghoul", revealed=False, on_board=True)
    gh.check_token_choice("fight", "ghoul", revealed=True, on_board=True)
    gh.check_token_choice("enter", "ghoo-gun", revealed=True, on_board=True)
    with pytest.raises(gh.NotNow, match="^That token is already revealed.$"):
        gh.check_token_choice("reveal", "hole", revealed=True, on_board=True)
    with pytest.raises(gh.NotNow, match="^Only a revealed Ghoul still on the board can be battled again.$"):
        gh.check_token_choice("fight", "ghoul", revealed=True, on_board=False)
    with pytest.raises(gh.NotNow, match="^Choose a revealed First-Aid Kit on the board.$"):
        gh.check_token_choice("first-aid", "ghoul", revealed=True, on_board=True)
    with pytest.raises(gh.NotNow, match="^Choose a revealed Hole or Ghoo Gun"):
        gh.check_token_choice("enter", "ghoul", revealed=True, on_board=True)
    with pytest.raises(gh.NotNow, match="^Only an unrevealed Encounter Token"):
        gh.check_token_choice("move-token", "ghoul", revealed=True, on_board=True)


def test_a_challenge_is_up_to_two_value_cards_and_each_parry_ignores_one():
    gh.check_challenge(gh.CHALLENGE_MAX_CARDS)
    for n in (0, gh.CHALLENGE_MAX_CARDS + 1):
        with pytest.raises(gh.NotNow, match="^A challenge is 1 to 2 Value cards.$"):
            gh.check_challenge(n)
    gh.check_parries(False, True, 2, 2)
    with pytest.raises(gh.NotNow, match="more Parry cards than challenge cards"):
        gh.check_parries(False, True, 2, 1)
    with pytest.raises(gh.NotNow, match="^Only Parry cards"):
        gh.check_parries(False, False, 1, 1)
    with pytest.raises(gh.NotNow, match="either a Value card put down or a Parry"):
        gh.check_parries(True, True, 0, 0)


def test_debris_and_holes():
    gh.check_debris_values(1)
    with pytest.raises(gh.NotNow, match="^One Value card"):
        gh.check_debris_values(2)
    gh.check_debris_tokens(2, 2)
    with pytest.raises(gh.NotNow, match=r"\(1 to 2: one per Debris card\)"):
        gh.check_debris_tokens(3, 2)
    gh.check_hole_targets([])
    with pytest.raises(gh.NotNow, match="^ann, bob already in a Hole"):
        gh.check_hole_targets(["ann", "bob"])


def test_a_token_lands_on_the_movers_square_only_on_the_movers_tile():
    gh.check_landing(True, 2, 2)
    gh.check_landing(False, 1, 2)
    with pytest.raises(gh.NotNow, match="^You are on tile 1: a token moved to tile 2 cannot land on your square.$"):
        gh.check_landing(True, 1, 2)


def test_cornealius_reveals_one_face_down_token_on_his_tile_per_specialty_card():
    down = [gh.RevealChoice("Tile 1, token 1", False, True, 1), gh.RevealChoice("Tile 1, token 2", False, True, 1)]
    gh.check_specialty_reveal_choice("cornealius", False, 2, down)
    gh.check_specialty_reveal_choice("lake", False, 0, [])  # nothing chosen, nothing to check
    with pytest.raises(gh.NotNow, match="^Only Cornealius"):
        gh.check_specialty_reveal_choice("lake", False, 1, down[:1])
    with pytest.raises(gh.NotNow, match="^Cornealius is dead"):
        gh.check_specialty_reveal_choice("cornealius", True, 1, down[:1])
    with pytest.raises(gh.NotNow, match="these cards are not Specialty cards"):
        gh.check_specialty_reveal_choice("cornealius", False, 0, down[:1])
    with pytest.raises(gh.NotNow, match="at most 1 here"):
        gh.check_specialty_reveal_choice("cornealius", False, 1, down)
    with pytest.raises(gh.NotNow, match="^Choose each token to reveal once"):
        gh.check_specialty_reveal_choice("cornealius", False, 2, down, distinct=False)
    with pytest.raises(gh.NotNow, match="^Tile 1, token 2 is already face up"):
        gh.check_specialty_reveal_choice("cornealius", False, 2, [down[0], replace(down[1], revealed=True)])
    with pytest.raises(gh.NotNow, match="on one tile"):
        gh.check_specialty_reveal_choice("cornealius", False, 2, [down[0], replace(down[1], tile=2)])
