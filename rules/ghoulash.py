"""Ghoulash: The Last Game on Earth (ghoulash.txt).

Pure Python, no Django. Numbers (hand size, winning VP, tokens, characters)
are read with plain json from ``catalogue/data/ghoulash-1.json``; the
text gives only some of them (Lake and Gray's Initial Combat Value 1, a
strength-5 Ghoul's 2 Victory Points), so the others are arguments the caller
supplies (a printed card's numbers).

Readings (docs/rules-interpretations.md (Part 5), "Ghoulash"):
- Beat the Ghoul "by at least one point": total >= strength + 1.
- Battle order: the battling player's Value cards; if the total does not beat
  the Ghoul the battle is lost at once (Example 4); otherwise one opponent may
  challenge with 1 or 2 Value cards, subtracted from the total; then the
  battling player has one response (any number of Value cards); the battle is
  won if the final total beats the Ghoul. A challenge that leaves the total
  still beating the Ghoul is already beaten (a response then is refused).
- The battling player may Parry challenge cards (a challenge is "played
  against" them); the challenger cannot Parry the battling player's cards (FAQ).
- Wounds: one random hand card per wound (another player picks blind, here the
  seeded rng), then the top of the Draw Pile; the Discard Pile is reshuffled
  when the Draw Deck runs out, for wounds as for drawing.
- Moving an unrevealed token (the Action's option B): not from nor onto the
  mover's tile, except for Lake (his specialty, profile card included); a token
  moved onto players is resolved by the next of them in play order (a Hole by
  all of them). Cornealius reveals one token on his tile per Specialty card he
  uses, without an encounter (GT16, GT17 in the tracker's readings).
- One Action per turn: one Action card or one token move; Zone may give up his
  movement for a second Action card (GT9, GT18 in the tracker's readings).
- The Steal card (GT20): its own words are not in the text, which says only what stolen cards do; one card is
  taken at random from the hand of the opponent named, and a stolen card leaving the thief's hand (played,
  discarded, healed, at death) goes back to the owning player's discard pile.
- Deck check: "Value cards in equal amounts" = the same number of Value cards
  of each value in every deck (strict); ``value_check="count"`` compares only
  the number of Value cards.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Mapping, Sequence

from catalogue import DATA_DIR

CATALOGUE = DATA_DIR / "ghoulash-1.json"


@lru_cache(maxsize=None)
def _catalogue() -> dict:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


def _rule(slug: str) -> dict:
    return next(r for r in _catalogue()["rules"] if r["slug"] == slug)


HAND_SIZE = _rule("hand-size")["number"]
WINNING_VP = _rule("winning-the-game")["number"]
BEAT_BY = _rule("ghoul-battle")["beat_by"]
CHALLENGE_MAX_CARDS = _rule("ghoul-battle")["challenge_max_cards"]
TILES = _rule("board")["tiles"]
TOKENS_PER_TILE = _rule("board")["tokens_per_tile"]
MIN_CARD_VALUE = 1
MAX_CARD_VALUE = max(c.get("max_value") or 0 for c in _catalogue()["cards"])  # 4: certain Specialty cards


def characters() -> dict[str, dict]:
    """The four characters by slug; numbers the text does not give are None."""
    return {c["slug"]: c for c in _catalogue()["characters"]}


# ---------------------------------------------------------------------------
# Cards and decks
# ---------------------------------------------------------------------------


class CardKind(str, Enum):
    VALUE = "value"
    ACTION = "action"
    RESCUE = "rescue"
    SPECIALTY = "specialty"


@dataclass(frozen=True)
class Card:
    """One card. ``owner`` is the deck (character) it belongs to; ``copy`` tells
    identical cards apart; ``second_label`` is a Specialty card's second label
    (SPECIALTY VALUE -> VALUE), whose limitations it is played with."""

    name: str
    kind: CardKind
    value: int | None = None
    owner: str = ""
    copy: int = 0
    second_label: CardKind | None = None


def check_decks(decks: Mapping[str, Sequence[Card]], value_check: str = "per_value") -> list[str]:
    """Problems with the decks of one game (empty list = fine).

    "All decks have Value cards in equal amounts. ... All decks have the same
    Action cards in equal amounts."
    """
    if value_check not in ("per_value", "count"):
        raise ValueError("value_check is 'per_value' or 'count'")
    problems: list[str] = []
    if len(decks) < 2:
        return problems
    values = {}
    actions = {}
    for owner, deck in decks.items():
        vals = [c.value for c in deck if c.kind == CardKind.VALUE]
        values[owner] = Counter(vals) if value_check == "per_value" else len(vals)
        actions[owner] = Counter(c.name for c in deck if c.kind == CardKind.ACTION)
    names = list(decks)
    first = names[0]
    for other in names[1:]:
        if values[other] != values[first]:
            problems.append(
                f"Value cards differ between {first} and {other}: {_show(values[first])} vs {_show(values[other])}"
            )
        if actions[other] != actions[first]:
            problems.append(
                f"Action cards differ between {first} and {other}: {_show(actions[first])} vs {_show(actions[other])}"
            )
    return problems


def _show(x) -> str:
    if isinstance(x, Counter):
        return ", ".join(f"{k} x{v}" for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))) or "none"
    return str(x)


# ---------------------------------------------------------------------------
# The Ghoul battle
# ---------------------------------------------------------------------------


class IllegalPlay(ValueError):
    """The cards played break the battle's rules; the message says how."""


def _check_values(cards: Sequence[int], who: str) -> None:
    for v in cards:
        if isinstance(v, bool) or not isinstance(v, int) or not MIN_CARD_VALUE <= v <= MAX_CARD_VALUE:
            raise IllegalPlay(f"{who}: a Value card is worth {MIN_CARD_VALUE} to {MAX_CARD_VALUE}, got {v!r}")


