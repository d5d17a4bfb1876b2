"""Splash (B57): "On a hit all models within 1" of the original target are hit as well but decrease the damage
roll by 1 die for those models." No database."""

from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, rounds
from rules.cybernekro.battle.state import Refused, WeaponUse
from tests.rules.battle.helpers import Dice, to_action

LAUNCHER = WeaponUse("launcher", "grenade launcher", cn.Weapon(2, 18, cn.Keywords.parse(["Splash"]), "launcher"))
FLAMER = WeaponUse("flamer", "flamethrower", cn.Weapon(2, 6, cn.Keywords.parse(["Fire", "Splash"]), "flamer"))


def _hit_b0(weapon, damage_dice):
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = rounds.select_model(
        state.with_model(replace(state.model("a0"), weapons=(weapon,), discipline=20)), "A", "a0"
    )
    shot = actions.attack(state, "A", weapon.slug, "b0", Dice(15), 1)
    return actions.resolve_attack(shot, "A", Dice(*damage_dice), 1)


def test_a_splash_hit_asks_which_models_are_within_1_inch_and_hits_each_with_one_die_less():
    hit = _hit_b0(LAUNCHER, (1, 1))  # the target: 1 + 1, no injury
    window = hit.pending[0]
    assert window.kind == "splash" and window.seat == "A" and window.model == "b0"
    option = legal.legal(hit, "A")[0]
    assert option.step == "splash_hits" and "b0" not in option.args and {"a1", "b1"} <= set(option.args)
    assert legal.legal(hit, "B") == ()
    # b1 then a1 (an ally too: "all models"); one die each (Damage 2, one die less): a 4 is a Light Injury
    splashed = actions.splash_hits(hit, "A", ["b1", "a1"], Dice(4), 1)
    assert splashed.pending[0].kind == "tough_it_out" and splashed.pending[0].model == "b1"
    splashed = actions.take_it(splashed, "B", Dice(2), 1)  # b1 takes its Wound; a1's die: a 2, no injury
    assert splashed.model("b1").wounds == 1 and splashed.model("a1").wounds == 0
    texts = [e.text for e in splashed.log]
    assert "Splash around b0: b1, a1" in texts and "Splash on a1: a1 is unharmed" in texts
    dice = [r for e in splashed.log if e.text.startswith("Splash on a1") for r in e.rolls if r.get("what") == "damage"]
    assert len(dice[0]["dice"]) == 1  # "decrease the damage roll by 1 die"


def test_a_splash_that_reaches_no_other_model_is_named_so_and_a_miss_splashes_nothing():
    hit = _hit_b0(LAUNCHER, (1, 1))
    done = actions.splash_hits(hit, "A", [], Dice(), 1)
    assert not done.pending and "Splash around b0: no other model" in done.log[-1].text
    with pytest.raises(Refused, match="other than its target"):
        actions.splash_hits(hit, "A", ["b0"], Dice(), 1)
    state = to_action()
    state = rounds.select_model(state.with_model(replace(state.model("a0"), weapons=(LAUNCHER,))), "A", "a0")
    missed = actions.resolve_attack(actions.attack(state, "A", "launcher", "b0", Dice(2), 1), "A", Dice(), 1)
    assert not any(p.kind == "splash" for p in missed.pending)


def test_a_flamethrowers_splash_sets_each_model_hit_testing_against_fire():
    """Fire: "Models hit with this weapon must pass an Agility test or catch Fire": the target's test first."""
    hit = _hit_b0(FLAMER, (1, 1, 15))  # no injury; b0 passes its Fire test (rolled now, held for the cards)
    assert [p.kind for p in hit.pending][:2] == ["test", "splash"]
    assert hit.pending[0].model == "b0" and hit.pending[0].get("what") == "catch Fire"
    hit = actions.resolve_test(hit, "B", Dice(), 1)
    splashed = actions.splash_hits(hit, "A", ["b1"], Dice(1, 15), 1)
    assert splashed.pending[0].model == "b1" and splashed.pending[0].get("what") == "catch Fire"
