"""Scenario steps ("Scenarios", p.29-35): terminals, exploration, treasure, prisoners, the ritual, the end.

Only what the free rules print: the Quick start's terminals and 6 rounds, the
Exploration room table with its last-room rule, Treasure Tokens carried and
dropped, the Prisoner's 6 rounds, Stop the Ritual's counter, and each
scenario's winner. Distances and doors' positions stay with the players.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import catalogue
from rules.cybernekro.battle.actions import (
    _check_can,
    _spend,
    acting_model,
    after_action,
    apply_hit,
    attribute,
    begin,
    hit_with_cards,
    roll_with_cards,
)
from rules.cybernekro.battle.card_tests import after_hit, after_test
from rules.cybernekro.battle.npcs import place_npc
from rules.cybernekro.battle.state import GM, Battle, Phase, Refused, Status, step
from rules.cybernekro.battle.turns import next_player

CYBER_JACK = 2  # "+2 to all Intellect tests to interact with electronic scenario items like terminals"
LOCKPICKS = 2  # "+2 to all attribute tests to open scenario elements like doors and containers"
TRAP = cn.Weapon(2, None)
CORPSE_TOKENS = 3  # "Place 3 corpse tokens"
EXPLORATION = {1: "corpses", 2: "trap", 3: "awakened machine", 4: "nothing", 5: "hidden cache", 6: "artifact"}


def _interact(state: Battle, seat: str, rng, seed, in_melee: bool):
    """An Interact action with a scenario element that needs no test: AP (its tested kind: :func:`_interact_test`)."""
    state, model, ok = begin(state, seat, "interact", 1, rng, seed, in_melee=in_melee, scenario_element=True)
    if in_melee:
        raise Refused("Interact cannot be done while in melee")
    if not ok:
        return state, model, None, [], False
    state = _spend(state, model, 1)
    return state, state.model(model.id), None, [], True


def _interact_test(
    state: Battle, seat: str, rng, seed, in_melee: bool, test: str, modifier: int, what: str, element: str, **data
) -> Battle:
    """An Interact action with a scenario element and its test, rolled through the cards' window; the element's
    effect follows in :func:`_after_interact_test`."""
    before = state
    state, model, ok = begin(state, seat, "interact", 1, rng, seed, in_melee=in_melee, scenario_element=True)
    if in_melee:
        raise Refused("Interact cannot be done while in melee")
    if ok:
        modifier += attribute(model, test, state)
        state = roll_with_cards(
            state, seat, model, modifier, what, "scenario-interact", rng, seed, attribute=test, element=element, **data
        )
    return step(before, after_action(state))


@after_test("scenario-interact")
def _after_interact_test(state: Battle, seat: str, model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """ "On a Critical the action doesn't cost any AP. On a Fumble the interaction backfires and the model is
    knocked Prone"; then the terminal or the prison door."""
    if outcome is cn.Outcome.FUMBLE:
        state = state.with_model(replace(model, prone=True))
    state = _spend(state, model, 0 if outcome is cn.Outcome.CRITICAL else 1)
    if pending.get("element") == "terminal":
        terminal = pending.get("terminal")
        text = f"{model.name} tries terminal {terminal}: {outcome.value}"
        if outcome.passed:
            terminals = tuple((n, seat if n == terminal else owner) for n, owner in state.scenario.terminals)
            state = replace(state, scenario=replace(state.scenario, terminals=terminals))
            text += f", {state.player(seat).name} controls it"
    else:
        text = f"{model.name} tries the prison door: {outcome.value}"
        if outcome.passed:
            for m in state.models:
                if m.imprisoned:
                    state = state.with_model(replace(m, imprisoned=False))
            text += ": the prisoners are free"
    if outcome is cn.Outcome.FUMBLE:
        text += ", knocked Prone"
    return state.logged(seat, text)


def take_terminal(
    state: Battle, seat: str, terminal: int, rng: random.Random, seed: int | None = None, in_melee: bool = False
) -> Battle:
    """Quick start: "one of your models must spend an Interact action while within 1" and pass an Intellect test.
    Your crew will control that terminal until another player takes it"."""
    if state.scenario.slug != "quick-start-scenario":
        raise Refused("terminals are the Quick start scenario's")
    numbers = [n for n, _ in state.scenario.terminals]
    if terminal not in numbers:
        raise Refused(f"there are terminals {numbers[0]} to {numbers[-1]}")
    bonus = CYBER_JACK if "cyber-jack" in acting_model(state, seat).gear else 0
    return _interact_test(
        state, seat, rng, seed, in_melee, "intellect", bonus, "terminal: Intellect", "terminal", terminal=terminal
    )


