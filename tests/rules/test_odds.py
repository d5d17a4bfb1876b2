"""rules.odds.odds(request): odds-format.md, strict requests, formatting, delegation.

(``rules.odds``, the package attribute, is this same function: the one engine.)
"""

import json
import sys
import types
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.odds import OddsRequestError, file_weapons, format_answer, odds


def groups_of(answer):
    """Every group of fractions in the exact block (dicts of strings), flattened."""
    exact = answer["exact"]
    found = []

    def walk(node):
        if all(isinstance(v, str) for v in node.values()):
            found.append({k: F(v) for k, v in node.items()})
        for v in node.values():
            if isinstance(v, dict):
                walk(v)

    walk(exact)
    return found


def assert_floats_mirror_exact(answer):
    def walk(floats, exact):
        for k, v in exact.items():
            if isinstance(v, dict):
                walk(floats[k], v)
            else:
                assert floats[k] == float(F(v)), k

    walk({k: v for k, v in answer.items() if k != "exact"}, answer["exact"])


FORMAT_ATTACK = {
    "roll": "attack",
    "action": "fight",
    "attacker": {"agility": 1, "discipline": 0, "strength": 2, "traits": [], "body_mods": []},
    "weapon": "axe",
    "target": {
        "toughness": 1,
        "strength": 0,
        "armor": 1,
        "wounds": 0,
        "prone": False,
        "traits": [],
        "body_mods": [],
        "gear": [],
    },
    "situation": {"cover": False, "long_range": False, "surrounded": False, "modifier": 0},
}


def test_rules_odds_stays_a_function_after_the_submodule_is_imported():
    import rules
    import rules.odds  # noqa: F401
    from rules import odds as package_odds

    assert callable(package_odds) and callable(rules.odds)
    assert issubclass(OddsRequestError, ValueError)


def test_attribute_test_example():
    answer = odds({"roll": "test", "modifier": 2, "jinxed": False})
    assert answer["exact"] == {"critical": "1/20", "success": "11/20", "failure": "7/20", "fumble": "1/20"}
    assert answer["success"] == 0.55
    assert list(answer)[:4] == ["critical", "success", "failure", "fumble"]


def test_jinxed_test():
    answer = odds({"roll": "test", "modifier": 0, "jinxed": True})
    assert answer["exact"] == {
        "critical": "1/10",
        "success": "8/20".replace("8/20", "2/5"),
        "failure": "2/5",
        "fumble": "1/10",
    }


def test_damage_example_is_exact_and_sums_to_one():
    answer = odds(
        {"roll": "damage", "dice": 3, "keywords": ["Overkill", "Piercing 1"], "armor": 2, "wounds": 1, "prone": False}
    )
    assert set(answer["exact"]) == {"none", "light", "serious", "critical", "lethal"}
    assert sum(F(v) for v in answer["exact"].values()) == 1
    assert answer["exact"] == {
        "none": "0",
        "light": "5/108",
        "serious": "29/144",
        "critical": "7/24",
        "lethal": "199/432",
    }
    assert_floats_mirror_exact(answer)


def test_damage_one_die_no_armor_by_hand():
    # one die: 1-2 none, 3-5 light, a 6 brings the bonus die: 6+b is 7..12
    answer = odds({"roll": "damage", "dice": 1, "keywords": [], "armor": 0, "wounds": 0, "prone": False})
    # 6+1, 6+2 serious; 6+3..6+5 critical; 6+6 lethal
    assert answer["exact"] == {"none": "1/3", "light": "1/2", "serious": "1/18", "critical": "1/12", "lethal": "1/36"}


def test_attack_example_shape():
    answer = odds(FORMAT_ATTACK)
    assert set(answer) == {"to_hit", "target", "expected_wounds", "exact"}
    assert list(answer["to_hit"]) == ["critical", "hit", "miss", "fumble"]
    assert set(answer["target"]) == {"unharmed", "wounded", "prone", "out_of_action"}
    assert answer["exact"]["to_hit"] == {"critical": "1/20", "hit": "1/2", "miss": "2/5", "fumble": "1/20"}
    for group in groups_of(answer):
        assert sum(group.values()) == 1
    assert_floats_mirror_exact(answer)
    assert F(answer["exact"]["expected_wounds"]) > 0


