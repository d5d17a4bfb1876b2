"""A Ghoulash play's choices, typed: what the game page's ``PlayForm`` reads from a POST and the
handlers of ``games.ghoulash.actions`` take. Ids are numbers; whether they name a card in the hand,
a token on the board or a player at the table is the handler's (and the engine's) to say."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    token: int | None = None  # the tile token acted on
    card: int | None = None  # the one card played (an Action card, a card's effect)
    cards: tuple[int, ...] = ()  # the cards played, put down or discarded
    parry: tuple[int, ...] = ()  # the cards a challenged player parries with
    reveal: tuple[int, ...] = ()  # the tokens Cornealius reveals with his Specialty cards
    value: tuple[int, ...] = ()  # the Value cards put down with Debris
    targets: tuple[int, ...] = ()  # the seats of the opponents on an Action card's target square
    on_square: tuple[int, ...] = ()  # the seats of the players on the square a token is moved to
    tokens: int | None = None  # how many Debris tokens are on the square entered
    to_tile: int | None = None  # the tile a token is moved to
    my_tile: int | None = None  # the tile the mover's playing piece is on


NO_CHOICES = Move()