def ghoul_victory_points(strength: int) -> int:
    """Green dots of a Ghoul token of this strength, where the text gives them (5 -> 2)."""
    for t in _catalogue()["encounter_tokens"]:
        if t["kind"] == "ghoul" and t["strength"] == strength and t["victory_points"] is not None:
            return t["victory_points"]
    raise IllegalPlay(
        f"the rules text does not give the Victory Points (green dots) of a strength-{strength} Ghoul: "
        "pass victory_points from the token"
    )


@dataclass(frozen=True)
class BattleResult:
    won: bool
    needed: int  # the total that beats the Ghoul: strength + 1
    total_before_challenge: int  # Initial Combat Value + the cards of step 2
    total: int  # the final total
    victory_points: int  # won: the token's VP; lost: 0
    wounds: int  # lost: the token's VP (green dots); won: 0
    stage: str  # "hole", "no-value", "unchallenged", "answered", "parried", "withstood", "unanswered"
    challenge_total: int = 0  # Value the challenge subtracted, after Parry
    after_challenge: int = 0  # total after the challenge, before any response


def ghoul_battle(
    strength: int,
    victory_points: int | None,
    initial_combat_value: int,
    played: Sequence[int] = (),
    challenge: Sequence[int] = (),
    response: Sequence[int] = (),
    *,
    parried: Sequence[int] = (),
    in_hole: bool = False,
) -> BattleResult:
    """Resolve one Ghoul battle from the Value cards put down.

    ``strength``: the Ghoul's battle strength (large white number);
    ``victory_points``: the token's green dots, also the wounds for losing (None:
    the text's own value, known only for strength 5 -> 2);
    ``initial_combat_value``: the character's (see ``initial_combat_value()``);
    ``played``: the battling player's Value cards (step 2);
    ``challenge``: the one challenging opponent's Value cards, at most two
    (empty = nobody challenged); ``response``: the battling player's one answer
    (additional Value cards); ``parried``: challenge cards the battling player
    ignores with Parry cards; ``in_hole``: the player cannot play Value cards and
    loses. Raises IllegalPlay for plays the rules do not allow.
    """
    if victory_points is None:
        victory_points = ghoul_victory_points(strength)
    for name, cards in (("played", played), ("challenge", challenge), ("response", response), ("parried", parried)):
        _check_values(cards, name)
    if len(challenge) > CHALLENGE_MAX_CARDS:
        raise IllegalPlay(f"a challenge is at most {CHALLENGE_MAX_CARDS} Value cards, got {len(challenge)}")
    if response and not challenge:
        raise IllegalPlay("a response is only played after a challenge")
    if Counter(parried) - Counter(challenge):
        raise IllegalPlay("only Value cards of the challenge can be parried")
    needed = strength + BEAT_BY
    before = initial_combat_value + sum(played)

    def result(won: bool, stage: str, final: int, chal: int = 0, after: int | None = None) -> BattleResult:
        return BattleResult(
            won,
            needed,
            before,
            final,
            victory_points if won else 0,
            0 if won else victory_points,
            stage,
            chal,
            final if after is None else after,
        )

    if in_hole:
        if played or challenge or response:
            raise IllegalPlay("a player in a Hole cannot play Value cards")
        return result(False, "hole", before)
    if before < needed:
        if challenge or response:
            raise IllegalPlay("the battle is already lost: the cards put down do not beat the Ghoul")
        return result(False, "no-value", before)
    if not challenge:
        return result(True, "unchallenged", before)
    chal = sum(challenge) - sum(parried)
    after = before - chal
    if response and after >= needed:
        raise IllegalPlay("no response is needed: the challenge did not bring the total below the Ghoul")
    final = after + sum(response)
    if response:
        stage = "answered"
    elif final >= needed:  # no Value card needed: the challenge, after any Parry, left it beating the Ghoul
        stage = "parried" if parried else "withstood"
    else:
        stage = "unanswered"
    return result(final >= needed, stage, final, chal, after)


def initial_combat_value(
    base: int, ghoo_guns: int = 0, ghoul_strength: int | None = None, becomes_ghoul_strength: bool = False
) -> int:
    """The character's Initial Combat Value for a battle.

    Each Ghoo Gun (Lock and Load) adds +1 for the game; Heavy Artillery / The
    Right Ghoo for the Job make it the Ghoul's battle strength (FAQ: Gray's 1
    becomes 5 against a 5).
    """
    if becomes_ghoul_strength:
        if ghoul_strength is None:
            raise ValueError("give the Ghoul's strength")
        return ghoul_strength
    bonus = next(t for t in _catalogue()["other_tokens"] if t["slug"] == "ghoo-gun")["initial_combat_bonus"]
    return base + bonus * ghoo_guns


def challenge_order(seating: Sequence[str], battler: str, unable: Sequence[str] = ()) -> tuple[str, ...]:
    """Opponents who may challenge, in the order they are offered: beginning to
    the battling player's left. ``seating`` lists players each followed by the
    one on their left; ``unable`` (e.g. players in a Hole) are skipped. Dead
    players still challenge."""
    if battler not in seating:
        raise ValueError(f"{battler!r} is not at the table")
    i = list(seating).index(battler)
    order = tuple(seating[i + 1 :]) + tuple(seating[:i])
    return tuple(p for p in order if p not in unable)


def debris_wounds(by_action: bool, value_card: int | None = None, parried: bool = False, tokens: int = 1) -> int:
    """Debris: 1 wound per Debris token on the square entered by movement ("More
    than one Debris token can be placed on a square (wounds are cumulative)");
    by an Action card 1 plus the Value card played with it (ignored with a Parry).
    Example: Debris + a 3 -> 4 wounds. An Action card places one token: the ones
    already under the player wounded them when they came, so ``tokens`` is 1."""
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
        raise ValueError(f"the number of Debris tokens is 1 or more, got {tokens!r}")
    if not by_action:
        if value_card is not None:
            raise ValueError("a Value card only enhances a Debris Action card")
        return tokens
    if tokens != 1:
        raise ValueError("a Debris Action card places one Debris token")
    if value_card is not None:
        _check_values((value_card,), "debris")
    return 1 + (value_card if value_card is not None and not parried else 0)