def test_real_catalogue_slugs_resolve_from_the_bundled_file():
    assert file_weapons("axe")["keywords"] == ["Piercing 2"]
    assert file_weapons("archeogun")["damage"] == 3
    shot = dict(FORMAT_ATTACK, action="shoot", weapon="archeogun")
    by_slug = odds(shot)
    by_object = odds(dict(shot, weapon={"damage": 3, "range": 10, "keywords": ["Brutal", "Piercing 1"]}))
    assert by_slug == by_object
    assert odds(dict(FORMAT_ATTACK, weapon="Axe")) == odds(FORMAT_ATTACK)  # slug rule


def test_weapon_resolver_argument():
    seen = []

    def resolver(slug):
        seen.append(slug)
        return {"slug": slug, "damage": 2, "range": None, "keywords": ["Piercing 2"]} if slug == "house-axe" else None

    assert odds(dict(FORMAT_ATTACK, weapon="House Axe"), weapons=resolver) == odds(FORMAT_ATTACK)
    assert seen == ["house-axe"]
    with pytest.raises(OddsRequestError, match="no weapon"):
        odds(dict(FORMAT_ATTACK, weapon="axe"), weapons=resolver)


def test_neural_overload_request():
    answer = odds({"roll": "neural-overload", "dread": 2})
    assert answer["exact"] == {"1": "0", "3": "1/3", "5": "1/3", "7": "1/3", "9": "0"}
    assert odds({"roll": "neural-overload", "dread": 0})["exact"] == {
        "1": "1/3",
        "3": "1/3",
        "5": "1/3",
        "7": "0",
        "9": "0",
    }
    assert odds({"roll": "neural-overload", "dread": 6})["exact"]["9"] == "2/3"


def test_morale_request():
    answer = odds({"roll": "morale", "discipline": 0, "dread": 3, "wounds": 0, "allies_in_los": 1})
    left = {k: F(v) for k, v in answer["exact"].items() if k.isdigit()}
    assert set(left) == {str(d) for d in range(7)} and sum(left.values()) == 1
    flees = {k: F(v) for k, v in answer["exact"]["flees"].items()}
    assert set(flees) == {"0", "1", "2", "3"} and sum(flees.values()) == 1
    assert flees["3"] == left["3"] + left["4"] + left["5"] + left["6"]
    assert F(answer["exact"]["becomes_npc"]) == left["4"] + left["5"] + left["6"]
    assert odds({"roll": "morale", "discipline": 0, "dread": 0})["exact"]["0"] == "1"


def test_panic_and_ghoul_dice_delegate(monkeypatch):
    panic = odds({"roll": "panic", "nerve": 6, "tokens": 2})
    assert set(panic["exact"]) == {"snapped", "holds"} and sum(F(v) for v in panic["exact"].values()) == 1
    ghoul = odds({"roll": "ghoul-dice", "dice": 3})
    for group in groups_of(ghoul):
        assert sum(group.values()) == 1
    # the formatting is generic: any nested dict of Fractions
    fake = types.ModuleType("rules.ghoul_role")
    fake.ghoul_dice_odds = lambda dice: {"a": {"x": {"1": F(1, 3), "2": F(2, 3)}}, "b": {"y": F(1)}}
    monkeypatch.setattr(sys.modules["rules.odds"], "ghoul_role", fake)  # the module (rules.odds is the function)
    answer = odds({"roll": "ghoul-dice", "dice": 2})
    assert answer["a"]["x"] == {"1": 1 / 3, "2": 2 / 3}
    assert answer["exact"] == {"a": {"x": {"1": "1/3", "2": "2/3"}}, "b": {"y": "1"}}


def test_format_answer_is_generic():
    out = format_answer({"g": {"a": F(35, 36), "b": F(1, 36)}, "n": F(0)})
    assert out == {"g": {"a": 35 / 36, "b": 1 / 36}, "n": 0.0, "exact": {"g": {"a": "35/36", "b": "1/36"}, "n": "0"}}
    json.dumps(out)


