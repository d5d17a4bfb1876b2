"""Seeded rolls replay exactly and agree with the exact odds."""

import math
import random

import pytest

from crewbuilder.rules import exact, rolling

AXE = exact.Weapon(2, None, exact.Keywords.parse(["Piercing 2"]))
ATTACKER = exact.Attacker(agility=1, strength=2)
TARGET = exact.Target(toughness=1, armor=1)


def test_same_seed_same_dice():
    a = rolling.roll_attack(42, "fight", ATTACKER, AXE, TARGET, exact.Situation())
    b = rolling.roll_attack(42, "fight", ATTACKER, AXE, TARGET, exact.Situation())
    assert a == b
    assert a.steps[0].dice and 1 <= a.steps[0].dice[0] <= 20


def test_damage_log_marks_kept_and_dropped_dice():
    for seed in range(200):
        log = rolling.roll_damage(seed, 4, keywords=["Overkill"])
        step = log.steps[0]
        assert sorted(step.kept + step.dropped, reverse=True) == sorted(step.dice, reverse=True)
        assert len(step.kept) == min(3, len(step.dice))
        assert (len(step.dice) == 5) == (6 in step.dice[:4])


@pytest.mark.parametrize(
    "attacker, weapon, target, situation",
    [
        (ATTACKER, AXE, TARGET, exact.Situation()),
        (exact.Attacker(discipline=2), exact.Weapon(3, 24, exact.Keywords.parse(["Auto 3", "Stagger"])),
         exact.Target(toughness=0, armor=2, wounds=2, traits=frozenset(),
                      body_mods=frozenset({"extra-organs"})), exact.Situation(surrounded=True)),
        (exact.Attacker(agility=0, strength=0), exact.Weapon(3, None, exact.Keywords.parse(["Brutal", "Overkill"])),
         exact.Target(toughness=2, prone=True, traits=frozenset({"demonic"}), gear=frozenset({"shield"})), exact.Situation()),
    ],
)
def test_seeded_simulation_agrees_with_exact_odds(attacker, weapon, target, situation):
    action = "fight" if weapon.range is None else "shoot"
    exact_groups = exact.attack_odds(action, attacker, weapon, target, situation)["target"]
    samples = 100_000
    counts = {k: 0 for k in exact_groups}
    master = random.Random(2026)
    for _ in range(samples):
        counts[rolling.roll_attack(master.getrandbits(32), action, attacker, weapon, target, situation).outcome] += 1
    for group, p in exact_groups.items():
        p = float(p)
        se = math.sqrt(max(p * (1 - p), 1e-12) / samples)
        assert abs(counts[group] / samples - p) <= 4 * se + 1e-9, (group, counts[group] / samples, p)


def test_morale_roll_is_a_test_per_dread():
    log = rolling.roll_morale(7, discipline=0, dread=3, allies_in_los=1)
    assert len([s for s in log.steps if s.label.startswith("Morale test")]) == 3
