"""Readings R33/R34 (docs/rules-interpretations.md (Part 4)): slugs that are accepted but leave the odds alone."""

from fractions import Fraction

from rules import odds

BASE = {
    "roll": "attack",
    "action": "fight",
    "attacker": {"agility": 1, "discipline": 0, "strength": 2, "traits": [], "body_mods": []},
    "weapon": "axe",
    "target": {
        "toughness": 1,
        "strength": 0,
        "armor": 1,
        "wounds": 2,
        "prone": False,
        "traits": [],
        "body_mods": [],
        "gear": [],
    },
    "situation": {"cover": False, "long_range": False, "surrounded": False, "modifier": 0},
}


def with_(side, key, value):
    request = {**BASE, side: {**BASE[side], key: value}}
    return odds(request)


def test_stim_injectors_and_cabling_are_not_spent_by_the_odds():
    plain = odds(BASE)
    assert with_("target", "body_mods", ["stim-injectors"]) == plain
    assert with_("target", "body_mods", ["Excessive neural cabling"]) == plain
    assert with_("attacker", "body_mods", ["excessive-neural-cabling", "neural-cabling"]) == plain


def test_unstable_leaves_the_target_answer_alone():
    weapon = {"damage": 3, "range": 10, "keywords": ["Energy"]}
    shoot = {**BASE, "action": "shoot", "weapon": weapon}
    unstable = {**shoot, "weapon": {**weapon, "keywords": ["Energy", "Unstable"]}}
    assert odds(shoot) == odds(unstable)
    assert set(odds(shoot)) == {"to_hit", "target", "expected_wounds", "exact"}


def test_a_standing_target_with_stim_injectors_still_rolls_tough_it_out():
    # Tough it Out is rolled (odds-format: "always tries"), so a Toughness change moves the odds.
    tougher = {**BASE, "target": {**BASE["target"], "toughness": 5, "body_mods": ["stim-injectors"]}}
    assert (
        odds(tougher)["exact"]["target"]
        != odds({**BASE, "target": {**BASE["target"], "body_mods": ["stim-injectors"]}})["exact"]["target"]
    )


# --- R35/R36: Monstrous with One-shotter, and a Monstrous target given as Prone -----

STILL = {"agility": 0, "discipline": 0, "strength": 0, "traits": [], "body_mods": []}


def monstrous_attack(weapon, prone, traits):
    return odds(
        {
            "roll": "attack",
            "action": "fight",
            "attacker": STILL,
            "weapon": weapon,
            "target": {
                "toughness": 0,
                "strength": 0,
                "armor": 0,
                "wounds": 0,
                "prone": prone,
                "traits": traits,
                "body_mods": [],
                "gear": [],
            },
        }
    )["exact"]


def test_a_monstrous_one_shotter_is_never_wounded_nor_knocked_prone():
    # One-shotter turns every Wound into a knock-down, which Monstrous forbids; Tough it Out
    # passes by itself, so only a Lethal Injury (12+, no Tough it Out) takes it out.
    answer = monstrous_attack("staff", False, ["monstrous", "one-shotter"])
    assert answer["target"]["wounded"] == "0" and answer["target"]["prone"] == "0"
    assert answer["expected_wounds"] == "0"
    hits = Fraction(answer["to_hit"]["hit"]) + Fraction(answer["to_hit"]["critical"])
    lethal = Fraction(odds({"roll": "damage", "dice": 2, "keywords": [], "armor": 0, "wounds": 0})["exact"]["lethal"])
    assert Fraction(answer["target"]["out_of_action"]) == hits * lethal == Fraction(7, 135)


def test_a_monstrous_target_given_as_prone_is_prone_for_every_rule():
    # +2 to hit for Prone on top of Monstrous' +4, and Feeble wounds it because it is Prone.
    answer = monstrous_attack("fists", True, ["monstrous"])
    assert answer["to_hit"] == {"critical": "1/20", "hit": "3/4", "miss": "3/20", "fumble": "1/20"}
    # A Serious Injury takes it Out of Action: "If already Prone it is OoA" (it is not knocked down).
    assert answer["target"] == {"unharmed": "33/40", "wounded": "61/720", "prone": "0", "out_of_action": "13/144"}
    assert answer["expected_wounds"] == "23/120"
    # Counted by hand-written enumeration, outside the engine: an axe (2 dice, Brutal) on a Wounded one.
    axe = odds(
        {
            "roll": "attack",
            "action": "fight",
            "attacker": {"agility": 2},
            "weapon": "axe",
            "target": {"toughness": 0, "wounds": 2, "prone": True, "traits": ["monstrous"]},
        }
    )["exact"]
    assert axe["target"] == {"unharmed": "41/240", "wounded": "107/360", "prone": "0", "out_of_action": "383/720"}
    standing = monstrous_attack("fists", False, ["monstrous"])
    assert standing["target"]["wounded"] == "0"  # Feeble: no Wounds unless the target is Prone
