"""The Morale Phase and the Round End ("Morale", p.25-26; "Game Rules", p.18).

"At the end of every game round players will roll Discipline tests for their
Player Characters that have any Dread. Start with the Active Player and
alternate rolling for the characters one by one. Each character rolls one
Discipline test called a Morale Test for each Dread it has, adding the number
of allies in LoS to the roll." The tests themselves are the reference engine's
(``cn.roll_morale``: one per Dread, -1 per Wound, Artificial, Demonic,
Lobotomised, Driven by madness, Jinxed).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle.actions import apply_hit, attribute, roll_model_test
from rules.cybernekro.battle.rounds import seats_from
from rules.cybernekro.battle.state import Battle, Phase, Refused, drop_items, gain_dread, step

# Hallucinogenic pollen: "must pass an Intellect test or gain 1 Dread" (Quick start effect) /
# "or gain 2 Dread" (the complication)
POLLEN = "hallucinogenic-pollen"
POLLEN_IMMUNE = cn.GAS_MASKS


def pollen_dread(state: Battle) -> int:
    if state.scenario.complication == POLLEN:
        return 2
    if state.scenario.environment == POLLEN:
        return 1
    return 0


def morale_order(state: Battle) -> tuple[str, ...]:
    """The Morale Tests' order: the round's Active Player first, then alternating, one character at a time (B9)."""
    queues = [[m.id for m in state.crew(seat) if m.dread > 0] for seat in seats_from(state, state.first_seat)]
    order = []
    while any(queues):
        for queue in queues:
            if queue:
                order.append(queue.pop(0))
    return tuple(order)


def begin_morale(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """Open the phase: Hallucinogenic pollen's Intellect tests if it is active, then the order of the tests."""
    if state.phase is not Phase.MORALE or state.morale_started or state.pending:
        raise Refused("the Morale Phase starts once every player has passed and the NPCs have acted")
    before, rolls, lines = state, [], []
    amount = pollen_dread(state)
    if amount:
        for m in state.models:
            if not (m.is_pc and m.in_play) or "artificial" in m.traits or m.gear & POLLEN_IMMUNE:
                continue
            state, outcome, roll = roll_model_test(state, m, m.intellect, "pollen: Intellect", rng)
            rolls.append(roll)
            if not outcome.passed:
                state = state.with_model(gain_dread(state.model(m.id), amount))
                lines.append(f"{m.name} breathes the pollen: {amount} Dread")
    state = replace(state, morale_started=True)
    state = replace(state, morale_queue=morale_order(state))
    names = ", ".join(state.model(i).name for i in state.morale_queue) or "nobody"
    lines.append(f"Morale Tests, in order: {names}")
    return step(
        before, state.logged(seat, "Morale Phase. " + "; ".join(lines), seed=seed if rolls else None, rolls=rolls)
    )


