"""rules/rolls.py: seeded step-by-step rolls over the reference engine.

Replays give identical logs; the generator passed in is the only one used; the
logs show every die with what counted; a seeded simulation of each roll agrees
with the exact odds of ``rules.odds`` / ``cybernekro`` within four
standard errors; a seeded attack ends exactly as ``cybernekro.roll_attack``.
"""

import math
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from rules import odds, rolls
from rules.cybernekro import engine as cn
from rules.cybernekro.engine import Outcome, TargetState

AXE = cn.Weapon(2, None, cn.Keywords.parse(["Piercing 2"]), "axe")
ATTACKER = cn.Attacker(agility=1, strength=2)
TARGET = cn.Target(toughness=1, armor=1)

ATTACKS = [
    ("fight", ATTACKER, AXE, TARGET, cn.Situation()),
    (
        "shoot",
        cn.Attacker(discipline=2),
        cn.Weapon(3, 24, cn.Keywords.parse(["Auto 3", "Stagger"]), "chain-gun"),
        cn.Target(toughness=0, armor=2, wounds=2, body_mods=frozenset({"extra-organs"})),
        cn.Situation(surrounded=True, stagger_into_obstacle=True),
    ),
    (
        "fight",
        cn.Attacker(agility=0, strength=0),
        cn.Weapon(3, None, cn.Keywords.parse(["Brutal", "Overkill"]), "x"),
        cn.Target(toughness=2, prone=True, traits=frozenset({"demonic"}), gear=frozenset({"shield"})),
        cn.Situation(),
    ),
    (
        "fight",
        cn.Attacker(agility=2, strength=1),
        cn.Weapon(2, None, cn.Keywords.parse(["Energy"]), "y"),
        cn.Target(toughness=3, armor=1, traits=frozenset({"monstrous"})),
        cn.Situation(),
    ),
]


def _roll_all(seed):
    """One of every roll from ``random.Random(seed)``."""
    return [
        rolls.attack(random.Random(seed), *ATTACKS[1], seed=seed),
        rolls.test(random.Random(seed), 2, True, seed=seed),
        rolls.damage(
            random.Random(seed), 4, cn.Keywords.parse(["Overkill", "Energy", "Piercing 1"]), 2, 1, True, seed=seed
        ),
        rolls.neural_overload(random.Random(seed), 3, seed=seed),
        rolls.morale(random.Random(seed), -1, 4, 1, 2, frozenset({"demonic"}), seed=seed),
        rolls.panic(random.Random(seed), 6, 2, seed=seed),
        rolls.ghoul_dice(random.Random(seed), 3, seed=seed),
    ]


# --- replay ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1])
def test_the_same_seed_gives_identical_logs(seed):
    first, again = _roll_all(seed), _roll_all(seed)
    assert first == again
    for roll in first:
        assert roll.seed == seed and roll.steps and roll.summary
        assert any(step.dice for step in roll.steps), roll.kind


def test_replay_helper_is_random_random_of_the_seed():
    assert rolls.replay(rolls.morale, 77, 0, 3) == rolls.morale(random.Random(77), 0, 3, seed=77)


def test_the_module_level_generator_is_never_used(monkeypatch):
    expected = _roll_all(9)

    def forbidden(*args, **kwargs):
        raise AssertionError("the global random generator was used")

    for name in ("random", "randint", "randrange", "choice", "getrandbits", "shuffle", "sample"):
        monkeypatch.setattr(random, name, forbidden)
    assert _roll_all(9) == expected


def test_different_seeds_give_different_dice():
    dice = {tuple(d for s in rolls.damage(random.Random(seed), 5).steps for d in s.dice) for seed in range(50)}
    assert len(dice) > 40


# --- the same decisions as the reference engine ------------------------------------