# ---------------------------------------------------------------------------
# Encounter tokens and the board
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EncounterToken:
    kind: str  # "ghoul", "hole", "first-aid", or a scenario's kind
    strength: int | None = None
    victory_points: int | None = None
    number: int = 0  # tells identical tokens apart


def core_tokens() -> tuple[EncounterToken, ...]:
    """The 24 Core Encounter Tokens: six 6s, six 5s, eight 4s, two Holes, two First-Aid."""
    tokens = []
    for entry in _catalogue()["encounter_tokens"]:
        for i in range(entry["count"]):
            tokens.append(EncounterToken(entry["kind"], entry["strength"], entry["victory_points"], i))
    return tuple(tokens)


@dataclass(frozen=True)
class Placement:
    tile: int  # 0..3
    token: EncounterToken
    square: object | None = None  # one of the tile's shaded squares, if given
    face_down: bool = True


def deal_tokens(
    rng: random.Random,
    tokens: Sequence[EncounterToken] | None = None,
    shaded_squares: Sequence[Sequence[object]] | None = None,
    extras: Mapping[int, Sequence[EncounterToken]] | None = None,
) -> tuple[tuple[Placement, ...], ...]:
    """Shuffle the core tokens and place six on each of the four tiles, face down.

    ``shaded_squares``: per tile, its shaded squares (the printed tiles' layout,
    not in the text); each token then gets a distinct random one. ``extras``:
    scenario tokens by tile (the caller decides the tile; a Briefing may fix it).
    """
    tokens = tuple(core_tokens() if tokens is None else tokens)
    if len(tokens) != TILES * TOKENS_PER_TILE:
        raise ValueError(
            f"{TILES} tiles x {TOKENS_PER_TILE} tokens: expected {TILES * TOKENS_PER_TILE} tokens, got {len(tokens)}"
        )
    shuffled = list(tokens)
    rng.shuffle(shuffled)
    board = []
    for tile in range(TILES):
        here = shuffled[tile * TOKENS_PER_TILE : (tile + 1) * TOKENS_PER_TILE] + list((extras or {}).get(tile, ()))
        if shaded_squares is not None:
            squares = list(shaded_squares[tile])
            if len(squares) < len(here):
                raise ValueError(f"tile {tile} has {len(squares)} shaded squares for {len(here)} tokens")
            chosen = rng.sample(squares, len(here))
        else:
            chosen = [None] * len(here)
        board.append(tuple(Placement(tile, t, s) for t, s in zip(here, chosen)))
    return tuple(board)


# ---------------------------------------------------------------------------
# Hand, draw deck, discard pile, wounds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Piles:
    owner: str
    hand: tuple[Card, ...] = ()
    draw: tuple[Card, ...] = ()  # top first
    discard: tuple[Card, ...] = ()
    wounds: tuple[Card, ...] = ()

    @property
    def own_in_hand(self) -> int:
        """Cards counted toward the seven (stolen cards are not)."""
        return sum(1 for c in self.hand if c.owner == self.owner)

    @property
    def stolen(self) -> tuple[Card, ...]:
        return tuple(c for c in self.hand if c.owner != self.owner)


def _draw_one(piles: Piles, rng: random.Random) -> tuple[Piles, Card | None]:
    draw, discard = piles.draw, piles.discard
    if not draw:
        if not discard:
            return piles, None
        reshuffled = list(discard)
        rng.shuffle(reshuffled)
        draw, discard = tuple(reshuffled), ()
    return Piles(piles.owner, piles.hand, draw[1:], discard, piles.wounds), draw[0]


def start_game(rng: random.Random, owner: str, deck: Sequence[Card]) -> Piles:
    """Shuffle the character deck and deal seven; the rest is the Draw Deck."""
    cards = list(deck)
    rng.shuffle(cards)
    return Piles(owner, tuple(cards[:HAND_SIZE]), tuple(cards[HAND_SIZE:]))


def replenish(piles: Piles, rng: random.Random, discard: Sequence[Card] = ()) -> tuple[Piles, tuple[Card, ...]]:
    """Discard any chosen cards, then draw up to seven own cards.

    Returns the new piles and the stolen cards discarded (to go back to their
    owners; they are not replaced).
    """
    hand = list(piles.hand)
    for card in discard:
        if card not in hand:
            raise ValueError(f"{card.name} is not in the hand")
        hand.remove(card)
    own_discarded = tuple(c for c in discard if c.owner == piles.owner)
    returned = tuple(c for c in discard if c.owner != piles.owner)
    piles = Piles(piles.owner, tuple(hand), piles.draw, piles.discard + own_discarded, piles.wounds)
    while piles.own_in_hand < HAND_SIZE:
        piles, drawn = _draw_one(piles, rng)
        if drawn is None:
            break
        piles = Piles(piles.owner, piles.hand + (drawn,), piles.draw, piles.discard, piles.wounds)
    return piles, returned


def take_wounds(piles: Piles, rng: random.Random, wounds: int) -> Piles:
    """Each wound: a random card from the hand (stolen cards included) to the wound
    stack; once the hand is empty, the top card of the Draw Pile."""
    if wounds < 0:
        raise ValueError("wounds cannot be negative")
    for _ in range(wounds):
        if piles.hand:
            i = rng.randrange(len(piles.hand))
            card = piles.hand[i]
            piles = Piles(
                piles.owner, piles.hand[:i] + piles.hand[i + 1 :], piles.draw, piles.discard, piles.wounds + (card,)
            )
        else:
            piles, drawn = _draw_one(piles, rng)
            if drawn is None:
                break
            piles = Piles(piles.owner, piles.hand, piles.draw, piles.discard, piles.wounds + (drawn,))
    return piles


