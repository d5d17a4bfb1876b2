"""What a rolled test does once its window closes: the one registry every test kind writes to.

Every Attribute Test the battle rolls for a model goes through ``actions.roll_with_cards``:
the card armed on the model is applied (an Ace passes it unrolled, a numbered card is added),
the roll is logged, and a ``test`` window is held open (a Jack, a Dread re-roll, a trait or
body-mod re-roll, a Joker against any of those cards) until the model's player lets it stand.
``actions.resolve_test`` then calls the continuation its test kind registered here under the
window's ``then`` name, with the test's final outcome. The test kinds live in their own
modules (actions, morale, scenario steps); this module imports none of them, so each can
register without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable

# then -> continuation(state, seat, model, outcome, pending, rng, seed) -> state
AFTER: dict[str, Callable] = {}


def after_test(then: str) -> Callable[[Callable], Callable]:
    """Register what closing a ``then`` test's window does."""

    def register(continuation: Callable) -> Callable:
        AFTER[then] = continuation
        return continuation

    return register


# then -> continuation(state, seat, target, hit, steps, hit_plan, data, rng, seed) -> state: a hit outside an
# attack (a burn, a trap, a Bolt, Gut Twist, a discharge, Unstable) once every test of its target stood (``actions.hit_with_cards``)
AFTER_HIT: dict[str, Callable] = {}


def after_hit(then: str) -> Callable[[Callable], Callable]:
    """Register what a finished hit outside an attack does."""

    def register(continuation: Callable) -> Callable:
        AFTER_HIT[then] = continuation
        return continuation

    return register
