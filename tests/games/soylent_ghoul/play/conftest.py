"""Drone sets built straight through the soylent models, and games set up from them."""

import pytest
from django.core.management import call_command

from games.soylent_ghoul.sets.models import Drone, DroneSet, Token


@pytest.fixture
def soylent_system(db):
    call_command("loadcatalogue", verbosity=0)
    from crewbuilder.models import GameSystem

    return GameSystem.objects.filter(slug="soylent-ghoul").order_by("-id").first()


@pytest.fixture
def make_set(soylent_system):
    """make_set(owner, name, group, drones=1, true_index=k): each drone gets five tokens with
    codes '<name initial><drone number><K, M, N, P or Q>' and the true one at position ``true_index`` (default 2)."""
    from crewbuilder.models import Crew

    def make(owner, name="Pale Hands", group="gardeners", drones=1, true_index=2, codes=None):
        crew = Crew.objects.create(owner=owner, system=soylent_system, name=name)
        drone_set = DroneSet.objects.create(crew=crew, group=group)
        for d in range(drones):
            drone = Drone.objects.create(drone_set=drone_set, name=f"{name} {d + 1}", position=d)
            for i in range(5):
                code = codes[d][i] if codes else f"{name[:1].upper()}{d + 1}{'KMNPQ'[i]}"
                Token.objects.create(drone=drone, code=code, position=i, is_true=(i == true_index))
        return drone_set

    return make


@pytest.fixture
def players(make_user):
    return make_user("vox"), make_user("mara")


@pytest.fixture
def two_player_game(players, make_set):
    """A started two-player game, 1 drone each (Gardeners vs Eyes), vox first."""
    from games.soylent_ghoul.play import services

    vox, mara = players
    mine = make_set(vox, "Pale Hands", "gardeners")
    theirs = make_set(mara, "Watchers", "eyes")
    game = services.create_game(vox, mine, ["mara"])
    services.join(game.pk, mara, theirs)
    return services.start(game.pk, vox, 0)


@pytest.fixture
def soylent_game(soylent_system, make_user):
    """A started two-player Soylent Ghoul game (vox first), from drone sets made by the services."""
    from games.soylent_ghoul.play import services
    from games.soylent_ghoul.sets.services import create_drone_set

    vox, mara = make_user("vox"), make_user("mara")
    game = services.create_game(vox, create_drone_set(vox, "Pale Hands", "gardeners"), ["mara"])
    services.join(game.pk, mara, create_drone_set(mara, "Watchers", "eyes"))
    return services.start(game.pk, vox, 0)
