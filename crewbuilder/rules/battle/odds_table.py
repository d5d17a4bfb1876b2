"""The exact odds of each of the active model's weapons against every enemy in play.

One ``cn.attack_odds_for_plan`` per (weapon, enemy) pair, planned by
``actions.plan`` exactly as the roll would be (this battle's complications and
environmental effect, the target's Wounds, Prone, armor and traits), so the
table and the dice cannot disagree. Up to 7 x 7 pairs; the engine's caches
make repeated tables cheap (benchmarks/bench_battle.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from crewbuilder.rules import cybernekro as cn
from crewbuilder.rules.battle.actions import plan
from crewbuilder.rules.battle.state import Battle, Refused


@dataclass(frozen=True)
class Cell:
    weapon: str
    target: str
    action: str
    odds: cn.AttackOdds | None     # None: the weapon cannot make this attack (reason says why)
    reason: str = ""


def weapon_odds(state: Battle, model_id: str, situations: dict | None = None) -> tuple[Cell, ...]:
    """Every (weapon, enemy) pair of ``model_id``; ``situations`` maps a target id to the conditions the
    players ticked for it (cover, range, surrounded ...)."""
    model = state.model(model_id)
    situations = situations or {}
    cells = []
    for enemy in state.enemies_of(model):
        situation = situations.get(enemy.id, cn.Situation())
        for use in model.weapons:
            try:
                action, planned = plan(state, model, use.slug, enemy, situation)
            except Refused as error:
                cells.append(Cell(use.slug, enemy.id, "", None, str(error)))
                continue
            reason = "jammed: Fix/Reload first" if use.slug in model.jammed else ""
            cells.append(Cell(use.slug, enemy.id, action.value, cn.attack_odds_for_plan(planned), reason))
    return tuple(cells)
