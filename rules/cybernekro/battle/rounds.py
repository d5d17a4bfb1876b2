"""The game round ("Game Rules", p.17-18): Round Start, the Action Phase's turns, the Round End's order.

"ROUND START: Roll an Initiative Test, the winner will choose who will be the
Active Player at the start of this round. Each player, starting with the Active
Player distributes 10 AP between his models. Every model must be assigned
between 1 and 3 AP. Each player draws one new Fate Card if they only have two
models remaining on the table or two cards if they only have one model left."
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import catalogue, fate
from rules.cybernekro.battle.actions import attribute, roll_with_cards
from rules.cybernekro.battle.card_tests import after_test
from rules.cybernekro.battle.state import Battle, Pending, Phase, Refused, step
from rules.cybernekro.battle.turns import (
    ap_models,
    calm_nerves,
    next_player,
    seats_from,
    skip_to_a_player_who_can_act,
)

AP_PER_ROUND = 10


def ap_to_split(caps) -> int:
    """The AP a player splits: 10, or all their models can take when their caps add up to less."""
    return min(AP_PER_ROUND, sum(caps))


EXTREME_TEMPERATURE_AP = 2


def initiative_test(state: Battle, chosen: dict, rng: random.Random) -> tuple[str, list, str]:
    """ "all players choose one of their characters currently on board and roll a D6 adding their Intellect".

    The highest wins; a tie for the highest is rolled again by the tied players (R27).
    Returns (winner seat, the rolls, a line for the log).
    """
    modifiers = {}
    rolling = [seat for seat in state.seats if any(not m.imprisoned for m in state.crew(seat))]
    if not rolling:
        raise Refused("no player has a character on the board")
    for seat in rolling:
        model_id = chosen.get(seat)
        if model_id is None:
            raise Refused(f"{state.player(seat).name} must choose a character for the Initiative Test")
        model = state.model(model_id)
        if model.seat != seat or not model.is_pc or not model.in_play or model.imprisoned:
            raise Refused(
                f"{model.name} cannot roll {state.player(seat).name}'s Initiative Test "
                "(one of their characters on the board)"
            )
        modifiers[seat] = model
    rolls: list[dict] = []
    parts: list[str] = []
    contenders = list(rolling)
    if len(contenders) == 1:  # B25: a player with no character on the board does not roll
        return contenders[0], rolls, f"{state.player(contenders[0]).name} alone has characters on the board"
    while True:
        results = {}
        for seat in contenders:
            face = rng.randint(1, 6)
            results[seat] = face + modifiers[seat].intellect
            rolls.append(
                {
                    "what": "initiative",
                    "seat": seat,
                    "model": modifiers[seat].id,
                    "d6": face,
                    "intellect": modifiers[seat].intellect,
                    "total": results[seat],
                }
            )
            parts.append(f"{state.player(seat).name} {face}+{modifiers[seat].intellect}={results[seat]}")
        best = max(results.values())
        contenders = [s for s in contenders if results[s] == best]
        if len(contenders) == 1:
            winner = contenders[0]
            return winner, rolls, f"{'; '.join(parts)}: {state.player(winner).name} wins"
        parts.append("tie, rolled again")


def choose_active(state: Battle, seat: str, active: str) -> Battle:
    """The Initiative winner chooses who is the Active Player (for deployment or for this round)."""
    pending = state.pending[0] if state.pending else None
    if pending is None or pending.kind != "choose_active":
        raise Refused("nobody is choosing the Active Player now")
    if pending.seat != seat:
        raise Refused("the Initiative Test's winner chooses the Active Player")
    state.player(active)
    after = replace(state, pending=(), active_seat=active, first_seat=active)
    if pending.get("for") == "round":
        after = replace(after, phase=Phase.AP, ap_assigned=frozenset())
    return step(state, after.logged(seat, f"{state.player(active).name} is the Active Player"))


def start_round(state: Battle, seat: str, chosen: dict, rng: random.Random, seed: int | None = None) -> Battle:
    """A new round: its Initiative Test, and the Quick start's environmental effect (D6)."""
    if state.phase is not Phase.ROUND_START or state.pending:
        raise Refused("a round starts after setup or after the last round's Morale Phase")
    number = state.round + 1
    winner, rolls, text = initiative_test(state, chosen, rng)
    scenario = replace(state.scenario, environment=None, interacts_this_round=0)
    lines = [f"Round {number}. Initiative: {text}"]
    if catalogue.scenario_rules(state.scenario).get("environment_effects"):
        face = rng.randint(1, 6)
        effect = catalogue.by_number("environment_effects", face)
        assert effect is not None, f"the catalogue's environment effects have no {face}"
        scenario = replace(scenario, environment=effect["slug"])
        rolls.append({"what": "environmental effect", "d6": face, "effect": effect["slug"]})
        lines.append(f"Environmental effect (D6 {face}): {effect['name']}")
    models = tuple(replace(m, ap=0, cast_this_round=frozenset(), asleep=False, fire_nerve=False) for m in state.models)
    players = tuple(replace(p, passed=False) for p in state.players)
    after = replace(
        state,
        round=number,
        scenario=scenario,
        models=models,
        players=players,
        active_model=None,
        reaction=None,
        pending=(Pending("choose_active", winner, data=(("for", "round"),)),),
        morale_queue=(),
        morale_started=False,
        npcs_done=frozenset(),
    )
    return step(state, after.logged(seat, ". ".join(lines), seed=seed, rolls=rolls))


