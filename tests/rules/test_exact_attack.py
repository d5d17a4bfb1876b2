"""Attacks: the exact chain against a direct, die-by-die reading of the rules."""

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from crewbuilder.rules import OddsRequestError, exact, odds

F = Fraction


def _row(total):
    return exact.damage_row(total)


def brute_attack(attr, hit_mod, dmg, piercing, armor, wounds, toughness, fight_bonus_die, brutal=False):
    """Plain PC target, no special traits: enumerate the hit roll, every damage die, the
    bonus die and the Tough it Out roll; return the four target groups."""
    groups = {"unharmed": F(0), "wounded": F(0), "prone": F(0), "out_of_action": F(0)}
    dice = dmg + (1 if fight_bonus_die else 0)
    reduction = max(0, armor - piercing)
    for natural in range(1, 21):
        p_hit = F(1, 20)
        if natural == 1 or (natural != 20 and natural + attr + hit_mod < 11):
            groups["unharmed"] += p_hit
            continue
        w = wounds + (1 if natural == 20 else 0)
        if w > 6:
            groups["out_of_action"] += p_hit
            continue
        for faces in itertools.product(range(1, 7), repeat=dice):
            p_dmg = p_hit * F(1, 6 ** dice)
            bonus = range(1, 7) if 6 in faces else [None]
            for b in bonus:
                p_b = p_dmg * (F(1, 6) if b is not None else 1)
                rolled = list(faces) + ([b] if b else [])
                total = sum(sorted(rolled, reverse=True)[:2]) + w - reduction
                row = _row(total)
                order = ["none", "light", "serious", "critical", "lethal"]
                outcomes = {}
                if row in ("light", "serious", "critical"):
                    for t in range(1, 21):
                        mod = toughness - w - (4 if brutal else 0)
                        i = order.index(row)
                        if t == 20:
                            r = order[max(i - 2, 0)]
                        elif t == 1:
                            r = order[min(i + 1, 4)]
                        elif t + mod >= 11:
                            r = order[i - 1]
                        else:
                            r = row
                        outcomes[r] = outcomes.get(r, F(0)) + F(1, 20)
                else:
                    outcomes[row] = F(1)
                for r, q in outcomes.items():
                    p = p_b * q
                    gained = w - wounds
                    if r in ("critical", "lethal"):
                        groups["out_of_action"] += p
                        continue
                    ww = w
                    if r in ("light", "serious"):
                        ww += 1
                        gained += 1
                        if ww > 6:
                            groups["out_of_action"] += p
                            continue
                    if r == "serious":
                        groups["prone"] += p
                    elif gained:
                        groups["wounded"] += p
                    else:
                        groups["unharmed"] += p
    return groups


@pytest.mark.parametrize(
    "attr, dmg, piercing, armor, wounds, toughness, stronger, brutal",
    [
        (1, 2, 2, 1, 0, 1, True, False),   # the odds-format.md example: axe, Str 2 vs 0
        (0, 1, 0, 0, 0, 0, False, False),
        (2, 3, 0, 2, 3, -1, False, True),
        (-1, 2, 0, 3, 6, 2, True, False),  # a critical hit's Wound is the 7th
    ],
)
def test_fight_matches_brute_force(attr, dmg, piercing, armor, wounds, toughness, stronger, brutal):
    keywords = (["Piercing %d" % piercing] if piercing else []) + (["Brutal"] if brutal else [])
    answer = exact.attack_odds(
        "fight",
        exact.Attacker(agility=attr, strength=2 if stronger else 0),
        exact.Weapon(dmg, None, exact.Keywords.parse(keywords)),
        exact.Target(toughness=toughness, strength=0, armor=armor, wounds=wounds),
        exact.Situation(),
    )
    assert answer["target"] == brute_attack(attr, 0, dmg, piercing, armor, wounds, toughness, stronger, brutal)
    assert sum(answer["to_hit"].values()) == 1 and sum(answer["target"].values()) == 1


def _attack(**overrides):
    request = {
        "roll": "attack", "action": "fight",
        "attacker": {"agility": 1, "discipline": 0, "strength": 2, "traits": [], "body_mods": []},
        "weapon": "axe",
        "target": {"toughness": 1, "strength": 0, "armor": 1, "wounds": 0, "prone": False,
                   "traits": [], "body_mods": [], "gear": []},
        "situation": {"cover": False, "long_range": False, "surrounded": False, "modifier": 0},
    }
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(request.get(key), dict):
            request[key] = {**request[key], **value}
        else:
            request[key] = value
    return odds(request)


def test_attack_answer_shape_and_exact_mirror():
    answer = _attack()
    assert set(answer) == {"to_hit", "target", "expected_wounds", "exact"}
    assert set(answer["to_hit"]) == {"critical", "hit", "miss", "fumble"}
    assert set(answer["target"]) == {"unharmed", "wounded", "prone", "out_of_action"}
    for group in ("to_hit", "target"):
        assert sum(F(v) for v in answer["exact"][group].values()) == 1
        for key, value in answer[group].items():
            assert value == pytest.approx(float(F(answer["exact"][group][key])), abs=1e-15)


