"""The odds requests against an enumeration written from the rules text alone (no engine code).

Each oracle below walks every face of every die (a d20 for a test, every d6 of a
damage roll with its one re-roll and the one bonus die, every Morale Test in
turn) and tallies the outcomes, then the engine's exact answer must be equal
fraction for fraction. A second check enumerates every die the *seeded* rolls
ask for (a scripted generator walks each sequence of faces), so the dice shown
at the table follow the same odds. Edge cases: target numbers out of reach
either way, modifiers far past the die's range, Jinxed, re-rolls (Energy,
shields, Surrounded), Auto, zero dice.
"""

import random
from collections import defaultdict
from fractions import Fraction as F
from itertools import product

import pytest

from rules import rolls
from rules.cybernekro import engine as cn
from rules.odds import odds

ROWS = ("none", "light", "serious", "critical", "lethal")


# --------------------------------------------------------------------------
# oracles, from the text
# --------------------------------------------------------------------------


def d20_test(modifier, jinxed=False):
    """ "If the result of the roll after applying modifiers is 11 or greater the roll is a success"; "Rolling a
    20 (before modifiers) ... is called a Critical and it is always a success while rolling a 1 is called a
    Fumble"; Jinxed: "a roll of 1 or 2 counts as a Fumble while a roll of 19 or 20 counts as a Critical"."""
    out = defaultdict(F)
    for face in range(1, 21):
        if face >= (19 if jinxed else 20):
            key = "critical"
        elif face <= (2 if jinxed else 1):
            key = "fumble"
        else:
            key = "success" if face + modifier >= 11 else "failure"
        out[key] += F(1, 20)
    return out


def d6(reroll=frozenset()):
    """One damage die: a face in ``reroll`` is rolled again once ("never re-roll a die more than once")."""
    faces = []
    for first in range(1, 7):
        if first in reroll:
            faces += [(second, F(1, 36)) for second in range(1, 7)]
        else:
            faces.append((first, F(1, 6)))
    return faces


def picked_sums(dice, count=2, reroll=frozenset()):
    """ "rolls one D6 for each Damage point ... If any 6s are scored roll one additional D6. Finally pick the
    two highest results (or one if you only rolled one die)" (three with Overkill)."""
    out = defaultdict(F)
    die = d6(reroll)
    for combo in product(die, repeat=dice):
        faces = [f for f, _ in combo]
        p = F(1)
        for _, q in combo:
            p *= q
        extra = die if 6 in faces else [(None, F(1))]
        for bonus, q in extra:
            rolled = sorted(faces + ([bonus] if bonus else []), reverse=True)
            out[sum(rolled[:count])] += p * q
    return out


def row_of(total):
    """3+ Light, 6+ Serious, 9+ Critical, 12+ Lethal."""
    return sum(total >= n for n in (3, 6, 9, 12))


def damage_rows(dice, armor=0, wounds=0, count=2, reroll=frozenset()):
    out = defaultdict(F)
    for total, p in picked_sums(dice, count, reroll).items():
        out[ROWS[row_of(total + wounds - armor)]] += p
    return out


def fight_groups(agility, strength, damage, toughness, t_strength, armor, wounds, prone, brutal=False):
    """A plain Fight on a plain Player Character: the hit (+2 on a Prone target), the critical's Wound before
    the damage, +1 die for the higher Strength, Tough it Out (-1 a Wound, -4 Brutal; Critical two steps down,
    Fumble one up, never on a Lethal), then the rows from the top down; a 7th Wound is Out of Action."""
    hit = d20_test(agility + (2 if prone else 0))
    groups = defaultdict(F)
    groups["unharmed"] += hit["failure"] + hit["fumble"]
    dice = damage + (strength > t_strength)
    for critical, p_hit in ((True, hit["critical"]), (False, hit["success"])):
        w = wounds + critical
        if w > 6:
            groups["out_of_action"] += p_hit
            continue
        for total, p_dmg in picked_sums(dice).items():
            row = row_of(total + w - armor)
            steps = {row: F(1)}
            if 1 <= row <= 3:
                t = d20_test(toughness - w - (4 if brutal else 0))
                steps = defaultdict(F)
                steps[max(row - 2, 0)] += t["critical"]
                steps[row - 1] += t["success"]
                steps[row] += t["failure"]
                steps[row + 1] += t["fumble"]
            for final, p_tio in steps.items():
                p = p_hit * p_dmg * p_tio
                out = final >= 3 or (final >= 1 and w == 6) or (final >= 2 and prone)
                if out:
                    groups["out_of_action"] += p
                elif final >= 2:
                    groups["prone"] += p
                elif final == 1 or critical:
                    groups["wounded"] += p
                else:
                    groups["unharmed"] += p
    return groups


