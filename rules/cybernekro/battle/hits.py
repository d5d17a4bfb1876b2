"""The reference engine's hit process, run up to the target's next Attribute Test and resumed after it.

``cn.hit_process`` rolls a whole hit in one go (damage row, Tough it Out, the critical Wound,
Extra organs, Stagger). In a battle each of the target's tests is held open for the fate cards
(B35), so the hit is replayed: the draws already made are fed back in order (``decided``), new
dice are rolled, and the run stops at the first test not yet decided (:class:`HitTest`). The
engine's process is not copied: the same function decides, only the dice are supplied.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn


class HitTest(Exception):
    """The hit reached a test of the target: roll it with the cards, then resume with its outcome."""

    def __init__(self, event: cn.TestEvent, decided: tuple):
        super().__init__(event.what)
        self.event = event
        self.decided = decided  # (value, log) of every draw before it, stored as plain values


def _plain(value):
    if isinstance(value, cn.Outcome):
        return value.value
    if isinstance(value, cn.Row):
        return int(value)
    return value


def _typed(event, value):
    if isinstance(event, cn.TestEvent):
        return cn.Outcome(value)
    if isinstance(event, cn.DamageRowEvent):
        return cn.Row(value)
    return value


def replay_hit(
    plan: cn.HitPlan, critical: bool, decided: tuple, rng: random.Random
) -> tuple[cn.HitState, tuple[dict, ...]]:
    """The hit's result and the log of every draw, or :class:`HitTest` at the first undecided test."""
    known = list(decided)
    taken: list[tuple] = []

    def draw(event):
        if known:
            value, log = known.pop(0)
            taken.append((value, log))
            return _typed(event, value)
        if isinstance(event, cn.TestEvent):
            raise HitTest(event, tuple(taken))
        value, log = event.roll(rng)
        taken.append((_plain(value), log))
        return value

    # Stagger: "When hit the target must pass a Toughness test" (B66): rolled at the table even when its failure
    # only pushes the target back 1", which the players then move
    hit = cn.hit_process(draw, replace(plan, stagger_push=plan.stagger), critical)
    return hit, tuple(log for _, log in taken)