@pytest.mark.parametrize(
    "change, effect",
    [
        ({"target": {"traits": ["big"]}}, +2),
        ({"target": {"traits": ["small"]}}, -2),
        ({"target": {"prone": True}}, +2),
        ({"target": {"traits": ["monstrous"]}}, +4),
        ({"target": {"gear": ["stealth-suit"]}}, -2),
        ({"situation": {"modifier": -3}}, -3),
    ],
)
def test_fight_hit_modifiers(change, effect):
    base = _attack()["exact"]["to_hit"]
    changed = _attack(**change)["exact"]["to_hit"]
    # agility 1: base hit on naturals 10..19 (10 faces); each +1 adds a face
    assert F(changed["hit"]) - F(base["hit"]) == F(effect, 20)


def test_stealth_suit_does_not_work_with_a_shield():
    assert _attack(target={"gear": ["stealth-suit", "shield"]})["exact"]["to_hit"] == _attack()["exact"]["to_hit"]


def test_shoot_modifiers_cover_and_long_range():
    shoot = {"action": "shoot", "weapon": "pistol", "attacker": {"discipline": 3}}
    base = F(_attack(**shoot)["exact"]["to_hit"]["hit"])
    cover = F(_attack(**shoot, situation={"cover": True})["exact"]["to_hit"]["hit"])
    far = F(_attack(**shoot, situation={"long_range": True})["exact"]["to_hit"]["hit"])
    tower = F(_attack(**shoot, target={"gear": ["tower-shield"]})["exact"]["to_hit"]["hit"])
    assert (base - cover, base - far, base - tower) == (F(4, 20), F(2, 20), F(4, 20))


def test_surrounded_rerolls_misses_once():
    plain = _attack()["exact"]["to_hit"]
    surrounded = _attack(situation={"surrounded": True})["exact"]["to_hit"]
    again = F(plain["miss"]) + F(plain["fumble"])
    assert F(surrounded["hit"]) == F(plain["hit"]) * (1 + again)
    assert F(surrounded["miss"]) == again * F(plain["miss"])


def test_auto_rolls_several_dice_keeps_highest_and_fumbles_on_any_one():
    dist = exact.single_hit_roll(0 - 2, 2, False)
    # critical when either die is a 20 (39/400), also when the other die is a 1
    assert dist["critical"] == F(39, 400)
    # fumble: a 1 on either die and no 20: 1 - (19/20)^2 - P(1 and 20) = 39/400 - 2/400
    assert dist["fumble"] == F(37, 400)
    assert sum(dist.values()) == 1


def test_mechanical_claw_turns_fists_brutal():
    plain = _attack(weapon="fists")
    claw = _attack(weapon="fists", attacker={"body_mods": ["mechanical-claw"]})
    # Feeble fists cannot wound a standing target: nobody is merely wounded
    assert plain["target"]["wounded"] == 0
    assert claw["target"]["wounded"] > 0


def test_artificial_target_takes_an_extra_die_from_electric():
    arc = {"action": "shoot", "weapon": "arc-weapon", "attacker": {"discipline": 2}}
    assert _attack(**arc, target={"traits": ["artificial"]})["target"]["out_of_action"] > _attack(**arc)["target"]["out_of_action"]


def test_shield_rerolls_sixes_in_melee_only():
    assert _attack(target={"gear": ["shield"]})["target"] != _attack()["target"]
    shoot = {"action": "shoot", "weapon": "pistol"}
    assert _attack(**shoot, target={"gear": ["shield"]})["target"] == _attack(**shoot)["target"]


def test_one_shotter_is_knocked_prone_instead_of_wounded():
    answer = _attack(target={"traits": ["one-shotter"]})
    assert answer["target"]["wounded"] == 0
    assert answer["expected_wounds"] == 0


@pytest.mark.parametrize(
    "request_, message",
    [
        ({"roll": "test", "modifier": 1, "extra": 1}, "unknown key"),
        ({"roll": "test"}, "missing key"),
        ({"roll": "test", "modifier": "2"}, "whole number"),
        ({"roll": "dice"}, "request.roll"),
        ({"roll": "damage", "dice": 2, "keywords": "Overkill"}, "keyword"),
        ({"roll": "neural-overload", "dread": 9}, "from 0 to 6"),
    ],
)
def test_bad_requests_are_errors(request_, message):
    with pytest.raises(OddsRequestError, match=message):
        odds(request_)


def test_unknown_weapon_slug_is_an_error():
    with pytest.raises(OddsRequestError, match="no weapon"):
        _attack(weapon="bfg-9000")


def test_catalogue_weapons_resolve_from_the_shipped_file():
    from crewbuilder.rules.odds_requests import file_weapons

    assert file_weapons("axe")["keywords"] == ["Piercing 2"]
    assert file_weapons("archeogun")["damage"] == 3


def test_engine_imports_no_django():
    code = "import sys, crewbuilder.rules, crewbuilder.rules.exact, crewbuilder.rules.tables, crewbuilder.rules.character; " \
           "print([m for m in sys.modules if m.split('.')[0] == 'django'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_odds_command_answers_and_fails_cleanly(tmp_path):
    request = tmp_path / "r.json"
    request.write_text(json.dumps({"roll": "damage", "dice": 3, "keywords": ["Overkill", "Piercing 1"], "armor": 2, "wounds": 1, "prone": False}))
    ok = subprocess.run([sys.executable, "manage.py", "odds", str(request)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    answer = json.loads(ok.stdout)
    assert sum(F(v) for v in answer["exact"].values()) == 1
    bad = subprocess.run([sys.executable, "manage.py", "odds", "-"], input="{oops", capture_output=True, text=True)
    assert bad.returncode == 2 and "error" in json.loads(bad.stdout)
