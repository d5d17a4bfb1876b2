"""Two requests at the same moment cannot both apply (the game row lock)."""

import pytest
from django.core.management import call_command
from django.utils.datastructures import MultiValueDict

from games.ghoulash import services
from games.ghoulash.models import Event
from tests.games.ghoulash import posted
from tests.race import race

from .conftest import complete_box, ghoul, player


def _race(calls):
    return race(calls, services.GameError)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_reveals_at_once_only_one_encounter(make_user, attempt):
    call_command("loadcatalogue", verbosity=0)
    del_, brian = make_user("del"), make_user("brian")
    game = services.create_game(del_, complete_box(del_), "Race", [("del", "lake"), ("brian", "gray")])
    posted.act(game.pk, del_, "replenish", MultiValueDict())
    a, b = ghoul(game, 4), ghoul(game, 6)
    outcomes = _race(
        [
            lambda: posted.act(game.pk, del_, "reveal", MultiValueDict({"token": [str(a.pk)]})),
            lambda: posted.act(game.pk, del_, "reveal", MultiValueDict({"token": [str(b.pk)]})),
        ]
    )
    assert sorted(outcomes) == ["Put down your Value cards against the Ghoul first.", "ok"], outcomes
    assert Event.objects.filter(game=game, kind="reveal").count() == 1
    assert player(game, del_).hand  # untouched
