"""Repair x N: N Repair actions of 1 Energy each, each checked by the rules (3.5.2), logged in one line."""

import re

from games.slasher_trial import services
from games.slasher_trial.models import Generator, LogEntry

from .conftest import row, setp
from .test_views import HX, url


def test_repair_times_n_through_the_page(client, started, survivors):
    mara = survivors[0]
    setp(started, mara, energy=60, location="B2")
    client.force_login(mara)
    page = client.get(url(started)).content.decode()
    # a Repair xN form for each adjacent Generator, offering what the rules allow now (60 Energy)
    assert re.findall(r'id="repeat-(\w+)-\d+" min="1" max="(\d+)"', page) == [("A1", "60"), ("A3", "60")]
    before = LogEntry.objects.filter(trial=started).count()
    response = client.post(url(started, "trial-act"), {"action": "repair", "target": "A1", "times": "40"}, **HX)
    assert response.status_code == 200
    assert Generator.objects.get(trial=started, square="A1").progress == 40
    me = row(started, mara)
    assert (me.energy, me.points, me.readiness) == (20, 40, "Ready")
    entries = list(LogEntry.objects.filter(trial=started).order_by("number"))[before:]
    # one line for the forty, not forty lines (ST13)
    assert [e.text for e in entries] == ["mara repaired the Generator on A1 \u00d740 (0 \u2192 40/100). (-40 Energy)"]
    assert [(e.action, e.target, e.energy_spent) for e in entries] == [("repair", "A1", 40)]
    assert "mara repaired the Generator on A1 \u00d740 (0 \u2192 40/100). (-40 Energy)" in response.content.decode()
    # a single Repair keeps its own line
    client.post(url(started, "trial-act"), {"action": "repair", "target": "A1"}, **HX)
    last = LogEntry.objects.filter(trial=started).order_by("-number").first()
    assert last.text == "mara repaired the Generator on A1 (41/100). (-1 Energy)"


def test_repair_times_n_is_all_or_nothing_with_a_clear_message(client, started, survivors):
    mara = survivors[0]
    setp(started, mara, energy=10, location="B2")
    client.force_login(mara)
    before = LogEntry.objects.filter(trial=started).count()
    response = client.post(url(started, "trial-act"), {"action": "repair", "target": "A1", "times": "11"}, **HX)
    assert response.status_code == 422
    assert (
        "Repair 11 of 11 is not allowed: repair costs 1 Energy, mara has 0; 10 would be (nothing was done)."
        in response.content.decode()
    )
    assert row(started, mara).energy == 10 and Generator.objects.get(trial=started, square="A1").progress == 0
    assert LogEntry.objects.filter(trial=started).count() == before
    for times, message in (
        ("0", "Repeat an action at least once."),
        ("101", "Repeat an action at most 100 times in one go."),
        ("x", "Give how many times as a whole number."),
    ):
        bad = client.post(url(started, "trial-act"), {"action": "repair", "target": "A1", "times": times}, **HX)
        assert bad.status_code == 422 and message in bad.content.decode(), times
    other = client.post(url(started, "trial-act"), {"action": "move", "target": "B3", "times": "2"}, **HX)
    assert other.status_code == 422 and "Only a Survivor&#x27;s Repair can be repeated" in other.content.decode()


def test_repair_times_n_stops_at_the_generator_being_repaired(started, survivors):
    mara = survivors[0]
    setp(started, mara, energy=50, location="B2")
    Generator.objects.filter(trial=started, square="A1").update(progress=95)
    try:
        services.act(started, mara, "repair", "A1", times=6)
    except services.TrialError as exc:
        assert str(exc) == (
            "Repair 6 of 6 is not allowed: the Generator on A1 is already Repaired; 5 would be (nothing was done)."
        )
    else:
        raise AssertionError("a sixth Repair of a Repaired Generator was taken")
    services.act(started, mara, "repair", "A1", times=5)
    assert Generator.objects.get(trial=started, square="A1").progress == 100
    last = LogEntry.objects.filter(trial=started).order_by("-number").first()
    assert last.text == "mara repaired the Generator on A1 \u00d75 (95 \u2192 100/100). It is Repaired. (-5 Energy)"
    assert last.energy_spent == 5
