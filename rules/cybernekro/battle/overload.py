"""Neural Overload, and every other Wound no hit deals, applied to a model in the battle.

The table is the engine's ``roll_neural_overload``; a Wound is the engine's ``suffer_wound`` (the hit's own
path: One-shotter, Extra organs, a 7th Wound Out of Action). Both a sorcery's Fumble and a failed body-mod
re-roll (Neural cabling) cause an overload, and sorceries and the Morale Phase deal Wounds, so this lives
below them all.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle.out_of_action import dread_in_play, take_out
from rules.cybernekro.battle.state import Battle, Model


def with_complications(
    state: Battle, action: cn.Action, attacker: Model, target: Model, situation: cn.Situation = cn.Situation()
):
    """The engine's attacker, target and situation under this battle's complication and this round's
    environmental effect (those the engine's table knows)."""
    names = {state.scenario.complication, state.scenario.environment} & set(cn.COMPLICATIONS)
    return cn.apply_complications(sorted(names), action, attacker.attacker(), target.target(), situation)


def wound_plan(state: Battle, model: Model) -> cn.HitPlan:
    """The model's side of a hit (One-shotter, Monstrous, Extra organs until its first Wound of the game, B19),
    its Toughness for the Extra organs test with this battle's complications (Noxious air) as a hit's."""
    _, target, _ = with_complications(state, cn.Action.FIGHT, model, model)
    return cn.wound_plan(target)


def _draw(rng: random.Random, rolls: list):
    """The engine's events rolled with the battle's seeded generator, each logged (as a hit's draws)."""

    def draw(event):
        value, log = event.roll(rng)
        rolls.append(log)
        return value

    return draw


def wounded(model: Model, wounds: int, prone: bool, gained: int, organs_used: bool) -> Model:
    """The model after Wounds by a hit or not: its Wounds (at most 6), Prone, and whether it had its first Wound
    (B19: an Extra organs test made counts, passed or not)."""
    return replace(
        model,
        wounds=min(wounds, cn.MAX_WOUNDS),
        prone=prone,
        had_a_wound=model.had_a_wound or gained > 0 or organs_used,
        wounds_suffered=model.wounds_suffered + gained,
    )


def suffer_wound(state: Battle, model_id: str, rng: random.Random) -> tuple[Battle, str, list[dict]]:
    """One Wound outside a hit (Leech, an Explode Head tie, Technomancy on an Artificial model, a Demonic
    model's Wound instead of Dread): One-shotter ("knocked Prone instead. If it was already Prone it
    immediately goes OoA"; Monstrous: R35), Extra organs (its Toughness test rolled with ``rng``), a 7th Wound
    Out of Action through :func:`take_out`. Returns the battle, the line to log and the dice rolled."""
    model = state.model(model_id)
    plan = wound_plan(state, model)
    rolls: list[dict] = []
    start = cn.HitState(plan.wounds, plan.prone, organs=plan.extra_organs)
    hit = cn.suffer_wound(_draw(rng, rolls), plan, start)
    organs_used = plan.extra_organs and not hit.organs
    state = state.with_model(wounded(model, hit.wounds, hit.prone, hit.gained, organs_used))
    if hit.ooa:
        state, text = take_out(state, model_id)
        reason = "One-shotter, already Prone" if plan.one_shotter else "a 7th Wound"
        return state, f"{text} ({reason})", rolls
    if hit.gained:
        text = f"{model.name} gains a Wound"
    elif hit.knocked:
        text = f"{model.name} is knocked Prone instead of a Wound (One-shotter)"
    elif organs_used:
        text = f"{model.name}'s Extra organs: no Wound"
    else:
        text = f"{model.name} gains no Wound (One-shotter, Monstrous: it cannot be knocked Prone)"
    if organs_used:
        text += f" (Extra organs: {rolls[-1]['outcome']})"
    return state, text, rolls


def gain_dread(state: Battle, model_id: str, rng: random.Random, amount: int = 1) -> tuple[Battle, str | None, list]:
    """Dread where the rules give it (``dread_in_play``), but a Demonic model's "Wound instead" is each suffered
    through :func:`suffer_wound` (One-shotter, Extra organs, a 7th Wound). Returns the battle, the lines to log
    for the Wounds or the Out of Action (None when there are none) and the dice rolled."""
    model = state.model(model_id)
    if "demonic" not in model.traits or not model.gains_dread or amount <= 0 or not model.in_play:
        state, out = dread_in_play(state, model_id, amount)
        return state, out, []
    lines, rolls = [], []
    for _ in range(amount):
        state, text, rolled = suffer_wound(state, model_id, rng)
        lines.append(text)
        rolls += rolled
        if not state.model(model_id).in_play:
            break
    return state, "; ".join(lines), rolls


def neural_overload(state: Battle, model_id: str, rng: random.Random) -> tuple[Battle, str, dict]:
    """Roll D6 + Dread on the Neural Overload table and apply its rows (the engine's ``apply_overload``).

    Its Wounds are suffered as any (One-shotter, Extra organs: its test rolled after the D6). An NPC "do[es]
    not use Action Points": it has none, so row 3 makes it fall Prone; a Monstrous one cannot fall Prone, so
    row 5 wounds it only if it was Prone already.
    """
    model = state.model(model_id)
    plan = wound_plan(state, model)
    tests: list[dict] = []
    ap = 0 if model.npc else model.ap
    face, result = cn.roll_neural_overload(
        rng, model.dread, model.wounds, ap, model.prone, model.traits, draw=_draw(rng, tests), plan=plan
    )
    roll = {"what": "neural overload", "d6": face, "dread": model.dread, "total": result.total}
    for test in tests:  # the Extra organs test of its first Wound
        roll.update({"extra organs d20": test["d20"], "extra organs modifier": test["modifier"]})
        roll["extra organs"] = test["outcome"]
    # NPCs "never gain Dread"
    changed = replace(
        wounded(model, result.wounds, result.prone, result.gained, result.organs_used),
        dread=result.dread if model.gains_dread else model.dread,
        ap=result.ap if not model.npc else model.ap,
    )
    state = state.with_model(changed)
    text = f"{model.name} suffers a Neural Overload ({face}+{model.dread}): " + ", ".join(result.effects)
    if result.dead:
        state, _ = take_out(state, model_id, dead=True)
    elif result.ooa:
        state, _ = take_out(state, model_id)
    return state, text, roll