@pytest.mark.parametrize(
    "request_,message",
    [
        ({"roll": "test", "modifier": 1, "extra": 1}, "unknown key"),
        ({"roll": "test"}, "missing key"),
        ({"roll": "test", "modifier": "2"}, "whole number"),
        ({"roll": "test", "modifier": 1.5}, "whole number"),
        ({"roll": "test", "modifier": True}, "whole number"),
        ({"roll": "test", "modifier": 0, "jinxed": "no"}, "true or false"),
        ({"roll": "test", "modifier": 0, "card": "queen"}, "card"),
        ({"roll": "dice"}, "request.roll"),
        ({"dice": 2}, "request.roll"),
        ({"roll": "damage", "dice": -1}, "from 0"),
        ({"roll": "damage", "dice": 2, "keywords": "Overkill"}, "keyword"),
        ({"roll": "damage", "dice": 2, "keywords": ["Laser"]}, "unknown keyword"),
        ({"roll": "damage", "dice": 2, "keywords": ["Piercing"]}, "needs a number"),
        ({"roll": "damage", "dice": 2, "wounds": 7}, "from 0 to 6"),
        ({"roll": "neural-overload", "dread": 9}, "from 0 to 6"),
        ({"roll": "neural-overload"}, "missing key"),
        ({"roll": "morale", "discipline": 0, "dread": 2, "allies": 1}, "unknown key"),
        ({"roll": "panic", "nerve": 6}, "missing key"),
        ({"roll": "ghoul-dice", "dice": 4}, "Ghoul"),
        (dict(FORMAT_ATTACK, action="punch"), "fight"),
        (dict(FORMAT_ATTACK, weapon="bfg-9000"), "no weapon"),
        (dict(FORMAT_ATTACK, weapon=7), "weapon"),
        (dict(FORMAT_ATTACK, weapon={"damage": 2, "keywords": [], "colour": "red"}), "unknown key"),
        (dict(FORMAT_ATTACK, attacker={"agility": 1, "luck": 2}), "unknown key"),
        (dict(FORMAT_ATTACK, target={"traits": ["invisible"]}), "unknown trait"),
        (dict(FORMAT_ATTACK, target={"gear": ["bfg"]}), "unknown gear"),
        (dict(FORMAT_ATTACK, attacker={"gear": ["bfg"]}), "attacker.gear: unknown gear"),
        (dict(FORMAT_ATTACK, situation={"weather": "rain"}), "unknown key"),
        (dict(FORMAT_ATTACK, action="shoot"), "ranged weapon"),
        (dict(FORMAT_ATTACK, weapon="pistol"), "melee weapon"),
        ([], "object"),
    ],
)
def test_bad_requests_are_errors(request_, message):
    with pytest.raises(OddsRequestError, match=message):
        odds(request_)


def test_optional_additions_default_to_the_plain_reading():
    base = dict(FORMAT_ATTACK, action="shoot", weapon="auto-rifle")
    explicit = dict(
        base,
        situation={
            **FORMAT_ATTACK["situation"],
            "auto": True,
            "over_half_range": False,
            "splash_secondary": False,
            "touching_terrain": True,
            "in_melee": False,
            "stagger_into_obstacle": False,
            "tough_it_out": True,
        },
    )
    assert odds(base) == odds(explicit)
    no_situation = {k: v for k, v in FORMAT_ATTACK.items() if k != "situation"}
    assert odds(no_situation) == odds(FORMAT_ATTACK)
    assert odds({"roll": "damage", "dice": 2}) == odds(
        {"roll": "damage", "dice": 2, "keywords": [], "armor": 0, "wounds": 0, "prone": False, "shield": False}
    )


def test_attacker_gear_is_accepted_and_changes_no_answer_without_darkness():
    """attacker.gear (added): a spot light lifts only darkness, which no attack request carries (E12b)."""
    for gear in ([], ["spot-light"], ["lantern", "night-vision-goggles"]):
        request = dict(FORMAT_ATTACK, attacker={**FORMAT_ATTACK["attacker"], "gear": gear})
        assert odds(request) == odds(FORMAT_ATTACK)


