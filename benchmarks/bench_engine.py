"""Exact attack odds versus simulation on the one Cybernekr0 engine (make bench). Prints figures, asserts nothing."""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import dice, rolls  # noqa: E402
from rules.cybernekro import engine as cn  # noqa: E402

# The case (5 damage dice, Overkill, Energy), then a heavier chain: plus the
# Strength bonus die, a shield re-rolling 6s, Brutal, Surrounded re-rolls, a wounded Demonic target.
CASES = {
    "issue's case (5 dice, Overkill, Energy)": (
        "fight",
        cn.Attacker(agility=1, strength=0),
        cn.Weapon(5, None, cn.Keywords.parse(["Overkill", "Energy"])),
        cn.Target(toughness=1, strength=0, armor=1, wounds=0),
        cn.Situation(),
    ),
    "heavier chain (+ Strength die, shield, Brutal, Surrounded, Demonic)": (
        "fight",
        cn.Attacker(agility=1, strength=3),
        cn.Weapon(5, None, cn.Keywords.parse(["Overkill", "Energy", "Brutal"])),
        cn.Target(
            toughness=2, strength=0, armor=2, wounds=3, traits=frozenset({"demonic"}), gear=frozenset({"shield"})
        ),
        cn.Situation(surrounded=True),
    ),
}


def timed(fn, repeat):
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def clear_caches():
    for fn in (
        cn.attack_odds_for_plan,
        cn.hit_outcome_distribution,
        cn.damage_row_distribution,
        cn.hit_roll_distribution,
        cn.test_distribution,
        dice.damage_pool_distribution,
        dice.damage_pool_counts,
        dice._pool_summary,
        dice.face_weights,
    ):
        fn.cache_clear()


def report():
    for label, case in CASES.items():

        def uncached():
            clear_caches()
            cn.attack_odds(*case)

        def cached():
            cn.attack_odds(*case)

        plan = cn.plan_attack(*case)  # planned once; every sample rolls its own dice

        def simulate(samples=100_000):
            rng = random.Random(1)
            for _ in range(samples):
                cn.roll_planned_attack(rng, plan, log=False)

        def logged(samples=10_000):
            master = random.Random(1)
            for _ in range(samples):
                seed = master.getrandbits(32)
                rolls.planned_attack(random.Random(seed), plan, seed)

        t_u = timed(uncached, 51)
        cached()
        t_c = timed(cached, 501)
        t_s = timed(simulate, 1)
        t_l = timed(logged, 1)
        print(f"cybernekro.py, {label}")
        print(f"  exact, empty cache : {t_u * 1000:9.3f} ms (median of 51)   target <= 2 ms")
        print(f"  exact, cached      : {t_c * 1000:9.3f} ms (median of 501)")
        print(f"  simulation 100 000 : {t_s * 1000:9.1f} ms (one run, no log)")
        print(f"  ratio simulation / exact uncached: {t_s / t_u:,.0f}x   target >= 500x")
        print(f"  ratio simulation / exact cached  : {t_s / t_c:,.0f}x")
        print(f"  rolls.py, one logged roll (the dice assistant): {t_l / 10_000 * 1e6:7.1f} µs")


if __name__ == "__main__":
    report()
