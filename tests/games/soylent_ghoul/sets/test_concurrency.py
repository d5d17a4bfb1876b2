"""Two edits of a drone set sent at once from forms drawn at the same version: one saves, the other is
refused as out of date (never a 500, never both)."""

import pytest

from games.soylent_ghoul.sets import services
from games.soylent_ghoul.sets.models import DroneSet
from tests.race import race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_renames_from_the_same_form_at_once_save_one(make_set, user, attempt):
    drone_set = make_set(user)
    version = drone_set.crew.version

    def rename_to(name):
        return lambda: services.rename(DroneSet.objects.get(pk=drone_set.pk), name, expected_version=version)

    outcomes = race([rename_to("Left"), rename_to("Right")], services.DroneSetError)
    assert outcomes.count("ok") == 1, outcomes
    assert [o for o in outcomes if o != "ok"][0].startswith("This drone set changed elsewhere"), outcomes
    drone_set.crew.refresh_from_db()
    assert drone_set.crew.name in ("Left", "Right") and drone_set.crew.version == version + 1
