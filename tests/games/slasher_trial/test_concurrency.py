"""Two actions at the same moment cannot both spend the same Energy (the trial row lock)."""

import pytest

from games.slasher_trial import services
from games.slasher_trial.models import LogEntry
from tests.games.slasher_trial.conftest import place, row, setp
from tests.race import race


def _race(calls):
    return race(calls, services.TrialError)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_moves_for_one_energy_exactly_one_succeeds(catalogue, monster, survivors, attempt):
    mara = survivors[0]
    trial = services.create_trial(monster, "Race")
    services.join(trial, mara)
    trial = place(trial, monster)
    services.act(trial, mara, "location", "J10")
    setp(trial, mara, energy=1)
    outcomes = _race(
        [lambda: services.act(trial, mara, "move", "J11"), lambda: services.act(trial, mara, "move", "K10")]
    )
    assert sorted(outcomes) == sorted(["ok", "Move costs 1 Energy, mara has 0."]), outcomes
    p = row(trial, mara)
    assert p.energy == 0 and p.location in {"J11", "K10"}
    assert LogEntry.objects.filter(trial=trial, action="move").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_monster_and_a_survivor_at_once_serialise(catalogue, monster, survivors):
    """A Survivor's move and the Monster's Advance at the same moment: one happens first, never half of each."""
    mara = survivors[0]
    trial = services.create_trial(monster, "Race")
    services.join(trial, mara)
    trial = place(trial, monster)
    services.act(trial, mara, "location", "J10")
    services.act(trial, monster, "location", "A20")
    setp(trial, mara, energy=1, readiness="Ready")
    outcomes = _race(
        [lambda: services.act(trial, mara, "move", "J11"), lambda: services.act(trial, monster, "advance")]
    )
    p = row(trial, mara)
    if outcomes == ["ok", "ok"]:  # the move, then the Advance: 1 - 1 + 60
        assert (p.energy, p.location) == (60, "J11")
    else:  # the Advance first: the move is refused during it
        assert outcomes == ["No Survivor Action during the Monster's Advance.", "ok"], outcomes
        assert (p.energy, p.location) == (61, "J10")