@pytest.mark.parametrize("case", range(len(ATTACKS)))
@pytest.mark.parametrize("seed", range(150))
def test_a_seeded_attack_ends_as_the_engines_own_roll(case, seed):
    roll = rolls.attack(random.Random(seed), *ATTACKS[case], seed=seed)
    engine = cn.roll_attack(random.Random(seed), *ATTACKS[case], seed=seed)
    assert roll.outcome == engine.state.value
    assert roll.get("to_hit") == engine.to_hit.value
    assert roll.get("wounds_gained") == engine.wounds_gained
    # the dice shown are the dice the engine rolled, in order
    engine_d20 = [d for step in engine.steps if "d20" in step for d in (*step.get("rerolled", []), *step["d20"])]
    shown_d20 = [d for step in roll.steps if "D6" not in step.label for d in step.dice]
    assert shown_d20 == engine_d20


@pytest.mark.parametrize("seed", range(100))
def test_quick_rolls_follow_the_engines_functions(seed):
    test = rolls.test(random.Random(seed), 1, seed=seed)
    assert test.outcome == cn.roll_test(random.Random(seed), 1).outcome.value
    kw = cn.Keywords.parse(["Overkill", "Electric"])
    damage = rolls.damage(random.Random(seed), 3, kw, 4, 2, seed=seed)
    assert damage.outcome == cn.roll_damage(random.Random(seed), 3, kw, 4, 2)[0].key
    morale = rolls.morale(random.Random(seed), 0, 3, 0, 1, frozenset({"lobotomised"}), seed=seed)
    engine = cn.roll_morale(random.Random(seed), 0, 3, 0, 1, lobotomised=True)
    assert (int(morale.outcome), morale.get("flees"), morale.get("becomes_npc")) == (
        engine.dread_left,
        engine.flees,
        engine.becomes_npc,
    )


def test_critical_tough_it_out_and_surrounded_steps_are_shown():
    labels = set()
    for seed in range(400):
        roll = rolls.attack(random.Random(seed), "fight", ATTACKER, AXE, TARGET, cn.Situation(surrounded=True))
        labels |= {step.label for step in roll.steps}
        assert roll.steps[-1].label == "Result"
    assert {
        "Critical hit",
        "Tough it Out (Toughness test)",
        "Surrounded: the failed hit roll is re-rolled once",
        "Damage roll: 3D6 + one bonus D6 for the 6",
        "Damage table",
    } <= labels


def test_monstrous_tough_it_out_is_automatic_and_never_rolled():
    for seed in range(200):
        roll = rolls.attack(random.Random(seed), *ATTACKS[3], seed=seed)
        assert not any(step.label.startswith("Tough it Out (") for step in roll.steps)
        assert roll.outcome != "prone"


# --- what the logs show -------------------------------------------------------------


def test_damage_log_marks_kept_and_dropped_dice():
    seen_bonus = False
    for seed in range(300):
        roll = rolls.damage(random.Random(seed), 4, cn.Keywords.parse(["Overkill"]))
        step = roll.steps[0]
        assert sorted(step.kept + step.dropped) == sorted(step.dice)
        assert len(step.kept) == min(3, len(step.dice))
        assert sorted(step.kept, reverse=True) == sorted(step.dice, reverse=True)[:3]
        has_bonus = len(step.dice) == 5
        assert has_bonus == (6 in step.dice[:4])
        seen_bonus |= has_bonus
        assert f"= {sum(step.kept)}" in step.result
    assert seen_bonus


def test_energy_rerolls_are_shown():
    seen = False
    for seed in range(100):
        step = rolls.damage(random.Random(seed), 3, cn.Keywords.parse(["Energy"])).steps[0]
        for before, _after in step.rerolled:
            assert before == 1
            seen = True
    assert seen


def test_auto_shows_every_d20_and_marks_the_highest():
    for seed in range(100):
        roll = rolls.attack(random.Random(seed), *ATTACKS[1], seed=seed)
        first = roll.steps[0]
        assert first.label.startswith("To hit (Auto 3") and len(first.dice) == 3
        assert first.kept == (max(first.dice),) and len(first.dropped) == 2


def test_ghoul_dice_mark_the_chosen_pair_and_the_terror_card():
    for seed in range(100):
        roll = rolls.ghoul_dice(random.Random(seed), 3, seed=seed)
        chosen = roll.steps[1]
        assert sorted(chosen.kept) == sorted(chosen.dice)[1:]
        assert (roll.outcome == "terror") == (sum(chosen.dice) <= 7)


