"""The exact odds of the tests the next step rolls, with the card played on them that the viewer may know of.

"The odds account for the card that was played" (issue 16): an Ace shown to all passes the test, the
viewer's own face-down numbered card is added; another player's face-down card is never counted (B26).
The tests listed are those whose modifier is known before the roll: Hallucinogenic pollen before the
Morale Phase begins, the next character's first Morale Test (no ally in LoS: each ally adds +1), Tremors
before the phase ends, Extreme temperature's while the AP are split, Being on Fire before the model's action,
and the next test of a step held open.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import fate
from rules.cybernekro.battle.actions import attribute
from rules.cybernekro.battle.morale import pollen_testers, tremors_testers
from rules.cybernekro.battle.odds_table import card_for
from rules.cybernekro.battle.rounds import ap_order
from rules.cybernekro.battle.state import Battle, Model, Phase
from rules.cybernekro.battle.turns import ap_models

HOT = "extreme temperature: Toughness (if given more than 2 AP)"


@dataclass(frozen=True)
class NextTest:
    model: str
    what: str
    modifier: int
    card: str | None  # the card counted (an Ace, or the viewer's own numbered card and its sign)
    passed: Fraction  # success or critical


def odds(state: Battle, model: Model, modifier: int, what: str, seat: str | None) -> NextTest:
    """One test of ``model`` with ``modifier``, as ``seat`` may know it."""
    event, card = _as_known(state, model, cn.TestEvent(what, modifier, "jinxed" in model.traits), seat)
    dist = event.distribution()
    return NextTest(model.id, what, event.modifier, card, dist[cn.Outcome.SUCCESS] + dist[cn.Outcome.CRITICAL])


def _as_known(state: Battle, model: Model, event: cn.TestEvent, seat: str | None) -> tuple[cn.TestEvent, str | None]:
    """The test with the card played on it that ``seat`` may know of (an Ace, or its own numbered card)."""
    armed = card_for(state, model.id, seat)
    if armed is not None and fate.kind(armed[2]) == "ace":
        return replace(event, card="ace"), armed[2]
    if armed is not None:
        return replace(event, modifier=event.modifier + armed[3]), f"{armed[2]} ({armed[3]:+d})"
    return event, None


@dataclass(frozen=True)
class ToughChoice:
    """A damage result waiting for its target's player (B42): roll Tough it Out, or take it."""

    model: str
    seat: str | None
    damage: dict  # the damage roll's log: dice, sum, Wounds, armor, result
    row: cn.Row
    modifier: int
    card: str | None
    outcomes: tuple  # (outcome, exact chance, the row it leaves) for each result of the Toughness test


def tough_choice(state: Battle, seat: str | None) -> ToughChoice | None:
    """What each answer to an open Tough it Out choice would leave, exactly, as ``seat`` may know it."""
    top = state.pending[0] if state.pending else None
    if top is None or top.kind != "tough_it_out":
        return None
    model = state.model(top.model)
    row = cn.Row[top.get("row").upper()]
    event, card = _as_known(state, model, top.get("event"), seat)
    dist = event.distribution()
    outcomes = tuple((o, dist[o], cn.tough_it_out(row, o)) for o in cn.Outcome)
    return ToughChoice(model.id, top.seat, top.get("damage"), row, event.modifier, card, outcomes)


def _madness(model: Model) -> int:
    return model.dread if "driven-by-madness" in model.traits else 0


def upcoming(state: Battle, seat: str | None, allies: int = 0) -> tuple[NextTest, ...]:
    """The tests the battle's next step rolls whose modifier is known now; ``allies``: the allies in LoS its
    player says the next Morale Tests have ("adding the number of allies in LoS to the roll")."""
    models: list[tuple[Model, int, str]] = []
    top = state.pending[0] if state.pending else None
    if top is not None:
        if top.kind == "test" and top.get("next") and top.get("then") in ("pollen", "tremors"):
            model = state.model(top.get("next"))
            name = "intellect" if top.get("then") == "pollen" else "agility"
            value = model.intellect if name == "intellect" else attribute(model, name, state)
            models.append((model, value + _madness(model), f"{top.get('then')}: {name.capitalize()}"))
        elif top.kind == "test" and top.get("next") and top.get("then") == "extreme-temperature":
            model = state.model(top.get("next"))
            models.append((model, attribute(model, "toughness", state) + _madness(model), HOT))
    elif state.phase is Phase.AP and state.scenario.complication == "extreme-temperature" and ap_order(state):
        # the splitting player's models, each tested if given more than 2 AP
        models += [
            (m, attribute(m, "toughness", state) + _madness(m), HOT) for m in ap_models(state, ap_order(state)[0])
        ]
    elif state.phase is Phase.MORALE and not state.morale_started:
        models += [(m, m.intellect + _madness(m), "pollen: Intellect") for m in map(state.model, pollen_testers(state))]
    elif state.phase is Phase.MORALE and state.morale_queue:
        m = state.model(state.morale_queue[0])
        modifier = cn.morale_modifier(m.discipline, allies, m.wounds, m.dread, "driven-by-madness" in m.traits)
        in_sight = "no ally" if not allies else "1 ally" if allies == 1 else f"{allies} allies"
        models.append((m, modifier, f"morale: Discipline ({in_sight} in LoS)"))
    elif state.phase is Phase.MORALE:
        models += [
            (m, attribute(m, "agility", state) + _madness(m), "tremors: Agility")
            for m in map(state.model, tremors_testers(state))
        ]
    elif state.phase in (Phase.ACTION, Phase.NPCS):
        acting = state.reaction[0] if state.reaction else state.active_model
        if acting and state.model(acting).on_fire and not state.model(acting).fire_nerve:
            m = state.model(acting)
            models.append((m, m.discipline + _madness(m), "on Fire: Discipline"))
    return tuple(odds(state, m, modifier, what, seat) for m, modifier, what in models)
