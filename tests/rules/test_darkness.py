"""Darkness and Partial darkness on the hit roll, and what lets a shot ignore them (no database).

Complications, p.36: "Darkness: All ranged attacks suffer a -3 modifier" / "Partial darkness: All ranged
attacks suffer a -2 modifier". Traits, p.8: "DARKBORN: Ignores effects of darkness". Equipment, p.11:
"spot light: ... enemies also ignore darkness when targeting this model"; "lantern: Models ignore darkness
when targeting a model that is within 3" of a lantern" (one carrying it is within 3" of it).
"""

import pytest

from rules.cybernekro import engine as cn

SHOOTER = cn.Attacker(0, 2, 0)


def modifier(names, attacker=SHOOTER, target=cn.Target()):
    return cn.apply_complications(names, "shoot", attacker, target, cn.Situation())[2].modifier


@pytest.mark.parametrize("name,penalty", [("darkness", -3), ("partial-darkness", -2)])
def test_darkness_lowers_a_plain_shot(name, penalty):
    assert modifier([name]) == penalty


@pytest.mark.parametrize("name", ["darkness", "partial-darkness"])
@pytest.mark.parametrize("light", ["lantern", "spot-light"])
def test_a_target_carrying_a_light_is_shot_as_if_there_were_no_darkness(name, light):
    assert modifier([name], target=cn.Target(gear=frozenset({light}))) == 0


@pytest.mark.parametrize("name", ["darkness", "partial-darkness"])
def test_a_darkborn_shooter_ignores_darkness(name):
    darkborn = cn.Attacker(0, 2, 0, frozenset({"darkborn"}))
    assert modifier([name], attacker=darkborn) == 0
    # its own rule still applies: "attacks models carrying a light source at -3 to hit"
    lit = cn.Target(gear=frozenset({"lantern"}))
    attacker, target, situation = cn.apply_complications(["darkness"], "shoot", darkborn, lit, cn.Situation())
    assert cn.plan_attack("shoot", attacker, cn.Weapon(2, 12), target, situation).to_hit.modifier == 2 - 3


def test_the_other_complications_are_untouched_by_a_light():
    lit = cn.Target(toughness=1, gear=frozenset({"lantern"}))
    assert cn.apply_complications(["noxious-air"], "shoot", SHOOTER, lit)[1].toughness == -1