def is_dead(piles: Piles, health: int) -> bool:
    """Dead when the wound pile is equal to or greater than the character's Health."""
    return len(piles.wounds) >= health


def first_aid(piles: Piles) -> tuple[Piles, tuple[Card, ...]]:
    """Heal all wounds: own wound cards to the discard pile; stolen ones returned
    (second value) to their owners. Only a wounded player may use a kit."""
    if not piles.wounds:
        raise ValueError("you must have wounds to use a First-Aid Kit")
    own = tuple(c for c in piles.wounds if c.owner == piles.owner)
    stolen = tuple(c for c in piles.wounds if c.owner != piles.owner)
    return Piles(piles.owner, piles.hand, piles.draw, piles.discard + own, ()), stolen


def steal(victim: Piles, rng: random.Random) -> tuple[Piles, Card]:
    """The Steal card (GT20 in the tracker's readings): one card, taken at random from the hand of the opponent
    named (the seeded rng plays the blind pick, as for wounds: "removed at random by another player"). Returns
    the victim's piles without it and the card, which goes into the thief's hand as a stolen card: "Stolen
    cards are not counted toward the seven-count" (``Piles.own_in_hand``). A card the victim had stolen from
    the thief is the thief's own again. Raises IllegalPlay for an empty hand."""
    if not victim.hand:
        raise IllegalPlay("there is no card in that hand to steal")
    i = rng.randrange(len(victim.hand))
    card = victim.hand[i]
    return Piles(victim.owner, victim.hand[:i] + victim.hand[i + 1 :], victim.draw, victim.discard, victim.wounds), card


def returned_at_death(piles: Piles) -> tuple[Piles, tuple[Card, ...]]:
    """ "Stolen cards that are selected as wounds are out of the game until the player heals or has "died,"
    then they are returned to the owning player": the dead character's wound stack without them, and them."""
    own = tuple(c for c in piles.wounds if c.owner == piles.owner)
    stolen = tuple(c for c in piles.wounds if c.owner != piles.owner)
    return Piles(piles.owner, piles.hand, piles.draw, piles.discard, own), stolen


def leaving_the_hand(owner: str, cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Cards played, put down or discarded from ``owner``'s hand: (their own, to their discard pile; the stolen
    ones, returned to the owning player). The text returns stolen cards whenever it says where they go
    (discarded at Replenishment, healed, at death); a stolen card played is read the same way (GT20)."""
    return tuple(c for c in cards if c.owner == owner), tuple(c for c in cards if c.owner != owner)


# ---------------------------------------------------------------------------
# Victory Points and the end
# ---------------------------------------------------------------------------


def victory_points(tokens_won: Sequence[EncounterToken], dead: bool = False) -> int:
    """VP of the Ghoul tokens won; a dead character's tokens are set aside (0)."""
    if dead:
        return 0
    total = 0
    for t in tokens_won:
        if t.victory_points is None:
            raise ValueError(
                f"Victory Points of a strength-{t.strength} Ghoul token are not given: set them on the token"
            )
        total += t.victory_points
    return total


def game_winners(scores: Mapping[str, int], all_tokens_resolved: bool = False) -> tuple[str, ...]:
    """Who has won: anyone at 10 VP or more (the game ends as soon as one
    reaches it); otherwise, once every Encounter Token is revealed and resolved,
    the most VP (several if tied); otherwise nobody yet."""
    reached = tuple(p for p, vp in scores.items() if vp >= WINNING_VP)
    if reached:
        return reached
    if all_tokens_resolved and scores:
        best = max(scores.values())
        return tuple(p for p, vp in scores.items() if vp == best)
    return ()


# ---------------------------------------------------------------------------
# Additions for the game tracker (ghoulash app)
# ---------------------------------------------------------------------------

# Value cards range "from 1 to 3" (the 4s are Specialty cards)
VALUE_CARD_MAX = next(c for c in _catalogue()["cards"] if c["slug"] == "value")["max_value"]


def deal_board(
    rng: random.Random,
    tokens: Sequence[EncounterToken] | None = None,
    extras: Sequence[EncounterToken] = (),
) -> tuple[tuple[Placement, ...], ...]:
    """``deal_tokens`` for a board without the printed shaded squares: each scenario
    extra goes to a random tile (the Briefing says only "according to regular
    rules ... also on shaded squares"), then each tile's tokens are put in random
    order, so a token's place on its tile tells nothing about what it is."""
    by_tile: dict[int, list[EncounterToken]] = {}
    for token in extras:
        by_tile.setdefault(rng.randrange(TILES), []).append(token)
    board = deal_tokens(rng, tokens, extras=by_tile)
    shuffled = []
    for tile in board:
        placements = list(tile)
        rng.shuffle(placements)
        shuffled.append(tuple(placements))
    return tuple(shuffled)


def battle_values(cards: Sequence[Card]) -> tuple[int, ...]:
    """The Value points of cards put down in a Ghoul battle or a challenge.

    Value cards and SPECIALTY VALUE cards (double labels "are played with the
    limitations of the second label") may be put down; any other card (a plain
    Specialty, a SPECIALTY ACTION or RESCUE, even with a value), or a card without
    a value, is refused."""
    values = []
    for card in cards:
        is_value = card.kind == CardKind.VALUE or (
            card.kind == CardKind.SPECIALTY and card.second_label == CardKind.VALUE
        )
        if card.value is None or not is_value:
            raise IllegalPlay(f"{card.name} is not a Value card")
        if card.kind == CardKind.VALUE and card.value > VALUE_CARD_MAX:
            raise IllegalPlay(f"{card.name}: a Value card is worth {MIN_CARD_VALUE} to {VALUE_CARD_MAX}")
        values.append(card.value)
    _check_values(values, "battle")
    return tuple(values)


