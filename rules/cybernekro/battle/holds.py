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


def check_answered(state: Battle, pending: Pending) -> None:
    """Refused while another player may still answer the roll (``waiting_for``)."""
    waiting = waiting_for(state, pending)
    if waiting:
        names = " and ".join(state.player(s).name for s in waiting)
        raise Refused(f"waiting for {names}: a card, a Dread re-roll, or let the roll stand")


def let_stand(state: Battle, seat: str) -> Battle:
    """A player other than the roller lets the roll stand: no card and no re-roll from them on it as it is."""
    pending = state.pending[0] if state.pending else None
    if pending is None or seat not in waiting_for(state, pending):
        raise Refused("no roll is waiting for you")
    data = dict(pending.data)
    data["waived"] = tuple(data.get("waived") or ()) + (seat,)
    held = replace(pending, data=tuple(data.items()))
    after = replace(state, pending=(held,) + state.pending[1:])
    model = state.model(pending.model)
    return step(state, after.logged(seat, f"{state.player(seat).name} lets {model.name}'s roll stand"))


def hold_rolls(state: Battle, seat: str, on: bool) -> Battle:
    """Turn the wait for every player on or off (any player or the game master; logged for all to see)."""
    if state.phase is Phase.ENDED:
        raise Refused("the game is over")
    if state.hold_rolls == on:
        raise Refused(
            "each roll already waits for every player" if on else "rolls already close at their roller's word"
        )
    who = "The game master" if seat == GM else state.player(seat).name
    text = (
        f"{who}: from now on each roll waits for every player"
        if on
        else f"{who}: from now on a roll closes at its roller's word"
    )
    return step(state, replace(state, hold_rolls=on).logged(seat, text))
