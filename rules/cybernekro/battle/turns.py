"""Whose turn it is: table order, the models that get AP, the next Active Player, the end of the Action Phase.

Its own module so that both the round's steps (``rounds``) and the actions (``actions``) use it, and
``rounds`` can roll its tests through ``actions.roll_with_cards`` without an import cycle.
"""

from __future__ import annotations

from dataclasses import replace

from rules.cybernekro.battle.state import Battle, Model, Phase


def seats_from(state: Battle, first: str | None) -> tuple[str, ...]:
    """Every seat in table order, starting with ``first``."""
    seats = state.seats
    if first is None or first not in seats:
        return seats
    i = seats.index(first)
    return seats[i:] + seats[:i]


def ap_models(state: Battle, seat: str | None) -> tuple[Model, ...]:
    """The models that get AP: the seat's characters on the table (not imprisoned, not NPCs)."""
    return tuple(m for m in state.crew(seat) if not m.imprisoned)


def can_activate(state: Battle, seat: str | None) -> bool:
    return any(m.ap > 0 for m in ap_models(state, seat))


def calm_nerves(state: Battle) -> Battle:
    """Being on Fire: "roll a Discipline test every time it attempts to take an action". A passed test lets the
    model take the action it attempted, in this activation or reaction only: a model no longer acting (its
    activation or reaction over) tests again the next time it attempts one."""
    if any(p.kind == "free_fight" for p in state.pending):
        return state  # a free Fight's window: its model may have just passed its test to take it (B56)
    acting = {state.active_model, state.reaction[0] if state.reaction else None}
    if not any(m.fire_nerve and m.id not in acting for m in state.models):
        return state
    models = tuple(replace(m, fire_nerve=False) if m.fire_nerve and m.id not in acting else m for m in state.models)
    return replace(state, models=models)


def skip_to_a_player_who_can_act(state: Battle) -> Battle:
    """Players with no model with AP left "must pass": the engine passes for them.

    When every player has passed, the Action Phase ends (NPCs, then the Morale Phase).
    """
    for _ in range(len(state.seats) + 1):
        if state.phase is not Phase.ACTION or state.active_model or state.reaction or state.pending:
            return state
        seat = state.active_seat
        player = state.player(seat)
        if not player.passed and can_activate(state, seat):
            return state
        if not player.passed:
            state = state.with_player(replace(player, passed=True)).logged(
                seat, f"{player.name} has no model with AP left and passes"
            )
        state = next_player(state)
    return state


def next_player(state: Battle) -> Battle:
    """The next player who has not passed becomes the Active Player; nobody left: the Round End."""
    for seat in seats_from(state, state.active_seat)[1:] + (state.active_seat,):
        if not state.player(seat).passed:
            return replace(state, active_seat=seat, active_model=None)
    return end_action_phase(state)


def end_action_phase(state: Battle) -> Battle:
    """ "Once all players have passed ... activate NPCs if any are present ... resolve the Morale Phase"."""
    npcs = [m for m in state.models if m.npc and m.in_play]
    state = replace(state, phase=Phase.NPCS if npcs else Phase.MORALE, active_model=None)
    return state.logged(None, "Every player has passed: " + ("the NPCs activate" if npcs else "the Morale Phase"))
