"""Each roll waits for every player (B65): a table's choice, on by default for a battle set up in the app.

A Jack is played "after an Attribute Test is rolled", and "any player (both the
player controlling the character and his enemy)" may force a Dread re-roll of a
passed test. At a table the roller's opponent says so before the dice are picked
up; on phones the roller's own "let it stand" would otherwise close the window
before the opponent's screen has even shown the roll. With ``Battle.hold_rolls``
a rolled test's window (a hit roll's or any test's) waits, besides its roller,
for every other player to let it stand, play a card or re-roll it. Every other
player is asked, whatever they hold, so the wait tells nobody about a hand.
"""

from __future__ import annotations

from dataclasses import replace

from rules.cybernekro.battle.state import GM, Battle, Pending, Phase, Refused, step

# the windows of a roll already made: what may change it comes after the dice (a Jack, a Dread re-roll)
HELD = ("to_hit", "test")


def waiting_for(state: Battle, pending: Pending) -> tuple[str, ...]:
    """The seats still to answer ``pending`` before its roller may close it: none unless the table holds
    rolls; every player but the roller who has not let the roll stand since it last changed."""
    if not state.hold_rolls or pending.kind not in HELD or pending.get("event") is None:
        return ()
    waived = pending.get("waived") or ()
    return tuple(s for s in state.seats if s != pending.seat and s not in waived)


def names(state: Battle, seats) -> str:
    return " and ".join(state.player(s).name for s in seats)


def with_window_data(state: Battle, pending: Pending, **changes) -> Battle:
    """``pending`` (the window on top) with ``changes`` to its data; a changed result (a re-roll, a Jack) takes
    back every answer given to the roll as it was (B65)."""
    if "outcome" in changes:
        changes.setdefault("waived", ())
        changes.setdefault("roller_done", False)
    data = dict(pending.data)
    data.update(changes)
    return replace(state, pending=(replace(pending, data=tuple(data.items())),) + state.pending[1:])


def close_when_answered(state: Battle, seat: str, pending: Pending) -> Battle:
    """The roller lets the roll stand before the others have answered: it closes when the last of them lets it
    stand (``ready_to_close``), so the players tap in any order instead of one after the other. A changed
    result (a Jack, a re-roll) takes the roller's word back, as it does the others'."""
    if pending.get("roller_done"):
        raise Refused(f"you let it stand already: waiting for {names(state, waiting_for(state, pending))}")
    after = with_window_data(state, pending, roller_done=True)
    model = state.model(pending.model)
    waiting = waiting_for(state, pending)
    have = "have" if len(waiting) > 1 else "has"
    text = f"{_who(state, seat)} lets {model.name}'s roll stand: it closes once {names(state, waiting)} {have} answered"
    return step(state, after.logged(seat, text))


def ready_to_close(state: Battle) -> bool:
    """The roller let the roll stand and every other player has answered since: the window closes now."""
    pending = state.pending[0] if state.pending else None
    return (
        pending is not None
        and pending.kind in HELD
        and bool(pending.get("roller_done"))
        and not waiting_for(state, pending)
    )


def let_stand(state: Battle, seat: str) -> Battle:
    """A player other than the roller lets the roll stand: no card and no re-roll from them on it as it is."""
    pending = state.pending[0] if state.pending else None
    if pending is None or seat not in waiting_for(state, pending):
        raise Refused("no roll is waiting for you")
    after = with_window_data(state, pending, waived=tuple(pending.get("waived") or ()) + (seat,))
    model = state.model(pending.model)
    return step(state, after.logged(seat, f"{state.player(seat).name} lets {model.name}'s roll stand"))


def _who(state: Battle, seat: str) -> str:
    return "The game master" if seat == GM else state.player(seat).name


def hold_rolls(state: Battle, seat: str, on: bool) -> Battle:
    """Turn the wait for every player on or off (any player or the game master; logged for all to see)."""
    if state.phase is Phase.ENDED:
        raise Refused("the game is over")
    if state.hold_rolls == on:
        raise Refused(
            "each roll already waits for every player" if on else "the roller already closes each roll without waiting"
        )
    who = _who(state, seat)
    text = (
        f"{who}: from now on each roll waits for every player to answer it"
        if on
        else f"{who}: from now on the roller closes each roll without waiting for the others"
    )
    return step(state, replace(state, hold_rolls=on).logged(seat, text))