def morale_dread(discipline, dread, wounds=0, allies=0):
    """One Morale Test per Dread held: success -1, Critical -2, Fumble +1, within 0..6; -1 per Wound."""
    states = {dread: F(1)}
    for _ in range(dread):
        after = defaultdict(F)
        for held, p in states.items():
            for face, q in d20_test(discipline + allies - wounds).items():
                change = {"critical": -2, "success": -1, "failure": 0, "fumble": 1}[face]
                after[min(max(held + change, 0), 6)] += p * q
        states = after
    return {str(k): states.get(k, F(0)) for k in range(7)}


def target_sheet(**values):
    """A target in an attack request: zeros and nothing carried unless given."""
    blank = {"toughness": 0, "strength": 0, "armor": 0, "wounds": 0, "prone": False}
    return blank | {"traits": [], "body_mods": [], "gear": []} | values


def same(answer, expected):
    keys = set(answer) | set(expected)
    assert {k: F(answer.get(k, 0)) for k in keys} == {k: F(expected.get(k, 0)) for k in keys}
    assert sum(F(v) for v in answer.values()) == 1


# --------------------------------------------------------------------------
# the odds requests
# --------------------------------------------------------------------------


@pytest.mark.parametrize("modifier", [-100, -30, -11, -10, -9, 0, 1, 9, 10, 11, 30, 100])
@pytest.mark.parametrize("jinxed", [False, True])
def test_attribute_test_matches_the_enumeration(modifier, jinxed):
    same(odds({"roll": "test", "modifier": modifier, "jinxed": jinxed})["exact"], d20_test(modifier, jinxed))


def test_attribute_test_extremes_by_hand():
    """Past the die's range either way only the natural results are left: a 20 still succeeds, a 1 still fails."""
    assert odds({"roll": "test", "modifier": -30})["exact"] == {
        "critical": "1/20",
        "success": "0",
        "failure": "9/10",
        "fumble": "1/20",
    }
    assert odds({"roll": "test", "modifier": 30, "jinxed": True})["exact"] == {
        "critical": "1/10",
        "success": "4/5",
        "failure": "0",
        "fumble": "1/10",
    }


@pytest.mark.parametrize("dread", range(7))
def test_neural_overload_matches_the_enumeration(dread):
    expected = defaultdict(F)
    for face in range(1, 7):
        expected[str(max(n for n in (1, 3, 5, 7, 9) if face + dread >= n))] += F(1, 6)
    same(odds({"roll": "neural-overload", "dread": dread})["exact"], expected)


DAMAGE_CASES = [
    (0, [], 0, 3),  # no dice at all: 0 + 3 Wounds, a Light Injury
    (0, [], 0, 2),
    (1, [], 0, 0),  # one die (plus the bonus die on a 6)
    (2, [], 1, 1),
    (3, ["Overkill"], 2, 0),
    (3, ["Energy"], 0, 0),
    (2, ["Energy", "Overkill"], 4, 6),
    (2, ["Piercing 2"], 3, 0),
    (2, ["Piercing 1", "Electric"], 6, 0),  # 6 - 1 = 5, capped at 2
    (4, [], 20, 0),  # armor far past anything the dice reach: never injured
    (4, [], 0, 6),  # six Wounds: at least 6 + the two highest
]