def test_trait_gear_and_body_mod_slugs_change_the_odds():
    def target_with(**kw):
        return odds(dict(FORMAT_ATTACK, target={**FORMAT_ATTACK["target"], **kw}))["exact"]

    plain = odds(FORMAT_ATTACK)["exact"]
    assert target_with(traits=["Big"])["to_hit"]["hit"] == "3/5"
    assert target_with(traits=["small"])["to_hit"]["hit"] == "2/5"
    assert target_with(traits=["monstrous"])["target"]["prone"] == "0"
    assert target_with(traits=["one-shotter"])["target"]["wounded"] == "0"
    assert target_with(gear=["shield"])["target"] != plain["target"]
    assert target_with(body_mods=["extra-organs"])["target"] != plain["target"]
    assert target_with(traits=["sorcerer"]) == plain  # accepted, no effect on the odds


@settings(max_examples=40, deadline=None)
@given(
    action=st.sampled_from(["fight", "shoot"]),
    weapon=st.sampled_from(["axe", "fists", "industrial-tool", "energy-weapon", "hammer-mace", "knife"]),
    shoot_weapon=st.sampled_from(["pistol", "chain-gun", "shotgun", "arc-weapon", "flamethrower", "archeogun"]),
    agility=st.integers(-2, 3),
    strength=st.integers(-2, 3),
    toughness=st.integers(-2, 6),
    armor=st.integers(0, 5),
    wounds=st.integers(0, 6),
    prone=st.booleans(),
    traits=st.lists(
        st.sampled_from(
            ["big", "small", "jinxed", "artificial", "one-shotter", "demonic", "monstrous", "npc", "unstoppable"]
        ),
        max_size=3,
        unique=True,
    ),
    gear=st.lists(
        st.sampled_from(["shield", "tower-shield", "stealth-suit", "hazard-suit", "lantern"]), max_size=2, unique=True
    ),
    surrounded=st.booleans(),
    cover=st.booleans(),
)
def test_every_attack_answer_sums_to_one(
    action, weapon, shoot_weapon, agility, strength, toughness, armor, wounds, prone, traits, gear, surrounded, cover
):
    request = {
        "roll": "attack",
        "action": action,
        "weapon": shoot_weapon if action == "shoot" else weapon,
        "attacker": {
            "agility": agility,
            "discipline": agility,
            "strength": strength,
            "traits": ["jinxed"],
            "body_mods": ["mechanical-claw"],
        },
        "target": {
            "toughness": toughness,
            "strength": 0,
            "armor": armor,
            "wounds": wounds,
            "prone": prone,
            "traits": traits,
            "body_mods": ["extra-organs"],
            "gear": gear,
        },
        "situation": {"cover": cover, "long_range": False, "surrounded": surrounded, "modifier": 0},
    }
    answer = odds(request)
    for group in groups_of(answer):
        assert sum(group.values()) == 1
    assert 0 <= F(answer["exact"]["expected_wounds"]) <= 8


@settings(max_examples=60, deadline=None)
@given(
    dice_=st.integers(0, 8),
    armor=st.integers(0, 6),
    wounds=st.integers(0, 6),
    keywords=st.lists(
        st.sampled_from(["Overkill", "Energy", "Electric", "Piercing 1", "Piercing 3", "Brutal"]), unique=True
    ),
    modifier=st.integers(-15, 15),
    dread=st.integers(0, 6),
    jinxed=st.booleans(),
)
def test_every_simple_answer_sums_to_one(dice_, armor, wounds, keywords, modifier, dread, jinxed):
    for request in (
        {"roll": "damage", "dice": dice_, "keywords": keywords, "armor": armor, "wounds": wounds},
        {"roll": "test", "modifier": modifier, "jinxed": jinxed},
        {"roll": "neural-overload", "dread": dread},
        {"roll": "morale", "discipline": modifier // 5, "dread": dread, "wounds": wounds, "allies_in_los": 1},
    ):
        for group in groups_of(odds(request)):
            assert sum(group.values()) == 1
