"""Neural Overload applied to a model in the battle (the table is the engine's ``roll_neural_overload``).

Both a sorcery's Fumble and a failed body-mod re-roll (Neural cabling) cause it, so it lives below both.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle.out_of_action import take_out
from rules.cybernekro.battle.state import Battle


def neural_overload(state: Battle, model_id: str, rng: random.Random) -> tuple[Battle, str, dict]:
    """Roll D6 + Dread on the Neural Overload table and apply its rows (the engine's ``apply_overload``)."""
    model = state.model(model_id)
    face, result = cn.roll_neural_overload(rng, model.dread, model.wounds, model.ap, model.prone, model.traits)
    roll = {"what": "neural overload", "d6": face, "dread": model.dread, "total": result.total}
    gained = max(result.wounds - model.wounds, 0)
    # NPCs "never gain Dread"; Monstrous "cannot be knocked Prone"
    changed = replace(
        model,
        dread=result.dread if model.gains_dread else model.dread,
        wounds=result.wounds,
        ap=result.ap,
        prone=model.prone if "monstrous" in model.traits else result.prone,
        had_a_wound=model.had_a_wound or gained > 0,
        wounds_suffered=model.wounds_suffered + gained,
    )
    state = state.with_model(changed)
    text = f"{model.name} suffers a Neural Overload ({face}+{model.dread}): " + ", ".join(result.effects)
    if result.dead:
        state, _ = take_out(state, model_id, dead=True)
    elif "out of action" in result.effects or "out of action (7th Wound)" in result.effects:
        state, _ = take_out(state, model_id)
    return state, text, roll
