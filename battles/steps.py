"""The one place a posted move becomes an engine step.

``legal.legal(state, seat)`` lists what the seat may do now; the page shows
each option as a button whose value is its ``key``; the view reads the post
with ``forms.StepForm`` (the option must be one of the legal ones, its extra
inputs checked) and ``run`` calls the engine's step function. No rule is decided here:
the engine refuses what the rules do not allow.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, equipment, holds, morale, npcs, rounds, scenario_steps, setup, sorcery
from rules.cybernekro.battle.legal import Option, legal
from rules.cybernekro.battle.state import Battle, Refused, step, undo

# options whose args are a list to choose from, not values: one button, the choice in the form
CHOICE_ARGS = {"assign_ap", "name_witnesses", "splash_hits", "stray_shot"}
# steps every seat may always take (the engine checks when)
EXTRA = (
    Option("undo"),
    Option("concede_end"),
    Option("play_on"),
    Option("hold_rolls", ("on",)),
    Option("hold_rolls", ("off",)),
)


def key(option: Option) -> str:
    if option.step in CHOICE_ARGS:
        return option.step
    return ":".join([option.step, *(str(a) for a in option.args)])


def options(state: Battle, seat: str) -> tuple[Option, ...]:
    return legal(state, seat)


def chosen_by_seat(state: Battle, picks: dict) -> dict:
    """The character each seat tests its Initiative with: each player's own choice ("all players choose one
    of their characters currently on board"); a seat with no valid choice is left out, so the engine asks
    that player to choose."""
    out = {}
    for s in state.seats:
        free = {m.id for m in state.crew(s) if not m.imprisoned}
        if picks.get(s) in free:
            out[s] = picks[s]
    return out


def run(
    state: Battle,
    seat: str,
    option: str,
    inputs: Mapping[str, Any],
    rng: random.Random,
    seed: int,
    picks: dict | None = None,
) -> Battle:
    """``option``: the key of one of the seat's legal steps; ``inputs``: its inputs as ``forms.StepForm``
    checked them; ``picks``: each seat's Initiative character (BattleSeat.initiative)."""
    chosen = {key(o): o for o in options(state, seat) + EXTRA}.get(option)
    if chosen is None:
        raise Refused("that step is not open to you now (the battle may have moved on)")
    after = call(state, seat, chosen, dict(inputs, initiative=picks or {}), rng, seed)
    if chosen.step == "undo" or after.log == state.log:
        return after
    # One player's move is one step for undo, however many the engine chained inside it: undo goes back to
    # the page this player acted on, and the move's first line names its maker.
    return step(state, after)