def all_tokens_resolved(tokens: Sequence[tuple[bool, bool]]) -> bool:
    """Every Encounter Token "revealed and resolved": given (revealed, ghoul still
    standing on the board) per token, true when each is revealed and no revealed
    Ghoul is still waiting to be defeated (a lost battle leaves it on its square)."""
    return all(revealed and not standing for revealed, standing in tokens)


# ---------------------------------------------------------------------------
# Moving an Encounter Token (the Action's option B) and the characters' specialties
# ---------------------------------------------------------------------------

MOVE_TOKEN_SPACES = _rule("move-an-encounter-token")["number"]  # "up to five spaces"
# "Lake can move tokens that are on his own tile" (profile card: "or onto his tile from other tiles")
MOVES_TOKENS_ON_OWN_TILE = "lake"
# "Cornealius can reveal a token on his tile every time he uses a Specialty card"
REVEALS_WITH_SPECIALTY = "cornealius"


def check_token_move(character: str, token_tile: int, to_tile: int, player_tile: int | None) -> None:
    """The tile rule of moving an unrevealed Encounter Token: "The token being moved cannot be on the tile
    currently occupied by the player, nor can the player move the token onto their tile." Lake's specialty
    lifts it: "Lake can move tokens that are on his own tile" (profile card: "Subject can move Encounter
    Tokens on his own tile or onto his tile from other tiles"). ``player_tile`` None: no playing piece (a
    dead character), so no tile to keep away from. Raises IllegalPlay."""
    if character == MOVES_TOKENS_ON_OWN_TILE or player_tile is None:
        return
    if token_tile == player_tile:
        raise IllegalPlay(
            "the token being moved cannot be on the tile you occupy (only Lake moves tokens on his own tile)"
        )
    if to_tile == player_tile:
        raise IllegalPlay("you cannot move the token onto your own tile (only Lake moves tokens onto his tile)")


def specialty_reveals(character: str, specialty_cards_used: int, has_piece: bool = True) -> int:
    """How many face-down tokens on the player's tile may be revealed after using Specialty cards: one per
    card for Cornealius ("every time he uses a Specialty card"), none for the others; none without a
    playing piece (a dead character has no tile)."""
    if specialty_cards_used < 0:
        raise ValueError("specialty_cards_used cannot be negative")
    if character != REVEALS_WITH_SPECIALTY or not has_piece:
        return 0
    return specialty_cards_used


def moved_token_resolvers(seating: Sequence[str], mover: str, on_square: Sequence[str], kind: str) -> tuple[str, ...]:
    """Who resolves an unrevealed token moved onto a square where players stand ("that player must resolve
    that encounter immediately, even though it is not their turn").

    A Ghoul: "If the token is moved onto a square occupied by two or more players and is revealed to be a
    Ghoul, the player who is next among them in play order is the one to resolve the encounter" (play order
    from the mover's left, the mover last). A Hole: every player on the square (Holes are "played upon the
    square, not the opponent", FAQ). Any other token (a First-Aid Kit, a Ghoo Gun: one token, one player):
    the next in play order, as for a Ghoul."""
    if mover not in seating:
        raise ValueError(f"{mover!r} is not at the table")
    if not on_square:
        return ()
    unknown = [p for p in on_square if p not in seating]
    if unknown or len(set(on_square)) != len(on_square):
        raise ValueError(f"players on the square must be at the table, each once: {list(on_square)!r}")
    i = list(seating).index(mover)
    order = tuple(seating[i + 1 :]) + tuple(seating[:i]) + (mover,)
    here = tuple(p for p in order if p in on_square)
    return here if kind == "hole" else here[:1]


# ---------------------------------------------------------------------------
# The turn's Action: one Action card, or a token move; Zone's trade
# ---------------------------------------------------------------------------

# "Usually only one Action card is played per turn"
ACTION_CARDS_PER_TURN = _rule("one-action")["number"]


@dataclass(frozen=True)
class TurnSoFar:
    """What the player whose turn it is has done so far, as far as the Action rules need it.

    ``action_cards``: Action cards played this turn (an ACTION card, Hole and Debris included, or a SPECIALTY
    ACTION card, "played with the limitations of the second label"); ``token_moved``: the Action's option B;
    ``moved``: the playing piece entered a square (what the tracker knows of movement: an encounter by
    movement); ``gave_up_movement``: Zone's trade, declared this turn."""

    action_cards: int = 0
    token_moved: bool = False
    moved: bool = False
    gave_up_movement: bool = False


def trades_movement_for_action_cards(character: str) -> int | None:
    """How many Action cards the character may play in a turn in which they give up movement, or None when
    the character has no such specialty ("Zone has the special ability to sacrifice movement during a turn in
    order to play two Action cards in that turn, rather than one")."""
    return characters().get(character, {}).get("action_cards_without_movement")


def action_cards_allowed(character: str, turn: TurnSoFar) -> int:
    """Action cards this turn may hold: one ("Usually only one Action card is played per turn, although some
    characters can play more than one"), Zone's two once he has given up movement, none after a token move
    (the turn's one Action, option B)."""
    if turn.token_moved:
        return 0
    traded = trades_movement_for_action_cards(character)
    return traded if turn.gave_up_movement and traded else ACTION_CARDS_PER_TURN


