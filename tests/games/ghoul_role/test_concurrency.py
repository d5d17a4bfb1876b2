"""The same action sent twice at once (two tabs, a double tap) applies once; the other is refused cleanly:
both were sent from the same page, and the second finds the sheet moved on (the kit's Stale, 409)."""

import pytest

from core.games import kit
from games.ghoul_role import services
from games.ghoul_role.models import Event, GhoulSheet
from tests.race import race

STALE = "The sheet changed since this page was drawn: here it is as it is now."


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_rolls_at_once_roll_once(make_sheet, owner, attempt):
    sheet = make_sheet()
    assert sheet.phase == GhoulSheet.ROLL
    seen = sheet.version  # the page both taps were sent from
    refusals = []

    def roll():
        try:
            services.act(sheet.pk, owner, "roll", seen_version=seen)
        except services.SheetError as exc:
            refusals.append(exc)
            raise

    outcomes = race([roll, roll], services.SheetError)
    assert sorted(outcomes) == sorted(["ok", STALE]), outcomes
    assert len(refusals) == 1 and isinstance(refusals[0], kit.Stale) and refusals[0].status == 409
    assert Event.objects.filter(sheet=sheet, kind="roll").count() == 1
    sheet.refresh_from_db()
    assert (sheet.turn, sheet.version) == (1, seen + 1)
