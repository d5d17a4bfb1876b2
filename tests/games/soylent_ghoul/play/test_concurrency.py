"""Two identical moves sent at once: one applies, the other is refused cleanly (never a 500)."""

import pytest

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.models import Event, Piece
from tests.games.soylent_ghoul.play import posted
from tests.race import race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_the_same_move_twice_at_once_applies_once(players, make_set, attempt):
    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners"), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes"))
    game = services.start(game.pk, vox, 0)
    drone = Piece.objects.get(game=game, player__user=vox, kind="drone")

    def place():
        posted.play(game.pk, vox, game.version, "place", {"piece": str(drone.pk)})

    outcomes = race([place, place], services.GameError)
    assert sorted(outcomes) == ["The game moved on since your page was drawn; here is the board as it is now.", "ok"], (
        outcomes
    )
    assert Event.objects.filter(game=game, kind="place").count() == 1
