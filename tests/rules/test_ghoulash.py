"""Ghoulash (ghoulash.txt): the Ghoul battle, decks, tokens, hands, wounds, winning."""

import json
import random
import re
from collections import Counter

import pytest

from rules import ghoulash as gh
from rules.ghoulash import Card, CardKind

LAKE_ICV = gh.characters()["lake"]["initial_combat_value"]


# --- The rules' four worked examples (Del plays Lake; a strength-5 Ghoul worth 2 VP) -----


def test_example_1_nobody_challenges_del_wins_two_vp():
    r = gh.ghoul_battle(5, 2, LAKE_ICV, played=(3, 2))
    assert LAKE_ICV == 1 and r.needed == 6 and r.total == 6
    assert r.won and r.stage == "unchallenged" and r.victory_points == 2 and r.wounds == 0


def test_example_2_brian_challenges_with_2_and_1_del_answers_with_3():
    r = gh.ghoul_battle(5, 2, LAKE_ICV, played=(3, 2), challenge=(2, 1), response=(3,))
    assert r.after_challenge == 3  # "the original 5 + 1, minus 3"
    assert r.total == 6 and r.won and r.stage == "answered" and r.victory_points == 2


def test_example_3_del_has_no_answer_and_suffers_two_wounds():
    r = gh.ghoul_battle(5, 2, LAKE_ICV, played=(3, 2), challenge=(2, 1))
    assert not r.won and r.total == 3 and r.wounds == 2 and r.victory_points == 0 and r.stage == "unanswered"


def test_example_4_brian_lacks_the_value_and_loses_at_once():
    r = gh.ghoul_battle(5, 2, 1, played=())
    assert not r.won and r.stage == "no-value" and r.wounds == 2


def test_green_dots_of_a_strength_5_ghoul_come_from_the_text():
    assert gh.ghoul_victory_points(5) == 2
    assert gh.ghoul_battle(5, None, 1, played=(3, 2)).victory_points == 2
    with pytest.raises(gh.IllegalPlay, match="does not give"):
        gh.ghoul_victory_points(6)


# --- Battle rules --------------------------------------------------------------------------


def test_beat_by_at_least_one_point():
    assert not gh.ghoul_battle(5, 2, 1, played=(2, 2)).won  # 5 ties, does not beat
    assert gh.ghoul_battle(4, 1, 1, played=(3, 1)).won


def test_buffer_against_a_challenge():
    r = gh.ghoul_battle(5, 2, 1, played=(3, 3, 3), challenge=(3, 3))  # 10 - 6 = 4 < 6
    assert not r.won
    r = gh.ghoul_battle(5, 2, 1, played=(3, 3, 3), challenge=(2, 1))  # 10 - 3 = 7 still beats
    assert r.won and r.stage == "withstood" and r.total == 7
    # Parry alone (no Value card in answer) keeps it above: parried, not "unanswered"
    r = gh.ghoul_battle(5, 2, 1, played=(3, 3, 3), challenge=(3, 3), parried=(3,))  # 10 - 3 = 7
    assert r.won and r.stage == "parried" and r.total == 7


def test_challenge_limits_and_response_only_after_a_challenge():
    with pytest.raises(gh.IllegalPlay, match="at most 2"):
        gh.ghoul_battle(5, 2, 1, played=(3, 2), challenge=(1, 1, 1))
    with pytest.raises(gh.IllegalPlay):
        gh.ghoul_battle(5, 2, 1, played=(3, 2), response=(1,))
    with pytest.raises(gh.IllegalPlay):
        gh.ghoul_battle(5, 2, 1, played=(2,), challenge=(1,))  # already lost, nothing to challenge
    with pytest.raises(gh.IllegalPlay):
        gh.ghoul_battle(5, 2, 1, played=(3, 2, 3), challenge=(1,), response=(1,))  # no response needed
    with pytest.raises(gh.IllegalPlay):
        gh.ghoul_battle(5, 2, 1, played=(0, 9))


def test_parry_ignores_a_challenge_card():
    r = gh.ghoul_battle(5, 2, 1, played=(3, 2), challenge=(2, 1), parried=(2,))
    assert r.challenge_total == 1 and r.total == 5 and not r.won
    r = gh.ghoul_battle(5, 2, 1, played=(3, 2, 1), challenge=(2, 1), parried=(2, 1))
    assert r.won and r.total == 7
    with pytest.raises(gh.IllegalPlay):
        gh.ghoul_battle(5, 2, 1, played=(3, 2), challenge=(2, 1), parried=(3,))


