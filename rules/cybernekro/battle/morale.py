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
from rules.cybernekro.battle.actions import apply_hit, attribute, hit_with_cards, roll_with_cards
from rules.cybernekro.battle.card_tests import after_hit, after_test
from rules.cybernekro.battle.overload import gain_dread, suffer_wound
from rules.cybernekro.battle.state import Battle, Phase, Refused, drop_items, step
from rules.cybernekro.battle.turns import seats_from

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
    before = state
    state = replace(state, morale_started=True).logged(seat, "Morale Phase")
    return step(before, _next_pollen_test(state, seat, pollen_testers(state), rng, seed))


def pollen_testers(state: Battle) -> tuple[str, ...]:
    """The PCs that test Intellect against Hallucinogenic pollen when the phase begins (B15)."""
    if not pollen_dread(state):
        return ()
    return tuple(
        m.id
        for m in state.models
        if m.is_pc and m.in_play and "artificial" not in m.traits and not m.gear & POLLEN_IMMUNE
    )


def tremors_testers(state: Battle) -> tuple[str, ...]:
    """The models that test Agility against Tremors at the round's end (B15)."""
    if "tremors" not in (state.scenario.environment, state.scenario.complication):
        return ()
    everyone = state.scenario.environment == "tremors"
    return tuple(
        m.id
        for m in state.models
        if m.in_play and not m.prone and (everyone or m.is_pc) and "monstrous" not in m.traits
    )


def _next_pollen_test(state: Battle, seat: str, queue: tuple, rng: random.Random, seed: int | None) -> Battle:
    """Each PC's pollen test in turn, each through the cards' window; then the order of the Morale Tests."""
    if not queue:
        state = replace(state, morale_queue=morale_order(state))
        names = ", ".join(state.model(i).name for i in state.morale_queue) or "nobody"
        return state.logged(seat, f"Morale Tests, in order: {names}")
    model = state.model(queue[0])
    return roll_with_cards(
        state,
        seat,
        model,
        model.intellect,
        "pollen: Intellect",
        "pollen",
        rng,
        seed,
        attribute="intellect",
        queue=queue[1:],
        next=queue[1] if len(queue) > 1 else None,
    )


