"""A model taken Out of Action (or killed): the one path every wound, sorcery and overload that removes it takes."""

from __future__ import annotations

from dataclasses import replace

from rules.cybernekro.battle.state import Battle, Model, Pending, Phase, Status, gain_dread
from rules.cybernekro.battle.turns import next_player


def take_out(state: Battle, model_id: str | None, dead: bool = False, by: Model | None = None) -> tuple[Battle, str]:
    """Out of Action (or dead): off the table, what it carried dropped; its allies are asked who saw it.

    Terrifying (``by``, the Rabid Machine): "Whenever this model puts another OoA all enemies in LoS gain 1
    Dread even if the removed model wasn't friendly to them": every player names their models who saw it.
    """
    model = state.model(model_id)
    state = state.with_model(replace(model, status=Status.DEAD if dead else Status.OUT_OF_ACTION, ap=0, on_fire=False))
    if state.active_model == model_id:
        state = replace(state, active_model=None)
        if state.phase is Phase.ACTION:
            state = next_player(state)
    if state.reaction and state.reaction[0] == model_id:
        state = replace(state, reaction=None)
    if model.is_pc and any(m.gains_dread for m in state.crew(model.seat)):
        state = replace(state, pending=state.pending + (Pending("witnesses", model.seat, model_id),))
    if by is not None and "terrifying" in by.traits:
        state = replace(
            state,
            pending=state.pending
            + tuple(
                Pending("witnesses", seat, model_id, (("terror", by.id),))
                for seat in state.seats
                if any(m.gains_dread for m in state.crew(seat))
            ),
        )
    return state, f"{model.name} {'dies' if dead else 'is Out of Action'}"


def dread_in_play(state: Battle, model_id: str, amount: int = 1) -> tuple[Battle, str | None]:
    """``gain_dread`` on a model in play. Demonic: "Whenever this model would gain Dread it gains a Wound instead";
    when that Wound is its 7th it goes Out of Action by :func:`take_out` like any other (what it carried dropped,
    its allies asked who saw it); the line to log is returned then."""
    model = state.model(model_id)
    changed = gain_dread(model, amount)
    if model.in_play and not changed.in_play:
        return take_out(state.with_model(replace(changed, status=model.status)), model_id)
    return state.with_model(changed), None
