"""The Action Phase's actions ("Actions and Combat", p.21): AP, tests, attacks applied, reactions, Out of Action.

Every attack is the reference engine's: the to-hit roll is ``cn.plan_attack``'s
test event, and the hit is ``cn.hit_process`` replayed test by test (``hits.py``:
damage, Tough it Out, the critical Wound, Extra organs, Stagger), so the odds
shown and the dice rolled follow the same decisions. Every test, inside a hit or
not, goes through ``roll_with_cards``: it waits in a window where fate cards and
re-rolls may change it (B35). This module applies the results to the target and
opens the windows the rules give: a Jack or a Dread re-roll after a roll, a
Queen when a PC would go Out of Action, the allies who saw it, the target's
reaction after a miss.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import catalogue, fate, holds
from rules.cybernekro.battle.card_tests import AFTER, AFTER_HIT, after_hit, after_test
from rules.cybernekro.battle.hits import HitTest, replay_hit
from rules.cybernekro.battle.out_of_action import take_out
from rules.cybernekro.battle.overload import gain_dread as gain_dread_or_wound
from rules.cybernekro.battle.overload import neural_overload, with_complications, wounded
from rules.cybernekro.battle.state import (
    Battle,
    Model,
    Pending,
    Phase,
    Refused,
    WeaponUse,
    controls_npcs,
    decides_for,
    drop_items,
    gain_dread,
    step,
)
from rules.cybernekro.battle.turns import calm_nerves, next_player, skip_to_a_player_who_can_act
from rules.rolls import ROW_LABELS

BASIC = {"move", "jump", "get-up", "interact", "fix", "reload", "use-equipment", "push"}
MOVES = ("move", "jump")  # "Instead of a regular move models can also jump" (B53)
NOT_IN_MELEE = {"interact", "fix", "reload", "use-equipment", "shoot"}
# "The only actions this model may perform are Move, Get Up and Fight" (a jump is a Move, B53)
BESTIAL_ACTIONS = {"move", "jump", "get-up", "fight"}
PRONE_ACTIONS = {"move", "get-up"}  # "It can only crawl or stand up."
DISCHARGE = cn.Weapon(1, 1, cn.Keywords(flags=frozenset({"electric"})))
REPAIR_KIT = 2  # "+2 to all Fix actions"


# --------------------------------------------------------------------------
# who acts, and what it costs
# --------------------------------------------------------------------------


def acting_model(state: Battle, seat: str) -> Model:
    """The model that may act now for ``seat``: the reacting model during a reaction, else the Active Model."""
    if state.phase not in (Phase.ACTION, Phase.NPCS):
        raise Refused("actions are taken in the Action Phase (and by NPCs at the round's end)")
    if state.pending:
        raise Refused("answer the open question first: " + state.pending[0].kind.replace("_", " "))
    if state.reaction:
        model = state.model(state.reaction[0])
        if controls_npcs(state, seat) if model.npc else model.seat == seat:  # a character turned NPC is moved as an NPC
            return model
        raise Refused("another model is reacting")
    if state.phase is Phase.NPCS:
        if not controls_npcs(state, seat):
            raise Refused("the game master decides the NPCs' actions")
        if not state.active_model:
            raise Refused("activate an NPC first (the closest to any Player Character)")
        return state.model(state.active_model)  # NPCs are moved by any player or the game master
    if state.active_seat != seat or not state.active_model:
        raise Refused("select your Active Model on your turn first")
    return state.model(state.active_model)


def _check_can(model: Model, action: str, cost: int) -> None:
    """What the model may do now. An NPC pays no AP ("they will perform two actions"), but Prone ("It can only
    crawl or stand up") and Bestial limit it as any model."""
    if "bestial" in model.traits and action not in BESTIAL_ACTIONS:
        raise Refused(f"{model.name} is Bestial: only Move, Get Up and Fight")
    if model.prone and action not in PRONE_ACTIONS:
        raise Refused(f"{model.name} is Prone: it can only crawl (Move) or Get Up")
    if action == "get-up" and not model.prone:
        raise Refused(f"{model.name} is not Prone")
    if not model.npc and model.ap < cost:
        raise Refused(f"{model.name} has {model.ap} AP; this action costs {cost}")


def _spend(state: Battle, model: Model, cost: int) -> Battle:
    """Pay the AP ("After completing each action reduce the model's AP"); count a reaction's action."""
    model = state.model(model.id)
    if not model.npc:
        state = state.with_model(replace(model, ap=max(model.ap - cost, 0)))
    if state.reaction and state.reaction[0] == model.id:
        left = state.reaction[1] - 1
        state = replace(state, reaction=(model.id, left) if left > 0 else None)
    elif state.phase is Phase.NPCS and state.active_model == model.id:
        left = state.npc_actions - 1  # "they will perform two actions"
        state = replace(state, npc_actions=left)
        if left <= 0:
            state = replace(state, active_model=None, npcs_done=state.npcs_done | {model.id})
    return state


def after_action(state: Battle) -> Battle:
    """The Active Model with no AP ends its activation; a player with nothing left passes; a passed on-Fire
    test ends with the activation or reaction it was passed in."""
    if state.phase is Phase.ACTION and not state.pending and not state.reaction and state.active_model:
        active = state.model(state.active_model)
        if active.ap <= 0 or not active.in_play:
            state = next_player(replace(state, active_model=None))
    return skip_to_a_player_who_can_act(calm_nerves(state))


def _fire_check(state: Battle, seat: str, model: Model, rng: random.Random, seed) -> tuple[Battle, bool]:
    """Being on Fire: "roll a Discipline test every time it attempts to take an action. On a success it can
    perform the action normally" (B34: the test's window is held open for the cards; once it stands as a
    success the model takes the action it attempts, asked again, without another test)."""
    if not model.on_fire:
        return state, True
    if model.fire_nerve:
        return state.with_model(replace(model, fire_nerve=False)), True
    state = roll_with_cards(state, seat, model, model.discipline, "on Fire: Discipline", "on-fire", rng, seed)
    return state, False


@after_test("on-fire")
def _after_fire_test(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """ "On failure it makes a D6" long Flee move in a random direction instead, loses 1 AP and its
    activation/reaction ends"."""
    if outcome.passed:
        state = state.with_model(replace(model, fire_nerve=True))
        return state.logged(seat, f"{model.name} keeps its nerve while on Fire: it takes the action now")
    flee = rng.randint(1, 6)
    state = drop_items(state, model)  # a Flee move: "automatically drops them before moving"
    model = replace(state.model(model.id), ap=max(model.ap - 1, 0), prone=False)
    state = replace(state.with_model(model), fled=model.id)  # at a board edge it may leave the table now
    if state.reaction and state.reaction[0] == model.id:
        state = replace(state, reaction=None)
    elif state.active_model == model.id and state.phase is Phase.NPCS:
        state = replace(state, active_model=None, npc_actions=0, npcs_done=state.npcs_done | {model.id})
    elif state.active_model == model.id:
        state = next_player(replace(state, active_model=None))
    return state.logged(
        seat,
        f'{model.name} burns: a {flee}" Flee move in a random direction, loses 1 AP, its activation ends',
        seed=seed,
        rolls=[{"what": "flee distance", "d6": flee}],
    )


# --------------------------------------------------------------------------
# attribute tests with the cards played before them
# --------------------------------------------------------------------------


def _take_armed(state: Battle, model: Model) -> tuple[Battle, tuple | None]:
    """Every card played on the model's test, taken as one (B62): an Ace passes it; numbers add up."""
    played = [armed for armed in state.armed if armed[1] == model.id]
    if not played:
        return state, None
    state = replace(state, armed=tuple(a for a in state.armed if a[1] != model.id))
    for armed in played:
        if fate.kind(armed[2]) == "number":  # revealed now: to the discards (an Ace went there when played)
            state = fate.discard(state, armed[0], armed[2])
            # "Place the card face down before rolling and reveal after the roll"
            state = state.logged(
                armed[0],
                f"{state.player(armed[0]).name}'s face-down card on {model.name}'s test: {armed[2]} ({armed[3]:+d})",
            )
    return state, fate.on_one_test(played)


def roll_model_test(
    state: Battle, model: Model, modifier: int, what: str, rng: random.Random, event: cn.TestEvent | None = None
) -> tuple[Battle, cn.Outcome, dict]:
    """One Attribute Test for ``model``: Jinxed, Driven by madness and the complications that
    change it, and the card played on it (an Ace passes it unrolled; a number is added)."""
    state, outcome, roll, _ = roll_test_event(state, model, modifier, what, rng, event)
    return state, outcome, roll


def roll_test_event(
    state: Battle, model: Model, modifier: int, what: str, rng: random.Random, event: cn.TestEvent | None = None
) -> tuple[Battle, cn.Outcome, dict, cn.TestEvent | None]:
    """:func:`roll_model_test`, and the test as rolled (None when an Ace passed it without a roll)."""
    if event is None:
        if "driven-by-madness" in model.traits:
            modifier += model.dread
        event = cn.TestEvent(what, modifier, "jinxed" in model.traits)
    state, armed = _take_armed(state, model)
    if armed and fate.kind(armed[2]) == "ace":
        return state, cn.Outcome.SUCCESS, {"what": what, "card": armed[2], "outcome": "success", "d20": []}, None
    if armed:
        event = replace(event, modifier=event.modifier + armed[3])
    outcome, roll = event.roll(rng)
    if armed:
        roll["card"] = f"{armed[2]} ({armed[3]:+d})"
    return state, outcome, roll, event


def roll_with_cards(
    state: Battle,
    seat: str,
    model: Model,
    modifier: int,
    what: str,
    then: str,
    rng: random.Random,
    seed: int | None,
    event: cn.TestEvent | None = None,
    attribute: str | None = None,
    **data,
) -> Battle:
    """The one path of every Attribute Test the battle rolls for a model, whatever its kind.

    The card played on the model before the roll is applied (an Ace passes it without a roll, a
    numbered card is revealed and added), the roll goes to the public log, and the test is held
    open in a ``test`` window: any player may play a Jack on a regular result, force a Dread
    re-roll of a passed test (Action Phase) or, the model's own player, re-roll it with a trait or
    body-mod; every card played opens the Joker window. The model's player (the player who rolled,
    for an NPC) lets it stand with :func:`resolve_test`, which calls the continuation ``then``
    registered in ``card_tests`` with the final outcome. ``data``: what the continuation needs;
    ``next``: the model whose test follows in the same step (cards may be played on it meanwhile).
    """
    state, outcome, roll, rolled = roll_test_event(state, model, modifier, what, rng, event)
    state = state.logged(seat, f"{model.name} tests {what}: {outcome.value}", seed=seed, rolls=[roll])
    return open_test_window(
        state, decides_for(state, model, seat), model, outcome, rolled, then, attribute=attribute, what=what, **data
    )


def attribute(model: Model, name: str, state: Battle) -> int:
    """An attribute for a test, with this battle's complications (Slippery ground, Noxious air)."""
    value = getattr(model, name)
    effects = {state.scenario.complication, state.scenario.environment}
    if name == "agility" and "slippery-ground" in effects:
        value -= 2
    if (
        name == "toughness"
        and "noxious-air" in effects
        and "artificial" not in model.traits
        and not model.gear & cn.GAS_MASKS
    ):
        value -= 2
    if name in ("toughness",):
        value -= model.wounds  # "Each Wound gives a -1 modifier to Toughness and Morale rolls"
    return value


# --------------------------------------------------------------------------
# basic actions
# --------------------------------------------------------------------------


def act(
    state: Battle,
    seat: str,
    action: str,
    rng: random.Random,
    seed: int | None = None,
    in_melee: bool = False,
    test: str | None = None,
    note: str = "",
    item: str | None = None,
    height: float = 0,
    prone_after: bool = False,
    sprint: bool = False,
) -> Battle:
    """Move, Jump, Get up, Interact, Fix/Reload: pay 1 AP and apply what the engine can (the board stays the
    players').

    A Move or a Jump (:func:`_start_move`): ``height``, the drop below a jump's starting point that a failed
    jump falls; ``prone_after``, "At the end of a move a model can voluntarily become Prone"; ``sprint``, a
    Reckless sprinter's extra inch; ``in_melee``, the model moves out of melee (no reactions).

    ``test``: the attribute a plain Interact is tested with ("On a Critical the action doesn't
    cost any AP. On a Fumble the interaction backfires and the model is knocked Prone").
    Fix/Reload name the weapon (``item``): Reload readies it; Fix is an Intellect test (+2 with a
    repair kit), "On a Critical the action doesn't cost any AP. On a Fumble the item is broken".
    Roly-poly system: Get up with an Agility test, free on a success, Prone and paid on a Fumble.
    Equipment is used with ``equipment.use_equipment``.
    """
    if action not in BASIC - {"push", "use-equipment"}:
        raise Refused(f"unknown action {action!r}")
    if action in ("fix", "reload"):
        model = acting_model(state, seat)
        needing = model.jammed if action == "fix" else model.unloaded
        if item is None or item not in needing:
            names = ", ".join(sorted(needing)) or "none"
            raise Refused(f"name the {'jammed' if action == 'fix' else 'unloaded'} weapon to {action}: {names}")
    if action not in MOVES and (height or prone_after or sprint):
        raise Refused("a drop, going Prone and sprinting are a Move's or a Jump's")
    before = state
    state, model, ok = begin(state, seat, action, 1, rng, seed, in_melee)
    if not ok:
        return step(before, after_action(state))
    if action in MOVES:
        move = _move_data(state, model, action, height, prone_after, sprint, in_melee, note)
        if dict(move)["leaving"] and _free_fight_windows(state, model, seat):
            return step(before, after_action(_open_free_fights(state, seat, model, move)))
        return step(before, after_action(_start_move(state, seat, model, move, rng, seed)))
    tested = None
    if action == "fix":
        bonus = REPAIR_KIT if "repair-kit" in model.gear else 0
        tested = (attribute(model, "intellect", state) + bonus, "fix: Intellect", "intellect")
    elif action == "get-up" and "roly-poly-system" in model.body_mods:
        tested = (attribute(model, "agility", state), "roly-poly: Agility", "agility")
    elif test and action == "interact":
        tested = (attribute(model, test, state), f"interact: {test}", test)
    if tested is None:
        return step(before, after_action(_finish_act(state, seat, model, action, item, note, None)))
    modifier, what, name = tested
    state = roll_with_cards(
        state, seat, model, modifier, what, "act", rng, seed, attribute=name, action=action, item=item, note=note
    )
    return step(before, after_action(state))


@after_test("act")
def _after_act_test(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    if pending.get("move"):
        return _after_move_test(state, seat, model, outcome, dict(pending.get("move")), rng, seed)
    return _finish_act(state, seat, model, pending.get("action"), pending.get("item"), pending.get("note"), outcome)


def _finish_act(
    state: Battle, seat: str, model: Model, action: str, item: str | None, note: str, outcome: cn.Outcome | None
) -> Battle:
    """The action's result, once its test (if any) stands: AP paid, the item fixed or broken, Prone."""
    cost = 1
    text = f"{model.name}: {action.replace('-', ' ')}" + (f" ({note})" if note else "")
    if outcome is not None:
        text += f": {outcome.value}"
    model = state.model(model.id)
    if action == "get-up":
        if outcome is cn.Outcome.FUMBLE:
            text += ", stays Prone"
        else:
            state = state.with_model(replace(model, prone=False))
            cost = 0 if outcome is not None and outcome.passed else 1
    elif action == "reload":
        state = state.with_model(replace(model, unloaded=model.unloaded - {item}))
        text += f", {item} loaded"
    elif action == "fix" and outcome is not None and outcome.passed:
        state = state.with_model(replace(model, jammed=model.jammed - {item}))
        text += f", {item} fixed"
    elif action == "fix" and outcome is cn.Outcome.FUMBLE:
        state = state.with_model(
            replace(model, jammed=model.jammed - {item}, weapons=tuple(w for w in model.weapons if w.slug != item))
        )
        text += f", {item} is broken"
    elif action == "interact" and outcome is cn.Outcome.FUMBLE:
        state = state.with_model(replace(model, prone=True))
        text += ", knocked Prone"
    if outcome is cn.Outcome.CRITICAL and action in ("interact", "fix"):
        cost = 0
    state = _spend(state, model, cost)
    return state.logged(seat, text)


# --------------------------------------------------------------------------
# moving: Move, Jump, falls
# --------------------------------------------------------------------------

RECKLESS_SPRINTER = "reckless-sprinter"


def _move_data(
    state: Battle, model: Model, action: str, height, prone_after: bool, sprint: bool, in_melee: bool, note: str
):
    """A Move's or a Jump's choices, checked, as the (key, value) pairs its tests carry."""
    if height is None or not 0 <= height <= MAX_FALL:
        raise Refused(f'a drop is from 0 to {MAX_FALL}"')
    if height and action != "jump":
        raise Refused("only a failed Jump falls from where it started")
    if sprint and RECKLESS_SPRINTER not in model.traits:
        raise Refused(f"{model.name} is not a Reckless sprinter")
    # "A model is in melee if it is not Prone and is within ½" of a non-Prone enemy"
    leaving = bool(in_melee) and not model.prone and any(not e.prone for e in state.enemies_of(model))
    reacting = state.reaction is not None and state.reaction[0] == model.id  # a reaction's Move opens none (B8)
    return (
        ("reacting", reacting),
        ("action", action),
        ("height", float(height)),
        ("prone_after", bool(prone_after)),
        ("sprint", bool(sprint)),
        ("leaving", leaving),
        ("note", note),
    )


MAX_FALL = 60  # inches: more than any table's height, so a typo is refused rather than rolled


def _start_move(state: Battle, seat: str, model: Model, move: tuple, rng, seed) -> Battle:
    """A Jump's Agility test first ("by passing an Agility test"), else a Reckless sprinter's at the end of
    the move, else the move itself (B53)."""
    data = dict(move)
    if data["action"] == "jump":
        return _move_test(state, seat, model, move, "jump", rng, seed)
    if data["sprint"]:
        return _move_test(state, seat, model, move, "sprint", rng, seed)
    return _moved(state, seat, model, move, "")


def _move_test(state: Battle, seat: str, model: Model, move: tuple, stage: str, rng, seed) -> Battle:
    what = "jump: Agility" if stage == "jump" else "Reckless sprinter: Agility"
    agility = attribute(model, "agility", state)
    return roll_with_cards(
        state, seat, model, agility, what, "act", rng, seed, attribute="agility", move=move + (("stage", stage),)
    )


def _after_move_test(state: Battle, seat: str, model: Model, outcome: cn.Outcome, data: dict, rng, seed) -> Battle:
    move = tuple((k, v) for k, v in data.items() if k != "stage")
    if data["stage"] == "jump" and not outcome.passed:
        # "On failure they fall from the starting point of the jump and suffer fall damage."
        state = _spend(state, model, 1).logged(seat, f"{model.name} fails the jump and falls where it jumped from")
        return fall(state, seat, state.model(model.id), data["height"], rng, seed, then=move)
    if data["stage"] == "jump" and data["sprint"]:
        return _move_test(state, seat, state.model(model.id), move, "sprint", rng, seed)
    if data["stage"] == "sprint" and not outcome.passed:
        # "has to pass an Agility test at the end of the move or fall prone"
        falls = ", falls Prone" if "monstrous" not in model.traits else ""
        return _moved(state, seat, model, move, f' +1" (Reckless sprinter), fails its Agility test{falls}', prone=True)
    return _moved(state, seat, model, move, ' +1" (Reckless sprinter)' if data["sprint"] else "")


def _moved(state: Battle, seat: str, model: Model, move: tuple, extra: str, prone: bool = False) -> Battle:
    """The move made: 1 AP, the log line, then its end (:func:`_move_ends`)."""
    data = dict(move)
    model = state.model(model.id)
    verb = "jumps" if data["action"] == "jump" else ("crawls" if model.prone else "moves")
    text = f"{model.name} {verb}" + (f" ({data['note']})" if data["note"] else "") + extra
    if prone and not model.prone and "monstrous" not in model.traits:
        state = state.with_model(replace(model, prone=True))
    state = _spend(state, model, 1).logged(seat, text)
    return _move_ends(state, seat, model.id, data)


def _move_ends(state: Battle, seat: str, model_id: str, data: dict) -> Battle:
    """ "At the end of a move a model can voluntarily become Prone"; then the enemies' reactions, unless it
    left melee ("Moving out of melee doesn't trigger reactions") or is out of play."""
    if not _standing_by(state, model_id):
        return state
    model = state.model(model_id)
    if data["prone_after"] and not model.prone:
        model = replace(model, prone=True)
        state = state.with_model(model).logged(seat, f"{model.name} drops Prone at the end of its move")
    if data["leaving"]:
        return state.logged(seat, f"{model.name} moved out of melee: no reactions")
    if data.get("reacting"):
        return state
    return open_move_reactions(state, model, seat)


def free_fighters(state: Battle, mover: Model, window: Pending) -> tuple[Model, ...]:
    """The models a free-Fight window lets its seat choose from: hostile to the mover, standing, able to Fight
    (which of them is within ½" is the players' to see, B24); each fights once."""
    done = set(window.get("done") or ())
    if not mover.in_play:
        return ()
    if window.get("npcs"):
        candidates = [m for m in state.enemies_of(mover) if m.npc]
    else:
        candidates = [m for m in state.enemies_of(mover) if m.seat == window.get("seat_of") and not m.npc]
    return tuple(
        m
        for m in candidates
        # Sleep bars Reactions only ("cannot perform Reactions this round"): a free Fight is not one; a model
        # whose on-Fire test just passed for it is offered again (B34)
        if (m.id not in done or m.fire_nerve)
        and not m.prone
        and not m.imprisoned
        and any(not w.ranged for w in m.weapons)
    )


def _free_fight_windows(state: Battle, mover: Model, seat: str) -> tuple[Pending, ...]:
    """One window per enemy player with a model that could fight, and one for the hostile NPCs (the game
    master's, else the moving player's, ``seat``, as every NPC choice, B33)."""
    windows = []
    for enemy_seat in state.seats:
        window = Pending("free_fight", enemy_seat, mover.id, (("seat_of", enemy_seat), ("done", ())))
        if free_fighters(state, mover, window):  # a character turned NPC: its old crew's models too
            windows.append(window)
    npcs = Pending("free_fight", "", mover.id, (("npcs", True), ("done", ())))
    if free_fighters(state, mover, npcs):
        windows.append(replace(npcs, seat=decides_for(state, free_fighters(state, mover, npcs)[0], seat)))
    return tuple(windows)


def _open_free_fights(state: Battle, seat: str, mover: Model, move: tuple) -> Battle:
    """ "If a model in melee wants to move out of melee enemies within ½" can first make a free Fight action
    against it without paying AP": the enemies' windows, then the move itself, its player's to go on with
    once every free Fight is over (B56)."""
    windows = _free_fight_windows(state, mover, seat)
    go_on = Pending("move_on", decides_for(state, mover, seat), mover.id, (("move", move), ("by", seat)))
    state = replace(state, pending=state.pending + windows + (go_on,))
    return state.logged(
        seat, f'{mover.name} moves out of melee: each enemy within ½" may first make a free Fight against it'
    )


def free_fight(
    state: Battle,
    seat: str,
    model_id: str,
    weapon: str,
    rng: random.Random,
    seed: int | None = None,
    situation: cn.Situation = cn.Situation(),
) -> Battle:
    """One enemy's free Fight against the model leaving melee: a Fight that costs no AP, whose miss opens no
    reaction; the window stays open for the seat's other models."""
    window = _pending(state, "free_fight")
    if window.seat != seat:
        raise Refused("this free Fight is another player's")
    mover = state.model(window.model)
    fighter = state.model(model_id)
    if fighter not in free_fighters(state, mover, window):
        raise Refused(f"{fighter.name} may not make a free Fight against {mover.name} now")
    if fighter.weapon(weapon).ranged:
        raise Refused("a free Fight is made with a melee weapon")
    if fighter.on_fire and not fighter.fire_nerve:
        # Being on Fire's test first (B34): failed, the attempt is spent ("its activation/reaction ends");
        # passed, the fighter's nerve lets it be offered again and take its free Fight
        spent = tuple(window.get("done") or ()) + (fighter.id,)
        marked = replace(window, data=tuple((k, spent if k == "done" else v) for k, v in window.data))
        tested, _ = _fire_check(replace(state, pending=(marked,) + state.pending[1:]), seat, fighter, rng, seed)
        return step(state, after_action(tested))
    done = tuple(window.get("done") or ()) + (fighter.id,)
    rest = replace(window, data=tuple((k, done if k == "done" else v) for k, v in window.data))
    after = (
        replace(state, pending=(rest,) + state.pending[1:])
        if free_fighters(state, mover, rest)
        else replace(state, pending=state.pending[1:])
    )
    after = after.logged(seat, f"{fighter.name} makes a free Fight against {mover.name}")
    after = _attack(after, seat, (weapon,), mover.id, rng, seed, situation, "fight", model=fighter, free=True)
    return step(state, after_action(after))


def no_free_fight(state: Battle, seat: str) -> Battle:
    window = _pending(state, "free_fight")
    if window.seat != seat:
        raise Refused("this free Fight is another player's")
    mover = state.model(window.model)
    who = "the NPCs" if window.get("npcs") else state.player(window.get("seat_of")).name
    after = replace(state, pending=state.pending[1:]).logged(
        seat, f"No (more) free Fight by {who} against {mover.name}"
    )
    return step(state, after_action(after))


def move_on(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """The free Fights over, the model leaving melee makes its move, unless they took it Out of Action; knocked
    Prone, it is no longer in melee ("not Prone") and can only crawl: its move is a crawl, reactions and all."""
    window = _pending(state, "move_on")
    if window.seat != seat:
        raise Refused("the moving model's player goes on with its move")
    after = replace(state, pending=state.pending[1:])
    mover = after.model(window.model)
    move = dict(window.get("move"))
    if not mover.in_play:
        return step(state, after_action(after.logged(seat, f"{mover.name} never makes its move")))
    if mover.prone:
        move.update(action="move", leaving=False, height=0.0)
        after = after.logged(seat, f"{mover.name} was knocked Prone: it crawls instead")
    return step(state, after_action(_start_move(after, window.get("by"), mover, tuple(move.items()), rng, seed)))


def flee_ends(
    state: Battle, seat: str, model_id: str, where: str, rng: random.Random, seed: int | None = None, height: float = 0
) -> Battle:
    """A Flee move just made (a failed on-Fire test's, or the Morale Phase's) ends against what the players see:
    "stopping and dropping **Prone** if it walks into a corner and falling down if it walks over a ledge"."""
    model = state.model(model_id)
    if state.fled != model_id or model.seat != seat or not model.in_play:
        raise Refused(f"{model.name} made no Flee move just now")
    if where not in ("corner", "ledge"):
        raise Refused("a Flee move ends in a corner or over a ledge")
    what = "Flee move ends in a corner" if where == "corner" else "Flee move goes over a ledge"
    return step(state, after_action(_stopped(state, seat, model, where, height, what, rng, seed)))


def _stopped(state: Battle, seat: str, model: Model, where: str, height, what: str, rng, seed) -> Battle:
    """A model moved by force meets what the players see: an obstacle or a corner ("stop and drop Prone"; a
    Monstrous model "cannot be knocked Prone"), a ledge (a fall of ``height``), or nothing."""
    if height is None or not 0 <= height <= MAX_FALL or (height and where != "ledge"):
        raise Refused(f'a drop is from 0 to {MAX_FALL}", over a ledge')
    if where == "ledge":
        return fall(state.logged(seat, f"{model.name}'s {what}"), seat, model, height, rng, seed)
    prone = where in ("corner", "obstacle") and not model.prone and "monstrous" not in model.traits
    text = f"{model.name}'s {what}" + (": it drops Prone" if prone else "")
    return (state.with_model(replace(model, prone=True)) if prone else state).logged(seat, text)


FORCED_MOVE_ENDS = {"clear": "goes where it was sent", "obstacle": "stops at an obstacle", "ledge": "goes over a ledge"}


def open_forced_move(state: Battle, seat: str, model: Model, cause: str) -> Battle:
    """A model just moved by another's will (Kinesis): the player who moved it says what it met (B59)."""
    return replace(state, pending=(Pending("forced_move", seat, model.id, (("cause", cause),)),) + state.pending)


def forced_move_ends(
    state: Battle, seat: str, where: str, rng: random.Random, seed: int | None = None, height: float = 0
) -> Battle:
    """Kinesis: "If the target was a model it will stop and drop Prone if moved into an obstacle or fall down if
    moved over a ledge"."""
    window = _pending(state, "forced_move")
    if window.seat != seat:
        raise Refused("the player who moved the model says where it ended")
    if where not in FORCED_MOVE_ENDS:
        raise Refused("a forced move meets nothing, an obstacle or a ledge")
    after = replace(state, pending=state.pending[1:])
    model = after.model(window.model)
    if not model.in_play:
        return step(state, after_action(after.logged(seat, f"{model.name} is no longer on the table")))
    what = f"move ({window.get('cause')}) {FORCED_MOVE_ENDS[where]}"
    return step(state, after_action(_stopped(after, seat, model, where, height, what, rng, seed)))


def fall(state: Battle, seat: str, model: Model, height: float, rng, seed, then: tuple | None = None) -> Battle:
    """ "Whenever a model falls from terrain higher than 2", either by being pushed, forced to move or failing a
    jump, it suffers one Damage 1 hit per every 3" fallen (rounded up) and is then knocked Prone. Fall damage
    ignores all armor." Each hit is the engine's ``cn.fall_plan``, its tests held open for the cards (B35);
    ``then``: the move that fell, ended once the fall is over (B54)."""
    if not state.model(model.id).in_play:
        return state
    hits = cn.fall_hits(height)
    if hits and not _standing_by(state, model.id):
        state = state.logged(seat, f'{model.name} falls {height:g}": {hits} Damage 1 hit(s), once its player answers')
        return _fall_waits(state, seat, model.id, hits, then)
    if not hits:
        state = state.logged(seat, f'{model.name} falls {height:g}": no fall damage from 2" or less')
        return _fall_ends(state, seat, model.id, then)
    plural = "s" if hits > 1 else ""
    state = state.logged(seat, f'{model.name} falls {height:g}": {hits} Damage 1 hit{plural}, armor ignored')
    return _fall_hit(state, seat, model.id, hits, then, rng, seed)


def _fall_hit(state: Battle, seat: str, model_id: str, left: int, then, rng, seed) -> Battle:
    model = state.model(model_id)
    context = (("left", left - 1), ("label", "fall"), ("then", then))
    return hit_with_cards(state, seat, model, cn.fall_plan(model.target()), "fall", rng, seed, context=context)


@after_hit("fall")
def _after_fall_hit(state: Battle, seat: str, model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    state, lines = apply_hit(state, model, hit, steps, hit_plan, None, armor=False)
    state = state.logged(seat, f"{model.name}'s fall: " + "; ".join(lines), seed=seed, rolls=list(steps))
    if not state.model(model.id).in_play:
        return state  # Out of Action: the fall's other hits and its end have nothing left to act on
    if not _standing_by(state, model.id):  # its player answers first: a Queen may keep it on the table
        return _fall_waits(state, seat, model.id, context["left"], context["then"])
    return _fall_goes_on(state, seat, model.id, context["left"], context["then"], rng, seed)


def _fall_goes_on(state: Battle, seat: str, model_id: str, left: int, then, rng, seed) -> Battle:
    """The fall's next hit, or after its last "and is then knocked Prone", then the move that fell ends."""
    if left > 0:
        return _fall_hit(state, seat, model_id, left, then, rng, seed)
    model = state.model(model_id)
    if not model.prone and "monstrous" not in model.traits:
        state = state.with_model(replace(model, prone=True)).logged(seat, f"{model.name} lands Prone")
    return _fall_ends(state, seat, model_id, then)


def _fall_waits(state: Battle, seat: str, model_id: str, left: int, then) -> Battle:
    """The fall goes on behind the Out of Action window of its model ("suffers a Wound instead" with a Queen)."""
    i = next(n for n, p in enumerate(state.pending) if p.kind == "ooa" and p.model == model_id)
    window = Pending("fall_on", seat, model_id, (("left", left), ("then", then)))
    return replace(state, pending=state.pending[: i + 1] + (window,) + state.pending[i + 1 :])


def fall_on(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """A fall held by its model's Out of Action window goes on: its other hits, then "knocked Prone"."""
    window = _pending(state, "fall_on")
    if window.seat != seat:
        raise Refused("the player who rolls the fall goes on with it")
    after = replace(state, pending=state.pending[1:])
    model = after.model(window.model)
    if not model.in_play:
        return step(state, after_action(after.logged(seat, f"{model.name}'s fall ends: it is Out of Action")))
    after = _fall_goes_on(after, seat, model.id, window.get("left"), window.get("then"), rng, seed)
    return step(state, after_action(after))


def _fall_ends(state: Battle, seat: str, model_id: str, then: tuple | None) -> Battle:
    return _move_ends(state, seat, model_id, dict(then)) if then else state


def begin(
    state: Battle,
    seat: str,
    action: str,
    cost: int,
    rng: random.Random,
    seed,
    in_melee: bool = False,
    scenario_element: bool = False,
) -> tuple[Battle, Model, bool]:
    """The checks every action makes, then Being on Fire's test: (state, the acting model, may it act)."""
    model = acting_model(state, seat)
    _check_can(model, action, cost)
    if action in NOT_IN_MELEE and in_melee:
        raise Refused(f"{action.replace('-', ' ').capitalize()} cannot be done while in melee")
    if "lobotomised" in model.traits and (action in ("fix", "use-equipment") or scenario_element):
        raise Refused(
            f"{model.name} is Lobotomised: it can never Fix, Use Equipment or interact with scenario elements"
        )
    state, ok = _fire_check(state, seat, model, rng, seed)
    return state, state.model(model.id), ok


def put_out_fire(
    state: Battle, seat: str, model_id: str, rng: random.Random, seed: int | None = None, in_melee: bool = False
) -> Battle:
    """ "To put out the flames the model on fire or another model within 1" has to spend an Interact action."""
    burning = state.model(model_id)
    if not burning.on_fire or not burning.in_play:
        raise Refused(f"{burning.name} is not on Fire")
    before = state
    state, model, ok = begin(state, seat, "interact", 1, rng, seed, in_melee=in_melee)
    if not ok:
        return step(before, after_action(state))
    state = state.with_model(replace(state.model(model_id), on_fire=False, fire_nerve=False))
    state = _spend(state, model, 1).logged(seat, f"{model.name} puts out the flames on {burning.name}")
    return step(before, after_action(state))


def open_move_reactions(state: Battle, mover: Model, seat: str) -> Battle:
    """ "If Active Model performed a Move action and is now the closest enemy in LoS of an enemy model
    that model may react": each enemy player with a model that has AP may claim it (distance is theirs).
    NPCs hostile to the mover get a window too: "When an NPC is eligible to perform a reaction they will always
    choose to react", so its answer names the NPC that is eligible, or says none is; it is the game master's,
    else the player who moved (``seat``), as for an NPC missed (B10, B33)."""
    if state.reaction:  # a reaction's move triggers no further reaction (B8)
        return state
    seats = [s for s in state.seats if s != mover.seat and any(m.ap > 0 for m in state.crew(s))]
    windows = tuple(Pending("reaction", s, data=(("cause", "move"), ("by", mover.id))) for s in seats)
    npcs = [m for m in state.enemies_of(mover) if m.npc and not m.asleep]
    if npcs:
        data = (("cause", "move"), ("by", mover.id), ("npcs", True))
        windows += (Pending("reaction", decides_for(state, npcs[0], seat), data=data),)
    return replace(state, pending=state.pending + windows)


def move_reactors(state: Battle, window: Pending) -> tuple[Model, ...]:
    """The models a Move's reaction ``window`` without a named model lets its seat claim: the seat's own
    characters with AP, or (the NPCs' window) the NPCs hostile to the mover (NPCs need no AP)."""
    if window.get("npcs"):
        mover = state.model(window.get("by"))
        return tuple(m for m in state.enemies_of(mover) if m.npc and not m.asleep)
    return tuple(m for m in state.crew(window.seat) if m.ap > 0 and not m.asleep)


PUSHED_INTO = ("obstacle", "ledge")  # what is right behind the target, the players' to see (B54)


def push(
    state: Battle,
    seat: str,
    target_id: str,
    rng: random.Random,
    seed: int | None = None,
    into: str | None = None,
    height: float = 0,
) -> Battle:
    """ "Both models roll a D6 and add their Strength. If the attacker rolls higher the target is pushed 1"
    directly away, stopping and dropping Prone if pushed into an obstacle or falling down if pushed over a
    ledge." ``into``: "obstacle" or "ledge" behind the target (``height``: the drop), as the players see it.
    A Push that fails is a miss: the target may react."""
    model = acting_model(state, seat)
    _check_can(model, "push", 1)
    target = state.model(target_id)
    if target not in state.enemies_of(model):
        raise Refused(f"{target.name} is not an enemy in play")
    if model.prone or target.prone:
        # "Select a model in melee with the attacker"; "A model is in melee if it is not Prone" (B56)
        raise Refused(f"a Push needs a model in melee: {(model if model.prone else target).name} is Prone")
    if into not in (None, *PUSHED_INTO):
        raise Refused("behind the target: nothing, an obstacle or a ledge")
    if height is None or not 0 <= height <= MAX_FALL or (height and into != "ledge"):
        raise Refused(f'a drop is from 0 to {MAX_FALL}", behind a ledge')
    before = state
    state, ok = _fire_check(state, seat, model, rng, seed)
    if not ok:
        return step(before, after_action(state))
    pushed, log = cn.roll_push(rng, model.strength, target.strength)
    text = f"{model.name} pushes {target.name}: {'pushed 1 inch' if pushed else 'holds'}"
    if pushed and into == "obstacle":
        text += ", into an obstacle"
        if not target.prone and "monstrous" not in target.traits:  # Monstrous: "cannot be knocked Prone"
            state = state.with_model(replace(target, prone=True))
            text += f": {target.name} drops Prone"
    elif pushed and into == "ledge":
        text += ", over a ledge"
    state = _spend(state, model, 1).logged(seat, text, seed=seed, rolls=[{"what": "push", "dice": list(log.shown)}])
    if not pushed:
        state = _open_miss_reaction(state, seat, model, target, parry=False)
    elif into == "ledge":
        state = fall(state, seat, state.model(target.id), height, rng, seed)
    return step(before, after_action(state))


# --------------------------------------------------------------------------
# attacks
# --------------------------------------------------------------------------


def in_darkness(state: Battle) -> bool:
    """Darkness or Partial darkness is in play (the complication or this round's environment): the light
    near a shot matters (E12b)."""
    return bool({state.scenario.complication, state.scenario.environment} & set(cn.RANGED_PENALTY))


def plan(
    state: Battle,
    attacker: Model,
    weapon_slug: str,
    target: Model,
    situation: cn.Situation = cn.Situation(),
    action: str | None = None,
    use: WeaponUse | None = None,
) -> tuple[cn.Action, cn.AttackPlan]:
    """The engine's attack plan for two models of this battle (odds and rolls both start here); ``use``: the
    weapon as it was when the attack began (Ammo deficit may take it from the model before a Splash lands)."""
    use = use or attacker.weapon(weapon_slug)
    act_kind = cn.Action(action) if action else (cn.Action.SHOOT if use.ranged else cn.Action.FIGHT)
    a, t, s = with_complications(state, act_kind, attacker, target, situation)
    try:
        return act_kind, cn.plan_attack(act_kind, a, use.weapon, t, s)
    except ValueError as error:
        raise Refused(str(error)) from None


def attack(
    state: Battle,
    seat: str,
    weapon_slug: str,
    target_id: str,
    rng: random.Random,
    seed: int | None = None,
    situation: cn.Situation = cn.Situation(),
    action: str | None = None,
    in_melee: bool = False,
) -> Battle:
    """Shoot or Fight: pay the AP (2 with Unwieldy), roll to hit, open the window after the roll.

    The window closes with :func:`resolve_attack` by the attacker's player; before
    that any player may force a Dread re-roll of a passed hit roll, or play a Jack.
    ``in_melee``: the attacker is in melee ("A model cannot shoot while in melee").
    """
    return _attack(state, seat, (weapon_slug,), target_id, rng, seed, situation, action, in_melee)


def attack_two(
    state: Battle,
    seat: str,
    first: str,
    second: str,
    target_id: str,
    rng: random.Random,
    seed: int | None = None,
    situation: cn.Situation = cn.Situation(),
    in_melee: bool = False,
) -> Battle:
    """Ambidextrous: "The model can attack with two one-handed weapons in a single action. Both attacks need
    to target the same model and both suffer a -2 to hit." One action (2 AP if either weapon is Unwieldy),
    two attacks each resolved as any (B42): the second's hit roll waits for the first to be resolved."""
    model = acting_model(state, seat)
    if "ambidextrous" not in model.traits:
        raise Refused(f"{model.name} is not Ambidextrous: one weapon per attack")
    if (first, second) not in weapon_pairs(model):
        raise Refused("two one-handed weapons carried, both melee (Fight) or both ranged (Shoot)")
    pair = replace(situation, modifier=situation.modifier - 2)
    return _attack(state, seat, (first, second), target_id, rng, seed, pair, None, in_melee)


FISTS = "fists"


def one_handed(use: WeaponUse) -> bool:
    """A one-handed weapon carried (fists are no weapon carried in a hand, B42); a battle stored before the
    weapon's hands were kept reads them from the catalogue."""
    hands = use.hands
    if hands is None:
        try:
            hands = catalogue.entry("weapons", use.slug).get("hands")
        except KeyError:
            return False
    return hands == 1 and use.slug != FISTS


def weapon_pairs(model: Model) -> list[tuple[str, str]]:
    """The two-weapon attacks of an Ambidextrous model: two one-handed weapons (one carried twice counts),
    both melee or both ranged, as one Fight or one Shoot."""
    if "ambidextrous" not in model.traits:
        return []
    hands = [use for use in model.weapons if one_handed(use)]
    return [
        (a.slug, b.slug)
        for i, a in enumerate(hands)
        for b in hands[i:]
        if (a is not b or a.copies > 1) and a.ranged == b.ranged
    ]


def _attack(
    state: Battle,
    seat: str,
    weapons: tuple,
    target_id: str,
    rng,
    seed,
    situation,
    action,
    in_melee: bool = False,
    model: Model | None = None,
    free: bool = False,
) -> Battle:
    """One attack, or an Ambidextrous pair's first (``weapons``: one slug, or two); ``free``: a free Fight by
    ``model`` (no AP, no reaction to its miss)."""
    model = model or acting_model(state, seat)
    target = state.model(target_id)
    if target not in state.enemies_of(model):
        raise Refused(f"{target.name} is not an enemy in play")
    cost = 1
    for slug in weapons:
        use = model.weapon(slug)
        if slug in model.jammed:
            raise Refused(f"{use.name} is jammed: Fix it first")
        if slug in model.unloaded:
            raise Refused(f"{use.name} must be reloaded first")
        if use.weapon.keywords.has("unwieldy"):
            cost = 2
        plan(state, model, slug, target, situation, action)  # each weapon can make this attack
    kind, planned = plan(state, model, weapons[0], target, situation, action)
    cost = 0 if free else cost
    _check_can(model, kind.value, cost)
    if kind.value in NOT_IN_MELEE and in_melee:
        raise Refused("A model cannot shoot while in melee")
    before = state
    state, ok = _fire_check(state, seat, model, rng, seed)
    if not ok:
        return step(before, after_action(state))
    # a reaction's miss opens none (B8), nor a free Fight's (B56)
    reactable = not free and not (state.reaction and state.reaction[0] == model.id)
    if not free:
        state = _spend(state, model, cost)
    if len(weapons) > 1:  # behind every window the first attack opens; its reaction is queued behind it
        data = (("target", target.id), ("weapon", weapons[1]), ("situation", situation), ("reactable", reactable))
        second = Pending("second_attack", decides_for(state, model, model.seat or seat), model.id, data)
        state = replace(state, pending=(second,) + state.pending)
    pair = " and ".join(model.weapon(slug).name for slug in weapons)
    note = f" (Ambidextrous: {pair}, -2 to hit each)" if len(weapons) > 1 else ""
    hit = (model.id, weapons[0], target, situation, kind, planned, reactable)
    return step(before, _roll_to_hit(state, seat, *hit, rng, seed, note))


def _roll_to_hit(
    state: Battle, seat: str, model_id, slug, target, situation, kind, planned, reactable, rng, seed, note=""
) -> Battle:
    """The hit roll, logged and held open for the cards (B6) until the attacker's player rolls the damage."""
    model = state.model(model_id)
    use = model.weapon(slug)
    state, outcome, roll, rolled = roll_test_event(state, model, 0, "to hit", rng, event=planned.to_hit)
    if use.weapon.keywords.has("reload"):
        state = state.with_model(replace(state.model(model.id), unloaded=state.model(model.id).unloaded | {slug}))
    data = (
        ("target", target.id),
        ("weapon", slug),
        ("action", kind.value),
        ("situation", situation),
        ("outcome", outcome.value),
        ("rerolled", False),
        ("attacker", model.id),
        ("reactable", reactable),
        ("event", rolled),
        ("attribute", "discipline" if use.ranged else "agility"),
        ("fumbled", fumbled_too(rolled, roll)),
        ("total", roll_total(rolled, roll)),
    )
    decider = decides_for(state, model, model.seat or seat)
    state = replace(state, pending=(Pending("to_hit", decider, model.id, data),) + state.pending)
    what = (
        f"fights {target.name} with {use.name}"
        if kind is cn.Action.FIGHT
        else f"shoots {target.name} with {use.name}"
        if use.ranged
        else f"throws the {use.name} at {target.name}"
    )
    text = f"{model.name} {what}: {outcome.value}{note}"
    return state.logged(seat, text, seed=seed, rolls=[roll])


def fumbled_too(event: cn.TestEvent | None, roll: dict) -> bool:
    """Auto X "Scores a Fumble if any of the dice rolls a 1, which means it's possible to score a Fumble and a
    Critical at the same time": a die of the roll on a fumble face (1, or 1-2 Jinxed). The roll's outcome stays
    the odds engine's (a Critical hits); this tells the Fumble that comes with it (the weapon jams)."""
    faces = roll.get("d20") or ()
    return event is not None and bool(faces) and min(faces) <= (2 if event.jinxed else 1)


def second_attack(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """An Ambidextrous pair's second attack, once the first is resolved: the same target, -2 to hit; one
    reaction for the action, after both (B42). No attack when the attacker or its target left play, or the
    weapon is gone or jammed."""
    pending = _pending(state, "second_attack")
    if seat != pending.seat:
        raise Refused("the attacker's player rolls the second attack")
    after = replace(state, pending=state.pending[1:])
    model, target = after.model(pending.model), after.model(pending.get("target"))
    slug = pending.get("weapon")
    missing = (
        f"{model.name} is out of play"
        if not model.in_play
        else f"{target.name} is out of play"
        if not target.in_play
        else f"the {slug} is gone or jammed"
        if slug not in {w.slug for w in model.weapons} or slug in model.jammed | model.unloaded
        else ""
    )
    if missing:
        return step(state, after_action(after.logged(seat, f"{model.name}: no second attack ({missing})")))
    kind, planned = plan(after, model, slug, target, pending.get("situation"))
    # one reaction for the whole action: none more if the first attack's miss already opened it
    reactable = pending.get("reactable") and not any(
        p.kind == "reaction" and p.model == target.id for p in after.pending
    )
    hit = (model.id, slug, target, pending.get("situation"), kind, planned, reactable)
    return step(state, _roll_to_hit(after, seat, *hit, rng, seed, " (Ambidextrous, the second attack)"))


def _pending(state: Battle, kind: str) -> Pending:
    if not state.pending or state.pending[0].kind != kind:
        raise Refused(f"there is no {kind.replace('_', ' ')} to answer now")
    return state.pending[0]


def roll_total(event: cn.TestEvent | None, roll: dict) -> int | None:
    """The roll's die (the highest of Auto X) plus its modifiers; None when an Ace passed it unrolled."""
    faces = roll.get("d20") or ()
    return max(faces) + event.modifier if event is not None and faces else None


def _refumbled(pending: Pending, event: cn.TestEvent, roll: dict) -> dict:
    """A re-rolled hit roll's Fumble and total are the new roll's (an Auto X Critical may bring a Fumble, or
    lose it)."""
    return {"fumbled": fumbled_too(event, roll), "total": roll_total(event, roll)} if pending.kind == "to_hit" else {}


def reroll_with_dread(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """ "after an Attribute Test is rolled and successfully passed by a character that has any Dread, any
    player ... may decide to force the dice to be re-rolled by removing one Dread" (once: "never re-roll a
    die more than once")."""
    pending = rolled_pending(state)
    model = state.model(pending.model)
    outcome = cn.Outcome(pending.get("outcome"))
    if state.phase is not Phase.ACTION:
        raise Refused("Dread is spent on re-rolls in the Action Phase")
    if not outcome.passed:
        raise Refused("only a passed test can be re-rolled with Dread")
    if model.dread <= 0:
        raise Refused(f"{model.name} has no Dread")
    if pending.get("rerolled"):
        raise Refused("this test was already re-rolled")
    event = pending.get("event")
    if event is None:
        raise Refused("an Ace passed this test without a roll: there is no die to re-roll")
    after = state.with_model(replace(model, dread=model.dread - 1))
    new, roll = event.roll(rng)
    after = holds.with_window_data(after, pending, outcome=new.value, rerolled=True, **_refumbled(pending, event, roll))
    return step(
        state,
        after.logged(
            seat,
            f"{state.player(seat).name} removes a Dread from {model.name} to re-roll its {event.what}: {new.value}",
            seed=seed,
            rolls=[roll],
        ),
    )


def reroll_with_body(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """The test's own model re-rolls it by a trait or body-mod (once, like any re-roll):

    Multi-headed: "Can re-roll failed reaction tests but if the re-roll also fails it loses 1 AP";
    Neural cabling: "can reroll any Intellect test. If the re-roll is a failure it suffers a Neural Overload";
    Excessive neural cabling: "can reroll any attribute test. If the re-roll is a success it suffers a Neural
    Overload. If it is a failure it suffers two consecutive Neural Overloads".
    """
    pending = rolled_pending(state)
    model = state.model(pending.model)
    if model.seat != seat or model.npc:
        raise Refused("the model's own player re-rolls with its trait or body-mod")
    if pending.get("rerolled"):
        raise Refused("this test was already re-rolled")
    event = pending.get("event")
    if event is None:
        raise Refused("an Ace passed this test without a roll: there is no die to re-roll")
    outcome = cn.Outcome(pending.get("outcome"))
    reaction = pending.get("then") == "reaction"
    if reaction and "multi-headed" in model.traits and not outcome.passed:
        how = "multi-headed"
    elif pending.get("attribute") == "intellect" and "neural-cabling" in model.body_mods:
        how = "neural-cabling"
    elif "excessive-neural-cabling" in model.body_mods:
        how = "excessive-neural-cabling"
    else:
        raise Refused(f"{model.name} has nothing that re-rolls this test")
    new, roll = event.roll(rng)
    after = holds.with_window_data(state, pending, outcome=new.value, rerolled=True, **_refumbled(pending, event, roll))
    rolls, lines = [roll], [f"{model.name} re-rolls its {event.what} ({how.replace('-', ' ')}): {new.value}"]
    overloads = 0
    if how == "multi-headed" and not new.passed:
        after = after.with_model(replace(after.model(model.id), ap=max(after.model(model.id).ap - 1, 0)))
        lines.append("the heads start arguing: 1 AP lost")
    elif how == "neural-cabling" and not new.passed:
        overloads = 1
    elif how == "excessive-neural-cabling":
        overloads = 1 if new.passed else 2
    for _ in range(overloads):
        if after.model(model.id).in_play:
            after, text, overload_roll = neural_overload(after, model.id, rng)
            lines.append(text)
            rolls.append(overload_roll)
    return step(state, after.logged(seat, "; ".join(lines), seed=seed, rolls=rolls))


def let_stand(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """A player lets another's roll stand (B65); the last answer closes it if its roller let it stand already.

    The answer and the close it makes are one step, this player's: undo takes back both or neither (the
    roller could otherwise undo the close alone, leaving a window every player had answered and none could
    close)."""
    before = state
    state = holds.let_stand(state, seat)
    if holds.ready_to_close(state):
        window = state.pending[0]
        close = resolve_attack if window.kind == "to_hit" else resolve_test
        if window.seat is None:  # a rolled test's window always names its roller
            raise Refused("this roll names no roller to close it")
        return step(before, close(state, window.seat, rng, seed))
    return state


def rolled_pending(state: Battle) -> Pending:
    """The window after a test was rolled (an attack's hit roll, or a reaction's or a sorcery's test)."""
    if not state.pending or state.pending[0].kind not in ("to_hit", "test"):
        raise Refused("no test was just rolled")
    return state.pending[0]


def open_test_window(state: Battle, seat: str, model: Model, outcome: cn.Outcome, event, then: str, **data) -> Battle:
    """Hold a rolled test open for a Jack or a Dread re-roll; ``then`` names what resolving it does."""
    items = (("outcome", outcome.value), ("rerolled", False), ("event", event), ("then", then)) + tuple(data.items())
    return replace(state, pending=(Pending("test", seat, model.id, items),) + state.pending)


def resolve_test(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """Close a test's window: the reaction or the sorcery takes its (final) result."""
    pending = _pending(state, "test")
    if seat != pending.seat:
        raise Refused("the player who rolled the test resolves it")
    if holds.waiting_for(state, pending):  # B65: it closes once the others have answered
        return holds.close_when_answered(state, seat, pending)
    then = pending.get("then")
    if then != "reaction" and then not in AFTER:
        raise Refused(f"unknown test {then!r}")
    outcome = cn.Outcome(pending.get("outcome"))
    after = replace(state, pending=state.pending[1:])
    model = after.model(pending.model)
    if then not in ("reaction", "sorcery"):  # a reaction's and a sorcery's own lines tell the result
        after = after.logged(seat, f"{model.name}'s {pending.get('what')} stands: {outcome.value}")
    if _discharges(after, model, outcome):
        after = _discharge(after, seat, model, pending, rng, seed)
    else:
        after = _test_stands(after, seat, model, outcome, pending, rng, seed)
    return step(state, after_action(after))


def _test_stands(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """What the test's kind does with its final outcome; then Reinforced body's extra overload."""
    if pending.get("then") == "reaction":
        state = _apply_reaction(state, seat, model, outcome)
    else:
        state = AFTER[pending.get("then")](state, seat, model, outcome, pending, rng, seed)
    return reinforced_body_overload(state, seat, model.id, outcome, rng, seed)


def reinforced_body_overload(state: Battle, seat: str, model_id: str, outcome: cn.Outcome, rng, seed) -> Battle:
    """Reinforced body: "any Fumble for this model results in an extra Neural Overload in addition to any
    existing effects": every test or hit roll of the model that stands as a Fumble (its final result, B39),
    after the Fumble's own effects."""
    model = state.model(model_id)
    if outcome is not cn.Outcome.FUMBLE or "reinforced-body" not in model.body_mods or not model.in_play:
        return state
    state, text, roll = neural_overload(state, model_id, rng)
    return state.logged(seat, f"{text} (Reinforced body)", seed=seed, rolls=[roll])


def _discharges(state: Battle, model: Model, outcome: cn.Outcome) -> bool:
    """Electric discharges: "Whenever a model fumbles it is hit with a Damage 1 Electric attack." The Fumble
    is the test's final result, once its window closed: a rolled one, or a Jack's (B39)."""
    return outcome is cn.Outcome.FUMBLE and state.scenario.complication == "electric-discharges" and model.in_play


def _discharge(state: Battle, seat: str, model: Model, window: Pending, rng, seed) -> Battle:
    """The discharge's hit on the model that fumbled, its tests held open for the cards like any hit's;
    then the fumbled test (``window``: a test's or a hit roll's) takes its Fumble."""
    shock = cn.plan_attack(cn.Action.SHOOT, cn.Attacker(), DISCHARGE, model.target()).hit
    context = (("window", window), ("label", "electric discharge"))
    return hit_with_cards(state, seat, model, shock, "discharge", rng, seed, context=context)


@after_hit("discharge")
def _after_discharge(state: Battle, seat: str, model: Model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    state, lines = apply_hit(state, model, hit, steps, hit_plan, None)
    state = state.logged(seat, "Electric discharge: " + "; ".join(lines), seed=seed, rolls=list(steps))
    window = context["window"]
    if window.kind == "to_hit":
        return _finish_attack(state, seat, window.data, None, rng, seed)
    return _test_stands(state, seat, state.model(window.model), cn.Outcome.FUMBLE, window, rng, seed)


def resolve_attack(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """Close the hit roll's window: roll the damage on a hit and apply it to the target."""
    pending = _pending(state, "to_hit")
    if seat != pending.seat:
        raise Refused("the attacker's player rolls the damage")
    if holds.waiting_for(state, pending):  # B65: it closes once the others have answered
        return holds.close_when_answered(state, seat, pending)
    before = state
    state = replace(state, pending=state.pending[1:])
    outcome = cn.Outcome(pending.get("outcome"))
    use = state.model(pending.model).weapon(pending.get("weapon"))
    if outcome.passed:
        state = _roll_hit(state, seat, pending.data, (), rng, seed)
    elif _discharges(state, state.model(pending.model), outcome):
        state = _discharge(state, seat, state.model(pending.model), pending, rng, seed)
    else:
        state = _finish_attack(state, seat, pending.data, None, rng, seed)
        if _strays(state, pending):
            # "When shooting a model that is in melee, if the roll failed by less than 4 a random model within
            # 1/2" of the target is hit instead" (B58): before the target's reaction to the miss
            window = Pending("stray_shot", pending.seat, pending.get("target"), pending.data + (("use", use),))
            state = replace(state, pending=(window,) + state.pending)
    return step(before, after_action(state))


STRAY_MARGIN = 4  # "if the roll failed by less than 4"


def _strays(state: Battle, pending: Pending) -> bool:
    total = pending.get("total")
    return (
        pending.get("action") == cn.Action.SHOOT.value
        and pending.get("situation").in_melee
        and pending.get("outcome") == cn.Outcome.FAILURE.value
        and total is not None
        and cn.SUCCESS_AT - total < STRAY_MARGIN
        and bool(stray_candidates(state, pending))
    )


def stray_candidates(state: Battle, pending: Pending) -> tuple[Model, ...]:
    """The models a stray shot may hit: on the table, not its target nor its shooter (which of them are within
    ½" of the target is the players' to see)."""
    return tuple(m for m in state.models if m.in_play and m.id not in (pending.get("attacker"), pending.get("target")))


def stray_shot(state: Battle, seat: str, model_ids, rng: random.Random, seed: int | None = None) -> Battle:
    """The shooter's player names the models within ½" of the missed target; one of them, drawn at random, takes
    the shot's hit (a failed roll: no critical Wound), its tests held for the cards (B58)."""
    window = _pending(state, "stray_shot")
    if window.seat != seat:
        raise Refused("the shooter's player names the models within ½\" of the target")
    allowed = {m.id for m in stray_candidates(state, window)}
    chosen = sorted(set(model_ids))
    if not set(chosen) <= allowed:
        raise Refused("a stray shot hits a model on the table other than its target and its shooter")
    after = replace(state, pending=state.pending[1:])
    target = after.model(window.get("target"))
    if not chosen:
        return step(state, after_action(after.logged(seat, f'No model within ½" of {target.name}: the shot is lost')))
    hit = after.model(rng.choice(chosen))
    names = ", ".join(after.model(i).name for i in chosen)
    after = after.logged(seat, f"The shot at {target.name} strays: of {names}, {hit.name} is hit instead", seed=seed)
    a = dict(window.data)
    attacker = after.model(a["attacker"])
    situation = replace(_for_another(a["situation"]), in_melee=False, cover=False)
    _, planned = plan(after, attacker, a["weapon"], hit, situation, a["action"], use=a["use"])
    context = (("attack", window.data), ("label", "stray shot"))
    return step(
        state, after_action(hit_with_cards(after, seat, hit, planned.hit, "stray-hit", rng, seed, context=context))
    )


def _for_another(situation: cn.Situation) -> cn.Situation:
    """An attack's conditions for a model other than its target: its own Tough it Out choice (B42), and nothing
    ticked for what stands behind the target (B54)."""
    return replace(situation, tough_it_out=True, stagger_into_obstacle=False, stagger_over_ledge=0.0)


def _other_hit_lands(state: Battle, seat: str, model, hit, steps, hit_plan, context, rng, seed, what: str):
    """A hit of an attack on a model other than its target (a Splash, a stray shot) applied and logged, then a
    Fire weapon's test: "Models hit with this weapon must pass an Agility test or catch Fire"."""
    a = dict(context["attack"])
    attacker = state.model(a["attacker"])
    state, lines = apply_hit(state, model, hit, steps, hit_plan, attacker)
    state = state.logged(seat, f"{what} on {model.name}: " + "; ".join(lines), seed=seed, rolls=list(steps))
    if a["use"].weapon.keywords.has("fire"):
        state = _catch_fire(state, seat, state.model(model.id), rng, seed)
    return state


@after_hit("stray-hit")
def _after_stray_hit(state: Battle, seat: str, model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    return _other_hit_lands(state, seat, model, hit, steps, hit_plan, context, rng, seed, "Stray shot")


def _roll_hit(state: Battle, seat: str, attack: tuple, decided: tuple, rng: random.Random, seed) -> Battle:
    """The hit on the target up to its next test (Tough it Out, Extra organs, Stagger: each held open for the
    cards through :func:`roll_with_cards`, B35), or to the hit's end."""
    a = dict(attack)
    attacker, target = state.model(a["attacker"]), state.model(a["target"])
    _, planned = plan(state, attacker, a["weapon"], target, a["situation"], a["action"])
    try:
        hit, steps = replay_hit(planned.hit, a["outcome"] == "critical", decided, rng)
    except HitTest as paused:
        held = {"attack": attack, "decided": paused.decided, "test": paused.event.what, "by": seat}
        return _hold_hit_test(state, seat, target, paused, paused.event.what, "hit", rng, seed, held)
    return _finish_attack(state, seat, attack, (hit, steps, planned.hit), rng, seed)


def _hold_hit_test(state: Battle, seat: str, target: Model, paused: HitTest, what: str, then: str, rng, seed, held):
    """A hit's test of its target, rolled through the cards' window (B35); a Player Character's Tough it Out
    waits first for its player's choice (B42): "the target model *can* attempt to Tough it Out"."""
    if paused.event.what == "tough it out" and target.is_pc:
        return _open_tough_choice(state, seat, target, paused, what, then, held, seed)
    return roll_with_cards(
        state, seat, target, 0, what, then, rng, seed, event=paused.event, attribute="toughness", **held
    )


def _open_tough_choice(state: Battle, seat: str, target: Model, paused: HitTest, what: str, then: str, held, seed):
    """ "After the damage table result is determined but before any effects are applied": the damage is
    logged (everyone sees it) and the target's player chooses to roll or to take it; nothing is applied yet."""
    damage = next(log for _, log in reversed(paused.decided) if log.get("what") == "damage")
    reached = cn.damage_row(damage["result"])
    row = ROW_LABELS[reached]
    if reached is cn.Row.SERIOUS and target.prone:  # "If already Prone it is OoA"
        row += ": already Prone, so Out of Action"
    data = (
        ("row", reached.key),
        ("damage", damage),
        ("what", what),
        ("then", then),
        ("event", paused.event),
        ("held", tuple(held.items())),
    )
    state = replace(state, pending=(Pending("tough_it_out", target.seat, target.id, data),) + state.pending)
    text = (
        f"Damage on {target.name}: {damage['result']} ({row}); "
        f"{state.player(target.seat).name} chooses: Tough it Out or take it"
    )
    return state.logged(seat, text, seed=seed, rolls=[damage], final=True)


def tough_it_out(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """The target's player chooses to roll: the Toughness test, held open for the cards like every test."""
    pending = _tough_choice(state, seat)
    target = state.model(pending.model)
    after = replace(state, pending=state.pending[1:]).logged(seat, f"{target.name} tries to Tough it Out")
    held = dict(pending.get("held"))
    by = held["by"]
    after = roll_with_cards(
        after,
        by,
        target,
        0,
        pending.get("what"),
        pending.get("then"),
        rng,
        seed,
        event=pending.get("event"),
        attribute="toughness",
        **held,
    )
    return step(state, after_action(after))


def take_it(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """The target's player declines: the damage table's result is applied as it is, no test, no Dread
    ("If the model decides to roll but fails it gains 1 Dread")."""
    pending = _tough_choice(state, seat)
    target = state.model(pending.model)
    after = replace(state, pending=state.pending[1:]).logged(seat, f"{target.name} takes it: no Tough it Out")
    held = dict(pending.get("held"))
    if pending.get("then") == "hit":  # an attack: replanned at each test, so the attack itself declines
        attack = dict(held["attack"])
        attack["situation"] = replace(attack["situation"], tough_it_out=False)
        after = _roll_hit(after, held["by"], tuple(attack.items()), held["decided"], rng, seed)
    else:
        declined = replace(held["plan"], tio="none")
        after = hit_with_cards(
            after, held["by"], target, declined, held["after"], rng, seed, held["decided"], held["context"]
        )
    return step(state, after_action(after))


STIM_INJECTORS = "stim-injectors"


def stims_ready(model: Model) -> bool:
    """Stim injectors, not used yet this game."""
    return STIM_INJECTORS in model.body_mods and not model.stims_used


def use_stims(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """Stim injectors at the Tough it Out choice: "Once per game this model can automatically pass any
    Toughness test but suffers a Neural Overload as a result." The test passes without a roll (a success:
    one step down, no card to play on it), the hit goes on with it, then the overload (B43)."""
    pending = _tough_choice(state, seat)
    target = state.model(pending.model)
    if not stims_ready(target):
        raise Refused(f"{target.name} has no Stim injectors left to use this game")
    held = dict(pending.get("held"))
    used = replace(target, stims_used=True)
    after = replace(state, pending=state.pending[1:]).with_model(used)
    after = after.logged(seat, f"{target.name} uses Stim injectors: Tough it Out passes without a roll")
    window = Pending(
        "test",
        held["by"],
        target.id,
        (
            ("outcome", cn.Outcome.SUCCESS.value),
            ("rerolled", False),
            ("event", pending.get("event")),
            ("then", pending.get("then")),
            ("attribute", "toughness"),
            ("what", pending.get("what")),
            *held.items(),
        ),
    )
    after = _test_stands(after, held["by"], used, cn.Outcome.SUCCESS, window, rng, seed)
    if after.model(target.id).in_play:
        after, text, roll = neural_overload(after, target.id, rng)
        after = after.logged(seat, f"{text} (Stim injectors)", seed=seed, rolls=[roll])
    return step(state, after_action(after))


def _tough_choice(state: Battle, seat: str) -> Pending:
    pending = _pending(state, "tough_it_out")
    if seat != pending.seat:
        raise Refused("the target's player chooses whether it Toughs it Out")
    return pending


@after_test("hit")
def _after_hit_test(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """The target's test stands: the hit goes on with its final outcome (a Jack's, a re-roll's, an Ace's)."""
    decided = pending.get("decided") + ((outcome.value, {"what": pending.get("test"), "outcome": outcome.value}),)
    return _roll_hit(state, pending.get("by"), pending.get("attack"), decided, rng, seed)


def hit_with_cards(
    state: Battle,
    seat: str,
    target: Model,
    hit_plan: cn.HitPlan,
    then: str,
    rng: random.Random,
    seed,
    decided: tuple = (),
    context: tuple = (),
) -> Battle:
    """A hit no attack made (a burn, a trap, a Bolt, Gut Twist, a discharge, Unstable): its target's tests
    (Tough it Out, Extra organs) held open for the cards like an attack's (B35, B36); when the hit ends, the
    continuation ``then`` registered with ``card_tests.after_hit`` applies it, with ``context`` (key, value)
    pairs; a ``label`` among them names the hit beside each test on the page and in the log."""
    # the hit lands on the model as it is now, as an attack's replayed plan does: a discharge (B39) brought by
    # one of its tests may have wounded it since the hit began
    target = state.model(target.id)
    hit_plan = replace(hit_plan, wounds=target.wounds, prone=target.prone)
    try:
        hit, steps = replay_hit(hit_plan, False, decided, rng)
    except HitTest as paused:
        label = dict(context).get("label")
        what = f"{paused.event.what} ({label})" if label else paused.event.what
        held = {
            "plan": hit_plan,
            "decided": paused.decided,
            "test": paused.event.what,
            "by": seat,
            "after": then,
            "context": context,
        }
        return _hold_hit_test(state, seat, target, paused, what, "plain-hit", rng, seed, held)
    return AFTER_HIT[then](state, seat, target, hit, steps, hit_plan, dict(context), rng, seed)


@after_test("plain-hit")
def _after_plain_hit_test(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    decided = pending.get("decided") + ((outcome.value, {"what": pending.get("test"), "outcome": outcome.value}),)
    by = pending.get("by")
    return hit_with_cards(
        state, by, model, pending.get("plan"), pending.get("after"), rng, seed, decided, pending.get("context")
    )


def _finish_attack(state: Battle, seat: str, attack: tuple, hit_info, rng: random.Random, seed) -> Battle:
    """The attack's result: the hit applied (``hit_info``: the hit, its draws, its plan) or the miss."""
    info = dict(attack)
    attacker, target = state.model(info["attacker"]), state.model(info["target"])
    outcome = cn.Outcome(info["outcome"])
    kind = cn.Action(info["action"])
    use = attacker.weapon(info["weapon"])
    rolls: list[dict] = []
    lines: list[str] = []
    thrown = kind is cn.Action.SHOOT and not use.ranged  # a melee weapon with Thrown (B63)
    # "On a Fumble the weapon jams"; a thrown weapon has left the hand, to land by the target
    jams = kind is cn.Action.SHOOT and not thrown and not use.weapon.keywords.has("reliable")
    if hit_info is not None:
        hit, steps, hit_plan = hit_info
        rolls += list(steps)
        state, lines = apply_hit(state, target, hit, steps, hit_plan, attacker)
        if kind is cn.Action.FIGHT and _pushed(steps) and not hit.ooa:
            lines.append(f'{attacker.name} may move 1" towards it')  # "If it was a melee attack"
        if jams and outcome is cn.Outcome.CRITICAL and info.get("fumbled"):  # Auto X: a Critical and a Fumble
            a = state.model(attacker.id)
            state = state.with_model(replace(a, jammed=a.jammed | {use.slug}))
            lines.append(f"{use.name} jams (a die of the Auto roll fumbled)")
    else:
        lines.append("missed")
        if outcome is cn.Outcome.FUMBLE:
            if jams:
                a = state.model(attacker.id)
                state = state.with_model(replace(a, jammed=a.jammed | {use.slug}))
                lines.append(f"{use.name} jams")
            if kind is cn.Action.FIGHT:
                state = state.with_model(replace(state.model(attacker.id), prone=True))
                lines.append(f"{attacker.name} falls Prone")
    if "maddening-terror" in attacker.traits and state.model(target.id).in_play:
        state, out, dice = gain_dread_or_wound(state, target.id, rng)  # "Every time this model attacks"
        rolls += dice
        lines.append(f"{target.name} gains 1 Dread (Maddening Terror)" + (f": {out}" if out else ""))
    if thrown:
        state = lands_by(state, attacker.id, use, target.id)
        lines.append(f"the {use.name} lands next to {target.name}")
    elif kind is cn.Action.SHOOT and "ammo-deficit" == state.scenario.complication:
        face = rng.randint(1, 6)
        rolls.append({"what": "ammo deficit", "d6": face})
        if face == 1:
            a = state.model(attacker.id)
            state = state.with_model(replace(a, weapons=tuple(w for w in a.weapons if w.slug != use.slug)))
            lines.append(f"{use.name} runs out of ammo for this game")
    # a roll the log already shows (the damage logged when its target chose whether to Tough it Out, the test
    # rolled in its own window) is not logged again: read twice, it looked like a re-roll
    shown = [roll for entry in state.log[-12:] for roll in entry.rolls]
    rolls = [roll for roll in rolls if roll not in shown]
    state = state.logged(seat, f"{attacker.name} -> {target.name}: " + "; ".join(lines), seed=seed, rolls=rolls)
    ledge = info["situation"].stagger_over_ledge
    if hit_info is not None and ledge and _pushed(hit_info[1]) and state.model(target.id).in_play:
        # Stagger: "On failure it is pushed back 1" ... falling down if pushed over a ledge" (B54)
        state = fall(state, seat, state.model(target.id), ledge, rng, seed)
    if hit_info is None:
        state = reinforced_body_overload(state, seat, attacker.id, outcome, rng, seed)
    if hit_info is not None and use.weapon.keywords.has("splash") and splash_candidates(state, target.id):
        # "On a hit all models within 1" of the original target are hit as well" (B57): behind its Fire test
        data = (
            ("attacker", attacker.id),
            ("weapon", use.slug),
            ("use", use),
            ("action", kind.value),
            ("situation", info["situation"]),
        )
        window = Pending("splash", decides_for(state, attacker, attacker.seat or seat), target.id, data)
        state = replace(state, pending=(window,) + state.pending)
    if outcome.passed and use.weapon.keywords.has("fire"):
        state = _catch_fire(state, seat, state.model(target.id), rng, seed)
    if not outcome.passed and info["reactable"]:
        state = _open_miss_reaction(
            state,
            seat,
            attacker,
            state.model(target.id),
            parry=kind is cn.Action.FIGHT and _has_parry(state.model(target.id)),
        )
    unstable = use.weapon.keywords.has("unstable")
    if outcome is cn.Outcome.FUMBLE and hit_info is None and unstable and state.model(attacker.id).in_play:
        # "Unstable: On a Fumble the damage is dealt to the user": a hit whose tests wait for the cards (B36),
        # before the target's reaction (queued behind it)
        own = state.model(attacker.id)
        self_hit = cn.plan_attack(kind, own.attacker(), use.weapon, own.target()).hit
        state = hit_with_cards(state, seat, own, self_hit, "unstable", rng, seed, context=(("label", "Unstable"),))
    return state


def lands_by(state: Battle, thrower_id: str, use: WeaponUse, target_id: str | None = None) -> Battle:
    """Thrown: "Once the attack is resolved the weapon lands on the ground next to the target and can be picked
    up by anyone" (B63): one copy leaves the thrower and lies on the table, next to ``target_id``."""
    thrower = state.model(thrower_id)
    kept = []
    for carried in thrower.weapons:
        if carried.slug != use.slug:
            kept.append(carried)
        elif carried.copies > 1:
            kept.append(replace(carried, copies=carried.copies - 1))
    state = state.with_model(replace(thrower, weapons=tuple(kept)))
    ground = state.scenario.weapons_on_ground + (replace(use, copies=1, near=target_id),)
    return replace(state, scenario=replace(state.scenario, weapons_on_ground=ground))


def splash_candidates(state: Battle, target_id: str | None) -> tuple[Model, ...]:
    """The models a Splash hit may reach besides its target (friend or foe: which are within 1" is the
    players' to see)."""
    return tuple(m for m in state.models if m.in_play and m.id != target_id)


def splash_hits(state: Battle, seat: str, model_ids, rng: random.Random, seed: int | None = None) -> Battle:
    """Splash: "On a hit all models within 1" of the original target are hit as well but decrease the damage
    roll by 1 die for those models": the attacker's player names them; each takes the weapon's hit, one die
    less and no critical Wound (``cn.Situation.splash_secondary``), its tests held for the cards (B57)."""
    window = _pending(state, "splash")
    if window.seat != seat:
        raise Refused("the attacker's player names the models the Splash reaches")
    allowed = {m.id for m in splash_candidates(state, window.model)}
    chosen = tuple(dict.fromkeys(model_ids))
    if not set(chosen) <= allowed:
        raise Refused("a Splash reaches models on the table other than its target")
    after = replace(state, pending=state.pending[1:])
    names = ", ".join(after.model(i).name for i in chosen) or "no other model"
    after = after.logged(seat, f"Splash around {after.model(window.model).name}: {names}")
    return step(state, after_action(_next_splash(after, seat, chosen, window.data, rng, seed)))


def _next_splash(state: Battle, seat: str, queue: tuple, attack: tuple, rng, seed) -> Battle:
    queue = tuple(i for i in queue if state.model(i).in_play)
    if not queue:
        return state
    a = dict(attack)
    attacker, model = state.model(a["attacker"]), state.model(queue[0])
    secondary = replace(_for_another(a["situation"]), splash_secondary=True)
    _, planned = plan(state, attacker, a["weapon"], model, secondary, a["action"], use=a["use"])
    context = (("queue", queue[1:]), ("attack", attack), ("label", "Splash"))
    return hit_with_cards(state, seat, model, planned.hit, "splash-hit", rng, seed, context=context)


@after_hit("splash-hit")
def _after_splash_hit(state: Battle, seat: str, model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    state = _other_hit_lands(state, seat, model, hit, steps, hit_plan, context, rng, seed, "Splash")
    return _next_splash(state, seat, context["queue"], context["attack"], rng, seed)


def _pushed(steps) -> bool:
    """A hit's failed Stagger test (its log among the hit's draws)."""
    return any(s.get("what") == "stagger" and s.get("outcome") in ("failure", "fumble") for s in steps)


def _standing_by(state: Battle, model_id: str) -> bool:
    """In play, with no Out of Action waiting for its player's answer."""
    return state.model(model_id).in_play and not any(p.kind == "ooa" and p.model == model_id for p in state.pending)


@after_hit("unstable")
def _after_unstable(state: Battle, seat: str, model: Model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    state, lines = apply_hit(state, model, hit, steps, hit_plan, None)
    return state.logged(seat, "Unstable: " + "; ".join(lines), seed=seed, rolls=list(steps))


def _has_parry(model: Model) -> bool:
    return any(w.weapon.keywords.has("parry") for w in model.weapons)


def _open_miss_reaction(state: Battle, rolled_by: str, attacker: Model, target: Model, parry: bool) -> Battle:
    """ "If Active Model missed with a Fight, Shoot or Push action the target may react" (with AP; NPCs need none).
    An NPC's reaction is the game master's, else the player who rolled the miss (an NPC's attacker may have
    no seat: an NPC missing a character turned NPC)."""
    if not target.in_play or (not target.npc and target.ap <= 0) or target.asleep:  # Sleep: no Reactions
        return state
    seat = target.seat if not target.npc else decides_for(state, target, rolled_by)
    return replace(
        state,
        pending=state.pending
        + (Pending("reaction", seat, target.id, (("cause", "missed"), ("by", attacker.id), ("parry", parry))),),
    )


def apply_hit(
    state: Battle,
    target: Model,
    hit: cn.HitState,
    steps,
    hit_plan: cn.HitPlan,
    attacker: Model | None,
    armor: bool = True,
) -> tuple[Battle, list[str]]:
    """Put the engine's hit on the target: Wounds, Prone, Dread from a failed Tough it Out, Out of Action.
    ``armor``: False for a hit that ignores armor (a fall), which leaves a Shield unspent."""
    lines = []
    failed_tio = any(s.get("what") == "tough it out" and s.get("outcome") in ("failure", "fumble") for s in steps)
    model = wounded(target, hit.wounds, hit.prone, hit.gained, hit_plan.extra_organs and not hit.organs)
    if armor and model.magic_shield and any(s.get("what") == "damage" for s in steps):
        model = replace(model, magic_shield=False)  # "disappears after reducing damage once"
        lines.append(f"{target.name}'s Shield is spent")
    if hit.gained:
        lines.append(f"{target.name} gains {hit.gained} Wound(s)")
    if hit.knocked and not hit.ooa:
        lines.append(f"{target.name} is knocked Prone")
    if failed_tio and "demonic" not in target.traits and model.gains_dread:
        model = gain_dread(model)
        lines.append(f"{target.name} fails to Tough it Out: 1 Dread")
    if not hit.gained and not hit.knocked and not hit.ooa:
        lines.append(f"{target.name} is unharmed")
    if _pushed(steps) and not hit.ooa:  # Stagger: "On failure it is pushed back 1"" (B66)
        where = (
            "over the ledge"
            if hit_plan.stagger_ledge
            else "into the obstacle"
            if hit_plan.stagger_prone
            else "(move it on the table)"
        )
        lines.append(f'{target.name} fails its Stagger test: pushed back 1" {where}')
    if hit.ooa:
        if model.is_pc and hit.wounds < cn.MAX_WOUNDS:
            state = state.with_model(model)
            lines.append(f"{target.name} would go Out of Action")
            data = (("by", attacker.id),) if attacker is not None else ()
            state = replace(state, pending=(Pending("ooa", model.seat, model.id, data),) + state.pending)
            return state, lines
        state, line = take_out(state.with_model(model), model.id, by=attacker)
        return state, lines + [line]
    return state.with_model(model), lines


def accept_out_of_action(state: Battle, seat: str) -> Battle:
    """The PC's player plays no Queen: it goes Out of Action."""
    pending = _pending(state, "ooa")
    if pending.seat != seat:
        raise Refused("the model's player answers")
    by = state.model(pending.get("by")) if pending.get("by") else None
    after, line = take_out(replace(state, pending=state.pending[1:]), pending.model, by=by)
    return step(state, after_action(after.logged(seat, line)))


def name_witnesses(state: Battle, seat: str, witnesses, rng: random.Random) -> Battle:
    """ "An ally goes OoA while in LoS of the character": the player ticks the allies who saw it; each gains 1 Dread
    (a Demonic one a Wound instead, suffered as any: ``rng`` rolls an Extra organs test)."""
    pending = _pending(state, "witnesses")
    if pending.seat != seat:
        raise Refused("the fallen model's player names the allies who saw it")
    allies = {m.id for m in state.crew(seat)}
    wrong = set(witnesses) - allies
    if wrong:
        raise Refused(f"not allies on the table: {', '.join(sorted(wrong))}")
    after = replace(state, pending=state.pending[1:])
    names = []
    fallen_too = []
    rolls = []
    for model_id in sorted(set(witnesses)):
        after, out, dice = gain_dread_or_wound(after, model_id, rng)
        rolls += dice
        names.append(after.model(model_id).name)
        fallen_too += [out] if out else []
    fallen = state.model(pending.model).name
    if pending.get("terror"):
        fallen += f" taken out by the {state.model(pending.get('terror')).name} (Terrifying)"
    text = f"Saw {fallen} fall: {', '.join(names)} (1 Dread each)" if names else f"Nobody saw {fallen} fall"
    text += "".join(f"; {out}" for out in fallen_too)
    return step(state, after_action(after.logged(seat, text, rolls=rolls)))


def _catch_fire(state: Battle, seat: str, model: Model, rng: random.Random, seed) -> Battle:
    """Fire: "Models hit with this weapon must pass an Agility test or catch Fire" (Artificial never;
    a hazard suit ignores the Fire effects); the test goes through :func:`roll_with_cards`."""
    if not model.in_play or "artificial" in model.traits or "hazard-suit" in model.gear or model.on_fire:
        return state
    return roll_with_cards(
        state, seat, model, attribute(model, "agility", state), "catch Fire", "catch-fire", rng, seed
    )


@after_test("catch-fire")
def _after_catch_fire(state: Battle, seat: str, model: Model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    if outcome.passed:
        return state.logged(seat, f"{model.name} does not catch Fire")
    return state.with_model(replace(state.model(model.id), on_fire=True)).logged(seat, f"{model.name} is on Fire")


# --------------------------------------------------------------------------
# reactions
# --------------------------------------------------------------------------


def react(state: Battle, seat: str, rng: random.Random, seed: int | None = None, model_id: str | None = None) -> Battle:
    """ "The reacting model must roll an Agility test and if passed can perform one action. On a Critical it
    can perform up to two actions, on a Fumble it loses 1 AP." Parry: "Automatically pass reaction tests
    when missed in melee"."""
    pending = _pending(state, "reaction")
    if pending.seat != seat:
        raise Refused("this reaction is another player's")
    model = state.model(model_id or pending.model or "")
    if pending.model and model.id != pending.model:
        raise Refused(f"only {state.model(pending.model).name} may react")
    if not pending.model and pending.get("npcs") and model not in move_reactors(state, pending):
        raise Refused(f"{model.name} is not an NPC hostile to the model that moved")
    if not pending.model and not pending.get("npcs") and (model.seat != seat or not model.is_pc):
        raise Refused(f"{model.name} is not yours")
    if not model.in_play or (not model.npc and model.ap <= 0):
        raise Refused(f"{model.name} needs AP left to react")
    if model.asleep:
        raise Refused(f"{model.name} cannot react this round (Sleep)")
    before = state
    state = replace(state, pending=tuple(p for p in state.pending if p.kind != "reaction"))
    if pending.get("parry"):
        state = state.logged(
            seat,
            f"{model.name} reacts: Parry passes the test",
            rolls=[{"what": "reaction", "parry": True, "outcome": "success"}],
        )
        return step(before, after_action(_apply_reaction(state, seat, model, cn.Outcome.SUCCESS)))
    state, outcome, roll, event = roll_test_event(state, model, attribute(model, "agility", state), "reaction", rng)
    state = open_test_window(
        state.logged(seat, f"{model.name} tries to react: {outcome.value}", seed=seed, rolls=[roll]),
        seat,
        model,
        outcome,
        event,
        "reaction",
        attribute="agility",
    )
    return step(before, state)


def _apply_reaction(state: Battle, seat: str, model: Model, outcome: cn.Outcome) -> Battle:
    model = state.model(model.id)
    if outcome is cn.Outcome.CRITICAL:
        state, text = replace(state, reaction=(model.id, 2)), "critical: up to two actions"
    elif outcome is cn.Outcome.SUCCESS:
        state, text = replace(state, reaction=(model.id, 1)), "one action"
    elif outcome is cn.Outcome.FUMBLE:
        state, text = state.with_model(replace(model, ap=max(model.ap - 1, 0))), "fumble: loses 1 AP"
    else:
        text = "fails"
    return state.logged(seat, f"{model.name} reacts: {text}")


def decline_reaction(state: Battle, seat: str) -> Battle:
    pending = _pending(state, "reaction")
    if pending.seat != seat:
        raise Refused("this reaction is another player's")
    if pending.model and state.model(pending.model).npc:
        raise Refused("an NPC always chooses to react")
    after = replace(state, pending=state.pending[1:])
    # the NPCs' window declined: none of them is eligible (an eligible NPC "will always choose to react")
    text = "No NPC may react" if pending.get("npcs") else f"{state.player(seat).name} does not react"
    return step(state, after_action(after.logged(seat, text)))


def end_reaction(state: Battle, seat: str) -> Battle:
    if not state.reaction:
        raise Refused("no model is reacting")
    model = state.model(state.reaction[0])
    if model.npc and not controls_npcs(state, seat):
        raise Refused("the game master ends an NPC's reaction")
    if model.seat != seat and not model.npc:
        raise Refused("the reacting model's player ends its reaction")
    after = replace(state, reaction=None).logged(seat, f"{model.name} ends its reaction")
    return step(state, after_action(after))


# --------------------------------------------------------------------------
# fate cards played
# --------------------------------------------------------------------------


def _open_card_window(state: Battle, seat: str, card: str, effect: tuple, shown: str) -> Battle:
    """Every enemy may counter the card with a Joker ("right after your enemy plays a card")."""
    windows = tuple(
        Pending("card", s, data=(("card", card), ("by", seat), ("effect", effect), ("shown", shown)))
        for s in state.seats
        if s != seat
    )
    return replace(state, pending=windows + state.pending)


def tested_next(state: Battle, window: Pending) -> tuple[str, ...]:
    """The models whose next test a card may wait on while a test's ``window`` is open: the step's next one,
    a hit roll's target (its Tough it Out, Fire ...), and the window's own model when a Fumble of it would
    hit it (Electric discharges; an Unstable weapon's missed attack), the hit's tests being its next (B36)."""
    if window.kind in ("tough_it_out", "second_attack"):  # its Tough it Out if chosen; the pair's next hit roll
        return (window.model,) if window.model else ()
    if window.kind == "reaction":  # the reaction's Agility test, before it is rolled (B64); Parry passes it unrolled
        if window.get("parry"):
            return ()
        return (window.model,) if window.model else tuple(m.id for m in move_reactors(state, window))
    if window.kind not in ("test", "to_hit"):
        return ()
    out = [window.get("next")] if window.kind == "test" and window.get("next") else []
    outcome = cn.Outcome(window.get("outcome"))
    if window.kind == "to_hit" and outcome.passed:
        out.append(window.get("target"))
    if not outcome.passed and window.model not in out and window.model is not None:
        model = state.model(window.model)
        unstable = window.kind == "to_hit" and model.weapon(window.get("weapon")).weapon.keywords.has("unstable")
        if unstable or state.scenario.complication == "electric-discharges":
            out.append(model.id)
    return tuple(out)


def play_before_test(state: Battle, seat: str, card: str, model_id: str, sign: int = 1) -> Battle:
    """An Ace ("automatically pass that test without rolling") or a numbered card ("Place the card face down
    before rolling and reveal after the roll ... the player playing the card deciding if the modifier is
    positive or negative") on the next Attribute Test the engine rolls for ``model_id``."""
    top = state.pending[0] if state.pending else None
    between = top is not None and model_id in tested_next(state, top)
    if state.phase not in (Phase.AP, Phase.ACTION, Phase.NPCS, Phase.MORALE) or (state.pending and not between):
        raise Refused(
            "play it before an Attribute Test: while the AP are split, in the Action or Morale Phase,"
            " or between a step's tests"
        )
    model = state.model(model_id)
    if not model.in_play:
        raise Refused(f"{model.name} is not in play")
    if fate.kind(card) == "ace" and model.seat != seat:
        raise Refused("an Ace passes a test of one of your own models")
    after = fate.take_from_hand(state, seat, card, ("ace", "number"), face_down=fate.kind(card) == "number")
    signed = 0 if fate.kind(card) == "ace" else (fate.value(card) if sign >= 0 else -fate.value(card))
    shown = "an Ace" if fate.kind(card) == "ace" else "a numbered card, face down"
    after = _open_card_window(after, seat, card, ("arm", model_id, signed), shown)
    return step(state, after.logged(seat, f"{state.player(seat).name} plays {shown} on {model.name}'s next test"))


def play_jack(state: Battle, seat: str, card: str, into: str) -> Battle:
    """ "Play after an Attribute Test is rolled to change a regular failure into a Fumble or a regular success
    into a Critical" (the window of a hit roll, a reaction test or a sorcery test)."""
    pending = rolled_pending(state)
    if pending.get("event") is None:
        raise Refused("an Ace passed this test without a roll")
    outcome = cn.Outcome(pending.get("outcome"))
    wanted = {"critical": cn.Outcome.SUCCESS, "fumble": cn.Outcome.FAILURE}.get(into)
    if wanted is None:
        raise Refused("a Jack turns a result into a critical or a fumble")
    if outcome is not wanted:
        raise Refused(f"a Jack turns a regular {wanted.value} into a {into}; this roll is a {outcome.value}")
    after = fate.take_from_hand(state, seat, card, ("jack",))
    after = _open_card_window(after, seat, card, ("jack", into), f"a Jack ({into})")
    return step(
        state, after.logged(seat, f"{state.player(seat).name} plays {card}: the roll becomes a {into}", final=True)
    )


def play_queen(state: Battle, seat: str, card: str) -> Battle:
    """ "Play when a model with less than 6 Wounds would go OoA. The model suffers a Wound instead." (B5)"""
    pending = _pending(state, "ooa")
    if pending.seat != seat:
        raise Refused("the model's player may play a Queen for it")
    after = fate.take_from_hand(state, seat, card, ("queen",))
    after = _open_card_window(after, seat, card, ("queen", pending.model), "a Queen")
    return step(
        state,
        after.logged(seat, f"{state.player(seat).name} plays {card} for {state.model(pending.model).name}", final=True),
    )


def play_king(state: Battle, seat: str, card: str, model_id: str) -> Battle:
    """ "Play after an enemy model performs an action. Select one of your models in its LoS to react ...
    No Agility roll is necessary." (one action, paid in AP as any reaction, B7)"""
    if state.phase is not Phase.ACTION or state.pending or state.reaction or not state.active_model:
        raise Refused("a King is played right after an enemy model's action")
    active = state.model(state.active_model)
    if active.seat == seat:
        raise Refused("a King answers an enemy model's action")
    model = state.model(model_id)
    if model.seat != seat or not model.is_pc or not model.in_play or model.ap <= 0:
        raise Refused(f"{model.name} must be one of your models on the table with AP left")
    after = fate.take_from_hand(state, seat, card, ("king",))
    after = _open_card_window(after, seat, card, ("king", model_id), "a King")
    return step(state, after.logged(seat, f"{state.player(seat).name} plays {card}: {model.name} reacts", final=True))


def answer_card(state: Battle, seat: str, joker: str | None = None) -> Battle:
    """An enemy counters the card just played with a Joker ("The countered card is still discarded"),
    or lets it stand; when every enemy has let it stand, the card takes effect."""
    pending = _pending(state, "card")
    if pending.seat != seat:
        raise Refused("another player must answer this card first")
    card = pending.get("card")
    rest = tuple(p for p in state.pending if not (p.kind == "card" and p.get("card") == card))
    if joker:
        after = fate.take_from_hand(state, seat, joker, ("joker",))
        after = replace(after, pending=rest)
        if card not in after.player(pending.get("by")).discard:
            after = fate.discard(after, pending.get("by"), card)  # "The countered card is still discarded"
        shown = pending.get("shown")
        named = card if "face down" not in shown else shown
        return step(state, after.logged(seat, f"{state.player(seat).name} counters {named} with a Joker", final=True))
    others = tuple(p for p in state.pending[1:] if p.kind == "card" and p.get("card") == card)
    if others:
        after = replace(state, pending=state.pending[1:])
        return step(state, after.logged(seat, f"{state.player(seat).name} lets the card stand", final=True))
    after = _apply_card(replace(state, pending=rest), pending.get("by"), card, pending.get("effect"))
    # a numbered card stays face down until the roll: the log names the card only when it was shown
    shown = pending.get("shown")
    return step(
        state,
        after_action(
            after.logged(seat, f"{card if 'face down' not in shown else 'The face-down card'} stands", final=True)
        ),
    )


def _apply_card(state: Battle, by: str, card: str, effect: tuple) -> Battle:
    kind = effect[0]
    if kind == "arm":
        return replace(state, armed=state.armed + ((by, effect[1], card, effect[2]),))
    if kind == "jack":
        # the Jack's player chose the new result: their card is their answer to it (the others answer again)
        pending = rolled_pending(state)
        return holds.with_window_data(state, pending, outcome=effect[1], waived=(by,) if by != pending.seat else ())
    if kind == "queen":
        pending = _pending(state, "ooa")
        model = state.model(pending.model)
        model = replace(
            model,
            wounds=min(model.wounds + 1, cn.MAX_WOUNDS),
            had_a_wound=True,
            wounds_suffered=model.wounds_suffered + 1,
        )
        return replace(state.with_model(model), pending=state.pending[1:]).logged(
            by, f"{model.name} suffers a Wound instead of going Out of Action"
        )
    if kind == "king":
        return replace(state, reaction=(effect[1], 1))
    raise Refused(f"unknown card effect {kind!r}")
