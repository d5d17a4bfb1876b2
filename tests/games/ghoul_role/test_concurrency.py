"""The same action sent twice at once (two tabs, a double tap) applies once; the other is refused."""

import pytest

from games.ghoul_role import services
from games.ghoul_role.models import Event, GhoulSheet
from tests.race import race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_rolls_at_once_roll_once(make_sheet, owner, attempt):
    sheet = make_sheet()
    assert sheet.phase == GhoulSheet.ROLL

    def roll():
        services.act(sheet.pk, owner, "roll", {})

    outcomes = race([roll, roll], services.SheetError)
    assert sorted(outcomes)[1] == "ok" and sorted(outcomes)[0] != "ok", outcomes
    assert not any("Error" in o for o in outcomes), outcomes
    assert Event.objects.filter(sheet=sheet, kind="roll").count() == 1
    sheet.refresh_from_db()
    assert sheet.turn == 1
