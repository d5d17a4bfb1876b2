"""The Slasher trial (slasher-trial.txt): Energy per Advance and action costs.

"Increase their Energy by 15" (the Monster) and "Increase the Energy of all
Living Survivors according to the formula (60 / # of Survivors). Idle
Survivors with a non-blank Status are considered to be Survivors for the
purposes of this step." Energy is a non-negative Integer, so the quotient is
rounded down (docs/rules-interpretations.md, Part 2).
"""

from __future__ import annotations

MONSTER_ENERGY_PER_ADVANCE = 15
SURVIVOR_ENERGY_POOL = 60
SURVIVOR_ACTIONS = {"move": 1, "repair": 1, "heal": 5, "rescue": 5}
MONSTER_ACTIONS = {"move": 1, "hit": 3, "cage": 3}
CAGED_HEALTH_LOSS = 10
DYING_HEALTH_LOSS = 2


def survivor_energy_per_advance(survivors: int) -> int:
    """Energy each Living Survivor gains at an Advance: 60 / number of Survivors, rounded down."""
    if survivors < 1:
        raise ValueError("an Advance needs at least one Survivor")
    return SURVIVOR_ENERGY_POOL // survivors


def action_cost(role: str, action: str) -> int:
    table = SURVIVOR_ACTIONS if role == "survivor" else MONSTER_ACTIONS if role == "monster" else None
    if table is None or action not in table:
        raise ValueError(f"no {role} action {action!r}")
    return table[action]
