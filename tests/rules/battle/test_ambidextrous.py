"""Ambidextrous: two one-handed weapons in one action (B42), no database.

> AMBIDEXTROUS: "The model can attack with two one-handed weapons in a single action. Both attacks need
> to target the same model and both suffer a -2 to hit."
"""

from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, rounds
from rules.cybernekro.battle.state import Refused, WeaponUse
from tests.rules.battle.helpers import FISTS, SWORD, Dice, to_action

AXE = WeaponUse("axe", "axe", cn.Weapon(2, None, cn.Keywords.parse(["Piercing 2"]), "axe"))
STAFF = WeaponUse("staff", "staff", cn.Weapon(2, None, cn.Keywords(), "staff"))  # two-handed


def fighter(weapons=(FISTS, SWORD, AXE), traits=frozenset({"ambidextrous"}), **changes):
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("a0"), weapons=weapons, traits=traits, agility=1, **changes))
    return rounds.select_model(state, "A", "a0")


def pairs(state, seat="A"):
    return {o.args for o in legal.legal(state, seat) if o.step == "attack_two"}


def test_the_pair_is_offered_for_two_one_handed_weapons_of_an_ambidextrous_model_only():
    assert ("sword", "axe", "b0") in pairs(fighter())
    assert not pairs(fighter(traits=frozenset()))
    assert not pairs(fighter(weapons=(FISTS, SWORD, STAFF)))  # a staff is two-handed
    assert not pairs(fighter(weapons=(FISTS, SWORD)))  # fists are no second weapon carried (B42)
    two_swords = (FISTS, replace(SWORD, copies=2))
    assert ("sword", "sword", "b0") in pairs(fighter(weapons=two_swords))  # one profile carried twice
    with pytest.raises(Refused, match="Ambidextrous"):
        actions.attack_two(fighter(traits=frozenset()), "A", "sword", "axe", "b0", Dice(15), 1)


def test_one_action_two_hit_rolls_at_minus_two_each_each_its_own_damage():
    state = fighter()
    ap = state.model("a0").ap
    first = actions.attack_two(state, "A", "sword", "axe", "b0", Dice(15), 1)
    assert first.model("a0").ap == ap - 1  # one action
    window = first.pending[0]
    assert window.kind == "to_hit" and window.get("weapon") == "sword"
    assert window.get("event").modifier == 1 - 2  # Agility +1, -2 for the pair
    # the sword misses by the dice: 4+1-2 = 3 (no reaction yet: the action is not over)
    first = actions.attack_two(state, "A", "sword", "axe", "b0", Dice(4), 1)
    first = actions.resolve_attack(first, "A", Dice(), 2)
    second = first.pending[0]
    assert second.kind == "second_attack" and second.seat == "A"
    assert not any(p.kind == "reaction" for p in first.pending[:1])
    rolled = actions.second_attack(first, "A", Dice(16), 3)  # 16+1-2 = 15: a hit with the axe
    window = rolled.pending[0]
    assert window.kind == "to_hit" and window.get("weapon") == "axe" and window.get("event").modifier == -1
    hit = actions.resolve_attack(rolled, "A", Dice(2, 2), 4)  # 4: Light Injury, b0's choice
    assert hit.pending[0].kind == "tough_it_out"
    taken = actions.take_it(hit, "B", Dice(), 5)
    assert taken.model("b0").wounds == 1
    # one reaction for the action, after both attacks: the sword missed
    reactions = [p for p in taken.pending if p.kind == "reaction"]
    assert len(reactions) == 1 and reactions[0].model == "b0"
    assert taken.model("a0").ap == ap - 1


def test_both_hits_roll_their_own_damage_and_a_second_attack_on_a_fallen_target_is_not_made():
    state = fighter()
    state = actions.attack_two(state, "A", "sword", "axe", "b0", Dice(15), 1)
    state = actions.resolve_attack(state, "A", Dice(4, 3), 2)  # 7: Serious
    state = actions.take_it(state, "B", Dice(), 3)
    assert state.model("b0").wounds == 1 and state.model("b0").prone
    state = actions.second_attack(state, "A", Dice(15), 4)  # +2 against a Prone target: 15+1-2+2
    state = actions.resolve_attack(state, "A", Dice(4, 3), 5)  # 7 + 1 Wound = 8: Serious, Prone already: OoA
    assert state.pending[0].kind == "tough_it_out"
    state = actions.take_it(state, "B", Dice(), 6)
    assert state.pending[0].kind == "ooa"
    # a pair whose first attack takes the target out: the second finds no target
    fresh = fighter()
    fresh = fresh.with_model(replace(fresh.model("b0"), wounds=4, prone=True))
    out = actions.attack_two(fresh, "A", "sword", "axe", "b0", Dice(15), 1)
    out = actions.resolve_attack(out, "A", Dice(6, 6, 6), 2)  # Lethal
    out = actions.accept_out_of_action(out, "B")
    while out.pending and out.pending[0].kind == "witnesses":
        out = actions.name_witnesses(out, out.pending[0].seat, [], Dice())
    assert out.pending[0].kind == "second_attack"
    done = actions.second_attack(out, "A", Dice(), 3)  # no die: nothing to attack
    assert not any(p.kind == "to_hit" for p in done.pending) and "no second attack" in done.log[-1].text


def test_the_pair_is_one_action_for_a_reaction_too_and_costs_two_ap_with_an_unwieldy_weapon():
    brutal = WeaponUse(
        "brutal-weapon", "brutal weapon", cn.Weapon(3, None, cn.Keywords.parse(["Brutal", "Unwieldy"]), "brutal-weapon")
    )
    state = fighter(weapons=(FISTS, SWORD, brutal))
    ap = state.model("a0").ap
    paid = actions.attack_two(state, "A", "sword", "brutal-weapon", "b0", Dice(15), 1)
    assert paid.model("a0").ap == ap - 2  # "Models need to spend 2 AP to attack with this weapon"


def test_the_odds_table_shows_each_attack_of_the_pair_at_minus_two():
    from rules.cybernekro.battle import odds_table

    state = fighter()
    cells = [c for c in odds_table.weapon_odds(state, "a0", seat="A") if c.target == "b0"]
    alone = {c.weapon: c for c in cells if not c.pair}
    paired = {c.weapon: c for c in cells if c.pair}
    assert set(paired) == {"sword", "axe"} and paired["sword"].pair == "axe"
    for slug in ("sword", "axe"):
        modifier = actions.plan(state, state.model("a0"), slug, state.model("b0"))[1].to_hit.modifier
        assert paired[slug].odds.to_hit == cn.hit_roll_distribution(modifier - 2)
        assert alone[slug].odds.to_hit == cn.hit_roll_distribution(modifier)