def test_player_in_a_hole_loses_automatically():
    r = gh.ghoul_battle(4, 1, 1, in_hole=True)
    assert not r.won and r.stage == "hole" and r.wounds == 1
    with pytest.raises(gh.IllegalPlay):
        gh.ghoul_battle(4, 1, 1, played=(3,), in_hole=True)


def test_initial_combat_value_modifiers():
    assert gh.initial_combat_value(1, ghoo_guns=2) == 3  # Lock and Load: +1 per Ghoo Gun
    # FAQ: Gray (1) with The Right Ghoo for the Job against a 5 has 5; a Value card of 1 wins.
    icv = gh.initial_combat_value(
        gh.characters()["gray"]["initial_combat_value"], ghoul_strength=5, becomes_ghoul_strength=True
    )
    assert icv == 5 and gh.ghoul_battle(5, 2, icv, played=(1,)).won


def test_challenge_order_starts_to_the_left():
    seating = ("Del", "Brian", "Emma", "Alisha")
    assert gh.challenge_order(seating, "Del") == ("Brian", "Emma", "Alisha")
    assert gh.challenge_order(seating, "Emma", unable=("Del",)) == ("Alisha", "Brian")


def test_debris_examples():
    assert gh.debris_wounds(by_action=False) == 1  # Emma walks into Debris: one wound
    assert gh.debris_wounds(by_action=True, value_card=3) == 4  # Brian on Del with a 3: four wounds
    assert gh.debris_wounds(by_action=True) == 1  # Alisha on Brian, no Value card
    assert gh.debris_wounds(by_action=True, value_card=3, parried=True) == 1


# --- Decks ---------------------------------------------------------------------------------


def _deck(owner, values=(1, 1, 2, 2, 3, 3), actions=("Hole", "Debris", "Steal")):
    cards = [Card("Value", CardKind.VALUE, v, owner, i) for i, v in enumerate(values)]
    cards += [Card(a, CardKind.ACTION, None, owner, i) for i, a in enumerate(actions)]
    cards += [Card("Parry", CardKind.RESCUE, None, owner, 0), Card(f"{owner} special", CardKind.SPECIALTY, 4, owner, 0)]
    return cards


def test_deck_checks():
    assert gh.check_decks({"lake": _deck("lake"), "gray": _deck("gray")}) == []
    problems = gh.check_decks({"lake": _deck("lake"), "gray": _deck("gray", values=(1, 1, 1, 2, 3, 3))})
    assert len(problems) == 1 and "Value" in problems[0]
    assert (
        gh.check_decks({"lake": _deck("lake"), "gray": _deck("gray", values=(1, 1, 1, 2, 3, 3))}, value_check="count")
        == []
    )
    assert gh.check_decks({"lake": _deck("lake"), "gray": _deck("gray", values=(1, 2))}, value_check="count")
    problems = gh.check_decks({"lake": _deck("lake"), "zone": _deck("zone", actions=("Hole", "Hole", "Steal"))})
    assert len(problems) == 1 and "Action" in problems[0]


# --- Tokens and the board ------------------------------------------------------------------


def test_the_24_core_tokens():
    tokens = gh.core_tokens()
    assert len(tokens) == 24
    kinds = Counter((t.kind, t.strength) for t in tokens)
    assert kinds == {("ghoul", 6): 6, ("ghoul", 5): 6, ("ghoul", 4): 8, ("hole", None): 2, ("first-aid", None): 2}


def test_seeded_deal_six_per_tile_face_down():
    board = gh.deal_tokens(random.Random(9))
    assert len(board) == 4 and all(len(tile) == 6 for tile in board)
    assert all(p.face_down and p.tile == i for i, tile in enumerate(board) for p in tile)
    assert Counter(p.token for tile in board for p in tile) == Counter(gh.core_tokens())
    assert board == gh.deal_tokens(random.Random(9))
    assert board != gh.deal_tokens(random.Random(10))


def test_deal_on_shaded_squares_and_extras():
    shaded = [[(t, i) for i in range(8)] for t in range(4)]
    guns = [gh.EncounterToken("ghoo-gun", number=i) for i in range(3)]
    board = gh.deal_tokens(random.Random(2), shaded_squares=shaded, extras={0: guns[:2], 3: guns[2:]})
    assert [len(t) for t in board] == [8, 6, 6, 7]
    for i, tile in enumerate(board):
        squares = [p.square for p in tile]
        assert len(set(squares)) == len(squares) and all(sq in shaded[i] for sq in squares)
    with pytest.raises(ValueError):
        gh.deal_tokens(random.Random(2), tokens=gh.core_tokens()[:20])


