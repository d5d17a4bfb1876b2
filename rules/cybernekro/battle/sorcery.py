"""Techno-Sorcery actions ("TECHNO-SORCERY", p.22; the list on p.15-16) and Neural Overload applied.

"Select one of the Sorceries available to the character and roll an Intellect
test ... Sorcerer in melee -4. If the test is a success resolve the effect ...
On a Fumble the model additionally suffers a Neural Overload. ... A model can
only attempt each specific Techno-Sorcery once each game round."

Effects are applied as far as they are not spatial: the players say who is in
range and LoS (``target_id``, ``targets``); moves, templates and invisibility are
logged for the table to carry out.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import catalogue
from rules.cybernekro.battle.actions import (
    _spend,
    acting_model,
    after_action,
    apply_hit,
    attribute,
    begin,
    hit_with_cards,
    open_forced_move,
    open_test_window,
    roll_test_event,
    roll_with_cards,
)
from rules.cybernekro.battle.card_tests import after_hit, after_test
from rules.cybernekro.battle.out_of_action import take_out
from rules.cybernekro.battle.overload import gain_dread, neural_overload, suffer_wound
from rules.cybernekro.battle.state import Battle, Model, Refused, decides_for, step

MELEE_PENALTY = -4  # "Sorcerer in melee -4"
MIND_CONCEALER = -3  # "Techno-sorceries that target the wearer suffer a -3 modifier to manifest"
BOLT = cn.Weapon(1, 12, cn.Keywords(flags=frozenset({"electric"})))
GUT_TWIST = cn.Weapon(2, 8)
NEEDS_TARGET = {
    "bolt",
    "shield",
    "heal",
    "leech",
    "nightmares",
    "speed",
    "kinesis",
    "sleep",
    "technomancy",
    "pacify",
    "gut-twist",
    "mind-control",
    "invisibility",
    "combust",
    "explode-head",
    "reality-warp",
    "fry",
}


def cast(
    state: Battle,
    seat: str,
    sorcery: str,
    rng: random.Random,
    seed: int | None = None,
    target_id: str | None = None,
    targets=(),
    in_melee: bool = False,
    body_mod: str | None = None,
    weapon: str | None = None,
) -> Battle:
    """The acting sorcerer attempts ``sorcery``: AP (Explode Head 2), the Intellect test, its effect."""
    entry = _entry(sorcery)
    cost = entry.get("ap_cost", 1)
    model = acting_model(state, seat)
    if not model.sorcerer or sorcery not in model.sorceries:
        raise Refused(f"{model.name} does not know {entry['name']}")
    if sorcery in model.cast_this_round:
        raise Refused(f"{model.name} already attempted {entry['name']} this round")
    target = state.model(target_id) if target_id else None
    if sorcery in NEEDS_TARGET and (target is None or not target.in_play):
        raise Refused(f"{entry['name']} needs a target model in play")
    _check_choices(sorcery, model, target, body_mod, weapon)
    before = state
    state, model, ok = begin(state, seat, "sorcery", cost, rng, seed)
    if not ok:
        return step(before, after_action(state))
    modifier = attribute(model, "intellect", state) + (MELEE_PENALTY if in_melee else 0)
    if target is not None and "mind-concealer" in target.gear:
        modifier += MIND_CONCEALER
    state, outcome, roll, event = roll_test_event(state, model, modifier, f"{entry['name']}: Intellect", rng)
    state = state.with_model(replace(state.model(model.id), cast_this_round=model.cast_this_round | {sorcery}))
    state = _spend(state, model, cost)
    state = state.logged(seat, f"{model.name} attempts {entry['name']}: {outcome.value}", seed=seed, rolls=[roll])
    state = open_test_window(
        state,
        decides_for(state, model, model.seat or seat),
        state.model(model.id),
        outcome,
        event,
        "sorcery",
        sorcery=sorcery,
        target=target_id,
        targets=tuple(targets),
        body_mod=body_mod,
        weapon=weapon,
        attribute="intellect",
        next=_first_tested(state, sorcery, model, target, targets),
    )
    return step(before, state)


def _first_tested(state: Battle, sorcery: str, caster: Model, target, targets) -> str | None:
    """The model whose test against the sorcery comes first: cards may be played on it before (B35); the
    Bolt's target's Tough it Out (B36)."""
    if sorcery == "bolt":
        return target.id
    if sorcery not in TESTED_EFFECTS:
        return None
    if sorcery == "scream":
        return next((i for i in targets if i != caster.id and state.model(i).in_play), None)
    if sorcery == "kinesis" and not target.is_pc:
        return None
    return target.id


@after_test("sorcery")
def finish_sorcery(
    state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng: random.Random, seed: int | None
) -> Battle:
    """The sorcery's test stands: on a success its effect; on a Fumble (or any failure under Psychic
    disturbance) the Neural Overload."""
    sorcery = pending.get("sorcery")
    entry = _entry(sorcery)
    target = state.model(pending.get("target")) if pending.get("target") else None
    rolls, lines = [], [f"{model.name} casts {entry['name']}: {outcome.value}"]
    if outcome.passed and sorcery in TESTED_EFFECTS and (target is None or target.in_play):
        return _tested_effect(state, seat, model, sorcery, target, pending, lines, rng, seed)
    if outcome.passed and sorcery == "bolt" and target is not None and target.in_play:
        # the Bolt's hit: its target's Tough it Out (and Extra organs) wait for the cards like an attack's (B36)
        state = state.logged(seat, "; ".join(lines))
        context = (("sorcery", sorcery), ("label", entry["name"]))
        return hit_with_cards(state, seat, target, _plan(target, BOLT), "sorcery-hit", rng, seed, context=context)
    if outcome.passed and (target is None or target.in_play):
        state, more, extra = _effect(
            state,
            sorcery,
            state.model(model.id),
            target,
            pending.get("targets"),
            rng,
            pending.get("body_mod"),
            pending.get("weapon"),
        )
        lines += more
        rolls += extra
    overloads = 0
    if outcome is cn.Outcome.FUMBLE:
        overloads = 1  # Reinforced body's extra one follows every Fumble (actions.reinforced_body_overload)
    elif not outcome.passed and state.scenario.complication == "psychic-disturbance":
        overloads = 1  # "Every Techno-sorcery roll failure results in a Neural Overload, not just a Fumble."
    for _ in range(overloads):
        if state.model(model.id).in_play:
            state, text, overload_roll = neural_overload(state, model.id, rng)
            lines.append(text)
            rolls.append(overload_roll)
    return state.logged(seat, "; ".join(lines), seed=seed if rolls else None, rolls=rolls)


# the effects that make their targets test, each test through the cards' window (B35)
TESTED_EFFECTS = {"scream", "kinesis", "sleep", "technomancy", "gut-twist"}
EFFECT_TESTS = {
    "scream": ("toughness", "Scream: Toughness"),
    "kinesis": ("strength", "Kinesis: Strength"),
    "sleep": ("discipline", "Sleep: Discipline"),
    "technomancy": ("toughness", "Technomancy: Toughness"),
    "gut-twist": ("toughness", "Gut Twist: Toughness"),
}


def _tested_effect(state: Battle, seat: str, caster: Model, sorcery: str, target, pending, lines, rng, seed) -> Battle:
    """A sorcery whose effect its target resists with a test: who tests (Scream: the models named, not Prone
    nor Monstrous; Kinesis: a PC, after the D3 of the move), then each test in turn."""
    rolls: list[dict] = []
    if sorcery == "scream":
        queue = tuple(
            i
            for i in pending.get("targets")
            if i != caster.id
            and state.model(i).in_play
            and not state.model(i).prone
            and "monstrous" not in state.model(i).traits
        )
    else:
        queue = (target.id,)
    if sorcery == "kinesis":
        distance = rng.randint(1, 3)
        rolls.append({"what": "Kinesis: D3", "d3": distance})
        lines.append(f"move {target.name} D3 inches: {distance}")
        if not target.is_pc:
            queue = ()
    state = state.logged(seat, "; ".join(lines), seed=seed if rolls else None, rolls=rolls)
    if sorcery == "kinesis" and not queue:  # no test to resist: moved now (B59)
        state = open_forced_move(state, seat, target, "Kinesis")
    return _next_effect_test(state, seat, sorcery, queue, pending.get("body_mod"), rng, seed)


def _next_effect_test(state: Battle, seat: str, sorcery: str, queue: tuple, body_mod, rng, seed) -> Battle:
    if not queue:
        return state
    model = state.model(queue[0])
    name, what = EFFECT_TESTS[sorcery]
    modifier = attribute(model, name, state) if name == "toughness" else getattr(model, name)
    return roll_with_cards(
        state,
        seat,
        model,
        modifier,
        what,
        "sorcery-effect",
        rng,
        seed,
        attribute=name,
        sorcery=sorcery,
        queue=queue[1:],
        # Gut Twist's hit follows a failed test: a card may wait on its target's Tough it Out meanwhile
        next=queue[1] if len(queue) > 1 else (model.id if sorcery == "gut-twist" else None),
        body_mod=body_mod,
        caster_seat=seat,  # Kinesis: who chose the direction says what the model met (B59)
    )


@after_test("sorcery-effect")
def _after_effect_test(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """The target's test against the sorcery stands: Scream knocks Prone, Kinesis moves (a PC that fails is
    knocked Prone), Sleep stops reactions, Technomancy stops a body-mod, Gut Twist hits (Damage 2, no armor)."""
    sorcery = pending.get("sorcery")
    lines: list[str] = []
    rolls: list[dict] = []
    if sorcery == "kinesis" and outcome.passed:
        lines.append(f"{model.name} resists the move")
    elif outcome.passed:
        lines.append(f"{model.name} resists")
    elif sorcery == "scream" or (sorcery == "kinesis" and "monstrous" not in model.traits):
        state = state.with_model(replace(model, prone=True))
        lines.append(f"{model.name} {'falls' if sorcery == 'scream' else 'is knocked'} Prone")
        if sorcery == "kinesis":  # "knocked prone in addition to being moved" (B59)
            state = open_forced_move(state, pending.get("caster_seat") or seat, state.model(model.id), "Kinesis")
    elif sorcery == "kinesis":  # a Monstrous PC: moved, not knocked Prone
        state = open_forced_move(state, pending.get("caster_seat") or seat, model, "Kinesis")
    elif sorcery == "sleep":
        state = state.with_model(replace(model, asleep=True))
        lines.append(f"{model.name} cannot react this round")
    elif sorcery == "technomancy":
        body_mod = pending.get("body_mod")
        state = state.with_model(replace(model, body_mods=model.body_mods - {body_mod}))
        lines.append(f"{model.name}'s {body_mod} stops working")
        if "artificial" in model.traits:
            state, text = _wound(state, state.model(model.id), rng, rolls)
            lines.append(text)
    elif sorcery == "gut-twist":  # its hit's tests wait for the cards like an attack's (B36)
        planned = _plan(model, GUT_TWIST, ignore_armor=True)
        context = (
            ("sorcery", sorcery),
            ("queue", pending.get("queue")),
            ("body_mod", pending.get("body_mod")),
            ("label", _entry(sorcery)["name"]),
        )
        return hit_with_cards(state, seat, model, planned, "sorcery-hit", rng, seed, context=context)
    if lines:
        state = state.logged(seat, "; ".join(lines), seed=seed if rolls else None, rolls=rolls)
    return _next_effect_test(state, seat, sorcery, pending.get("queue"), pending.get("body_mod"), rng, seed)


def _check_choices(sorcery: str, caster: Model, target: Model | None, body_mod, weapon) -> None:
    """What the sorcery needs chosen, checked before the die is rolled."""
    if target is None:
        if sorcery in ("technomancy", "pacify", "reality-warp"):
            raise Refused("choose the sorcery's target")
        return
    if sorcery == "technomancy" and body_mod not in target.body_mods:
        raise Refused(f"choose one of {target.name}'s body-mods")
    if sorcery == "pacify":
        use = target.weapon(weapon or "")
        if not use.ranged:
            raise Refused("Pacify jams a ranged weapon")
    if sorcery == "reality-warp" and (not target.is_pc or target.id == caster.id):
        raise Refused("Reality Warp selects a Player Character other than the caster")


def _entry(sorcery: str) -> dict:
    try:
        return catalogue.entry("sorceries", sorcery)
    except KeyError:
        raise Refused(f"no sorcery {sorcery!r}") from None


def _plan(target: Model, weapon: cn.Weapon, ignore_armor: bool = False) -> cn.HitPlan:
    t = target.target()
    if ignore_armor:
        t = replace(t, armor=0)
    return cn.plan_attack(cn.Action.SHOOT, cn.Attacker(), weapon, t).hit


@after_hit("sorcery-hit")
def _after_sorcery_hit(state: Battle, seat: str, target: Model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    """The Bolt's or Gut Twist's hit once its target's tests stood; Gut Twist's targets' tests go on."""
    state, lines = apply_hit(state, target, hit, steps, hit_plan, None)
    name = _entry(context["sorcery"])["name"]
    state = state.logged(seat, f"{name}: " + "; ".join(lines), seed=seed, rolls=list(steps))
    if context["sorcery"] != "gut-twist":
        return state
    return _next_effect_test(state, seat, "gut-twist", context["queue"], context["body_mod"], rng, seed)


