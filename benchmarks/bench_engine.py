"""Exact attack odds versus simulation (make bench). Prints figures, asserts nothing."""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crewbuilder.rules import cybernekro as cn  # noqa: E402
from crewbuilder.rules import dice  # noqa: E402
from crewbuilder.rules import exact, rolling  # noqa: E402

# Worst case of the issue: 5 damage dice, Overkill, Energy; plus Strength bonus die,
# a shield re-rolling 6s, Brutal, Surrounded re-rolls, a wounded Demonic target.
ATTACKER = exact.Attacker(agility=1, strength=3)
WEAPON = exact.Weapon(5, None, exact.Keywords.parse(["Overkill", "Energy", "Brutal"]))
TARGET = exact.Target(toughness=2, strength=0, armor=2, wounds=3, traits=frozenset({"demonic"}), gear=frozenset({"shield"}))
SITUATION = exact.Situation(surrounded=True)


def clear_caches():
    for fn in (exact.test_distribution, exact.die_faces, exact.damage_sum_distribution,
               exact.damage_row_distribution, exact.single_hit_roll):
        fn.cache_clear()


def timed(fn, repeat):
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def uncached():
    clear_caches()
    exact.attack_odds("fight", ATTACKER, WEAPON, TARGET, SITUATION)


def cached():
    exact.attack_odds("fight", ATTACKER, WEAPON, TARGET, SITUATION)


def simulate(samples=100_000):
    rng = random.Random(1)
    for _ in range(samples):
        rolling.roll_attack(rng.getrandbits(32), "fight", ATTACKER, WEAPON, TARGET, SITUATION)


PLAIN = (exact.Attacker(agility=1, strength=0), exact.Weapon(5, None, exact.Keywords.parse(["Overkill", "Energy"])),
         exact.Target(toughness=1, strength=0, armor=1, wounds=0), exact.Situation())


def plain_uncached():
    clear_caches()
    exact.attack_odds("fight", *PLAIN)


# --- the same chains on crewbuilder/rules/cybernekro.py (the engine kept for reconciliation) ---

CN_CASES = {
    "issue's case (5 dice, Overkill, Energy)": (
        "fight", cn.Attacker(agility=1, strength=0), cn.Weapon(5, None, cn.Keywords.parse(["Overkill", "Energy"])),
        cn.Target(toughness=1, strength=0, armor=1, wounds=0), cn.Situation()),
    "heavier chain (+ Strength die, shield, Brutal, Surrounded, Demonic)": (
        "fight", cn.Attacker(agility=1, strength=3),
        cn.Weapon(5, None, cn.Keywords.parse(["Overkill", "Energy", "Brutal"])),
        cn.Target(toughness=2, strength=0, armor=2, wounds=3, traits=frozenset({"demonic"}),
                  gear=frozenset({"shield"})),
        cn.Situation(surrounded=True)),
}


def cn_clear_caches():
    for fn in (cn.attack_odds_for_plan, cn.hit_outcome_distribution, cn.damage_row_distribution,
               cn.hit_roll_distribution, cn.test_distribution, dice.damage_pool_distribution,
               dice.damage_pool_counts, dice._pool_summary, dice.face_weights):
        fn.cache_clear()


def cn_report():
    for label, case in CN_CASES.items():
        def uncached_cn():
            cn_clear_caches()
            cn.attack_odds(*case)

        def cached_cn():
            cn.attack_odds(*case)

        def simulate_cn(samples=100_000):
            rng = random.Random(1)
            plan = cn.plan_attack(*case)  # planned once; every sample rolls its own dice
            for _ in range(samples):
                cn.roll_planned_attack(rng, plan, log=False)

        t_u = timed(uncached_cn, 51)
        cached_cn()
        t_c = timed(cached_cn, 501)
        t_s = timed(simulate_cn, 1)
        print(f"cybernekro.py, {label}")
        print(f"  exact, empty cache : {t_u * 1000:9.3f} ms (median of 51)   target <= 2 ms")
        print(f"  exact, cached      : {t_c * 1000:9.3f} ms (median of 501)")
        print(f"  simulation 100 000 : {t_s * 1000:9.1f} ms (one run)")
        print(f"  ratio simulation / exact uncached: {t_s / t_u:,.0f}x   target >= 500x")
        print(f"  ratio simulation / exact cached  : {t_s / t_c:,.0f}x")


if __name__ == "__main__":
    if "--cybernekro" in sys.argv:
        cn_report()
        sys.exit(0)
    t_plain = timed(plain_uncached, 25)
    print("Exact attack chain, the issue's case (5 damage dice, Overkill, Energy)")
    print(f"  exact, empty cache : {t_plain * 1000:9.3f} ms (median of 25)   target <= 2 ms")
    t_uncached = timed(uncached, 25)
    cached()
    t_cached = timed(cached, 200)
    t_sim = timed(simulate, 1)
    print("Heavier chain (5 dice + Strength die, Overkill, Energy, shield, Brutal, Surrounded, Demonic)")
    print(f"  exact, empty cache : {t_uncached * 1000:9.3f} ms (median of 25)   target <= 2 ms")
    print(f"  exact, cached      : {t_cached * 1000:9.3f} ms (median of 200)")
    print(f"  simulation 100 000 : {t_sim * 1000:9.1f} ms (one run)")
    print(f"  ratio simulation / exact uncached: {t_sim / t_uncached:,.0f}x   target >= 500x")
    print()
    cn_report()
