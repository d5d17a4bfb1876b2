"""Before the first round ("Game Rules", p.17): scenario, complication, deployment, fate cards, sorceries.

"1. Determining Scenario: Select or randomize the scenario. ... 3. Roll For
Deployment: Roll an Initiative Test. The winner can choose who will be the
Active Player during deployment. 4. Deploy Crews ... 5. Draw Fate Cards".
Techno-sorceries: "Before the first game round, after deployment, every player,
starting with the Active Player selects the sorceries known to his sorcerer ...
either choose one sorcery or roll two D20 dice to select two random sorceries.
Reroll any duplicates."
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from rules.cybernekro import scenarios as draws
from rules.cybernekro.battle import catalogue, fate
from rules.cybernekro.battle.rounds import initiative_test
from rules.cybernekro.battle.state import GM, Battle, Model, Pending, Phase, Player, Refused, Scenario, step
from rules.cybernekro.battle.turns import seats_from


@dataclass(frozen=True)
class OwnScenario:
    """A campaign's own scenario (C8): a name and whether it draws a Complication; no engine rules (B32)."""

    name: str
    draws_complication: bool = False


@dataclass(frozen=True)
class ScenarioDraw:
    """ "Draw a card ... or use a D12 die": the card, and the key of the scenario on it (the group's own, C8)
    or None when its scenario is not in the free rules (C4)."""

    card: draws.Draw
    on_card: str | None = None


def draw_scenario(rng: random.Random, method: str = "deck", cards: Mapping[int, str] | None = None) -> ScenarioDraw:
    """The scenario card (52-card deck, or a D12: 1 = Ace, 11 = Jack, 12 = Queen, never a King), looked up in
    ``cards`` (card number -> scenario key: the scenarios an organiser put on a card); the free rules put
    none of theirs on a card (C4)."""
    card = draws.draw(rng, method)
    return ScenarioDraw(card, (cards or {}).get(card.number))


def new_battle(
    players,
    models,
    scenario: str | OwnScenario,
    rng: random.Random,
    seed: int | None = None,
    *,
    drawn: ScenarioDraw | None = None,
    draw_seed: int | None = None,
    game_master: bool = False,
    hold_rolls: bool = False,
) -> Battle:
    """A battle of ``players`` ((seat, name) pairs) with their ``models``, playing ``scenario`` (a catalogue
    slug, or a campaign's own scenario: the general rules only, B32). ``drawn``: the scenario card drawn
    (with ``draw_seed``), logged first. ``game_master``: the NPCs' actions are the game master's (B33).
    ``hold_rolls``: each roll waits for every player before its roller closes it (B65).

    The decks are shuffled here (red for the first seat, black for the second, B3).
    """
    if len(players) < 2:
        raise Refused("a battle needs at least two players")
    seats = [seat for seat, _ in players]
    if len(set(seats)) != len(seats) or GM in seats:
        raise Refused("two players share a seat")
    ids = [m.id for m in models]
    if len(set(ids)) != len(ids):
        raise Refused("two models share an id")
    for seat in seats:
        if not any(m.seat == seat for m in models):
            raise Refused(f"seat {seat} has no models")
    if isinstance(scenario, OwnScenario):
        played = Scenario(
            slug="campaign", name=scenario.name, campaign=True, draws_complication=scenario.draws_complication
        )
    else:
        try:
            entry = catalogue.entry("scenarios", scenario)
        except KeyError:
            raise Refused(f"no scenario {scenario!r} in the rules") from None
        played = Scenario(
            slug=entry["slug"],
            name=entry["name"],
            rounds=entry.get("rounds"),
            terminals=tuple((n, None) for n in range(1, entry.get("terminals", 0) + 1)),
            rooms=entry.get("rooms", 0),
            ritual_target=entry.get("ritual_counter_target", 6),
        )
    built = []
    for index, (seat, name) in enumerate(players):
        deck = list(fate.new_deck(fate.colour_for(index)))
        rng.shuffle(deck)
        built.append(Player(seat, name, deck=tuple(deck)))
    state = Battle(tuple(built), tuple(models), played, game_master=game_master, hold_rolls=hold_rolls)
    if drawn is not None:
        found = (
            f"it gives {played.name}"
            if drawn.on_card
            else f"its scenario is not in the free rules; the players agreed on {played.name}"
        )
        state = state.logged(
            None,
            f"Scenario card: {drawn.card.label}: {found}",
            seed=draw_seed,
            rolls=({"what": "scenario", "method": drawn.card.method, "card": drawn.card.label},),
        )
    gm = ", a game master decides the NPCs' actions" if game_master else ""
    held = ", each roll waits for every player" if hold_rolls else ""
    return state.logged(None, f"Battle set up: {played.name}, {len(players)} players{gm}{held}", seed=seed, final=True)


def draw_complication(
    state: Battle, seat: str, rng: random.Random, seed: int | None = None, method: str = "deck"
) -> Battle:
    """ "Draw a card for a Complication before starting the game" (Ace = the first printed, C4)."""
    if state.phase is not Phase.SETUP:
        raise Refused("the complication is drawn before the game starts")
    if not catalogue.scenario_rules(state.scenario).get("draws_complication"):
        raise Refused(f"{state.scenario.name} does not call for a complication")
    if state.scenario.complication:
        raise Refused("the complication is already drawn")
    card = draws.draw(rng, method)
    found = catalogue.by_number("complications", card.number)
    slug = found["slug"] if found else "no-complication"
    state = replace(state, scenario=replace(state.scenario, complication=slug))
    return step(
        state,
        state.logged(
            seat,
            f"Complication: {card.label} = {found['name'] if found else slug}",
            seed=seed,
            rolls=({"what": "complication", "card": card.label},),
        ),
    )