def _wound(state: Battle, model: Model, rng: random.Random, rolls: list) -> tuple[Battle, str]:
    """One Wound outside an attack, suffered as any (``overload.suffer_wound``: One-shotter, Extra organs and
    its test, a 7th Wound Out of Action); the dice it rolls go to ``rolls``."""
    state, text, rolled = suffer_wound(state, model.id, rng)
    rolls += rolled
    return state, text


def _effect(state, sorcery, caster, target, targets, rng, body_mod, weapon):
    lines, rolls = [], []
    if sorcery == "shield":
        state = state.with_model(replace(target, magic_shield=True))
        lines.append(f"{target.name} gains 3 armor until it reduces damage once")
    elif sorcery == "heal":
        state = state.with_model(replace(target, wounds=max(target.wounds - 1, 0)))
        lines.append(f"{target.name} loses a Wound")
    elif sorcery == "leech":
        state, text = _wound(state, target, rng, rolls)
        lines.append(text)
        caster = state.model(caster.id)
        if caster.wounds:
            state = state.with_model(replace(caster, wounds=caster.wounds - 1))
            lines.append(f"{caster.name} loses a Wound")
    elif sorcery == "nightmares":
        state, out, rolled = gain_dread(state, target.id, rng, 2)
        rolls += rolled
        lines.append(f"{target.name} gains 2 Dread" + (f": {out}" if out else ""))
    elif sorcery == "speed":
        state = state.with_model(replace(target, ap=target.ap + 1))
        lines.append(f"{target.name} gains 1 AP")
    elif sorcery == "pacify":
        use = target.weapon(weapon or "")
        if not use.ranged:
            raise Refused("Pacify jams a ranged weapon")
        state = state.with_model(replace(target, jammed=target.jammed | {use.slug}))
        lines.append(f"{target.name}'s {use.name} is jammed")
    elif sorcery == "mind-control":
        mine, theirs = rng.randint(1, 20) + caster.discipline, rng.randint(1, 20) + target.discipline
        rolls.append({"what": "Mind Control: Discipline", "caster": mine, "target": theirs})
        lines.append(
            f"{target.name} performs one action of the caster's choosing" if mine > theirs else f"{target.name} resists"
        )
    elif sorcery == "invisibility":
        lines.append(f"{target.name} is invisible until it rolls a test or picks up an item")
    elif sorcery == "combust":
        if "artificial" in target.traits:
            lines.append(f"{target.name} cannot be set on Fire")
        else:
            state = state.with_model(replace(target, on_fire=True))
            lines.append(f"{target.name} is on Fire")
    elif sorcery == "explode-head":
        mine = (caster.intellect, caster.toughness, caster.discipline)
        theirs = (target.intellect, target.toughness, target.discipline)
        result, log = cn.roll_explode_head(rng, mine, theirs)
        rolls.append({"what": "Explode Head", "dice": list(log.shown)})
        if result == "target_dies":
            state, text = take_out(state, target.id, dead=True)
        elif result == "caster_dies":
            state, text = take_out(state, caster.id, dead=True)
        else:
            state, first = _wound(state, state.model(caster.id), rng, rolls)
            state, text = _wound(state, state.model(target.id), rng, rolls)
            text = f"{first}; {text}"
        lines.append(text)
    elif sorcery == "reality-warp":
        state, text, roll = _reality_warp(state, caster, target, rng)
        lines.append(text)
        rolls.append(roll)
    elif sorcery == "fry":
        state, text, roll = neural_overload(state, target.id, rng)
        lines.append(text)
        rolls.append(roll)
    elif sorcery in ("prescience", "black-ink"):
        lines.append("carried out on the table")
    return state, lines, rolls


def _reality_warp(state: Battle, caster: Model, chosen: Model, rng):
    """ "Select a Player Character ... and randomly determine another Player Character, neither of which can be
    the caster ... swap their positions, number of Wounds, Dread and status (prone, on fire)"."""
    if not chosen.is_pc or chosen.id == caster.id:
        raise Refused("Reality Warp selects a Player Character other than the caster")
    others = [m for m in state.models if m.is_pc and m.in_play and m.id not in (caster.id, chosen.id)]
    if not others:
        return state, "no other Player Character to swap with", {"what": "Reality Warp", "pick": None}
    index = rng.randrange(len(others))
    other = others[index]
    state = state.with_model(
        replace(chosen, wounds=other.wounds, dread=other.dread, prone=other.prone, on_fire=other.on_fire)
    )
    state = state.with_model(
        replace(other, wounds=chosen.wounds, dread=chosen.dread, prone=chosen.prone, on_fire=chosen.on_fire)
    )
    return (
        state,
        f"{chosen.name} and {other.name} swap places, Wounds, Dread and status",
        {"what": "Reality Warp", "pick": other.id},
    )