def check_action_card(character: str, turn: TurnSoFar) -> None:
    """One more Action card this turn: raises IllegalPlay when the turn's Action allows none."""
    if turn.token_moved:
        raise IllegalPlay("your Action this turn was moving an Encounter Token: no Action card as well")
    if turn.action_cards >= action_cards_allowed(character, turn):
        if trades_movement_for_action_cards(character) and not turn.gave_up_movement and not turn.moved:
            raise IllegalPlay(
                "you have taken your Action this turn: one Action card per turn, two if you give "
                "up your movement this turn (your specialty)"
            )
        raise IllegalPlay(
            f"you have taken your Action this turn: {turn.action_cards} Action card"
            f"{'s' if turn.action_cards != 1 else ''} already played"
        )


def check_token_move_action(turn: TurnSoFar) -> None:
    """Moving an unrevealed token is the turn's one Action (option B): not twice, not after an Action card."""
    if turn.token_moved or turn.action_cards:
        raise IllegalPlay("you have taken your Action this turn: one Action, an Action card or a token move")


def check_give_up_movement(character: str, turn: TurnSoFar, has_piece: bool = True) -> None:
    """Zone's trade: "sacrifice movement during a turn in order to play two Action cards in that turn".
    Refused for another character, twice, without a playing piece (a dead character has no movement to give
    up), once the piece has moved this turn, and after a token move (the turn's Action is then taken)."""
    if not trades_movement_for_action_cards(character):
        raise IllegalPlay("only Zone can give up movement for a second Action card")
    if turn.gave_up_movement:
        raise IllegalPlay("you have already given up your movement this turn")
    if not has_piece:
        raise IllegalPlay("your playing piece is off the board: there is no movement to give up")
    if turn.moved:
        raise IllegalPlay("you have already moved this turn: there is no movement left to give up")
    if turn.token_moved:
        raise IllegalPlay(
            "your Action this turn was moving an Encounter Token: two Action cards are no longer possible"
        )


def check_movement(turn: TurnSoFar) -> None:
    """Entering a square is movement: refused once it has been given up for a second Action card."""
    if turn.gave_up_movement:
        raise IllegalPlay("you gave up your movement this turn to play two Action cards")


# ---------------------------------------------------------------------------
# Whose turn it is and what each seat may do now
# ---------------------------------------------------------------------------

# What the game waits for (the tracker stores these words)
TURN_START, TURN, BATTLE, CHALLENGE, RESPONSE, FIRST_AID = (
    "turn-start",
    "turn",
    "battle",
    "challenge",
    "response",
    "first-aid",
)
# an encounter being resolved: the game waits for the player it happened to
PENDING = (BATTLE, CHALLENGE, RESPONSE, FIRST_AID)

# Every play, by the name the tracker posts
ACTIONS = (
    "replenish",
    "reveal",
    "fight",
    "first-aid",
    "leave-first-aid",
    "play",
    "challenge",
    "decline",
    "respond",
    "card",
    "end-turn",
    "hole",
    "debris",
    "debris-square",
    "move-token",
    "enter",
    "hole-square",
    "give-up-movement",
    "steal",
)
# entering a square: the reveal of a face-down token, a revealed Hole or Ghoo Gun, Debris or a card's Hole
ENTERING = ("reveal", "enter", "debris-square", "hole-square")


class NotNow(IllegalPlay):
    """A play refused by the turn's rules (whose turn, what the game waits for); the message is the player's."""


@dataclass(frozen=True)
class SeatState:
    """One player as the turn rules see them: ``name`` for messages, ``wounded``: wound cards held."""

    seat: int
    name: str
    character: str
    dead: bool = False
    in_hole: bool = False
    wounded: bool = False


@dataclass(frozen=True)
class TableState:
    """The public state of a game, as far as the turn rules need it.

    ``phase`` is one of TURN_START ... FIRST_AID; ``resolver``: the seat resolving the pending encounter
    (None: the current player); ``offers``: the seats the challenge is still offered to, in order;
    ``icv_card``: Heavy Artillery / The Right Ghoo already played in the battle; ``holes`` and ``debris``:
    the Hole and Debris Action cards in the game's decks (the tokens they can place)."""

    seats: tuple[SeatState, ...]
    current: int
    phase: str = TURN_START
    playing: bool = True
    encountered: bool = False
    action_cards: int = 0
    action_taken: bool = False
    moved: bool = False
    gave_up_movement: bool = False
    resolver: int | None = None
    offers: tuple[int, ...] = ()
    icv_card: bool = False
    holes: int = 0
    debris: int = 0

    def at(self, seat: int) -> SeatState:
        return next(s for s in self.seats if s.seat == seat)

    @property
    def turn(self) -> TurnSoFar:
        """The turn's Action and movement (a token move is an Action taken without an Action card)."""
        return TurnSoFar(
            action_cards=self.action_cards,
            token_moved=self.action_taken and not self.action_cards,
            # "Any encounter ... ends the player's movement": none left to give up after one
            moved=self.moved or self.encountered,
            gave_up_movement=self.gave_up_movement,
        )


def _sentence(exc: IllegalPlay) -> NotNow:
    msg = str(exc)
    return NotNow(msg[0].upper() + msg[1:] + ".")


def _my_turn(state: TableState, seat: int, phases: tuple[str, ...]) -> None:
    """The seat's own turn, the game waiting for one of ``phases``."""
    if seat != state.current:
        raise NotNow(f"It is {state.at(state.current).name}'s turn.")
    waiting_for = state.resolver if state.phase in PENDING else None
    if state.phase not in phases and waiting_for is not None and waiting_for != seat:
        raise NotNow("Wait for the player on whose square the token was moved to resolve the encounter.")
    if state.phase not in phases:
        raise NotNow(
            {
                TURN_START: "Replenish your hand first: it begins the turn.",
                BATTLE: "Put down your Value cards against the Ghoul first.",
                CHALLENGE: "Wait for the challenge to be offered around the table.",
                RESPONSE: "Answer the challenge first.",
                FIRST_AID: "Use the First-Aid Kit or leave it first.",
            }.get(state.phase, "Not now.")
        )


