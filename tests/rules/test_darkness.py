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


# --- light near the shot (E12b (b)) --------------------------------------------------------------
# Spot light: "All allies within 3" ignore the effects of darkness" — its bearer is within 3" of it.
# Lantern: "Models ignore darkness when targeting a model that is within 3" of a lantern" — anyone's.
# Distances are table facts: the player ticks them (Situation flags, default False).

PISTOL = cn.Weapon(2, 12, cn.Keywords(), "pistol")


@pytest.mark.parametrize("name", ["darkness", "partial-darkness"])
def test_a_shooter_carrying_a_spot_light_ignores_darkness(name):
    assert modifier([name], attacker=cn.Attacker(0, 2, 0, gear=frozenset({"spot-light"}))) == 0
    # its lantern alone does not light the target: only a target within 3" of it is shot as if lit
    assert modifier([name], attacker=cn.Attacker(0, 2, 0, gear=frozenset({"lantern"}))) == cn.RANGED_PENALTY[name]


def test_gear_is_the_attackers_last_field_so_positional_construction_keeps_working():
    assert cn.Attacker(1, 2, 3, frozenset(), frozenset(), 4, frozenset({"spot-light"})).gear == {"spot-light"}
    assert cn.Attacker(1, 2, 3).gear == frozenset()


@pytest.mark.parametrize("name", ["darkness", "partial-darkness"])
@pytest.mark.parametrize("flag", ["target_near_lantern", "shooter_near_allied_spot_light"])
def test_a_ticked_light_near_the_shot_removes_the_darkness_penalty(name, flag):
    situation = cn.Situation(**{flag: True})
    assert cn.apply_complications([name], "shoot", SHOOTER, cn.Target(), situation)[2].modifier == 0
    assert cn.Situation().__getattribute__(flag) is False  # default: no light the engine cannot see


def test_a_target_merely_near_a_lantern_is_not_carrying_one_for_darkborn():
    """Darkborn "attacks models carrying a light source at -3 to hit": carrying is carrying."""
    darkborn = cn.Attacker(0, 2, 0, frozenset({"darkborn"}))
    near = cn.Situation(target_near_lantern=True)
    a, t, s = cn.apply_complications(["darkness"], "shoot", darkborn, cn.Target(), near)
    assert cn.plan_attack("shoot", a, PISTOL, t, s).to_hit.modifier == 2
    carrying = cn.Target(gear=frozenset({"lantern"}))
    a, t, s = cn.apply_complications(["darkness"], "shoot", darkborn, carrying, near)
    assert cn.plan_attack("shoot", a, PISTOL, t, s).to_hit.modifier == 2 - 3


# --- why a chosen complication changes nothing ----------------------------------------------------


def effects(names, action="shoot", attacker=SHOOTER, target=cn.Target(), situation=cn.Situation(), weapon=PISTOL):
    return cn.complication_effects(names, action, attacker, target, situation, weapon)


@pytest.mark.parametrize(
    "action,attacker,target,situation,reason",
    [
        ("fight", SHOOTER, cn.Target(), cn.Situation(), "a Fight is not a ranged attack"),
        (
            "shoot",
            cn.Attacker(0, 2, 0, frozenset({"darkborn"})),
            cn.Target(),
            cn.Situation(),
            "the shooter is Darkborn",
        ),
        (
            "shoot",
            cn.Attacker(0, 2, 0, gear=frozenset({"spot-light"})),
            cn.Target(),
            cn.Situation(),
            "the shooter carries a spot light",
        ),
        (
            "shoot",
            SHOOTER,
            cn.Target(),
            cn.Situation(shooter_near_allied_spot_light=True),
            'the shooter is within 3" of an allied spot light',
        ),
        (
            "shoot",
            SHOOTER,
            cn.Target(gear=frozenset({"spot-light"})),
            cn.Situation(),
            "the target carries a spot light",
        ),
        ("shoot", SHOOTER, cn.Target(gear=frozenset({"lantern"})), cn.Situation(), "the target carries a lantern"),
        ("shoot", SHOOTER, cn.Target(), cn.Situation(target_near_lantern=True), 'the target is within 3" of a lantern'),
    ],
)
def test_the_engine_says_why_darkness_had_no_effect(action, attacker, target, situation, reason):
    weapon = PISTOL if action == "shoot" else cn.Weapon(2, None, cn.Keywords(), "axe")
    for name in ("darkness", "partial-darkness"):
        assert effects([name], action, attacker, target, situation, weapon) == {name: reason}
        folded = cn.apply_complications([name], action, attacker, target, situation)[2]
        assert folded.modifier == 0  # the reason and the fold are the same rule


def test_a_complication_that_applies_has_no_reason():
    assert effects(
        ["darkness", "slippery-ground", "noxious-air"],
        weapon=cn.Weapon(1, None, cn.Keywords.parse(["Thrown"]), "knife"),
    ) == {
        "darkness": "",
        "slippery-ground": "",
        "noxious-air": "",
    }


def test_the_other_complications_say_why_too():
    assert effects(["slippery-ground"]) == {"slippery-ground": "a ranged weapon's shot rolls Discipline, not Agility"}
    assert effects(["noxious-air"], target=cn.Target(traits=frozenset({"artificial"}))) == {
        "noxious-air": "the target is Artificial"
    }
    assert effects(["noxious-air"], target=cn.Target(gear=frozenset({"powered-armor"}))) == {
        "noxious-air": "the target wears a gas mask or what counts as one"
    }
    with pytest.raises(ValueError, match="unknown complication"):
        effects(["fog-of-war"])


def test_a_battle_shooter_carrying_a_spot_light_ignores_darkness():
    """The battle tracker's model passes its gear to the engine: its own spot light lifts darkness."""
    from rules.cybernekro.battle.state import Model

    lit = Model("m1", "Lamp", "a", discipline=2, gear=frozenset({"spot-light"}))
    assert lit.attacker().gear == {"spot-light"}
    assert modifier(["darkness"], attacker=lit.attacker()) == 0
    assert modifier(["darkness"], attacker=Model("m2", "Dark", "a", discipline=2).attacker()) == -3