@after_test("pollen")
def _after_pollen_test(state: Battle, seat: str, model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    if not outcome.passed:
        amount = pollen_dread(state)
        state, out, rolls = gain_dread(state, model.id, rng, amount)
        text = f"{model.name} breathes the pollen: {amount} Dread" + (f"; {out}" if out else "")
        state = state.logged(seat, text, seed=seed if rolls else None, rolls=rolls)
    return _next_pollen_test(state, seat, pending.get("queue"), rng, seed)


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
    return step(state, _next_morale_test(state, seat, model, discipline, allies_in_los, model.dread, 0, rng, seed))


def _next_morale_test(
    state: Battle, seat: str, model, discipline: int, allies: int, left: int, done: int, rng, seed
) -> Battle:
    """One Morale Test for each Dread the character had when its turn came (R25), one window each; the
    modifier is the reference engine's (Discipline, allies in LoS, -1 per Wound, Driven by madness)."""
    if left <= 0:
        return _finish_morale(state, seat, model, done)
    modifier = cn.morale_modifier(discipline, allies, model.wounds, model.dread, "driven-by-madness" in model.traits)
    return roll_with_cards(
        state,
        seat,
        model,
        modifier,
        "morale: Discipline",
        "morale",
        rng,
        seed,
        event=cn.TestEvent("morale", modifier, "jinxed" in model.traits),
        attribute="discipline",
        discipline=discipline,
        allies=allies,
        left=left - 1,
        done=done + 1,
        next=model.id if left > 1 else None,
    )


@after_test("morale")
def _after_morale_test(state: Battle, seat: str, model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """ "For every success remove one Dread ... On a Critical remove two Dread while on a Fumble the character
    gains one Dread" (the reference engine's step: Artificial). A Demonic model's Wound instead is suffered as any
    (``overload.suffer_wound``: One-shotter, Extra organs); one that takes it Out of Action (its 7th: "If it would
    receive a 7th Wound it is taken OoA instead", or a One-shotter already Prone) ends its tests."""
    if outcome is cn.Outcome.FUMBLE and "demonic" in model.traits and model.gains_dread:
        # the Wound instead of the Dread, suffered as any (One-shotter, Extra organs, a 7th Wound: R31, B41)
        state, text, rolls = suffer_wound(state, model.id, rng)
        text = f"{model.name}'s Morale Test: {text} (Demonic)"
        state = state.logged(seat, text, seed=seed if rolls else None, rolls=rolls)
        if not state.model(model.id).in_play:
            return replace(state, morale_queue=state.morale_queue[1:])
    else:
        dread, wounds = cn._morale_test(
            model.dread, model.wounds, outcome, "artificial" in model.traits, "demonic" in model.traits
        )
        state = state.with_model(replace(model, dread=dread, wounds=wounds))
    return _next_morale_test(
        state,
        seat,
        state.model(model.id),
        pending.get("discipline"),
        pending.get("allies"),
        pending.get("left"),
        pending.get("done"),
        rng,
        seed,
    )


def _finish_morale(state: Battle, seat: str, model, tests: int) -> Battle:
    """The Dread left after the character's tests: Flee moves, or an NPC at 4 or more."""
    model = state.model(model.id)
    flees, becomes_npc = cn.flees_for(model.dread, "lobotomised" in model.traits)
    changed = model
    text = f"{model.name} rolled {tests} Morale Test(s): {model.dread} Dread left"
    if model.dread and (flees or becomes_npc):
        changed = replace(changed, prone=False)  # "If the character was Prone ... it automatically stands up"
        if changed.treasure or changed.artifact:
            state = drop_items(state, changed)  # "it automatically drops them before moving"
            changed = replace(changed, treasure=0, artifact=False)
            text += ", drops what it carries"
        if flees:
            text += f", makes {flees} Flee move(s) (4 inches directly away from the nearest enemy each)"
    if becomes_npc:
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
    # its end may be recorded right after (a board edge, a corner, a ledge); not a character that becomes an NPC
    # after its three: it is one now, and a fall would be rolled as an NPC's (B54)
    if flees and not becomes_npc:
        after = replace(after, fled=changed.id)
    return after.logged(seat, text)


def end_morale(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """After the last Morale Test: Being on Fire's Damage 1 hit, Demonic's heal, then Tremors.

    "At the end of every Morale Phase every model on Fire suffers a Damage 1 hit" / Demonic: "At the end of
    every Morale Phase this models heals one Wound" / Tremors: "At the end of the game round every model must
    pass an Agility test or fall prone" (the complication says "every PC on the board").
    """
    if state.phase is not Phase.MORALE or not state.morale_started or state.morale_queue or state.pending:
        raise Refused("every Morale Test must be rolled first")
    burning = tuple(m.id for m in state.models if m.on_fire and m.in_play)
    return step(state, _next_burn(state, seat, burning, rng, seed))


BURN = cn.Weapon(1, None)  # "every model on Fire suffers a Damage 1 hit"


def _next_burn(state: Battle, seat: str, queue: tuple, rng: random.Random, seed: int | None) -> Battle:
    """Each burning model's hit in turn, its Tough it Out held open for the cards; then Demonic, then Tremors."""
    queue = tuple(i for i in queue if state.model(i).in_play)
    if not queue:
        return _after_burns(state, seat, rng, seed)
    m = state.model(queue[0])
    planned = cn.plan_attack(cn.Action.FIGHT, cn.Attacker(), BURN, replace(m.target(), strength=0))
    return hit_with_cards(state, seat, m, planned.hit, "burn", rng, seed, context=(("queue", queue[1:]),))


@after_hit("burn")
def _after_burn(state: Battle, seat: str, model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    state, got = apply_hit(state, model, hit, steps, hit_plan, None)
    state = state.logged(seat, f"{model.name} burns: " + "; ".join(got), seed=seed, rolls=list(steps))
    return _next_burn(state, seat, context["queue"], rng, seed)


def _after_burns(state: Battle, seat: str, rng: random.Random, seed: int | None) -> Battle:
    lines = []
    for m in state.models:
        if "demonic" in m.traits and m.in_play and m.wounds:
            state = state.with_model(replace(m, wounds=m.wounds - 1))
            lines.append(f"{m.name} heals a Wound (Demonic)")
    state = state.logged(seat, "End of the Morale Phase" + (": " + "; ".join(lines) if lines else ""))
    return _next_tremors_test(state, seat, tremors_testers(state), rng, seed)


def _next_tremors_test(state: Battle, seat: str, queue: tuple, rng: random.Random, seed: int | None) -> Battle:
    """Each model's Tremors test in turn, each through the cards' window; then the round ends."""
    queue = tuple(i for i in queue if state.model(i).in_play and not state.model(i).prone)
    if not queue:
        return replace(state, phase=Phase.ROUND_END)
    model = state.model(queue[0])
    return roll_with_cards(
        state,
        seat,
        model,
        attribute(model, "agility", state),
        "tremors: Agility",
        "tremors",
        rng,
        seed,
        attribute="agility",
        queue=queue[1:],
        next=queue[1] if len(queue) > 1 else None,
    )


@after_test("tremors")
def _after_tremors_test(state: Battle, seat: str, model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    if not outcome.passed:
        state = state.with_model(replace(model, prone=True)).logged(seat, f"{model.name} falls Prone (Tremors)")
    return _next_tremors_test(state, seat, pending.get("queue"), rng, seed)
