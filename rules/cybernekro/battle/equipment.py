"""USE EQUIPMENT ("Actions and Combat", p.21; "EQUIPMENT", p.11): the items whose effect is not spatial.

"Some equipment items carried by a model can be used as an action. For example a trauma kit can be used to
heal models." The numbers are the catalogue's (``heals_wounds``, ``single_use``); the text gives no test for
using an item, so its Critical and Fumble never come up here.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro.battle import catalogue
from rules.cybernekro.battle.actions import _spend, after_action, begin
from rules.cybernekro.battle.state import Battle, Refused, step

USABLE = ("trauma-kit", "esoteric-concoction", "repair-kit", "gas-grenade")


def use_equipment(
    state: Battle,
    seat: str,
    item: str,
    rng: random.Random,
    seed: int | None = None,
    target_id: str | None = None,
    in_melee: bool = False,
) -> Battle:
    """Use ``item`` carried by the acting model on itself or ``target_id`` (a model within 1": the players')."""
    if item not in USABLE:
        raise Refused(f"{item} is not used as an action")
    entry = catalogue.entry("equipment", item)
    before = state
    state, model, ok = begin(state, seat, "use-equipment", 1, rng, seed, in_melee=in_melee)
    if not ok:
        return step(before, after_action(state))
    if item not in model.gear:
        raise Refused(f"{model.name} carries no {entry['name']}")
    target = state.model(target_id) if target_id else model
    if not target.in_play:
        raise Refused(f"{target.name} is not on the table")
    if item == "trauma-kit":
        # "Remove 2 Wounds from a model within 1"" / Artificial: "It cannot be healed with trauma kits."
        if "artificial" in target.traits:
            raise Refused(f"{target.name} is Artificial: trauma kits cannot heal it")
        healed = min(entry.get("heals_wounds", 2), target.wounds)
        state = state.with_model(replace(target, wounds=target.wounds - healed))
        text = f"{model.name} uses a trauma kit on {target.name}: {healed} Wound(s) removed"
    elif item == "repair-kit":
        # "Can be used [to] remove 1 Wound from an Artificial model within 1""
        if "artificial" not in target.traits:
            raise Refused("a repair kit removes a Wound from an Artificial model")
        state = state.with_model(replace(target, wounds=max(target.wounds - 1, 0)))
        text = f"{model.name} repairs {target.name}: 1 Wound removed"
    elif item == "esoteric-concoction":
        # "Remove all Dread from this model."
        state = state.with_model(replace(model, dread=0))
        text = f"{model.name} drinks an esoteric concoction: all Dread removed"
    else:
        text = f'{model.name} throws a gas grenade (a 3" smoke template within 6", until after the next round)'
    if entry.get("single_use"):
        carrier = state.model(model.id)
        state = state.with_model(replace(carrier, gear=carrier.gear - {item}))
    state = _spend(state, model, 1)
    return step(before, after_action(state.logged(seat, text)))