def _resolving(state: TableState, seat: int, phase: str) -> None:
    """The encounter waiting in ``phase`` is resolved by the player it happened to: on their own turn, or on
    the turn of whoever moved the token onto their square (it is still that player's turn afterwards)."""
    if state.phase == phase and state.resolver is not None:
        if seat != state.resolver:
            raise NotNow(f"{state.at(state.resolver).name} is resolving the encounter now.")
        return
    _my_turn(state, seat, (phase,))


def _on_the_board(me: SeatState) -> None:
    if me.dead:
        raise NotNow(
            "Your character is dead: the playing piece is off the board (you still replenish, "
            "play cards and challenge)."
        )
    if me.in_hole:
        raise NotNow("You are in a Hole until the beginning of your next turn.")


def _no_encounter_yet(state: TableState, moving: bool) -> None:
    if state.encountered:
        raise NotNow(
            "You already had an encounter this turn: it ended your movement."
            if moving
            else "You already had an encounter this turn."
        )


def _offered(state: TableState, seat: int) -> None:
    if state.phase != CHALLENGE:
        raise NotNow("No challenge is being offered now.")
    if seat != state.offers[0]:
        raise NotNow(f"The challenge is offered to {state.at(state.offers[0]).name} now.")


def check_action_card_now(state: TableState, seat: int) -> None:
    """One more Action card (a Hole, a Debris, any ACTION or SPECIALTY ACTION card) from this seat now: on
    their own turn only, out of a Hole, while the turn's Action allows one more (GT9, GT18)."""
    me = state.at(seat)
    _my_turn(state, seat, (TURN,))
    if me.in_hole:
        raise NotNow("You are in a Hole: no cards until the beginning of your next turn.")
    try:
        check_action_card(me.character, state.turn)
    except IllegalPlay as exc:
        raise _sentence(exc) from None


def check_card(state: TableState, seat: int, is_action: bool, sets_icv: bool = False, name: str = "") -> None:
    """Playing a card from the hand that is not a Value card. Action cards on one's own turn only (GT9);
    nothing from a Hole; Heavy Artillery / The Right Ghoo for the Job (``sets_icv``) "change the player's
    initial combat value in a Ghoul battle" (FAQ): in the player's own battle as it begins, once (GT13)."""
    me = state.at(seat)
    if is_action:
        _my_turn(state, seat, (TURN,))
    if me.in_hole:
        raise NotNow("You are in a Hole: no cards until the beginning of your next turn.")
    if sets_icv:
        if not (state.phase == BATTLE and state.resolver == seat):
            raise NotNow(
                f"{name} changes your Initial Combat Value in your own Ghoul battle: play it "
                "when the battle begins, before putting down your Value cards."
            )
        if state.icv_card:
            raise NotNow("Your Initial Combat Value is already the Ghoul's strength in this battle.")
    if is_action:
        try:
            check_action_card(me.character, state.turn)
        except IllegalPlay as exc:
            raise _sentence(exc) from None


def check(state: TableState, seat: int, action: str) -> None:
    """Raise NotNow, with the player's message, unless ``seat`` may make the play ``action`` now. What only
    the play's own choices decide (which card, which token, which square) is checked with them."""
    if action not in ACTIONS:
        raise NotNow("Unknown action.")
    if not state.playing:
        raise NotNow("The game is over.")
    me = state.at(seat)
    turn = state.turn
    if action == "replenish":
        _my_turn(state, seat, (TURN_START,))
    elif action in ENTERING:
        _my_turn(state, seat, (TURN,))
        _on_the_board(me)
        _no_encounter_yet(state, moving=True)
        try:
            check_movement(turn)
        except IllegalPlay as exc:
            raise _sentence(exc) from None
        if action == "hole-square" and not state.holes:
            raise NotNow("The decks hold no Hole cards: no Hole token can have been placed by a card.")
        if action == "debris-square" and not state.debris:
            raise NotNow("The decks hold no Debris cards: no Debris token can be on the board.")
    elif action == "fight":
        _my_turn(state, seat, (TURN,))
        _on_the_board(me)
        _no_encounter_yet(state, moving=False)
    elif action == "first-aid":
        if state.phase == FIRST_AID:
            _resolving(state, seat, FIRST_AID)
        else:
            _my_turn(state, seat, (TURN,))
            _on_the_board(me)
            _no_encounter_yet(state, moving=False)
        if not me.wounded:
            raise NotNow("You must have wounds to use a First-Aid Kit.")
    elif action == "leave-first-aid":
        _resolving(state, seat, FIRST_AID)
    elif action == "play":
        _resolving(state, seat, BATTLE)
    elif action in ("challenge", "decline"):
        _offered(state, seat)
    elif action == "respond":
        _resolving(state, seat, RESPONSE)
    elif action in ("card", "steal"):
        if me.in_hole:  # which card decides the rest (check_card)
            raise NotNow("You are in a Hole: no cards until the beginning of your next turn.")
    elif action in ("hole", "debris"):
        check_action_card_now(state, seat)
    elif action == "end-turn":
        _my_turn(state, seat, (TURN,))
    elif action == "move-token":
        _my_turn(state, seat, (TURN,))
        if me.in_hole:
            raise NotNow("You are in a Hole: no action until the beginning of your next turn.")
        try:
            check_token_move_action(turn)
        except IllegalPlay as exc:
            raise _sentence(exc) from None
    elif action == "give-up-movement":
        _my_turn(state, seat, (TURN,))
        if me.in_hole:
            raise NotNow("You are in a Hole until the beginning of your next turn.")
        try:
            check_give_up_movement(me.character, turn, not me.dead)
        except IllegalPlay as exc:
            raise _sentence(exc) from None


