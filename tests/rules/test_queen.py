"""The Queen fate card in the attack odds (issue 18): "Play when a model with less than 6 Wounds would go
OoA. The model suffers a Wound instead." Exact, against the engine's own (group, Wounds gained) counts."""

from fractions import Fraction

import pytest

from rules import odds
from rules.cybernekro import engine as cn

AXE = cn.Weapon(3, None, cn.Keywords.parse([]), "axe")
S = cn.TargetState


def _odds(target, weapon=AXE, critical_only=False):
    return cn.attack_odds("fight", cn.Attacker(agility=3, strength=2), weapon, target, cn.Situation())


@pytest.mark.parametrize("wounds, prone", [(0, False), (0, True), (2, True), (4, False)])
def test_with_fewer_than_6_wounds_the_queen_turns_every_ooa_into_a_wound(wounds, prone):
    plain = _odds(cn.Target(toughness=0, wounds=wounds, prone=prone))
    queen = _odds(cn.Target(toughness=0, wounds=wounds, prone=prone, queen=True))
    assert plain.target[S.OUT_OF_ACTION] > 0
    # the OoA of a hit comes with a Wound already taken (Light row first), so from 4 Wounds some are 6-Wound OoAs
    if wounds <= 3:
        assert queen.target[S.OUT_OF_ACTION] == 0
    assert queen.target[S.UNHARMED] == plain.target[S.UNHARMED]
    assert sum(queen.target.values()) == 1
    assert queen.expected_wounds > plain.expected_wounds


def test_on_a_prone_target_the_saved_ooa_is_a_wound_exactly():
    """Prone with 0 Wounds: no hit can knock it Prone again, so each OoA becomes one more Wound (group wounded)."""
    plain = _odds(cn.Target(wounds=0, prone=True))
    queen = _odds(cn.Target(wounds=0, prone=True, queen=True))
    assert plain.target[S.PRONE] == queen.target[S.PRONE] == 0
    assert queen.target[S.WOUNDED] == plain.target[S.WOUNDED] + plain.target[S.OUT_OF_ACTION]
    assert queen.target[S.OUT_OF_ACTION] == 0


def test_at_6_wounds_the_queen_cannot_be_played():
    assert _odds(cn.Target(wounds=6, queen=True)) == _odds(cn.Target(wounds=6))


def test_one_queen_per_hit():
    plan = cn.plan_attack(
        "fight", cn.Attacker(agility=3), AXE, cn.Target(wounds=0, prone=True, queen=True), cn.Situation()
    )
    states = cn.enumerate_process(cn.hit_process, plan.hit, True)
    assert all(state.wounds <= 3 for state in states)  # critical Wound, Light Wound, at most one Queen Wound
    assert all(not state.ooa for state in states)


def test_the_odds_api_takes_target_queen_by_extension():
    request = {
        "roll": "attack",
        "action": "fight",
        "attacker": {"agility": 3, "strength": 2},
        "weapon": "axe",
        "target": {"toughness": 0, "wounds": 0, "prone": True},
    }
    plain = odds(request)
    queen = odds({**request, "target": {**request["target"], "queen": True}})
    assert Fraction(queen["exact"]["target"]["out_of_action"]) == 0
    assert Fraction(queen["exact"]["target"]["wounded"]) == (
        Fraction(plain["exact"]["target"]["wounded"]) + Fraction(plain["exact"]["target"]["out_of_action"])
    )
    assert odds({**request, "target": {**request["target"], "queen": False}}) == plain


def test_a_seeded_roll_says_when_the_queen_was_played():
    import random

    from rules import rolls

    plan = cn.plan_attack(
        "fight", cn.Attacker(agility=3, strength=2), AXE, cn.Target(wounds=0, prone=True, queen=True), cn.Situation()
    )
    plain = cn.plan_attack(
        "fight", cn.Attacker(agility=3, strength=2), AXE, cn.Target(wounds=0, prone=True), cn.Situation()
    )
    seeds = range(200)
    saved = [s for s in seeds if rolls.planned_attack(random.Random(s), plain, s).outcome == "out_of_action"]
    assert saved
    for s in seeds:
        roll = rolls.planned_attack(random.Random(s), plan, s)
        labels = [step.label for step in roll.steps]
        assert ("Queen played" in labels) == (s in saved)
        assert roll.outcome != "out_of_action"