def call(state: Battle, seat: str, option: Option, d: dict, rng: random.Random, seed: int) -> Battle:
    name, args = option.step, option.args
    situation = cn.Situation(
        cover=bool(d.get("cover")),
        long_range=bool(d.get("long_range")),
        surrounded=bool(d.get("surrounded")),
        modifier=d.get("modifier") or 0,
        in_melee=bool(d.get("target_in_melee")),
        auto=not d.get("one_die"),
        stagger_into_obstacle=bool(d.get("stagger_into_obstacle")),
        stagger_over_ledge=float(d.get("stagger_over_ledge") or 0),
        **{name: bool(d.get(name)) for name in cn.LIGHT_TICKS},
    )
    if name == "undo":
        return undo(state, seat)
    if name == "concede_end":
        return scenario_steps.concede_end(state, seat)
    if name == "play_on":
        return scenario_steps.play_on(state, seat)
    if name == "hold_rolls":
        return holds.hold_rolls(state, seat, args[0] == "on")
    if name == "let_stand":
        return actions.let_stand(state, seat, rng, seed)
    if name == "draw_complication":
        return setup.draw_complication(state, seat, rng, seed)
    if name == "deployment_initiative":
        return setup.deployment_initiative(state, seat, chosen_by_seat(state, d.get("initiative", {})), rng, seed)
    if name == "deployed":
        return setup.deployed(state, seat, rng, seed)
    if name == "choose_sorcery":
        return setup.choose_sorcery(state, seat, args[0], d.get("sorcery") or "")
    if name == "roll_sorceries":
        return setup.roll_sorceries(state, seat, args[0], rng, seed)
    if name == "choose_active":
        return rounds.choose_active(state, seat, args[0])
    if name == "start_round":
        return rounds.start_round(state, seat, chosen_by_seat(state, d.get("initiative", {})), rng, seed)
    if name == "assign_ap":
        return rounds.assign_ap(state, seat, d["split"], rng, seed)
    if name in ("select_model", "end_activation", "pass_turn"):
        return getattr(rounds, name)(state, seat, *args)
    in_melee = bool(d.get("in_melee"))  # the acting model's (the players' to see, B24)
    height = float(d.get("height") or 0)
    if name == "attack":
        thrown = args[2] if len(args) > 2 else None  # "shoot": a melee weapon with Thrown (B63)
        return actions.attack(
            state, seat, args[0], args[1], rng, seed, situation=situation, action=thrown, in_melee=in_melee
        )
    if name == "attack_two":
        return actions.attack_two(
            state, seat, args[0], args[1], args[2], rng, seed, situation=situation, in_melee=in_melee
        )
    if name == "push":
        into = d.get("pushed_into") or None
        return actions.push(state, seat, args[0], rng, seed, into=into, height=height if into == "ledge" else 0)
    if name == "act":
        moving = args[0] in actions.MOVES
        return actions.act(
            state,
            seat,
            args[0],
            rng,
            seed,
            in_melee=in_melee,
            test=d.get("test") or None,
            item=args[1] if len(args) > 1 else None,
            height=height if args[0] == "jump" else 0,
            prone_after=moving and bool(d.get("prone_after")),
            sprint=moving and bool(d.get("sprint")),
        )
    if name == "free_fight":
        return actions.free_fight(state, seat, args[0], args[1], rng, seed, situation=situation)
    if name == "no_free_fight":
        return actions.no_free_fight(state, seat)
    if name in ("move_on", "fall_on"):
        return getattr(actions, name)(state, seat, rng, seed)
    if name == "use_equipment":
        return equipment.use_equipment(state, seat, args[0], rng, seed, in_melee=in_melee)
    if name == "put_out_fire":
        return actions.put_out_fire(state, seat, args[0], rng, seed, in_melee=in_melee)
    if name in (
        "resolve_attack",
        "resolve_test",
        "reroll_with_dread",
        "reroll_with_body",
        "tough_it_out",
        "take_it",
        "use_stims",
        "second_attack",
    ):
        return getattr(actions, name)(state, seat, rng, seed)
    if name == "react":
        return actions.react(state, seat, rng, seed, args[0])
    if name == "stray_shot":
        return actions.stray_shot(state, seat, d.get("targets", []), rng, seed)
    if name == "splash_hits":
        return actions.splash_hits(state, seat, d.get("targets", []), rng, seed)
    if name == "name_witnesses":
        return actions.name_witnesses(state, seat, d.get("witnesses", []), rng)
    if name == "play_before_test":
        return actions.play_before_test(state, seat, args[0], args[1], d.get("sign") or 1)
    if name in (
        "decline_reaction",
        "end_reaction",
        "accept_out_of_action",
        "play_jack",
        "play_queen",
        "play_king",
        "answer_card",
    ):
        return getattr(actions, name)(state, seat, *args)
    if name == "cast":
        return sorcery.cast(
            state,
            seat,
            args[0],
            rng,
            seed,
            target_id=d.get("target") or None,
            targets=d.get("targets") or [],
            in_melee=bool(d.get("in_melee")),
            body_mod=d.get("body_mod") or None,
            weapon=d.get("weapon") or None,
        )
    if name == "begin_morale":
        return morale.begin_morale(state, seat, rng, seed)
    if name == "roll_morale":
        return morale.roll_morale(state, seat, args[0], d.get("allies") or 0, rng, seed)
    if name == "end_morale":
        return morale.end_morale(state, seat, rng, seed)
    if name in ("activate_npc", "end_npc_activation", "end_npc_phase"):
        return getattr(npcs, name)(state, seat, *args)
    if name in ("take_terminal", "explore", "pick_up", "open_prison", "perform_ritual"):  # Interacts
        return getattr(scenario_steps, name)(state, seat, *args, rng, seed, in_melee=in_melee)
    if name == "corpse_check":
        return scenario_steps.corpse_check(state, seat, rng, seed)
    if name == "forced_move_ends":
        return actions.forced_move_ends(state, seat, args[0], rng, seed, height=height if args[0] == "ledge" else 0)
    if name == "flee_ends":
        return actions.flee_ends(state, seat, args[0], args[1], rng, seed, height=height if args[1] == "ledge" else 0)
    if name == "leave_table":
        return scenario_steps.leave_table(state, seat, *args, in_melee=in_melee)
    if name == "finish_round":
        return scenario_steps.finish_round(state, seat)
    raise Refused(f"the tracker cannot take the step {name!r} yet")
