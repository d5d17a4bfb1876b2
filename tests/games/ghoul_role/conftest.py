import shutil

import pytest
from django.core.management import call_command

from rules import ghoul_role as rules


@pytest.fixture
def catalogue(db, tmp_path):
    """Only the Ghoul role's catalogue file, loaded into the database."""
    shutil.copy(rules.CATALOGUE, tmp_path / rules.CATALOGUE.name)
    call_command("loadcatalogue", "--dir", str(tmp_path), verbosity=0)


@pytest.fixture
def cat(catalogue):
    from games.ghoul_role import services

    return services.catalogue()


@pytest.fixture
def owner(make_user):
    return make_user("ghoul")


@pytest.fixture
def stranger(make_user):
    return make_user("knight")


CHART = {1: (1, 1), 2: (2, 1), 3: (3, 2), 4: (4, 2), 5: (5, 3), 6: (6, 3)}


@pytest.fixture
def make_sheet(cat, owner):
    from games.ghoul_role import services

    def make(kind="cave", difficulty="ghoul", variant="4-players", players=4, thief_stash=None, user=None, **state):
        goals = services.goals_for(cat, kind, difficulty, variant, players, thief_stash)
        sheet = services.create_sheet(user or owner, goals, chart=CHART if kind == "vile" else None)
        if state:
            for key, value in state.items():
                setattr(sheet, key, value)
            sheet.save()
        return sheet

    return make
