"""Fate cards ("Fate Cards", p.27): the red and black decks, hands, draws, reshuffles, playing a card.

"Before the game starts divide the cards into two smaller decks, one for each
player. One deck will contain all the red while the other all the black suit
cards. Each player then checks the highest Intellect value in their crew and
draws 3 + Intellect cards from his deck." / "If there are no more cards to draw
take the discarded cards and shuffle them to make a new deck. If this is still
not enough the cards cannot be drawn."

Readings (docs/rules-interpretations.md, "Battle tracker"): each deck holds one
of the standard deck's two Jokers (B2); with more than two players the decks
alternate red, black, red, ... each a full suit-colour set of its own (B3).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cybernekro.battle.state import Battle, Player, Refused

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"red": ("♥", "♦"), "black": ("♠", "♣")}
JOKER = "Joker"


def colour_for(index: int) -> str:
    return "red" if index % 2 == 0 else "black"


def new_deck(colour: str) -> tuple[str, ...]:
    """The 26 cards of the colour's two suits and one Joker (B2), in order (shuffle before use)."""
    joker = f"{JOKER} ({colour})"
    return tuple(rank + suit for suit in SUITS[colour] for rank in RANKS) + (joker,)


def kind(card: str) -> str:
    """ "ace", "number", "jack", "queen", "king" or "joker"."""
    if card.startswith(JOKER):
        return "joker"
    rank = card[:-1]
    return {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}.get(rank, "number")


def value(card: str) -> int:
    """A numbered card's value (2-10)."""
    if kind(card) != "number":
        raise Refused(f"{card} is not a numbered card")
    return int(card[:-1])


def starting_hand_size(intellects) -> int:
    """3 + the highest Intellect in the crew (never fewer than none)."""
    values = list(intellects)
    return max(0, 3 + max(values)) if values else 0


def round_draws(models_left: int) -> int:
    """ "one new card if they only have two models remaining on the table or two cards if they only have one"."""
    return {2: 1, 1: 2}.get(models_left, 0)


def draw(player: Player, count: int, rng: random.Random) -> tuple[Player, int, bool]:
    """Draw ``count`` cards: (player, cards drawn, whether the discards were reshuffled into a deck)."""
    deck, hand, discard = list(player.deck), list(player.hand), list(player.discard)
    drawn, reshuffled = 0, False
    for _ in range(count):
        if not deck:
            if not discard or reshuffled:
                break  # "If this is still not enough the cards cannot be drawn."
            deck = list(discard)
            rng.shuffle(deck)
            discard, reshuffled = [], True
        hand.append(deck.pop(0))
        drawn += 1
    return replace(player, deck=tuple(deck), hand=tuple(hand), discard=tuple(discard)), drawn, reshuffled


def on_one_test(armed: list | tuple) -> tuple | None:
    """The cards played on one model's test, as one (seat, model id, card, signed value), or None (B62).

    Every card applies: an Ace passes the test "without rolling" (a numbered card beside it then has no
    roll to modify); otherwise the numbered cards' values add up ("The value of the card modifies the
    final result", each player choosing the sign of their own)."""
    if not armed:
        return None
    aces = [a for a in armed if kind(a[2]) == "ace"]
    if aces:
        return aces[0]
    if len(armed) == 1:
        return tuple(armed[0])
    first = armed[0]
    return (first[0], first[1], " and ".join(a[2] for a in armed), sum(a[3] for a in armed))


def discard(state: Battle, seat: str, card: str) -> Battle:
    player = state.player(seat)
    return state.with_player(replace(player, discard=player.discard + (card,)))


def take_from_hand(state: Battle, seat: str, card: str, kinds: tuple[str, ...], face_down: bool = False) -> Battle:
    """Move ``card`` from the seat's hand to its discards ("after it's used discard it").

    ``face_down``: a card placed face down before a roll goes to the discards when it is revealed
    (used or countered), so the discards never show it early.
    """
    player = state.player(seat)
    if card not in player.hand:
        raise Refused(f"{card} is not in your hand")
    if kind(card) not in kinds:
        raise Refused(f"a {kind(card)} cannot be played now (only {' or '.join(kinds)})")
    hand = list(player.hand)
    hand.remove(card)
    return state.with_player(replace(player, hand=tuple(hand), discard=player.discard + (() if face_down else (card,))))


def deal_round(state: Battle, rng: random.Random, seed: int | None) -> Battle:
    """The round-start draws, for every player by the models they have left on the table.

    A prisoner behind its door is still on the table (Prisoner: the kidnapper wins "if at least one prisoner
    is still on the table"); only its Intellect is barred from "Initiative and Fate Cards", so it counts here.
    """
    for p in state.players:
        left = len(state.crew(p.seat))
        wanted = round_draws(left)
        if not wanted:
            continue
        player, drawn, reshuffled = draw(state.player(p.seat), wanted, rng)
        state = state.with_player(player)
        note = " (the discards were shuffled into a new deck)" if reshuffled else ""
        short = "" if drawn == wanted else f"; {wanted - drawn} could not be drawn"
        state = state.logged(
            p.seat, f"{p.name} draws {drawn} fate card(s), {left} model(s) left{note}{short}", seed=seed, final=True
        )
    return state
