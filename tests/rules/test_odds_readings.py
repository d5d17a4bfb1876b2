"""Readings R33/R34 (docs/rules-interpretations.md (Part 4)): slugs that are accepted but leave the odds alone."""

from crewbuilder.rules import odds

BASE = {"roll": "attack", "action": "fight",
        "attacker": {"agility": 1, "discipline": 0, "strength": 2, "traits": [], "body_mods": []},
        "weapon": "axe",
        "target": {"toughness": 1, "strength": 0, "armor": 1, "wounds": 2, "prone": False,
                   "traits": [], "body_mods": [], "gear": []},
        "situation": {"cover": False, "long_range": False, "surrounded": False, "modifier": 0}}


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
    assert odds(tougher)["exact"]["target"] != odds({**BASE, "target": {**BASE["target"],
                                                                         "body_mods": ["stim-injectors"]}})["exact"]["target"]