# --- Hands, wounds, First-Aid -------------------------------------------------------------


def test_hand_of_seven_and_replenishment():
    deck = _deck("lake") + [Card("Value", CardKind.VALUE, 1, "lake", 99)]
    p = gh.start_game(random.Random(4), "lake", deck)
    assert len(p.hand) == 7 and len(p.draw) == len(deck) - 7
    assert p == gh.start_game(random.Random(4), "lake", deck)
    played = p.hand[:3]
    p = gh.Piles("lake", p.hand[3:], p.draw, p.discard + played)
    p, returned = gh.replenish(p, random.Random(1), discard=p.hand[:1])
    assert p.own_in_hand == 7 and returned == ()


def test_stolen_cards_do_not_count_and_go_back_when_discarded():
    stolen = Card("Value", CardKind.VALUE, 3, "gray", 0)
    own = tuple(Card("Value", CardKind.VALUE, 1, "lake", i) for i in range(10))
    p = gh.Piles("lake", own[:6] + (stolen,), own[6:])
    p2, returned = gh.replenish(p, random.Random(0))
    assert len(p2.hand) == 8 and p2.own_in_hand == 7 and p2.stolen == (stolen,)
    p3, returned = gh.replenish(p, random.Random(0), discard=(stolen,))
    assert returned == (stolen,) and p3.stolen == () and len(p3.hand) == 7


def test_draw_deck_depleted_reshuffles_the_discard_pile():
    own = tuple(Card("Value", CardKind.VALUE, 1, "lake", i) for i in range(9))
    p = gh.Piles("lake", own[:4], own[4:5], own[5:])
    p, _ = gh.replenish(p, random.Random(3))
    assert len(p.hand) == 7 and len(p.draw) + len(p.discard) == 2 and p.discard == ()


def test_wounds_are_random_hand_cards_then_the_draw_pile():
    own = tuple(Card("Value", CardKind.VALUE, v, "lake", i) for i, v in enumerate((1, 2, 3, 1, 2, 3, 1, 2, 3, 1)))
    p = gh.Piles("lake", own[:3], own[3:])
    w = gh.take_wounds(p, random.Random(8), 5)
    assert w.hand == () and len(w.wounds) == 5
    assert set(w.wounds[:3]) == set(own[:3]) and w.wounds[3:] == own[3:5]  # then the top of the Draw Pile
    assert w == gh.take_wounds(p, random.Random(8), 5)
    assert gh.is_dead(w, 5) and not gh.is_dead(w, 6)


def test_first_aid_heals_everything_and_returns_stolen_cards():
    stolen = Card("Value", CardKind.VALUE, 3, "gray", 0)
    own = Card("Value", CardKind.VALUE, 1, "lake", 0)
    p, back = gh.first_aid(gh.Piles("lake", wounds=(own, stolen)))
    assert p.wounds == () and p.discard == (own,) and back == (stolen,)
    with pytest.raises(ValueError, match="wounds"):
        gh.first_aid(gh.Piles("lake"))


# --- Victory Points and the end -----------------------------------------------------------


def test_victory_points_and_winning_at_10():
    five = gh.EncounterToken("ghoul", 5, 2)
    assert gh.victory_points([five] * 3) == 6 and gh.victory_points([five], dead=True) == 0
    with pytest.raises(ValueError):
        gh.victory_points([gh.EncounterToken("ghoul", 6, None)])
    assert gh.game_winners({"Del": 10, "Brian": 8}) == ("Del",)
    assert gh.game_winners({"Del": 9, "Brian": 8}) == ()
    assert gh.game_winners({"Del": 9, "Brian": 8}, all_tokens_resolved=True) == ("Del",)
    assert gh.game_winners({"Del": 8, "Brian": 8, "Emma": 2}, all_tokens_resolved=True) == ("Del", "Brian")