def test_ghoul_battle_log_follows_the_rules_example():
    assert rolls.ghoul_battle(5, 2, 1, (3, 2), (2, 1), (3,)).summary == "won: 2 Victory Points"
    assert rolls.ghoul_battle(5, 2, 1, (3, 2), (2, 1)).summary == "lost: 2 wounds"


# --- seeded simulation against the exact odds ---------------------------------------


def _agree(exact: dict, counts: Counter, samples: int):
    assert sum(exact.values()) == 1  # exactly: Fractions
    for key, p in exact.items():
        p = float(p)
        se = math.sqrt(p * (1 - p) / samples)
        assert abs(counts[key] / samples - p) <= 4 * se + 1e-12, (key, counts[key] / samples, p)
    assert set(counts) <= set(exact)


@pytest.mark.parametrize("case", range(len(ATTACKS)))
def test_seeded_attacks_agree_with_the_exact_odds(case):
    exact = cn.attack_odds(*ATTACKS[case])
    plan = cn.plan_attack(*ATTACKS[case])
    master = random.Random(2026 + case)
    samples = 40_000
    counts = Counter(rolls.planned_attack(random.Random(master.getrandbits(32)), plan).outcome for _ in range(samples))
    _agree({state.value: p for state, p in exact.target.items()}, counts, samples)
    assert sum(exact.to_hit.values()) == 1


def _simulate(fn, samples=40_000, seed=11):
    master = random.Random(seed)
    return Counter(fn(random.Random(master.getrandbits(32))).outcome for _ in range(samples)), samples


def test_seeded_quick_rolls_agree_with_the_exact_odds():
    exact = odds({"roll": "test", "modifier": 3, "jinxed": True})["exact"]
    _agree({k: F(v) for k, v in exact.items()}, *_simulate(lambda r: rolls.test(r, 3, True)))

    exact = odds(
        {
            "roll": "damage",
            "dice": 3,
            "keywords": ["Overkill", "Energy", "Piercing 1"],
            "armor": 2,
            "wounds": 1,
            "shield": True,
        }
    )["exact"]
    kw = cn.Keywords.parse(["Overkill", "Energy", "Piercing 1"])
    _agree({k: F(v) for k, v in exact.items()}, *_simulate(lambda r: rolls.damage(r, 3, kw, 2, 1, True)))

    exact = odds({"roll": "neural-overload", "dread": 4})["exact"]
    _agree({k: F(v) for k, v in exact.items()}, *_simulate(lambda r: rolls.neural_overload(r, 4)))

    exact = odds(
        {
            "roll": "morale",
            "discipline": -1,
            "dread": 4,
            "wounds": 1,
            "allies_in_los": 2,
            "traits": ["demonic", "driven-by-madness"],
        }
    )["exact"]
    dread_left = {k: F(v) for k, v in exact.items() if k.isdigit()}
    traits = frozenset({"demonic", "driven-by-madness"})
    _agree(dread_left, *_simulate(lambda r: rolls.morale(r, -1, 4, 1, 2, traits)))

    exact = odds({"roll": "panic", "nerve": 6, "tokens": 3})["exact"]
    _agree({k: F(v) for k, v in exact.items()}, *_simulate(lambda r: rolls.panic(r, 6, 3)))

    exact = odds({"roll": "ghoul-dice", "dice": 3})["exact"]
    terror = {("terror" if k == "yes" else "no-terror"): F(v) for k, v in exact["terror"].items()}
    _agree(terror, *_simulate(lambda r: rolls.ghoul_dice(r, 3)))


# --- exact distributions: brute force and sums --------------------------------------