@pytest.mark.parametrize("dice,keywords,armor,wounds", DAMAGE_CASES)
def test_damage_matches_the_enumeration(dice, keywords, armor, wounds):
    kw = cn.Keywords.parse(keywords)
    left = min(max(armor - kw.piercing, 0), 2 if kw.has("electric") else armor)
    expected = damage_rows(
        dice, left, wounds, 3 if kw.has("overkill") else 2, frozenset({1}) if kw.has("energy") else frozenset()
    )
    request = {"roll": "damage", "dice": dice, "keywords": keywords, "armor": armor, "wounds": wounds}
    same(odds(request)["exact"], expected)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_a_shield_rerolls_sixes_once_and_the_bonus_die_follows_the_dice_as_they_stand(dice):
    """Shield: "reroll all 6s in the damage roll"; a 6 re-rolled into a 6 stays and brings the bonus die (E1)."""
    expected = damage_rows(dice, 1, 1, reroll=frozenset({6}))
    request = {"roll": "damage", "dice": dice, "armor": 1, "wounds": 1, "shield": True}
    same(odds(request)["exact"], expected)


@pytest.mark.parametrize(
    "discipline,dread,wounds,allies", [(0, 0, 0, 0), (0, 1, 0, 0), (2, 3, 1, 2), (-3, 4, 0, 0), (20, 6, 0, 0)]
)
def test_morale_matches_the_enumeration(discipline, dread, wounds, allies):
    answer = odds(
        {"roll": "morale", "discipline": discipline, "dread": dread, "wounds": wounds, "allies_in_los": allies}
    )["exact"]
    left = morale_dread(discipline, dread, wounds, allies)
    same({k: v for k, v in answer.items() if k not in ("flees", "becomes_npc")}, left)
    flees = {str(n): left[str(n)] for n in range(3)}
    flees["3"] = sum(left[str(n)] for n in range(3, 7))  # 1-3: one Flee move a Dread; 4 or more: three
    same(answer["flees"], flees)
    assert F(answer["becomes_npc"]) == sum(left[str(n)] for n in range(4, 7))


FIGHTS = [
    # agility, strength, weapon, damage, target toughness, strength, armor, wounds, prone, brutal
    (1, 2, "axe", 2, 1, 0, 0, 0, False, False),  # Piercing 2 against no armor
    (3, 3, "brutal-weapon", 3, 0, 2, 5, 0, False, True),
    (-2, -1, "sword", 2, 3, 2, 0, 6, True, False),  # six Wounds already: any Wound is the 7th
    (0, 0, "staff", 2, 1, 1, 1, 2, True, False),  # a Prone target: +2 to hit, Serious takes it out
]


@pytest.mark.parametrize("agility,strength,weapon,damage,toughness,t_strength,armor,wounds,prone,brutal", FIGHTS)
def test_fight_matches_the_enumeration(
    agility, strength, weapon, damage, toughness, t_strength, armor, wounds, prone, brutal
):
    request = {
        "roll": "attack",
        "action": "fight",
        "attacker": {"agility": agility, "discipline": 0, "strength": strength, "traits": [], "body_mods": []},
        "weapon": weapon,
        "target": target_sheet(toughness=toughness, strength=t_strength, armor=armor, wounds=wounds, prone=prone),
    }
    answer = odds(request)["exact"]
    hit = d20_test(agility + (2 if prone else 0))
    same(
        answer["to_hit"],
        {"critical": hit["critical"], "hit": hit["success"], "miss": hit["failure"], "fumble": hit["fumble"]},
    )
    left = 0 if weapon == "axe" else armor
    same(answer["target"], fight_groups(agility, strength, damage, toughness, t_strength, left, wounds, prone, brutal))


def auto_hit(modifier, dice, jinxed=False, surrounded=False):
    """Auto X: the highest of X d20 at -2; a Fumble if any die fumbles; a Critical on the highest wins.
    Surrounded: a miss or a Fumble is rolled again once (E2)."""
    once = defaultdict(F)
    for faces in product(range(1, 21), repeat=dice):
        top = max(faces)
        if top >= (19 if jinxed else 20):
            key = "critical"
        elif min(faces) <= (2 if jinxed else 1):
            key = "fumble"
        else:
            key = "hit" if top + modifier - (2 if dice > 1 else 0) >= 11 else "miss"
        once[key] += F(1, 20**dice)
    if not surrounded:
        return once
    failed = once["miss"] + once["fumble"]
    again = defaultdict(F, {k: once[k] for k in ("critical", "hit")})
    for key, p in list(once.items()):
        again[key] += failed * p
    return again