def legal(state: TableState, seat: int) -> frozenset[str]:
    """What ``seat`` may do now: the plays of ACTIONS that ``check`` allows."""
    allowed = set()
    for action in ACTIONS:
        try:
            check(state, seat, action)
        except NotNow:
            continue
        allowed.add(action)
    return frozenset(allowed)


# ---------------------------------------------------------------------------
# What a play chooses: the token it acts on, the cards and squares it names
# ---------------------------------------------------------------------------

# The token each play acts on: (face up, still on the board, kinds; None: any) and the refusal otherwise
TOKEN_CHOICES: dict[str, tuple[bool, tuple[str, ...] | None, str]] = {
    "reveal": (False, None, "That token is already revealed."),
    "enter": (
        True,
        ("hole", "ghoo-gun"),
        "Choose a revealed Hole or Ghoo Gun on the board (a revealed Ghoul is "
        "battled, a First-Aid Kit used, a face-down token revealed).",
    ),
    "fight": (True, ("ghoul",), "Only a revealed Ghoul still on the board can be battled again."),
    "first-aid": (True, ("first-aid",), "Choose a revealed First-Aid Kit on the board."),
    "move-token": (False, None, "Only an unrevealed Encounter Token on the board can be moved."),
}


def check_token_choice(action: str, kind: str, revealed: bool, on_board: bool) -> None:
    """The token a play acts on: a face-down one is revealed or moved (GT17, GT18); a revealed Ghoul is battled
    again, a revealed First-Aid Kit used, a revealed Hole or Ghoo Gun entered (GT19)."""
    face_up, kinds, refusal = TOKEN_CHOICES[action]
    if revealed != face_up or not on_board or (kinds is not None and kind not in kinds):
        raise NotNow(refusal)


def check_challenge(cards: int) -> None:
    """An opponent challenges "by playing up to two Value cards from their hand": one or two."""
    if not 1 <= cards <= CHALLENGE_MAX_CARDS:
        raise NotNow(f"A challenge is 1 to {CHALLENGE_MAX_CARDS} Value cards.")


def check_parries(both: bool, only_parries: bool, parries: int, challenge_cards: int) -> None:
    """The battling player's answer: each Parry card ignores one challenge card (FAQ). ``both``: a card named
    as a Value card and as a Parry; ``only_parries``: every card named as a Parry is one."""
    if both:
        raise NotNow("A card is either a Value card put down or a Parry.")
    if not only_parries:
        raise NotNow("Only Parry cards ignore a challenge card.")
    if parries > challenge_cards:
        raise NotNow("Each Parry ignores one challenge card: that is more Parry cards than challenge cards.")


def check_debris_values(cards: int) -> None:
    """ "the number of wounds can be increased by the opponent by playing a Value card along with the Debris
    Action card": one Value card."""
    if cards > 1:
        raise NotNow("One Value card can be played with the Debris card.")


def check_debris_tokens(tokens: int, most: int) -> None:
    """Entering a square with Debris: one wound per token, and no more tokens than Debris cards in the decks."""
    if not 1 <= tokens <= most:
        raise NotNow(f"Give the number of Debris tokens on the square (1 to {most}: one per Debris card).")


def check_hole_targets(already_in_a_hole: Sequence[str]) -> None:
    """ "Only one Hole token can be placed on a square"."""
    if already_in_a_hole:
        raise NotNow(
            f"{', '.join(already_in_a_hole)} already in a Hole: only one Hole token can be placed on a square."
        )


def check_steal_target(thief: int, victim: int | None, victim_name: str, victim_hand: int) -> None:
    """The Steal card takes a card from an opponent's hand: name one opponent, who holds a card (GT20)."""
    if victim is None or victim == thief:
        raise NotNow("Name the opponent you steal from.")
    if victim_hand < 1:
        raise NotNow(f"{victim_name} has no cards in hand: there is nothing to steal.")


def check_landing(mover_on_square: bool, player_tile: int | None, to_tile: int) -> None:
    """A moved token landing on the mover's own square is only possible on the mover's tile (Lake's)."""
    if mover_on_square and player_tile != to_tile:
        raise NotNow(f"You are on tile {player_tile}: a token moved to tile {to_tile} cannot land on your square.")


@dataclass(frozen=True)
class RevealChoice:
    """A token Cornealius chooses to reveal with a Specialty card: its label, face up or not, still on the
    board, its tile."""

    label: str
    revealed: bool
    on_board: bool
    tile: int


def check_specialty_reveal_choice(
    character: str, dead: bool, specialty_cards_used: int, chosen: Sequence[RevealChoice], distinct: bool = True
) -> None:
    """ "Cornealius can reveal a token on his tile every time he uses a Specialty card": at most one per
    Specialty card, all on one tile (his), each face down on the board, each once (GT16)."""
    if not chosen:
        return
    if character != REVEALS_WITH_SPECIALTY:
        raise NotNow("Only Cornealius reveals a token when he uses a Specialty card.")
    if dead:
        raise NotNow("Cornealius is dead: his playing piece is off the board, so he has no tile to reveal a token on.")
    allowed = specialty_reveals(character, specialty_cards_used, has_piece=True)
    if not allowed:
        raise NotNow(
            "Cornealius reveals a token on his tile when he uses a Specialty card: these cards are not Specialty cards."
        )
    if len(chosen) > allowed:
        raise NotNow(f"One token per Specialty card used: at most {allowed} here.")
    if not distinct:
        raise NotNow("Choose each token to reveal once.")
    for t in chosen:
        if t.revealed or not t.on_board:
            raise NotNow(f"{t.label} is already face up: choose a face-down token on your tile.")
    if len({t.tile for t in chosen}) > 1:
        raise NotNow("The tokens Cornealius reveals are on his tile: choose them on one tile.")