def explore(state: Battle, seat: str, rng: random.Random, seed: int | None = None, in_melee: bool = False) -> Battle:
    """Exploration: "Each room/container can be explored once by spending an Interact action. Roll a D6"."""
    scenario = state.scenario
    if scenario.slug != "exploration":
        raise Refused("rooms are explored in the Exploration scenario")
    left = scenario.rooms - scenario.explored
    if left <= 0:
        raise Refused("every room has been explored")
    before = state
    state, model, outcome, rolls, ok = _interact(state, seat, rng, seed, in_melee)
    if not ok:
        return step(before, after_action(state))
    scenario = state.scenario
    first = scenario.exploration_rolls == 0
    if left == 1 and not scenario.artifact_found:
        # "If there is only one unexplored room/container left do not roll ... it contains the artifact for sure"
        face, result = None, "artifact"
    else:
        face = rng.randint(1, 6)
        rolls.append({"what": "exploration", "d6": face})
        result = EXPLORATION[face]
        scenario = replace(scenario, exploration_rolls=scenario.exploration_rolls + 1)
        if result == "artifact" and (first or scenario.artifact_found):
            result = "nothing (the artifact result is ignored)"
    scenario = replace(scenario, explored=scenario.explored + 1)
    state = replace(state, scenario=scenario)
    text = f"{model.name} explores a room" + (f" (D6 {face})" if face else " (the last one: no roll)") + f": {result}"
    if result == "corpses":
        state = replace(state, scenario=replace(state.scenario, corpses=state.scenario.corpses + CORPSE_TOKENS))
    elif result == "trap":
        state = state.logged(seat, text, seed=seed, rolls=rolls)
        agility = attribute(model, "agility", state)
        state = roll_with_cards(state, seat, model, agility, "trap: Agility", "trap", rng, seed, attribute="agility")
        return step(before, after_action(state))
    elif result == "awakened machine":  # the roll's line first, then the Tomb Bot it places
        state = place_npc(state.logged(seat, text, seed=seed, rolls=rolls), seat, "tomb-bots", "awakened machine")
        return step(before, after_action(state))
    elif result == "hidden cache":
        state = replace(state, scenario=replace(state.scenario, treasure_on_table=state.scenario.treasure_on_table + 1))
    elif result == "artifact":
        state = replace(state, scenario=replace(state.scenario, artifact_found=True, artifact_on_table=True))
    return step(before, after_action(state.logged(seat, text, seed=seed, rolls=rolls)))


