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


def with_version(sheet, data: dict | None = None) -> dict:
    """A move's POST as the page sends it: with the version of the sheet the page shows (``v``)."""
    from games.ghoul_role.models import GhoulSheet

    return {"v": str(GhoulSheet.objects.get(pk=sheet.pk).version), **(data or {})}


def post_act(sheet_pk: int, user, action: str, data: dict):
    """A move as the page posts it: read by the action's form (a refusal of the form is the sheet's
    refusal, as in the view), then ``services.act`` with the form's typed choices."""
    from games.ghoul_role import services
    from games.ghoul_role.action_forms import ACTION_FORMS
    from games.ghoul_role.models import GhoulSheet

    version = GhoulSheet.objects.filter(pk=sheet_pk).values_list("version", flat=True).first()
    form = ACTION_FORMS[action]({"v": str(version or 1), **data})
    if not form.is_valid():
        raise services.SheetError(form.refusal())
    return services.act(sheet_pk, user, action, seen_version=form.seen_version, **form.choices())
