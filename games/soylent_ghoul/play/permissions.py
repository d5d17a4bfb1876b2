"""Who may see and change what in a Soylent Ghoul game, in one place.

Each rule comes as a yes/no question (``user_has_seat``) and a raising check (``check_user_has_seat``).
Seeing a game: anyone else gets 404, so another table's game (and its secrets) is not even said to
exist. Changing it: the checks raise ``GameError`` with a message for the player (a 422 on the board).
"""

from __future__ import annotations

from django.http import Http404

from games.soylent_ghoul.play.errors import GameError
from games.soylent_ghoul.play.models import Game
from games.soylent_ghoul.sets.models import DroneSet


def user_has_seat(user, game: Game) -> bool:
    """A seat at the game: joined, or invited and not yet joined."""
    return user.is_authenticated and game.players.filter(user=user).exists()


def check_user_has_seat(user, game: Game) -> None:
    if not user_has_seat(user, game):
        raise Http404("No such game.")


def get_game_for_user(user, pk: int) -> Game:
    """The game, if the user has a seat (or an invitation) at it; anyone else gets a 404 (one query)."""
    game = Game.objects.for_player(user).filter(pk=pk).first()
    if game is None:
        raise Http404("No such game.")
    return game


def user_set_up_game(user, game: Game) -> bool:
    return game.creator_id == user.pk


def check_user_set_up_game(user, game: Game) -> None:
    if not user_set_up_game(user, game):
        raise GameError("Only the player who set up the game starts it.")


def user_owns_drone_set(user, drone_set: DroneSet) -> bool:
    return drone_set.crew.owner_id == user.pk


def check_user_owns_drone_set(user, drone_set: DroneSet) -> None:
    if not user_owns_drone_set(user, drone_set):
        raise GameError("Choose one of your own drone sets.")