@after_test("trap")
def _after_trap_test(state: Battle, seat: str, model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    """Exploration's trap: a failed Agility test takes the trap's hit (Damage 2, rolled on the damage table)."""
    if outcome.passed:
        return state.logged(seat, f"{model.name} avoids the trap")
    planned = cn.plan_attack(cn.Action.FIGHT, cn.Attacker(), TRAP, replace(model.target(), strength=0))
    return hit_with_cards(state, seat, model, planned.hit, "trap-hit", rng, seed)


@after_hit("trap-hit")
def _after_trap_hit(state: Battle, seat: str, model, hit, steps, hit_plan, context, rng, seed) -> Battle:
    state, lines = apply_hit(state, model, hit, steps, hit_plan, None)
    return state.logged(seat, f"{model.name} springs the trap: " + "; ".join(lines), seed=seed, rolls=list(steps))


def corpse_check(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """ "Whenever someone starts or ends a move within 3" of a corpse token roll a D6, on a 4+ replace it with a
    Flesh Drone." The players say when; the engine rolls and places."""
    if state.scenario.corpses <= 0:
        raise Refused("there are no corpse tokens")
    face = rng.randint(1, 6)
    after = state
    text = f"Corpse token (D6 {face}): "
    if face >= 4:
        after = replace(after, scenario=replace(after.scenario, corpses=after.scenario.corpses - 1))
        after = place_npc(after, seat, "flesh-drones", "a corpse rises")
        text += "it rises as a Flesh Drone"
    else:
        text += "it stays still"
    return step(state, after.logged(seat, text, seed=seed, rolls=[{"what": "corpse", "d6": face}]))


def pick_up(
    state: Battle, seat: str, item: str, rng: random.Random, seed: int | None = None, in_melee: bool = False
) -> Battle:
    """Interact: "pick up an item laying on the ground within 1" as long as it has the capacity to carry it"
    (a Treasure Token, the artifact, carried "exactly like a Treasure Token", or a thrown weapon lying there, B63).
    Capacity is the players' check."""
    lying = next((use for use in state.scenario.weapons_on_ground if use.slug == item), None)
    if item not in ("treasure", "artifact") and lying is None:
        raise Refused("pick up a treasure token, the artifact or a weapon lying on the table")
    if item == "treasure" and state.scenario.treasure_on_table <= 0:
        raise Refused("no Treasure Token lies on the table")
    if item == "artifact" and not state.scenario.artifact_on_table:
        raise Refused("the artifact is not lying on the table")
    before = state
    state, model, ok = begin(state, seat, "interact", 1, rng, seed, in_melee=in_melee)
    if not ok:
        return step(before, after_action(state))
    if lying is not None:
        model = with_weapon(model, lying)
        ground = list(state.scenario.weapons_on_ground)
        ground.remove(lying)
        scenario = replace(state.scenario, weapons_on_ground=tuple(ground))
        item = lying.name
    elif item == "treasure":
        model = replace(model, treasure=model.treasure + 1)
        scenario = replace(state.scenario, treasure_on_table=state.scenario.treasure_on_table - 1)
    else:
        model = replace(model, artifact=True)
        scenario = replace(state.scenario, artifact_on_table=False)
    state = _spend(replace(state, scenario=scenario).with_model(model), model, 1)
    return step(before, after_action(state.logged(seat, f"{model.name} picks up the {item}", seed=None)))


def with_weapon(model, use):
    """The model carrying one more of the weapon: another copy of one it carries, else the weapon itself."""
    if any(carried.slug == use.slug for carried in model.weapons):
        weapons = tuple(replace(w, copies=w.copies + 1) if w.slug == use.slug else w for w in model.weapons)
    else:
        weapons = model.weapons + (replace(use, copies=1, near=None),)
    return replace(model, weapons=weapons)


def leave_table(state: Battle, seat: str, model_id: str, fleeing: bool = False, in_melee: bool = False) -> Battle:
    """A model leaves through a board edge: "It takes all items it carries with it. This does not count as the
    model going OoA." A Move action of the acting model ("A model cannot leave the board if it is in melee"),
    or the end of a Flee move ("If the character was touching a board edge it leaves the board"), with no AP:
    in the Morale Phase, or right after the failed on-Fire test that made it ("On failure it makes a D6" long
    Flee move")."""
    model = state.model(model_id)
    if model.seat != seat or not model.in_play:
        raise Refused(f"{model.name} is not one of your models on the table")
    if in_melee and not fleeing and not model.prone:
        raise Refused("A model cannot leave the board if it is in melee")
    after = state
    if not fleeing:
        if acting_model(state, seat).id != model_id:
            raise Refused(f"{model.name} is not acting")
        _check_can(model, "move", 1)
        after = _spend(after, model, 1)
        model = after.model(model_id)
    elif state.phase is not Phase.MORALE and state.fled != model_id:
        raise Refused(f"{model.name} made no Flee move just now (Flee moves: the Morale Phase, a failed on-Fire test)")
    carried = (seat, model.treasure, model.artifact, model.was_prisoner)
    scenario = replace(after.scenario, carried_off=after.scenario.carried_off + (carried,))
    after = replace(after, scenario=scenario).with_model(
        replace(model, status=Status.LEFT, treasure=0, artifact=False, ap=0)
    )
    if after.reaction and after.reaction[0] == model_id:
        after = replace(after, reaction=None)
    if after.active_model == model_id:
        after = next_player(replace(after, active_model=None))
    what = f" with {model.treasure} Treasure Token(s)" if model.treasure else ""
    what += " and the artifact" if model.artifact else ""
    return step(state, after_action(after.logged(seat, f"{model.name} leaves the table{what}")))


def open_prison(
    state: Battle, seat: str, attribute_name: str, rng: random.Random, seed: int | None = None, in_melee: bool = False
) -> Battle:
    """Prisoner: "They are locked behind a door, normal door unlocking rules apply": "Closed doors can be opened
    with an Interact action by passing either a Strength or an Intellect test" (lockpicks +2). Every prisoner
    behind it is freed."""
    if state.scenario.slug != "prisoner":
        raise Refused("the prison is the Prisoner scenario's")
    if attribute_name not in ("strength", "intellect"):
        raise Refused("a door opens with a Strength or an Intellect test")
    if not any(m.imprisoned and m.in_play for m in state.models):
        raise Refused("nobody is imprisoned")
    bonus = LOCKPICKS if "lockpicks" in acting_model(state, seat).gear else 0
    what = f"prison door: {attribute_name}"
    return _interact_test(state, seat, rng, seed, in_melee, attribute_name, bonus, what, "prison")


def perform_ritual(
    state: Battle,
    seat: str,
    rng: random.Random,
    seed: int | None = None,
    becomes: str = "rabid-machine",
    in_melee: bool = False,
) -> Battle:
    """Stop the Ritual: "The defender can use an Interact action on the Focus twice each round ... Once the counter
    reaches 6 the defender replaces the Focus with either a Rabid Machine or an Ancient Horror"."""
    scenario = state.scenario
    if scenario.slug != "stop-the-ritual":
        raise Refused("the ritual is Stop the Ritual's")
    if seat != scenario.defender:
        raise Refused("only the defender performs the ritual")
    if scenario.interacts_this_round >= 2:
        raise Refused("the ritual is performed twice each round at most")
    if scenario.ritual >= scenario.ritual_target:
        raise Refused("the ritual is complete")
    if becomes not in ("rabid-machine", "ancient-horror"):
        raise Refused("the Focus becomes a Rabid Machine or an Ancient Horror")
    before = state
    state, model, _, rolls, ok = _interact(state, seat, rng, seed, in_melee)
    if not ok:
        return step(before, after_action(state))
    counter = state.scenario.ritual + 1
    state = replace(
        state,
        scenario=replace(state.scenario, ritual=counter, interacts_this_round=state.scenario.interacts_this_round + 1),
    )
    text = f"{model.name} performs part of the ritual: {counter}/{scenario.ritual_target}"
    if counter >= scenario.ritual_target:
        state = place_npc(state, seat, becomes, "the Focus awakens")
        text += f"; the Focus becomes a {catalogue.entry('npcs', becomes)['name'].title()}"
    return step(before, after_action(state.logged(seat, text)))


# --------------------------------------------------------------------------
# the round's end and the game's
# --------------------------------------------------------------------------


def _on_table(state: Battle, seat: str | None) -> bool:
    return any(m.in_play and m.seat == seat and not m.npc for m in state.models)


def _npcs_on_table(state: Battle) -> bool:
    return any(m.in_play and m.npc for m in state.models)


def winners(state: Battle, final_round: bool) -> tuple[str, ...] | None:
    """The scenario's winners if the game is decided now (``()``: a draw), else None."""
    s = state.scenario
    if s.slug == "quick-start-scenario":
        if not final_round:
            return None
        counts = {seat: sum(1 for _, owner in s.terminals if owner == seat) for seat in state.seats}
        best = max(counts.values())
        top = tuple(seat for seat, c in counts.items() if c == best)
        return top if len(top) == 1 and best > 0 else ()  # a tie for the most: a draw (B12)
    if s.slug == "prisoner":
        rescued = tuple(dict.fromkeys(seat for seat, _, _, prisoner in s.carried_off if prisoner))
        if not final_round:
            return None
        kidnapper_wins = any(m.was_prisoner and m.in_play for m in state.models)
        return rescued + ((s.kidnapper,) if kidnapper_wins and s.kidnapper else ())
    if s.slug == "exploration":
        for seat, _, artifact, _ in s.carried_off:
            if (
                artifact
                and not _npcs_on_table(state)
                and not any(_on_table(state, o) for o in state.seats if o != seat)
            ):
                return (seat,)
        return None
    if s.slug == "stop-the-ritual":
        defender = s.defender
        assert defender is not None, "Stop the Ritual's setup names the defender"
        others = [o for o in state.seats if o != defender]
        defenders_left = _on_table(state, defender) or _npcs_on_table(state)
        if not defenders_left:
            return tuple(o for o in others)
        if s.ritual >= s.ritual_target and not any(_on_table(state, o) for o in others):
            return (defender,)
        return None
    return None


def finish_round(state: Battle, seat: str) -> Battle:
    """The Round End's scenario steps, then the next round or the end of the game."""
    if state.phase is not Phase.ROUND_END or state.pending:
        raise Refused("the round ends after the Morale Phase")
    last = state.scenario.rounds is not None and state.round >= state.scenario.rounds
    result = winners(state, last)
    if result is None and last:
        result = ()
    if result is None and not any(_on_table(state, s) for s in state.seats):
        result = ()
    if result is None and not any(m.in_play and not m.imprisoned for s in state.seats for m in state.crew(s)):
        # only prisoners behind their door are left: nobody can take an Initiative Test or act again (B25),
        # so the rounds still to come cannot change anything: the game is scored as at its last round
        result = winners(state, True) or ()
    if result is not None:
        return step(state, end(state, seat, result))
    after = replace(state, phase=Phase.ROUND_START)
    return step(state, after.logged(seat, f"Round {state.round} ends"))


def end(state: Battle, seat: str | None, result: tuple[str, ...]) -> Battle:
    text = ("Winner: " + ", ".join(state.player(s).name for s in result)) if result else "The game ends in a draw"
    if state.scenario.campaign and not result:  # no engine rules to decide it (B32)
        text = f"{state.scenario.name} is a campaign scenario: the players decide who won"
    return replace(state, phase=Phase.ENDED, winner=tuple(result), pending=(), reaction=None, active_model=None).logged(
        seat, f"The game ends. {text}"
    )


def concede_end(state: Battle, seat: str) -> Battle:
    """The players end the game (e.g. an Exploration no crew can win: "the game ends in a draw"); the
    scenario's winner if it is already decided, else a draw. It ends once every player has asked (B67: one
    player alone could turn a game they were losing into a campaign's draw); the game master, the table's
    referee, ends it alone."""
    if state.phase is Phase.ENDED:
        raise Refused("the game has ended")
    if seat in state.end_asked:
        raise Refused(f"you asked already: the game ends once {_agree(state, end_waits_for(state))}")
    asked = state.end_asked if seat == GM else state.end_asked + (seat,)
    if seat != GM and end_waits_for(replace(state, end_asked=asked)):
        after = replace(state, end_asked=asked)
        waiting = _agree(after, end_waits_for(after))
        return step(
            state, after.logged(seat, f"{state.player(seat).name} asks to end the game now: it ends once {waiting}")
        )
    result = winners(state, True) if state.scenario.rounds else winners(state, False)
    return step(state, end(replace(state, end_asked=()), seat, result or ()))


def end_waits_for(state: Battle) -> tuple[str, ...]:
    """The players still to agree to end the game now (none asked: nobody waits)."""
    if not state.end_asked:
        return ()
    return tuple(p.seat for p in state.players if p.seat not in state.end_asked)


def play_on(state: Battle, seat: str) -> Battle:
    """A player (or the game master) answers a request to end the game now: the game goes on."""
    if not state.end_asked:
        raise Refused("nobody asked to end the game")
    who = "The game master" if seat == GM else state.player(seat).name
    return step(state, replace(state, end_asked=()).logged(seat, f"{who} plays on: the game goes on"))


def _agree(state: Battle, seats) -> str:
    return " and ".join(state.player(s).name for s in seats) + (" agrees" if len(seats) == 1 else " agree")


@dataclass(frozen=True)
class SideSummary:
    seat: str
    name: str
    out_of_action: tuple[str, ...]
    dead: tuple[str, ...]
    turned_npc: tuple[str, ...]
    treasure_carried_off: int
    treasure_held_at_end: int
    artifact: bool
    won: bool
    casualties: tuple = ()  # ({"character": id, "name": str, "outcome": "ooa" | "dead"}, ...): a campaign record's


@dataclass(frozen=True)
class Summary:
    scenario: str
    complication: str | None
    rounds: int
    winners: tuple[str, ...]
    draw: bool
    sides: tuple[SideSummary, ...]


def summary(state: Battle) -> Summary:
    """What a campaign game record needs: casualties, deaths, treasure carried off, the winner."""
    sides = []
    won = state.winner or ()
    for p in state.players:
        crew = [m for m in state.models if m.seat == p.seat]
        off = [c for c in state.scenario.carried_off if c[0] == p.seat]
        casualties = tuple(
            {"character": m.id, "name": m.name, "outcome": "dead" if m.status is Status.DEAD else "ooa"}
            for m in crew
            if m.status in (Status.DEAD, Status.OUT_OF_ACTION)
        )
        sides.append(
            SideSummary(
                p.seat,
                p.name,
                tuple(m.id for m in crew if m.status is Status.OUT_OF_ACTION),
                tuple(m.id for m in crew if m.status is Status.DEAD),
                tuple(m.id for m in crew if m.npc),
                sum(c[1] for c in off),
                sum(m.treasure for m in crew if m.in_play),
                any(c[2] for c in off),
                p.seat in won,
                casualties,
            )
        )
    complication = state.scenario.complication if state.scenario.complication != "no-complication" else None
    return Summary(
        state.scenario.slug,
        complication,
        state.round,
        tuple(won),
        state.phase is Phase.ENDED and not won and not state.scenario.campaign,
        tuple(sides),
    )
