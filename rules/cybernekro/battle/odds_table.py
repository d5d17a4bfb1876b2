"""The exact odds of each of the active model's weapons against every enemy in play.

One ``cn.attack_odds_for_plan`` per (weapon, enemy) pair, planned by
``actions.plan`` exactly as the roll would be (this battle's complications and
environmental effect, the target's Wounds, Prone, armor and traits), so the
table and the dice cannot disagree. Up to 7 x 7 pairs; the engine's caches
make repeated tables cheap (benchmarks/bench_battle.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import fate
from rules.cybernekro.battle.actions import plan
from rules.cybernekro.battle.state import Battle, Refused


@dataclass(frozen=True)
class Cell:
    weapon: str
    target: str
    action: str
    odds: cn.AttackOdds | None  # None: the weapon cannot make this attack (reason says why)
    reason: str = ""


def card_for(state: Battle, model_id: str, seat: str | None) -> tuple | None:
    """The card played on the model's next test that ``seat`` may know of: an Ace (shown to all) or its own
    face-down number; another player's face-down card stays out of the odds (it is hidden)."""
    for armed in state.armed:
        if armed[1] == model_id and (fate.kind(armed[2]) == "ace" or armed[0] == seat):
            return armed
    return None


def with_card(planned: cn.AttackPlan, armed: tuple | None) -> cn.AttackOdds:
    """The attack's odds with the card played on its hit roll ("The odds account for the card that was played")."""
    if armed is None:
        return cn.attack_odds_for_plan(planned)
    if fate.kind(armed[2]) == "ace":  # "automatically pass that test without rolling": a plain success
        target = dict.fromkeys(cn.TargetState, cn.ZERO)
        expected = cn.ZERO
        for (group, gained), q in cn.hit_outcome_distribution(planned.hit, False).items():
            target[group] += q
            expected += q * gained
        to_hit = {
            cn.Outcome.CRITICAL: cn.ZERO,
            cn.Outcome.SUCCESS: cn.ONE,
            cn.Outcome.FAILURE: cn.ZERO,
            cn.Outcome.FUMBLE: cn.ZERO,
        }
        return cn.AttackOdds(to_hit, target, expected)
    return cn.attack_odds_for_plan(
        replace(planned, to_hit=replace(planned.to_hit, modifier=planned.to_hit.modifier + armed[3]))
    )


def weapon_odds(
    state: Battle, model_id: str, situations: dict | None = None, seat: str | None = None
) -> tuple[Cell, ...]:
    """Every (weapon, enemy) pair of ``model_id``; ``situations`` maps a target id to the conditions the
    players ticked for it (cover, range, surrounded ...); ``seat``: whose screen (the cards it may know)."""
    model = state.model(model_id)
    situations = situations or {}
    armed = card_for(state, model_id, seat)
    cells = []
    for enemy in state.enemies_of(model):
        situation = situations.get(enemy.id, cn.Situation())
        for use in model.weapons:
            try:
                action, planned = plan(state, model, use.slug, enemy, situation)
            except Refused as error:
                cells.append(Cell(use.slug, enemy.id, "", None, str(error)))
                continue
            reason = (
                "jammed: Fix it first"
                if use.slug in model.jammed
                else "unloaded: Reload first"
                if use.slug in model.unloaded
                else ""
            )
            cells.append(Cell(use.slug, enemy.id, action.value, with_card(planned, armed), reason))
    return tuple(cells)
