"""The small pure additions to rules/ghoulash.py made for the tracker."""

import random
from collections import Counter

import pytest

from rules import ghoulash as gh
from rules.ghoulash import Card, CardKind


def test_deal_board_spreads_extras_on_random_tiles_and_shuffles_each_tile():
    guns = [gh.EncounterToken("ghoo-gun", number=i) for i in range(3)]
    board = gh.deal_board(random.Random(7), None, guns)
    assert sum(len(t) for t in board) == 27
    assert sorted(len(t) - 6 for t in board if len(t) > 6) and all(len(t) >= 6 for t in board)
    assert Counter(p.token.kind for t in board for p in t)["ghoo-gun"] == 3
    assert board == gh.deal_board(random.Random(7), None, guns)  # the seed replays it
    # an extra is not always last on its tile (its place tells nothing)
    last = [
        tile[-1].token.kind == "ghoo-gun"
        for s in range(60)
        for tile in gh.deal_board(random.Random(s), None, guns[:1])
        if len(tile) == 7
    ]
    assert 0 < sum(last) < len(last)
    tiles = {
        next(i for i, tile in enumerate(gh.deal_board(random.Random(s), None, guns[:1])) if len(tile) == 7)
        for s in range(40)
    }
    assert tiles == {0, 1, 2, 3}
    with pytest.raises(ValueError):
        gh.deal_board(random.Random(1), gh.core_tokens()[:23])


def test_battle_values_takes_value_and_specialty_value_cards_only():
    assert gh.VALUE_CARD_MAX == 3
    marked = Card("Marked", CardKind.SPECIALTY, 4, second_label=CardKind.VALUE)
    assert gh.battle_values([Card("V", CardKind.VALUE, 3), marked]) == (3, 4)
    # GT2: a double label is played as its second label; only SPECIALTY VALUE is a Value, whatever its value
    for bad in (
        Card("Hole", CardKind.ACTION),
        Card("Parry", CardKind.RESCUE),
        Card("Intel", CardKind.SPECIALTY),
        Card("Special 3", CardKind.SPECIALTY, 3),
        Card("Study", CardKind.SPECIALTY, 3, second_label=CardKind.ACTION),
        Card("Dodge", CardKind.SPECIALTY, 2, second_label=CardKind.RESCUE),
        Card("V4", CardKind.VALUE, 4),
        Card("V0", CardKind.VALUE, 0),
    ):
        with pytest.raises(gh.IllegalPlay):
            gh.battle_values([bad])
    assert gh.battle_values([]) == ()


def test_all_tokens_resolved_needs_every_token_revealed_and_no_ghoul_left_standing():
    assert gh.all_tokens_resolved([(True, False), (True, False)])
    assert not gh.all_tokens_resolved([(True, False), (False, False)])
    assert not gh.all_tokens_resolved([(True, True)])  # a lost battle left the Ghoul on its square
    assert gh.all_tokens_resolved([])