def roll_morale(
    state: Battle,
    seat: str,
    model_id: str,
    allies_in_los: int,
    rng: random.Random,
    seed: int | None = None,
    inspired_by: str | None = None,
) -> Battle:
    """One character's Morale Tests, applied: Dread left, Flee moves to make, an NPC at 4+ Dread.

    ``inspired_by``: an Inspiring ally in LoS whose Discipline it uses ("Other friendly
    models may use this model's Discipline value during the Morale Phase").
    """
    if state.phase is not Phase.MORALE or not state.morale_started:
        raise Refused("Morale Tests are rolled in the Morale Phase")
    if state.pending:
        raise Refused("answer the open question first")
    if not state.morale_queue or state.morale_queue[0] != model_id:
        nxt = state.model(state.morale_queue[0]).name if state.morale_queue else "nobody"
        raise Refused(f"the next Morale Test is {nxt}'s")
    model = state.model(model_id)
    if model.seat != seat:
        raise Refused("its player rolls its Morale Tests")
    if not isinstance(allies_in_los, int) or allies_in_los < 0:
        raise Refused("allies in LoS is a number, 0 or more")
    allies = [m for m in state.crew(seat) if m.id != model.id]
    if allies_in_los > len(allies):
        raise Refused(f"{model.name} has only {len(allies)} allies on the table")
    discipline = model.discipline
    if inspired_by:
        inspiring = state.model(inspired_by)
        if inspiring not in allies or "inspiring" not in inspiring.traits:
            raise Refused(f"{inspiring.name} is not an Inspiring ally on the table")
        discipline = max(discipline, inspiring.discipline)
    result = cn.roll_morale(
        rng,
        discipline,
        model.dread,
        model.wounds,
        allies_in_los,
        "jinxed" in model.traits,
        "driven-by-madness" in model.traits,
        seed,
        "artificial" in model.traits,
        "demonic" in model.traits,
        "lobotomised" in model.traits,
    )
    changed = replace(model, dread=result.dread_left, wounds=result.wounds)
    text = f"{model.name} rolls {len(result.tests)} Morale Test(s): {result.dread_left} Dread left"
    if result.dread_left and (result.flees or result.becomes_npc):
        changed = replace(changed, prone=False)  # "If the character was Prone ... it automatically stands up"
        if changed.treasure or changed.artifact:
            state = drop_items(state, changed)  # "it automatically drops them before moving"
            changed = replace(changed, treasure=0, artifact=False)
            text += ", drops what it carries"
        if result.flees:
            text += f", makes {result.flees} Flee move(s) (4 inches directly away from the nearest enemy each)"
    if result.becomes_npc:
        # Maddening Terror: "If a player character becomes an NPC in the Morale phase it will be friendly to
        # other NPCs instead of hostile" (while an Ancient Horror is on the table)
        friendly = any("maddening-terror" in m.traits and m.in_play for m in state.models)
        changed = replace(changed, npc=True, ap=0, npc_friendly=friendly)
        text += (
            ", then becomes an NPC friendly to the other NPCs (Maddening Terror)"
            if friendly
            else ", then becomes an NPC hostile to all other models"
        )
    after = replace(state.with_model(changed), morale_queue=state.morale_queue[1:])
    rolls = [{"what": "morale", "d20": t[0], "modifier": t[1], "outcome": t[2]} for t in result.tests]
    return step(state, after.logged(seat, text, seed=seed, rolls=rolls))


def end_morale(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """After the last Morale Test: Being on Fire's Damage 1 hit, Demonic's heal, then Tremors.

    "At the end of every Morale Phase every model on Fire suffers a Damage 1 hit" / Demonic: "At the end of
    every Morale Phase this models heals one Wound" / Tremors: "At the end of the game round every model must
    pass an Agility test or fall prone" (the complication says "every PC on the board").
    """
    if state.phase is not Phase.MORALE or not state.morale_started or state.morale_queue or state.pending:
        raise Refused("every Morale Test must be rolled first")
    before, rolls, lines = state, [], []
    burn = cn.Weapon(1, None)
    for m in state.models:
        m = state.model(m.id)
        if not (m.on_fire and m.in_play):
            continue
        planned = cn.plan_attack(cn.Action.FIGHT, cn.Attacker(), burn, replace(m.target(), strength=0))
        hit, steps = cn.sample_process(cn.hit_process, rng, planned.hit, False)
        rolls += list(steps)
        state, got = apply_hit(state, m, hit, steps, planned.hit, None)
        lines.append(f"{m.name} burns: " + "; ".join(got))
    for m in state.models:
        if "demonic" in m.traits and m.in_play and m.wounds:
            state = state.with_model(replace(m, wounds=m.wounds - 1))
            lines.append(f"{m.name} heals a Wound (Demonic)")
    tremors = "tremors" in (state.scenario.environment, state.scenario.complication)
    if tremors:
        everyone = state.scenario.environment == "tremors"
        for m in state.models:
            m = state.model(m.id)
            if not m.in_play or m.prone or (not everyone and not m.is_pc) or "monstrous" in m.traits:
                continue
            state, outcome, roll = roll_model_test(state, m, attribute(m, "agility", state), "tremors: Agility", rng)
            rolls.append(roll)
            if not outcome.passed:
                state = state.with_model(replace(state.model(m.id), prone=True))
                lines.append(f"{m.name} falls Prone (Tremors)")
    state = replace(state, phase=Phase.ROUND_END)
    text = "End of the Morale Phase" + (": " + "; ".join(lines) if lines else "")
    return step(before, state.logged(seat, text, seed=seed if rolls else None, rolls=rolls))
