"""A battle's log shows each step's seed (its dice can be replayed), but the fate decks are not shuffled from
it alone: no player can rebuild the other's hand or the coming draws from the log (battles.services._generator)."""

import random

import pytest

from rules.cybernekro.battle import codec, fate
from rules.cybernekro.battle.generator import TableRandom

pytestmark = pytest.mark.django_db


def test_the_logged_seed_does_not_tell_the_decks(started):
    battle = started(seed=7)
    state = codec.loads(battle.state)
    assert any(e.seed == 7 for e in state.log)  # the set-up's seed is in the log for all to see
    public = random.Random(7)  # what a player could shuffle from it: the red deck, then the black one (B3)
    guesses = []
    for index in range(len(state.players)):
        deck = list(fate.new_deck(fate.colour_for(index)))
        public.shuffle(deck)
        guesses.append(tuple(deck))
    for player, guess in zip(state.players, guesses):
        dealt = player.hand + player.deck  # drawn from the top, in order
        assert sorted(map(str, dealt)) == sorted(map(str, guess))  # the same cards...
        assert dealt != guess  # ...in an order the public seed does not give


def test_the_same_seed_shuffles_apart_in_two_battles_and_alike_in_one():
    deck = list(range(27))
    a, b, a_again = (list(deck) for _ in range(3))
    TableRandom(7, "battle one").shuffle(a)
    TableRandom(7, "battle two").shuffle(b)
    TableRandom(7, "battle one").shuffle(a_again)
    assert a == a_again != b
    # the dice stay the seed's own: anyone may replay them
    assert TableRandom(7, "battle one").randint(1, 20) == random.Random(7).randint(1, 20)
