"""The battle tracker's odds table: each of the active model's weapons against every enemy (make bench).

7 x 7 pairs (a model with seven weapons, seven enemies of varied profiles), exact
fractions from the one Cybernekr0 engine. Prints figures and the ratio to the
20 ms target; asserts nothing.
"""

import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import dice  # noqa: E402
from rules.cybernekro import engine as cn  # noqa: E402
from rules.cybernekro.battle import odds_table, setup  # noqa: E402
from rules.cybernekro.battle.state import Model, WeaponUse  # noqa: E402

TARGET_MS = 20.0
WEAPONS = (
    ("fists", 1, None, ["Feeble"]),
    ("energy-weapon", 3, None, ["Energy"]),
    ("industrial-tool", 3, None, ["Brutal", "Overkill", "Piercing 2", "Unwieldy"]),
    ("heavy-weapon", 3, None, ["Heavy 2", "Stagger"]),
    ("auto-rifle", 2, 24, ["Auto 2"]),
    ("chain-gun", 3, 24, ["Auto 3", "Stagger", "Unwieldy"]),
    ("grenade-launcher", 4, 18, ["Reload", "Splash"]),
)


def battle():
    weapons = tuple(WeaponUse(s, s, cn.Weapon(d, r, cn.Keywords.parse(k), s)) for s, d, r, k in WEAPONS)
    ours = [Model(f"a{i}", f"a{i}", "A", agility=1, discipline=1, strength=2, weapons=weapons) for i in range(7)]
    profiles = [
        dict(armor=a, toughness=t, wounds=w, prone=p, traits=frozenset(tr), gear=frozenset(g))
        for a, t, w, p, tr, g in (
            (0, 0, 0, False, (), ()),
            (1, 1, 2, False, ("big",), ()),
            (2, -1, 0, True, (), ("shield",)),
            (3, 2, 4, False, ("demonic",), ()),
            (1, 0, 1, False, ("one-shotter",), ("stealth-suit",)),
            (4, 3, 0, False, ("artificial",), ("tower-shield",)),
            (2, 1, 5, True, ("small", "jinxed"), ()),
        )
    ]
    theirs = [replace(Model(f"b{i}", f"b{i}", "B"), **profiles[i]) for i in range(7)]
    state = setup.new_battle([("A", "Ann"), ("B", "Bob")], ours + theirs, "quick-start-scenario", random.Random(1), 1)
    return state


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


def timed(fn, repeat):
    """(wall, CPU) medians: on a shared machine the CPU time is the table's own cost."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def report():
    state = battle()
    cells = odds_table.weapon_odds(state, "a0")
    assert len(cells) == 49

    def cold():
        clear_caches()
        odds_table.weapon_odds(state, "a0")

    def warm():
        odds_table.weapon_odds(state, "a0")

    # a wounded target: the table after one hit (new plans, warm dice caches)
    hurt = state.with_model(replace(state.model("b0"), wounds=3))

    def after_a_hit():
        cn.attack_odds_for_plan.cache_clear()
        cn.hit_outcome_distribution.cache_clear()
        odds_table.weapon_odds(hurt, "a0")

    t_cold, t_hit, t_warm = timed(cold, 11), timed(after_a_hit, 21), timed(warm, 101)
    print("battle odds table: 7 weapons x 7 enemies = 49 exact attack odds")
    for label, (wall, cpu) in (("empty caches   ", t_cold), ("plans uncached ", t_hit), ("cached         ", t_warm)):
        print(
            f"  {label}: {wall * 1000:8.2f} ms wall, {cpu * 1000:8.2f} ms CPU   target < {TARGET_MS:.0f} ms"
            f"   ratio to target (CPU) {cpu * 1000 / TARGET_MS:5.2f}"
        )


if __name__ == "__main__":
    report()