def deployment_initiative(
    state: Battle, seat: str, chosen: dict, rng: random.Random, seed: int | None = None
) -> Battle:
    """ "Roll For Deployment: Roll an Initiative Test": D6 + Intellect of the character each player chose."""
    if state.phase is not Phase.SETUP or state.pending or state.active_seat:
        raise Refused("deployment initiative is rolled once, during setup")
    if catalogue.scenario_rules(state.scenario).get("draws_complication") and not state.scenario.complication:
        raise Refused("draw the complication first")
    winner, rolls, text = initiative_test(state, chosen, rng)
    state = replace(state, pending=(Pending("choose_active", winner, data=(("for", "deployment"),)),))
    return step(state, state.logged(seat, f"Deployment initiative: {text}", seed=seed, rolls=rolls))


def deployed(state: Battle, seat: str, rng: random.Random, seed: int | None = None) -> Battle:
    """Both crews are on the table: scenario set-up that rolls, then "Draw Fate Cards".

    Prisoner: "A random member from each of his enemy crews is placed inside with 2 Wounds"
    and imprisoned models "cannot ... use their Intellect for ... Fate Cards".
    """
    if state.phase is not Phase.SETUP or state.pending or not state.active_seat:
        raise Refused("roll for deployment and choose the Active Player first")
    before = state
    rolls = []
    entry = catalogue.scenario_rules(state.scenario)
    # "The Active Player is the kidnapper" (Prisoner); "The First Player is the defender" (Stop the Ritual, B13)
    if state.scenario.slug == "prisoner":
        state = replace(state, scenario=replace(state.scenario, kidnapper=state.active_seat))
    if state.scenario.slug == "stop-the-ritual":
        state = replace(state, scenario=replace(state.scenario, defender=state.active_seat))
    if state.scenario.slug == "prisoner":
        for other in seats_from(state, state.active_seat)[1:]:
            crew = state.crew(other)
            prisoner = crew[rng.randrange(len(crew))]
            state = state.with_model(
                replace(prisoner, imprisoned=True, was_prisoner=True, wounds=entry.get("prisoner_wounds", 2))
            )
            rolls.append({"what": "prisoner", "seat": other, "model": prisoner.id})
            state = state.logged(
                seat,
                f"{prisoner.name} is imprisoned with {entry.get('prisoner_wounds', 2)} Wounds",
                seed=seed,
                rolls=rolls[-1:],
            )
    for p in state.players:
        size = fate.starting_hand_size(m.intellect for m in state.crew(p.seat) if not m.imprisoned)
        player, drawn, _ = fate.draw(state.player(p.seat), size, rng)
        state = state.with_player(player).logged(p.seat, f"{p.name} draws {drawn} fate cards", seed=seed, final=True)
    sorcerers = [m for m in state.models if m.sorcerer and m.in_play and not m.npc]
    state = replace(state, phase=Phase.SORCERIES if sorcerers else Phase.ROUND_START)
    return step(before, state)


# --------------------------------------------------------------------------
# Techno-sorceries chosen per game
# --------------------------------------------------------------------------


def _next_sorcerer_seat(state: Battle) -> str | None:
    for seat in seats_from(state, state.active_seat):
        if any(
            m.sorcerer and m.seat == seat and m.id not in state.sorceries_done and not m.npc
            for m in state.models
            if m.in_play
        ):
            return seat
    return None


def _sorcerer(state: Battle, seat: str, model_id: str) -> Model:
    if state.phase is not Phase.SORCERIES:
        raise Refused("sorceries are chosen after deployment, before the first round")
    model = state.model(model_id)
    if model.seat != seat or not model.sorcerer:
        raise Refused(f"{model.name} is not one of your sorcerers")
    if model.id in state.sorceries_done:
        raise Refused(f"{model.name} already knows its sorceries")
    if _next_sorcerer_seat(state) != seat:
        raise Refused("not your turn: sorceries are chosen starting with the Active Player")
    return model


def _sorceries_known(state: Battle, model: Model, known: tuple[str, ...]) -> Battle:
    state = state.with_model(replace(model, sorceries=known))
    state = replace(state, sorceries_done=state.sorceries_done | {model.id})
    if _next_sorcerer_seat(state) is None:
        state = replace(state, phase=Phase.ROUND_START)
    return state


def choose_sorcery(state: Battle, seat: str, model_id: str, sorcery: str) -> Battle:
    """ "either choose one sorcery"."""
    model = _sorcerer(state, seat, model_id)
    try:
        entry = catalogue.entry("sorceries", sorcery)
    except KeyError:
        raise Refused(f"no sorcery {sorcery!r}") from None
    after = _sorceries_known(state, model, (sorcery,))
    return step(state, after.logged(seat, f"{model.name} knows {entry['name']}"))


def roll_sorceries(state: Battle, seat: str, model_id: str, rng: random.Random, seed: int | None = None) -> Battle:
    """ "or roll two D20 dice to select two random sorceries. Reroll any duplicates."""
    model = _sorcerer(state, seat, model_id)
    faces = [rng.randint(1, 20), rng.randint(1, 20)]
    rolled = list(faces)
    while faces[1] == faces[0]:
        faces[1] = rng.randint(1, 20)
        rolled.append(faces[1])
    names = [catalogue.by_number("sorceries", f) or {} for f in faces]
    after = _sorceries_known(state, model, tuple(n["slug"] for n in names))
    return step(
        state,
        after.logged(
            seat,
            f"{model.name} rolls its sorceries: {names[0]['name']} and {names[1]['name']}",
            seed=seed,
            rolls=({"what": "sorceries", "d20": rolled},),
        ),
    )