def test_catalogue():
    data = json.loads(gh.CATALOGUE.read_text(encoding="utf-8"))
    assert (data["system"], data["edition"], data["source"]) == ("ghoulash", "1", "ghoulash.txt")
    chars = {c["slug"]: c for c in data["characters"]}
    assert set(chars) == {"lake", "gray", "cornealius", "zone"}
    assert chars["lake"]["initial_combat_value"] == 1 and chars["gray"]["initial_combat_value"] == 1
    assert chars["zone"]["initial_combat_value"] is None and all(
        c["health"] is None and c["movement"] is None for c in chars.values()
    )
    assert sum(t["count"] for t in data["encounter_tokens"]) == 24
    for value in data.values():
        if isinstance(value, list):
            for entry in value:
                assert (
                    entry["slug"] == re.sub(r"[^a-z0-9]+", "-", entry["name"].lower()).strip("-") and entry["section"]
                )


# --- Moving tokens, Lake and Cornealius (GT16, GT17) ---------------------------------------------------


def test_the_tile_rule_and_lakes_specialty():
    """ "The token being moved cannot be on the tile currently occupied by the player, nor can the player move
    the token onto their tile." / "Lake can move tokens that are on his own tile" (profile card: "Subject can
    move Encounter Tokens on his own tile or onto his tile from other tiles")."""
    with pytest.raises(gh.IllegalPlay, match="cannot be on the tile you occupy"):
        gh.check_token_move("gray", token_tile=2, to_tile=3, player_tile=2)
    with pytest.raises(gh.IllegalPlay, match="onto your own tile"):
        gh.check_token_move("zone", token_tile=1, to_tile=2, player_tile=2)
    gh.check_token_move("gray", token_tile=1, to_tile=3, player_tile=2)
    gh.check_token_move("lake", token_tile=2, to_tile=2, player_tile=2)
    gh.check_token_move("lake", token_tile=1, to_tile=2, player_tile=2)
    gh.check_token_move("zone", token_tile=2, to_tile=2, player_tile=None)  # dead: no playing piece, no tile
    assert gh.MOVE_TOKEN_SPACES == 5


def test_who_resolves_a_moved_token():
    """ "If the token is moved onto a square occupied by two or more players and is revealed to be a Ghoul, the
    player who is next among them in play order is the one to resolve the encounter"; a Hole is on the square
    (FAQ: Holes are "played upon the square, not the opponent"), so everyone on it falls in."""
    seating = ["del", "brian", "emma", "alisha"]
    assert gh.moved_token_resolvers(seating, "emma", ["brian", "alisha"], "ghoul") == ("alisha",)
    assert gh.moved_token_resolvers(seating, "emma", ["brian", "del"], "ghoul") == ("del",)
    assert gh.moved_token_resolvers(seating, "del", ["del", "emma"], "ghoul") == ("emma",)  # the mover last
    assert gh.moved_token_resolvers(seating, "del", ["alisha", "brian"], "hole") == ("brian", "alisha")
    assert gh.moved_token_resolvers(seating, "del", ["del"], "first-aid") == ("del",)
    assert gh.moved_token_resolvers(seating, "del", [], "ghoul") == ()
    with pytest.raises(ValueError):
        gh.moved_token_resolvers(seating, "del", ["zed"], "ghoul")


def test_cornealius_and_lake_specialty_counts():
    """ "Cornealius can reveal a token on his tile every time he uses a Specialty card": one per card, none for
    the others, none without a playing piece (a dead character's "playing piece is removed from the board")."""
    assert gh.specialty_reveals("cornealius", 2) == 2
    assert gh.specialty_reveals("cornealius", 1, has_piece=False) == 0
    assert gh.specialty_reveals("lake", 3) == 0


# --- One Action per turn; Zone's trade of movement for two Action cards (GT9, GT18) -----


def test_one_action_card_per_turn_for_every_character_but_a_zone_who_gave_up_movement():
    """ "A player can do three things during their turn: Replenish their cards; move their playing piece; take
    an action"; "Usually only one Action card is played per turn, although some characters can play more than
    one"; "the character of Zone has the special ability to sacrifice movement during a turn in order to play
    two Action cards in that turn, rather than one.\""""
    assert gh.ACTION_CARDS_PER_TURN == 1
    for character in ("lake", "gray", "cornealius", "zone"):
        gh.check_action_card(character, gh.TurnSoFar())
        with pytest.raises(gh.IllegalPlay, match="taken your Action"):
            gh.check_action_card(character, gh.TurnSoFar(action_cards=1))
    assert [c for c in gh.characters() if gh.trades_movement_for_action_cards(c)] == ["zone"]
    traded = gh.TurnSoFar(action_cards=1, gave_up_movement=True)
    gh.check_action_card("zone", traded)
    assert gh.action_cards_allowed("zone", traded) == 2
    with pytest.raises(gh.IllegalPlay, match="2 Action cards already played"):
        gh.check_action_card("zone", gh.TurnSoFar(action_cards=2, gave_up_movement=True))
    # Zone, one card down and movement still his: the message names the trade
    with pytest.raises(gh.IllegalPlay, match="give up your movement"):
        gh.check_action_card("zone", gh.TurnSoFar(action_cards=1))