def _brute_rows(n, keep, reroll, armor, wounds):
    """Rows of a damage roll by listing every die (first roll and its re-roll) and the bonus die."""

    def die():
        for first in range(1, 7):
            if first in reroll:
                for second in range(1, 7):
                    yield second, F(1, 36)
            else:
                yield first, F(1, 6)

    rows = dict.fromkeys(cn.Row, F(0))
    import itertools

    for combo in itertools.product(list(die()), repeat=n):
        faces = [f for f, _ in combo]
        p = math.prod(q for _, q in combo)
        for bonus, q in list(die()) if 6 in faces else [(None, F(1))]:
            rolled = faces + ([bonus] if bonus is not None else [])
            rows[cn.damage_row(sum(sorted(rolled, reverse=True)[:keep]) + wounds - armor)] += p * q
    return rows


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("armor,wounds", [(0, 0), (2, 3), (4, 0)])
@pytest.mark.parametrize(
    "keywords,shield",
    [
        ([], False),
        (["Overkill"], False),
        (["Piercing 2"], False),
        (["Electric"], False),
        (["Energy"], False),
        ([], True),
        (["Energy", "Overkill", "Piercing 1"], True),
    ],
)
def test_damage_rows_match_brute_force(n, armor, wounds, keywords, shield):
    kw = cn.Keywords.parse(keywords)
    reroll = ({1} if kw.has("energy") else set()) | ({6} if shield else set())
    reduced = cn.effective_armor(armor, kw.piercing, kw.has("electric"))
    engine = cn.damage_distribution(n, kw, armor, wounds, shield)
    assert engine == _brute_rows(n, 3 if kw.has("overkill") else 2, reroll, reduced, wounds)
    assert sum(engine.values()) == 1


def test_no_damage_dice_still_adds_wounds_minus_armor():
    # "Roll + Wounds - Armor": with no dice the roll is 0.
    assert cn.damage_distribution(0, wounds=3)[cn.Row.LIGHT] == 1
    assert cn.damage_distribution(0, armor=1, wounds=3)[cn.Row.NONE] == 1


def test_auto_two_dice_critical_and_fumble_by_counting():
    dist = cn.hit_roll_distribution(-2, False, 2)
    assert dist[Outcome.CRITICAL] == F(39, 400)  # either die a 20 (also when the other is a 1)
    assert dist[Outcome.FUMBLE] == F(37, 400)  # a 1 on either die and no 20
    assert sum(dist.values()) == 1


def _plain_fight_oracle(attr, dmg, piercing, armor, wounds, toughness, stronger, brutal):
    """A plain target, die by die: the hit, every damage die, the bonus die, Tough it Out."""
    import itertools

    groups = dict.fromkeys(TargetState, F(0))
    dice = dmg + (1 if stronger else 0)
    reduction = max(0, armor - piercing)
    order = list(cn.Row)
    for natural in range(1, 21):
        if natural == 1 or (natural != 20 and natural + attr < 11):
            groups[TargetState.UNHARMED] += F(1, 20)
            continue
        w = wounds + (1 if natural == 20 else 0)
        if w > 6:
            groups[TargetState.OUT_OF_ACTION] += F(1, 20)
            continue
        for faces in itertools.product(range(1, 7), repeat=dice):
            for b in range(1, 7) if 6 in faces else [None]:
                p = F(1, 20) * F(1, 6**dice) * (F(1, 6) if b else 1)
                row = cn.damage_row(sum(sorted(list(faces) + ([b] if b else []), reverse=True)[:2]) + w - reduction)
                outcomes = Counter()
                if row in (cn.Row.LIGHT, cn.Row.SERIOUS, cn.Row.CRITICAL):
                    for t in range(1, 21):
                        i = order.index(row)
                        mod = toughness - w - (4 if brutal else 0)
                        after = (
                            order[max(i - 2, 0)]
                            if t == 20
                            else order[min(i + 1, 4)]
                            if t == 1
                            else order[i - 1]
                            if t + mod >= 11
                            else row
                        )
                        outcomes[after] += 1
                    outcomes = {r: F(c, 20) for r, c in outcomes.items()}
                else:
                    outcomes = {row: F(1)}
                for r, q in outcomes.items():
                    gained, ww = w - wounds, w
                    if r >= cn.Row.CRITICAL:
                        groups[TargetState.OUT_OF_ACTION] += p * q
                        continue
                    if r >= cn.Row.LIGHT:
                        ww, gained = ww + 1, gained + 1
                        if ww > 6:
                            groups[TargetState.OUT_OF_ACTION] += p * q
                            continue
                    group = (
                        TargetState.PRONE
                        if r == cn.Row.SERIOUS
                        else TargetState.WOUNDED
                        if gained
                        else TargetState.UNHARMED
                    )
                    groups[group] += p * q
    return groups