def ap_order(state: Battle) -> list[str]:
    """The seats still to split their AP, the Active Player first (a seat with no model on the table has none)."""
    return [s for s in seats_from(state, state.first_seat) if s not in state.ap_assigned and ap_models(state, s)]


def assign_ap(state: Battle, seat: str, split: dict, rng: random.Random, seed: int | None = None) -> Battle:
    """ "distributes 10 AP between his models. Every model must be assigned between 1 and 3 AP."

    A crew that cannot place all 10 (too few models for their caps) places as many as the
    caps allow (B4). When the last player has split their AP the round-start fate cards are
    drawn (this is the step that rolls: a reshuffle) and the Action Phase starts.
    """
    if state.phase is not Phase.AP:
        raise Refused("AP are distributed at the start of a round")
    order = ap_order(state)
    if not order or order[0] != seat:
        raise Refused("not your turn to distribute AP: the Active Player starts")
    models = ap_models(state, seat)
    ids = {m.id for m in models}
    unknown = set(split) - ids
    if unknown:
        raise Refused(f"these models cannot be given AP: {', '.join(sorted(unknown))}")
    problems = []
    for m in models:
        ap = split.get(m.id, 0)
        if not isinstance(ap, int) or isinstance(ap, bool) or not 1 <= ap <= m.ap_cap:
            problems.append(f"{m.name} must get between 1 and {m.ap_cap} AP (not {ap})")
    total = sum(split.values()) if not problems else 0
    wanted = ap_to_split(m.ap_cap for m in models)
    if not problems and total != wanted:
        problems.append(f"distribute exactly {wanted} AP (you gave {total})")
    if problems:
        raise Refused("; ".join(problems))
    after = state
    for m in models:
        after = after.with_model(replace(m, ap=split[m.id]))
    after = replace(after, ap_assigned=after.ap_assigned | {seat})
    after = after.logged(
        seat, f"{state.player(seat).name} splits AP: " + ", ".join(f"{m.name} {split[m.id]}" for m in models)
    )
    # "Models can only receive up to 2 AP at the start of each round unless they pass a Toughness test."
    hot = state.scenario.complication == "extreme-temperature"
    tested = tuple(m.id for m in models if hot and split[m.id] > EXTREME_TEMPERATURE_AP)
    return step(state, _next_temperature_test(after, seat, tested, rng, seed))


