import pytest
from django.core.management import call_command


@pytest.fixture
def catalogue(db):
    """Every game's catalogue loaded as `make run` loads it."""
    call_command("loadcatalogue", verbosity=0)


@pytest.fixture
def soylent_game(catalogue, make_user):
    """A started two-player Soylent Ghoul game (vox first), from drone sets made by the services."""
    from games.soylent_ghoul.play import services
    from games.soylent_ghoul.sets.services import create_drone_set

    vox, mara = make_user("vox"), make_user("mara")
    game = services.create_game(vox, create_drone_set(vox, "Pale Hands", "gardeners"), ["mara"])
    services.join(game.pk, mara, create_drone_set(mara, "Watchers", "eyes"))
    return services.start(game.pk, vox, 0)


@pytest.fixture
def ghoulash_game(catalogue, make_user):
    """Del (Lake, first) and Brian (Gray) at a Ghoulash table, from a complete box."""
    from games.ghoulash import services
    from tests.games.ghoulash.conftest import complete_box

    del_, _brian = make_user("del"), make_user("brian")
    return services.create_game(del_, complete_box(del_), "Del and Brian", [("del", "lake"), ("brian", "gray")])