@pytest.mark.parametrize(
    "attr, dmg, piercing, armor, wounds, toughness, stronger, brutal",
    [
        (1, 2, 2, 1, 0, 1, True, False),  # the odds-format.md example: axe, Strength 2 against 0
        (0, 1, 0, 0, 0, 0, False, False),
        (2, 3, 0, 2, 3, -1, False, True),
        (-1, 2, 0, 3, 6, 2, True, False),  # a critical hit's Wound is the 7th
    ],
)
def test_plain_fight_matches_a_die_by_die_oracle(attr, dmg, piercing, armor, wounds, toughness, stronger, brutal):
    keywords = (["Piercing %d" % piercing] if piercing else []) + (["Brutal"] if brutal else [])
    answer = cn.attack_odds(
        "fight",
        cn.Attacker(agility=attr, strength=2 if stronger else 0),
        cn.Weapon(dmg, None, cn.Keywords.parse(keywords)),
        cn.Target(toughness=toughness, armor=armor, wounds=wounds),
    )
    assert answer.target == _plain_fight_oracle(attr, dmg, piercing, armor, wounds, toughness, stronger, brutal)


WEAPONS = [
    "axe",
    "sword",
    "fists",
    "energy-weapon",
    "brutal-weapon",
    "industrial-tool",
    "pistol",
    "auto-rifle",
    "shotgun",
    "arc-weapon",
    "archeogun",
    "chain-gun",
    "knife",
    "flamethrower",
    "heavy-weapon",
]


def _random_attacks(seed, n):
    from rules.odds import file_weapons

    rng = random.Random(seed)
    for _ in range(n):
        weapon = rng.choice(WEAPONS)
        ranged = file_weapons(weapon)["range"] is not None
        yield {
            "roll": "attack",
            "action": "shoot" if ranged or (weapon == "knife" and rng.random() < 0.5) else "fight",
            "attacker": {
                "agility": rng.randint(-2, 3),
                "discipline": rng.randint(-2, 3),
                "strength": rng.randint(-2, 3),
                "traits": rng.sample(["jinxed", "darkborn"], rng.randint(0, 1)),
                "body_mods": rng.sample(["mechanical-claw"], rng.randint(0, 1)),
            },
            "weapon": weapon,
            "target": {
                "toughness": rng.randint(-2, 4),
                "strength": rng.randint(-2, 3),
                "armor": rng.randint(0, 4),
                "wounds": rng.randint(0, 6),
                "prone": rng.random() < 0.3,
                "traits": rng.sample(
                    ["big", "small", "artificial", "one-shotter", "demonic", "npc", "unstoppable"], rng.randint(0, 2)
                ),
                "body_mods": rng.sample(["extra-organs"], rng.randint(0, 1)),
                "gear": rng.sample(
                    ["shield", "tower-shield", "stealth-suit", "lantern", "hazard-suit"], rng.randint(0, 1)
                ),
            },
            "situation": {
                "cover": rng.random() < 0.3,
                "long_range": rng.random() < 0.3,
                "surrounded": rng.random() < 0.3,
                "modifier": rng.randint(-2, 2),
            },
        }


def test_random_attacks_sum_to_exactly_one_and_roll():
    for i, request in enumerate(_random_attacks(3, 150)):
        exact = odds(request)["exact"]
        for group in ("to_hit", "target"):
            assert sum(F(v) for v in exact[group].values()) == 1, request
        possible = {k for k, v in exact["target"].items() if F(v)}
        assert rolls.replay(_roll_request, i, request).outcome in possible


def _roll_request(rng, request, seed=None):
    """Roll an odds-format attack request (catalogue weapon slugs from the bundled file)."""
    from rules.odds import file_weapons

    a, t = request["attacker"], request["target"]
    attacker = cn.Attacker(
        a["agility"], a["discipline"], a["strength"], frozenset(a["traits"]), frozenset(a["body_mods"])
    )
    target = cn.Target(
        t["toughness"],
        t["strength"],
        t["armor"],
        t["wounds"],
        t["prone"],
        frozenset(t["traits"]),
        frozenset(t["body_mods"]),
        frozenset(t["gear"]),
    )
    w = file_weapons(request["weapon"])
    weapon = cn.Weapon(w["damage"], w.get("range"), cn.Keywords.parse(w.get("keywords", [])), w["slug"])
    return rolls.attack(
        rng, request["action"], attacker, weapon, target, cn.Situation(**request["situation"]), seed=seed
    )


