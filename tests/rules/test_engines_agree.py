"""The two independent engines give the same exact answers (differential test)."""

import random

import pytest

from crewbuilder.rules import odds as reference
from crewbuilder.rules.odds_requests import file_weapons
from crewbuilder.rules.odds_requests import odds as exact_odds

WEAPONS = ["axe", "sword", "fists", "energy-weapon", "brutal-weapon", "industrial-tool", "pistol", "auto-rifle",
           "shotgun", "arc-weapon", "archeogun", "chain-gun", "knife", "flamethrower", "heavy-weapon"]


def _requests(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        weapon = rng.choice(WEAPONS)
        ranged = file_weapons(weapon)["range"] is not None
        traits = rng.sample(["big", "small", "artificial", "one-shotter", "demonic", "npc", "unstoppable"], rng.randint(0, 2))
        yield {
            "roll": "attack", "action": "shoot" if ranged or (weapon == "knife" and rng.random() < .5) else "fight",
            "attacker": {"agility": rng.randint(-2, 3), "discipline": rng.randint(-2, 3), "strength": rng.randint(-2, 3),
                         "traits": rng.sample(["jinxed", "darkborn"], rng.randint(0, 1)),
                         "body_mods": rng.sample(["mechanical-claw"], rng.randint(0, 1))},
            "weapon": weapon,
            "target": {"toughness": rng.randint(-2, 4), "strength": rng.randint(-2, 3), "armor": rng.randint(0, 4),
                       "wounds": rng.randint(0, 6), "prone": rng.random() < .3, "traits": traits,
                       "body_mods": rng.sample(["extra-organs"], rng.randint(0, 1)),
                       "gear": rng.sample(["shield", "tower-shield", "stealth-suit", "lantern", "hazard-suit"], rng.randint(0, 1))},
            "situation": {"cover": rng.random() < .3, "long_range": rng.random() < .3,
                          "surrounded": rng.random() < .3, "modifier": rng.randint(-2, 2)},
        }


@pytest.mark.parametrize("seed", [1, 2])
def test_random_attacks_agree_exactly(seed):
    for request in _requests(seed, 150):
        assert exact_odds(request)["exact"] == reference(request)["exact"], request


@pytest.mark.parametrize("request_", [
    {"roll": "test", "modifier": 3, "jinxed": True},
    {"roll": "damage", "dice": 4, "keywords": ["Overkill", "Energy", "Piercing 1"], "armor": 3, "wounds": 2, "prone": False},
    {"roll": "damage", "dice": 0, "keywords": [], "armor": 0, "wounds": 3, "prone": False},
    {"roll": "neural-overload", "dread": 5},
    {"roll": "morale", "discipline": -1, "dread": 4, "wounds": 1, "allies_in_los": 2},
    {"roll": "panic", "nerve": 6, "tokens": 2},
    {"roll": "ghoul-dice", "dice": 2},
])
def test_other_rolls_agree_exactly(request_):
    assert exact_odds(request_)["exact"] == reference(request_)["exact"]