def _next_temperature_test(state: Battle, seat: str, queue: tuple, rng: random.Random, seed: int | None) -> Battle:
    """Extreme temperature's Toughness tests one model at a time, each through the cards' window (B36); then the
    split is done."""
    if not queue:
        return _split_done(state, rng, seed)
    model = state.model(queue[0])
    return roll_with_cards(
        state,
        seat,
        model,
        attribute(model, "toughness", state),
        "extreme temperature: Toughness",
        "extreme-temperature",
        rng,
        seed,
        attribute="toughness",
        queue=queue[1:],
        next=queue[1] if len(queue) > 1 else None,
    )


@after_test("extreme-temperature")
def _after_temperature_test(state: Battle, seat: str, model, outcome: cn.Outcome, pending, rng, seed) -> Battle:
    if not outcome.passed:
        state = state.with_model(replace(model, ap=EXTREME_TEMPERATURE_AP)).logged(
            seat, f"{model.name} receives only {EXTREME_TEMPERATURE_AP} AP (extreme temperature)"
        )
    return _next_temperature_test(state, seat, pending.get("queue"), rng, seed)


def _split_done(state: Battle, rng: random.Random, seed: int | None) -> Battle:
    """When the last player has split their AP: the round-start fate cards, then the Action Phase."""
    if not ap_order(state):
        state = fate.deal_round(state, rng, seed)
        state = replace(state, phase=Phase.ACTION, active_seat=state.first_seat, active_model=None)
        state = skip_to_a_player_who_can_act(state)
    return state


# --------------------------------------------------------------------------
# the Action Phase's turns
# --------------------------------------------------------------------------


def select_model(state: Battle, seat: str, model_id: str) -> Battle:
    """ "The Active Player selects one of their models that still has AP to become the Active Model"."""
    _my_turn(state, seat)
    if state.active_model:
        raise Refused("end this activation first")
    model = state.model(model_id)
    if model.seat != seat or not model.is_pc or not model.in_play:
        raise Refused(f"{model.name} is not one of your models on the table")
    if model.ap <= 0:
        raise Refused(f"{model.name} has no AP left")
    after = replace(state, active_model=model.id)
    return step(state, after.logged(seat, f"{model.name} is the Active Model"))


def end_activation(state: Battle, seat: str) -> Battle:
    """Loop step: keep the remaining AP for later; the next player becomes the Active Player."""
    _my_turn(state, seat)
    if not state.active_model:
        raise Refused("no model is active")
    model = state.model(state.active_model)
    after = replace(state, active_model=None).logged(seat, f"{model.name} ends its activation")
    if state.scenario.complication == "firebug-swarms" and model.ap > 0 and "artificial" not in model.traits:
        # "Any PC finishing it's activation with any AP remaining is set on Fire."
        after = after.with_model(replace(model, on_fire=True)).logged(
            seat, f"{model.name} kept {model.ap} AP: the firebugs set it on Fire"
        )
    return step(state, skip_to_a_player_who_can_act(calm_nerves(next_player(after))))


def pass_turn(state: Battle, seat: str) -> Battle:
    """ "They can also pass voluntarily ... Once a player passes they can no longer become the Active Player"."""
    _my_turn(state, seat)
    if state.active_model:
        raise Refused("end the activation before passing")
    player = state.player(seat)
    after = state.with_player(replace(player, passed=True)).logged(seat, f"{player.name} passes")
    return step(state, skip_to_a_player_who_can_act(next_player(after)))


def _my_turn(state: Battle, seat: str) -> None:
    if state.phase is not Phase.ACTION:
        raise Refused("this is done in the Action Phase")
    if state.pending:
        raise Refused(
            f"waiting for {state.player(state.pending[0].seat).name}"
            if state.pending[0].seat in state.seats
            else "waiting for an answer"
        )
    if state.reaction:
        raise Refused("a reaction is being made")
    if state.active_seat != seat:
        raise Refused("it is not your turn")
