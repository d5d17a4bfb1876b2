"""Who may see and change what in Ghoulash, in one place.

Each rule comes as a yes/no question (``user_owns_box``) and a raising check (``check_user_owns_box``).
A game box is its owner's and a game its players': anyone else gets 404, so another player's box or
game (and the hands in it) is not even said to exist. Playing: the check raises ``GameError`` with a
message for the player (a 422 on the table).
"""

from __future__ import annotations

from django.http import Http404

from games.ghoulash.errors import GameError
from games.ghoulash.models import BoxCard, Game, GhoulashBox, Player


def user_owns_box(user, box: GhoulashBox) -> bool:
    return box.owner_id == user.pk


def check_user_owns_box(user, box: GhoulashBox) -> None:
    if not user_owns_box(user, box):
        raise Http404("No such game box.")


def check_user_can_play_box(user, box: GhoulashBox) -> None:
    """A game is set up from one of the user's own boxes (a refusal on the form, not a 404)."""
    if not user_owns_box(user, box):
        raise GameError("Choose one of your own game boxes.")


def get_box_for_user(user, pk: int) -> GhoulashBox:
    """The box, if the user owns it; anyone else gets a 404 (one query)."""
    box = GhoulashBox.objects.owned_by(user).filter(pk=pk).first()
    if box is None:
        raise Http404("No such game box.")
    return box


def get_card_for_user(user, pk: int, card_pk: int) -> BoxCard:
    """A card of the user's own box; anyone else (or a card of another box) gets a 404."""
    card = get_box_for_user(user, pk).cards.filter(pk=card_pk).first()
    if card is None:
        raise Http404("No such card.")
    return card


def user_has_seat(user, game: Game) -> bool:
    return user.is_authenticated and game.players.filter(user=user).exists()


def check_user_has_seat(user, game: Game) -> None:
    if not user_has_seat(user, game):
        raise Http404("No such game.")


def get_game_for_user(user, pk: int) -> Game:
    """The game, if the user has a seat at it; anyone else gets a 404 (one query)."""
    game = Game.objects.for_player(user).filter(pk=pk).first()
    if game is None:
        raise Http404("No such game.")
    return game


def seat_of(user, players: list[Player]) -> Player | None:
    """The user's seat among the game's players (None: not playing)."""
    return next((p for p in players if p.user_id == user.pk), None)


def check_user_is_playing(user, players: list[Player]) -> Player:
    """The user's seat; a user without one is refused."""
    me = seat_of(user, players)
    if me is None:
        raise GameError("You are not playing in this game.")
    return me