# --- complications ----------------------------------------------------------------


def test_complications_fold_into_the_inputs():
    shoot = cn.apply_complications(["darkness"], "shoot", ATTACKER, TARGET, cn.Situation())
    assert shoot[2].modifier == -3
    fight = cn.apply_complications(["darkness", "partial-darkness"], "fight", ATTACKER, TARGET, cn.Situation())
    assert fight[2].modifier == 0  # only ranged attacks
    assert cn.apply_complications(["partial-darkness"], "shoot", ATTACKER, TARGET)[2].modifier == -2
    assert cn.apply_complications(["slippery-ground"], "fight", ATTACKER, TARGET)[0].agility == ATTACKER.agility - 2
    assert cn.apply_complications(["noxious-air"], "fight", ATTACKER, TARGET)[1].toughness == TARGET.toughness - 2
    for immune in (
        cn.Target(toughness=1, traits=frozenset({"artificial"})),
        cn.Target(toughness=1, gear=frozenset({"gas-mask"})),
        cn.Target(toughness=1, gear=frozenset({"powered-armor"})),
        cn.Target(toughness=1, gear=frozenset({"hazard-suit"})),
    ):
        assert cn.apply_complications(["noxious-air"], "fight", ATTACKER, immune)[1].toughness == 1
    with pytest.raises(ValueError, match="unknown complication"):
        cn.apply_complications(["fog-of-war"], "fight", ATTACKER, TARGET)


def test_slippery_ground_lowers_a_thrown_shot_but_not_a_gun():
    knife = cn.Weapon(1, None, cn.Keywords.parse(["Thrown"]), "knife")
    pistol = cn.Weapon(2, 12, cn.Keywords(), "pistol")
    attacker = cn.Attacker(agility=2, discipline=2)
    for weapon, drop in ((knife, F(2, 20)), (pistol, 0)):
        plain = cn.attack_odds("shoot", attacker, weapon, TARGET).to_hit[Outcome.SUCCESS]
        a, t, s = cn.apply_complications(["slippery-ground"], "shoot", attacker, TARGET)
        assert plain - cn.attack_odds("shoot", a, weapon, t, s).to_hit[Outcome.SUCCESS] == drop


def test_darkness_is_ignored_by_darkborn_and_against_a_light_source():
    """Darkborn: "Ignores effects of darkness but attacks models carrying a light
    source at -3 to hit." Lantern: "Models ignore darkness when targeting a model
    that is within 3" of a lantern." Spot light: "enemies also ignore darkness
    when targeting this model." Darkness: "All ranged attacks suffer a -3
    modifier"; Partial darkness: "-2" (a darkness too)."""
    darkborn = cn.Attacker(discipline=1, traits=frozenset({"darkborn"}))
    for dark in ("darkness", "partial-darkness"):
        assert cn.apply_complications([dark], "shoot", darkborn, TARGET)[2].modifier == 0
        for light in ("lantern", "spot-light"):
            lit = cn.Target(toughness=1, gear=frozenset({light}))
            assert cn.apply_complications([dark], "shoot", ATTACKER, lit)[2].modifier == 0
    # other gear is no help against darkness
    unlit = cn.Target(toughness=1, gear=frozenset({"gas-mask"}))
    assert cn.apply_complications(["darkness"], "shoot", ATTACKER, unlit)[2].modifier == -3
    # the Darkborn's own -3 against the lit target stays (it is not an effect of darkness)
    lit = cn.Target(toughness=1, gear=frozenset({"lantern"}))
    a, t, s = cn.apply_complications(["darkness"], "shoot", darkborn, lit)
    assert cn.plan_attack("shoot", a, cn.Weapon(2, 12, cn.Keywords(), "pistol"), t, s).to_hit.modifier == 1 - 3
