"""The Steal card and stolen cards in the engine (ghoulash.txt, GT20).

"Note: Some cards, particularly the Steal card, may increase the number of cards in a hand to more than seven.
Stolen cards are not counted toward the seven-count. Stolen cards may be discarded during the Replenishment
phase (they are returned to the owning player), but they are not replaced with other non-player cards."
"(Stolen cards that are selected as wounds are out of the game until the player heals or has "died," then they
are returned to the owning player.)" "Any stolen cards that are in the wound stack are returned to the owning
player." """

import random
from dataclasses import replace

import pytest

from rules import ghoulash as gh
from rules.ghoulash import Card, CardKind


def _hand(owner, values):
    return tuple(Card(f"Value {v}", CardKind.VALUE, v, owner, i) for i, v in enumerate(values))


def test_steal_takes_one_card_at_random_from_the_opponents_hand():
    victim = gh.Piles("gray", _hand("gray", (1, 2, 3, 1, 2)))
    seen = set()
    for seed in range(40):
        after, card = gh.steal(victim, random.Random(seed))
        assert card in victim.hand and len(after.hand) == 4 and card not in after.hand
        assert (after.draw, after.discard, after.wounds) == (victim.draw, victim.discard, victim.wounds)
        assert gh.steal(victim, random.Random(seed))[1] == card  # seeded: the pick replays
        seen.add(card.copy)
    assert seen == {0, 1, 2, 3, 4}  # any card of the hand may be the one taken


def test_a_stolen_card_is_not_counted_toward_the_seven():
    thief = gh.Piles("lake", _hand("lake", (1,) * 7), _hand("lake", (2,) * 5))
    _after, card = gh.steal(gh.Piles("gray", _hand("gray", (3, 3))), random.Random(1))
    thief = replace(thief, hand=thief.hand + (card,))
    assert len(thief.hand) == 8 and thief.own_in_hand == 7 and thief.stolen == (card,)
    kept, returned = gh.replenish(thief, random.Random(0))
    assert len(kept.hand) == 8 and returned == ()  # seven own cards: nothing drawn
    back, returned = gh.replenish(thief, random.Random(0), discard=(card,))
    assert returned == (card,) and len(back.hand) == 7 and back.discard == ()  # not replaced


def test_stolen_cards_leaving_the_hand_go_back_to_their_owner():
    own, stolen = Card("Value 1", CardKind.VALUE, 1, "lake", 0), Card("Value 3", CardKind.VALUE, 3, "gray", 4)
    assert gh.leaving_the_hand("lake", [own, stolen]) == ((own,), (stolen,))
    assert gh.leaving_the_hand("gray", [stolen]) == ((stolen,), ())  # a card stolen back is its owner's own


def test_stolen_wound_cards_go_back_when_the_character_dies():
    own, stolen = Card("Value 1", CardKind.VALUE, 1, "lake", 0), Card("Value 3", CardKind.VALUE, 3, "gray", 4)
    dead, back = gh.returned_at_death(gh.Piles("lake", wounds=(own, stolen)))
    assert dead.wounds == (own,) and back == (stolen,)
    healed, back = gh.first_aid(gh.Piles("lake", wounds=(own, stolen)))
    assert healed.discard == (own,) and back == (stolen,)


def test_an_empty_hand_and_oneself_cannot_be_stolen_from():
    with pytest.raises(gh.IllegalPlay, match="no card"):
        gh.steal(gh.Piles("gray"), random.Random(0))
    with pytest.raises(gh.NotNow, match="^Name the opponent you steal from.$"):
        gh.check_steal_target(0, 0, "del", 7)
    with pytest.raises(gh.NotNow, match="^Name the opponent"):
        gh.check_steal_target(0, None, "", 0)
    with pytest.raises(gh.NotNow, match="^brian has no cards in hand: there is nothing to steal.$"):
        gh.check_steal_target(0, 1, "brian", 0)
    gh.check_steal_target(0, 1, "brian", 1)


def test_steal_is_a_play_of_its_own_refused_from_a_hole():
    assert "steal" in gh.ACTIONS
    seats = (gh.SeatState(0, "del", "lake"), gh.SeatState(1, "brian", "gray", in_hole=True))
    state = gh.TableState(seats=seats, current=0, phase=gh.TURN)
    assert "steal" in gh.legal(state, 0)
    with pytest.raises(gh.NotNow, match="Hole"):
        gh.check(state, 1, "steal")