@pytest.mark.parametrize(
    "weapon,dice,cover,long_range,surrounded,jinxed,modifier",
    [
        ("pistol", 1, False, False, False, False, 0),
        ("pistol", 1, True, True, True, True, -5),
        ("auto-rifle", 2, False, True, True, False, 12),
        ("chain-gun", 3, True, False, False, True, -20),
    ],
)
def test_shoot_hit_roll_matches_the_enumeration(weapon, dice, cover, long_range, surrounded, jinxed, modifier):
    request = {
        "roll": "attack",
        "action": "shoot",
        "attacker": {
            "agility": 0,
            "discipline": 1,
            "strength": 0,
            "traits": ["jinxed"] if jinxed else [],
            "body_mods": [],
        },
        "weapon": weapon,
        "target": target_sheet(),
        "situation": {"cover": cover, "long_range": long_range, "surrounded": surrounded, "modifier": modifier},
    }
    total = 1 - 4 * cover - 2 * long_range + modifier  # "in cover or melee -4", "over 12\" away -2"
    same(odds(request)["exact"]["to_hit"], auto_hit(total, dice, jinxed, surrounded))


# --------------------------------------------------------------------------
# the seeded rolls, every face they can ask for
# --------------------------------------------------------------------------


class Scripted(random.Random):
    """Answers ``randint`` from a prefix of faces, then with the lowest face, and records every call."""

    def __init__(self, prefix):
        super().__init__(0)
        self.prefix, self.calls = list(prefix), []

    def randint(self, a, b):
        face = self.prefix[len(self.calls)] if len(self.calls) < len(self.prefix) else a
        self.calls.append((a, b, face))
        return face


def every_sequence(roll):
    """The outcome's distribution over every sequence of faces ``roll(rng)`` can draw."""
    out, todo = defaultdict(F), [()]
    while todo:
        prefix = todo.pop()
        rng = Scripted(prefix)
        result = roll(rng)
        p = F(1)
        for a, b, _ in rng.calls:
            p /= b - a + 1
        out[result] += p
        faces = [face for _, _, face in rng.calls]
        for i in range(len(prefix), len(rng.calls)):
            a, b, _ = rng.calls[i]
            todo += [tuple(faces[:i]) + (f,) for f in range(a + 1, b + 1)]
    return out


@pytest.mark.parametrize("modifier,jinxed", [(-25, False), (0, True), (10, False), (25, True)])
def test_seeded_tests_follow_the_odds(modifier, jinxed):
    seeded = every_sequence(lambda rng: rolls.test(rng, modifier, jinxed).outcome)
    same(seeded, odds({"roll": "test", "modifier": modifier, "jinxed": jinxed})["exact"])


@pytest.mark.parametrize(
    "dice,keywords,armor,wounds,shield",
    [(0, [], 0, 3, False), (1, [], 0, 0, False), (2, ["Energy"], 1, 2, True), (3, ["Overkill"], 2, 0, True)],
)
def test_seeded_damage_follows_the_odds(dice, keywords, armor, wounds, shield):
    seeded = every_sequence(
        lambda rng: rolls.damage(rng, dice, cn.Keywords.parse(keywords), armor, wounds, shield).outcome
    )
    request = {"roll": "damage", "dice": dice, "keywords": keywords, "armor": armor, "wounds": wounds}
    same(seeded, odds(request | {"shield": shield})["exact"])


def test_seeded_morale_follows_the_odds():
    seeded = every_sequence(lambda rng: rolls.morale(rng, 1, 3, 1, 1).outcome)
    answer = odds({"roll": "morale", "discipline": 1, "dread": 3, "wounds": 1, "allies_in_los": 1})["exact"]
    same(seeded, {k: v for k, v in answer.items() if k not in ("flees", "becomes_npc")})