def test_the_action_is_a_card_or_a_token_move_never_both():
    """ "When taking an action, a player has two options: A. They can play an Action card from their hand. B.
    They can move an unrevealed Encounter Token up to five spaces.\""""
    gh.check_token_move_action(gh.TurnSoFar())
    for turn in (
        gh.TurnSoFar(token_moved=True),
        gh.TurnSoFar(action_cards=1),
        gh.TurnSoFar(action_cards=1, gave_up_movement=True),
    ):
        with pytest.raises(gh.IllegalPlay, match="taken your Action"):
            gh.check_token_move_action(turn)
    for character in ("lake", "zone"):
        with pytest.raises(gh.IllegalPlay, match="moving an Encounter Token"):
            gh.check_action_card(character, gh.TurnSoFar(token_moved=True, gave_up_movement=character == "zone"))


def test_zone_sacrifices_movement_only_while_he_has_it():
    """ "sacrifice movement during a turn in order to play two Action cards in that turn": only Zone, once, not
    after moving (an encounter "ends the player's movement"), not without a playing piece, not after a token
    move; and no square is entered afterwards."""
    gh.check_give_up_movement("zone", gh.TurnSoFar())
    gh.check_give_up_movement("zone", gh.TurnSoFar(action_cards=1))  # the second card is what he trades for
    for character, turn, has_piece, message in (
        ("lake", gh.TurnSoFar(), True, "only Zone"),
        ("zone", gh.TurnSoFar(gave_up_movement=True), True, "already given up"),
        ("zone", gh.TurnSoFar(moved=True), True, "already moved"),
        ("zone", gh.TurnSoFar(), False, "off the board"),
        ("zone", gh.TurnSoFar(token_moved=True), True, "moving an Encounter Token"),
    ):
        with pytest.raises(gh.IllegalPlay, match=message):
            gh.check_give_up_movement(character, turn, has_piece)
    gh.check_movement(gh.TurnSoFar(action_cards=1))
    with pytest.raises(gh.IllegalPlay, match="gave up your movement"):
        gh.check_movement(gh.TurnSoFar(gave_up_movement=True))


def test_cards_discarded_at_replenishment_are_in_the_discard_pile_when_the_deck_runs_out():
    """H10: "The player can choose to discard any or all of their own cards in their hand before drawing new
    cards up to seven" and "(When the Draw Deck is depleted, the Discard Pile is reshuffled to become the new
    Draw Deck.)": the cards just discarded are already in the Discard Pile, so a deck that runs out during the
    same replenishment reshuffles them in."""
    own = tuple(Card("Value", CardKind.VALUE, 1 + i % 3, "lake", i) for i in range(8))
    p = gh.Piles("lake", own[:7], own[7:8])  # seven in hand, one card left to draw
    p, _ = gh.replenish(p, random.Random(5), discard=own[:3])
    assert len(p.hand) == 7 and len(p.draw) == 1 and p.discard == ()  # the third reshuffled, still to draw
    assert own[7] in p.hand and len(set(p.hand) & set(own[:3])) == 2  # two of the three discarded come back


def test_wounds_beyond_every_card_are_not_taken():
    """H10: "If a player suffers more wounds than there are cards in their hand, the remaining wound cards are
    pulled from the top of the player's Draw Pile"; the text is silent when the Draw Pile (and the Discard Pile
    that would be reshuffled) is empty too: no card, no wound card, and the wound pile holds what there was."""
    own = tuple(Card("Value", CardKind.VALUE, 1, "lake", i) for i in range(3))
    w = gh.take_wounds(gh.Piles("lake", own[:1], own[1:2], own[2:]), random.Random(0), 5)
    assert len(w.wounds) == 3 and w.hand == w.draw == w.discard == ()
    assert gh.is_dead(w, 3) and not gh.is_dead(w, 4)
