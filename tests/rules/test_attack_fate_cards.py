"""Fate cards on the hit roll of an attack (issue 18): Ace, numbered cards and the Jacks, exactly."""

import random
from fractions import Fraction

import pytest

from rules import odds, rolls
from rules.cybernekro import engine as cn

AXE = cn.Weapon(3, None, cn.Keywords.parse([]), "axe")
O = cn.Outcome


def _plan(card=None, **situation):
    return cn.plan_attack(
        "fight", cn.Attacker(agility=1), AXE, cn.Target(toughness=1), cn.Situation(card=card, **situation)
    )


def test_an_ace_hits_without_rolling():
    dist = _plan("ace").to_hit.distribution()
    assert dist == {O.CRITICAL: 0, O.SUCCESS: 1, O.FAILURE: 0, O.FUMBLE: 0}
    plain = cn.attack_odds_for_plan(_plan())
    ace = cn.attack_odds_for_plan(_plan("ace"))
    # no critical Wound with an Ace: the target's fate is the plain hit's fate
    hit_only = cn.hit_outcome_distribution(_plan().hit, False)
    for state in cn.TargetState:
        assert ace.target[state] == sum(p for (s, _g), p in hit_only.items() if s is state)
    assert ace.target != plain.target


@pytest.mark.parametrize("surrounded", [False, True])
def test_a_jack_turns_a_regular_hit_into_a_critical_or_a_miss_into_a_fumble(surrounded):
    plain = _plan(surrounded=surrounded).to_hit.distribution()
    crit = _plan("jack-critical", surrounded=surrounded).to_hit.distribution()
    fumble = _plan("jack-fumble", surrounded=surrounded).to_hit.distribution()
    assert crit == {
        O.CRITICAL: plain[O.CRITICAL] + plain[O.SUCCESS],
        O.SUCCESS: 0,
        O.FAILURE: plain[O.FAILURE],
        O.FUMBLE: plain[O.FUMBLE],
    }
    assert fumble == {
        O.CRITICAL: plain[O.CRITICAL],
        O.SUCCESS: plain[O.SUCCESS],
        O.FAILURE: 0,
        O.FUMBLE: plain[O.FUMBLE] + plain[O.FAILURE],
    }


def test_a_numbered_card_is_added_to_the_roll():
    assert _plan(4).to_hit == _plan(modifier=4).to_hit
    assert _plan(-3).to_hit.distribution()[O.SUCCESS] == Fraction(7, 20)  # d20 + 1 - 3 >= 11: 13..19, 20 a critical


def test_seeded_rolls_follow_the_card():
    for seed in range(60):
        ace = rolls.planned_attack(random.Random(seed), _plan("ace"), seed)
        assert ace.get("to_hit") == "success" and ace.steps[0].label == "Ace played"
        plain = rolls.planned_attack(random.Random(seed), _plan(), seed)
        jack = rolls.planned_attack(random.Random(seed), _plan("jack-critical"), seed)
        if plain.get("to_hit") == "success":
            assert jack.get("to_hit") == "critical" and jack.steps[1].label == "Jack played"
        else:
            assert jack.get("to_hit") == plain.get("to_hit")


def test_the_odds_api_takes_situation_card_by_extension():
    request = {
        "roll": "attack",
        "action": "fight",
        "attacker": {"agility": 1},
        "weapon": "axe",
        "target": {"toughness": 1},
    }
    assert odds({**request, "situation": {"card": "ace"}})["exact"]["to_hit"]["hit"] == "1"
    assert odds({**request, "situation": {"card": 3}}) == odds({**request, "situation": {"modifier": 3}})
    for bad in ("queen", 11, 1, True):
        with pytest.raises(odds.__globals__["OddsRequestError"]):
            odds({**request, "situation": {"card": bad}})
