"""Ghoulash rows as the engine sees them: a player's piles, the turn so far and the table's state for
``rules.ghoulash.check`` / ``legal``; and back (``store_piles``)."""

from __future__ import annotations

from games.ghoulash.decks import engine_card, is_card
from games.ghoulash.models import BoxCard, Game, Player, TileToken
from rules import ghoulash as gh


def piles_of(player: Player) -> gh.Piles:
    cards = {c["id"]: engine_card(c) for c in player.deck}
    return gh.Piles(
        player.character,
        tuple(cards[i] for i in player.hand),
        tuple(cards[i] for i in player.draw),
        tuple(cards[i] for i in player.discard),
        tuple(cards[i] for i in player.wounds),
    )


def store_piles(player: Player, piles: gh.Piles) -> None:
    player.hand = [c.copy for c in piles.hand]
    player.draw = [c.copy for c in piles.draw]
    player.discard = [c.copy for c in piles.discard]
    player.wounds = [c.copy for c in piles.wounds]


def current_icv(player: Player, tokens: list[TileToken], battle: dict | None = None) -> int:
    """The player's Initial Combat Value: the character's plus the Ghoo Guns held; in ``battle``, where they
    played Heavy Artillery / The Right Ghoo for the Job, the Ghoul's strength instead (FAQ; H4: Guns dropped)."""
    guns = sum(1 for t in tokens if t.holder_id == player.pk and t.kind == "ghoo-gun" and t.state == TileToken.TAKEN)
    if battle and battle.get("icv_card") is not None and battle["seat"] == player.seat:
        token = next(t for t in tokens if t.pk == battle["token"])
        return gh.initial_combat_value(player.initial_combat_value, guns, token.strength, becomes_ghoul_strength=True)
    return gh.initial_combat_value(player.initial_combat_value, ghoo_guns=guns)


# what the game waits for while an encounter is being resolved: no end check then
PENDING = gh.PENDING


def printed(player: Player) -> list[dict]:
    """The player's own deck: without the copies that stand for cards stolen from others (GT20)."""
    return [c for c in player.deck if c.get("owner_id") is None]


def debris_in_game(players: list[Player]) -> int:
    """How many Debris tokens can be on the board: one per Debris Action card in the game's decks."""
    return sum(1 for p in players for c in printed(p) if c["type"] == BoxCard.ACTION and is_card(c, "debris"))


def holes_in_game(players: list[Player]) -> int:
    """How many Hole tokens Hole Action cards can place: one per Hole Action card in the game's decks."""
    return sum(1 for p in players for c in printed(p) if c["type"] == BoxCard.ACTION and is_card(c, "hole"))


def table_state(game: Game, players: list[Player]) -> gh.TableState:
    """The engine's view of the table: whose turn, what the game waits for, the turn so far, each seat."""
    battle = game.battle or {}
    pending = game.phase in PENDING
    return gh.TableState(
        seats=tuple(
            gh.SeatState(p.seat, p.user.username, p.character, p.dead, p.in_hole, bool(p.wounds)) for p in players
        ),
        current=game.current_seat,
        phase=game.phase,
        playing=game.status == Game.PLAYING,
        encountered=game.encountered,
        action_cards=game.action_cards,
        action_taken=game.action_taken,
        moved=game.moved,
        gave_up_movement=game.gave_up_movement,
        # a First-Aid Kit found before GT17 carries no seat: the current player resolves it
        resolver=battle.get("seat", game.current_seat) if pending else None,
        offers=tuple(battle.get("offers") or ()),
        icv_card=battle.get("icv_card") is not None,
        holes=holes_in_game(players),
        debris=debris_in_game(players),
    )
