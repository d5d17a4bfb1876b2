import shutil

import pytest
from django.core.cache import cache
from django.core.management import call_command

from catalogue.loader import CATALOGUE_DIR
from games.slasher_trial import services
from games.slasher_trial.models import Participant, Trial


@pytest.fixture(scope="session")
def slasher_catalogue_dir(tmp_path_factory):
    """Only the Slasher trial's data file (loading every game's catalogue per test is slow)."""
    folder = tmp_path_factory.mktemp("catalogue")
    shutil.copy(CATALOGUE_DIR / "slasher-trial-1.json", folder / "slasher-trial-1.json")
    return folder


@pytest.fixture
def catalogue(db, slasher_catalogue_dir):
    """The Slasher catalogue loaded by `loadcatalogue`, as `make run` loads it (the numbers come from it)."""
    call_command("loadcatalogue", "--dir", str(slasher_catalogue_dir), verbosity=0)


@pytest.fixture
def monster(make_user):
    return make_user("vox")


@pytest.fixture
def survivors(make_user):
    return [make_user(name) for name in ("mara", "zed", "ivy", "kai")]


@pytest.fixture
def open_trial(catalogue, monster, survivors):
    """An open trial with two Survivors (mara, zed)."""
    trial = services.create_trial(monster, "Night at the yard")
    for user in survivors[:2]:
        services.join(trial, user)
    return trial


def place(trial, monster, squares=("A1", "A3", "A5", "A7", "A9", "A11", "A13")):
    """Place the Generators through the service (seeded), then move them onto known Squares
    so a test can set a scene; returns the fresh trial."""
    services.act(trial, monster, "generators")
    gens = list(trial.generators.order_by("position"))
    for i, g in enumerate(gens):  # two steps: the drawn Squares may overlap the wanted ones
        g.square = f"x{i}"
        g.save()
    for g, square in zip(gens, squares):
        g.square = square
        g.save()
    cache.clear()  # a scene set by hand, not a move: the version's shared board is rebuilt from the rows
    return Trial.objects.get(pk=trial.pk)


def setp(trial, user, **values):
    """Set a participant's row directly (a scene for a test)."""
    Participant.objects.filter(trial=trial, user=user).update(**values)
    cache.clear()  # not a move (same version): the shared board is rebuilt from the rows


def row(trial, user) -> Participant:
    return Participant.objects.get(trial=trial, user=user)


@pytest.fixture
def started(open_trial, monster, survivors):
    """Generators on A1, A3, ..., A13; the Monster on J10, mara on C3, zed on C5; none has Energy yet."""
    trial = place(open_trial, monster)
    services.act(trial, monster, "location", "J10")
    services.act(trial, survivors[0], "location", "C3")
    services.act(trial, survivors[1], "location", "C5")
    return Trial.objects.get(pk=trial.pk)
