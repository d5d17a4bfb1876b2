"""Red-team probes of the Slasher trial: participants only, each acting for themselves,
and no input (any action, any target, in any state, as either role) answers a 500."""

import pytest
from django.test import Client
from django.urls import reverse

from games.slasher_trial import services, views
from games.slasher_trial.models import LogEntry, Participant, Trial
from tests.clients import logged_in

from .conftest import setp

HX = {"HTTP_HX_REQUEST": "true"}
ACTIONS = [
    "location",
    "ready",
    "escape",
    "move",
    "repair",
    "heal",
    "rescue",
    "generators",
    "advance",
    "hit",
    "cage",
    "end",
    "",
    "nonsense",
    "MOVE",
    "move ",
]
TARGETS = [
    "",
    "A1",
    "c4",
    "Z99",
    "A-1",
    "J99999999999999999999",
    "mara",
    "vox",
    "nobody",
    "MARA",
    "é",
    "A1:B2",
    ":",
    "x" * 500,
    "\u0661",
]


def url(trial, name="trial-detail"):
    return reverse(name, args=[trial.pk])


def every_url(trial):
    return [url(trial), url(trial, "trial-act"), reverse("trial-join", args=[trial.join_token])]


def test_a_visitor_is_sent_to_log_in_everywhere(client, started):
    for u in every_url(started) + [reverse("trial-list")]:
        for r in (client.get(u), client.post(u, {"act": "ready:"})):
            assert r.status_code in (302, 405), u
            if r.status_code == 302:
                assert r["Location"].startswith("/accounts/login/"), u
    assert Trial.objects.get(pk=started.pk).version == started.version


def test_a_stranger_gets_404_and_cannot_act(started, make_user, survivors):
    z = logged_in(make_user("nosy"))
    version = Trial.objects.get(pk=started.pk).version
    assert z.get(url(started)).status_code == 404
    assert z.get(url(started) + "?v=1", **HX).status_code == 404
    for action in ACTIONS[:12]:
        assert z.post(url(started, "trial-act"), {"act": f"{action}:A2"}, **HX).status_code == 404
    assert started.name not in z.get(reverse("trial-list")).content.decode()
    # the join link of a started trial does not let anyone in
    r = z.post(reverse("trial-join", args=[started.join_token]))
    assert r.status_code == 409 and not Participant.objects.filter(trial=started, user__username="nosy").exists()
    assert z.get(url(started)).status_code == 404
    assert Trial.objects.get(pk=started.pk).version == version


def test_a_wrong_join_token_is_404(client, open_trial, make_user):
    client.force_login(make_user("nosy"))
    for token in ("nope", open_trial.join_token[:-1], open_trial.join_token + "x", "x" * 200):
        assert client.get(reverse("trial-join", args=[token])).status_code == 404
        assert client.post(reverse("trial-join", args=[token])).status_code == 404


def test_a_survivor_cannot_do_the_monsters_part_or_act_for_another(started, survivors, monster):
    mara, zed = survivors[:2]
    setp(started, mara, energy=20)
    setp(started, zed, energy=20)
    m = logged_in(mara)
    version = Trial.objects.get(pk=started.pk).version
    for act in ("generators:", "advance:", "end:", "hit:zed", "cage:zed"):
        assert m.post(url(started, "trial-act"), {"act": act}, **HX).status_code == 422, act
    # there is no field naming the actor: an "actor" or "user" field is ignored
    m.post(url(started, "trial-act"), {"act": "move:C4", "actor": "zed", "user": zed.pk}, **HX)
    assert Participant.objects.get(trial=started, user=zed).location == "C5"
    assert Participant.objects.get(trial=started, user=mara).location == "C4"
    assert Trial.objects.get(pk=started.pk).version == version + 1
    # the Monster cannot make a Survivor Ready or move as one
    v = logged_in(monster)
    assert v.post(url(started, "trial-act"), {"act": "ready:"}, **HX).status_code == 422
    assert Participant.objects.get(trial=started, user=monster).readiness == ""


def test_a_long_ignored_target_fits_the_log(started, survivors):
    """ "ready" takes no target: a posted one lands in the log's target column (150 characters)."""
    m = logged_in(survivors[0])
    assert m.post(url(started, "trial-act"), {"act": "ready:" + "x" * 500}, **HX).status_code == 200
    entry = LogEntry.objects.filter(trial=started).order_by("-number").first()
    assert entry.action == "ready" and len(entry.target) <= LogEntry._meta.get_field("target").max_length


def test_another_trials_participant_name_is_no_way_in(started, survivors, monster, make_user, catalogue):
    """Naming a Survivor of another trial as a target changes nothing there."""
    other = services.create_trial(make_user("boss"), "Elsewhere")
    services.join(other, survivors[2])
    before = list(Participant.objects.filter(trial=other).values())
    m = logged_in(survivors[0])
    setp(started, survivors[0], energy=20)
    for act in ("heal:ivy", "rescue:ivy", "hit:ivy"):
        assert m.post(url(started, "trial-act"), {"act": act}, **HX).status_code == 422
    assert list(Participant.objects.filter(trial=other).values()) == before


@pytest.mark.parametrize("stage", ["open", "started", "advancing", "over"])
def test_no_input_is_a_500(started, open_trial, survivors, monster, stage):
    trial = open_trial if stage == "open" else started
    if stage in ("advancing", "over"):
        for s in survivors[:2]:
            services.act(trial, s, "ready")
        services.act(trial, monster, "advance")
    if stage == "over":
        Trial.objects.filter(pk=trial.pk).update(state=Trial.OVER)
    for user in (monster, survivors[0]):
        c = logged_in(user)
        for action in ACTIONS:
            for target in TARGETS:
                forms = [{"act": f"{action}:{target}"}] + (
                    [{"action": action, "target": target}] if target in ("", ":") else []
                )
                for data in forms:
                    r = c.post(url(trial, "trial-act"), data, **HX)
                    assert r.status_code in (200, 422), (user.username, data, r.status_code)
                    assert not r.content.decode().count("Traceback")
        r = c.post(url(trial, "trial-act"), {}, **HX)
        assert r.status_code == 422
        assert c.post(url(trial, "trial-act"), {"act": "move:A2"}).status_code in (302, 422)
    assert LogEntry.objects.filter(trial=trial).count() >= 1


def test_bad_input_on_the_list_is_a_422(client, catalogue, monster):
    client.force_login(monster)
    for data in (
        {},
        {"name": ""},
        {"name": "x", "adjacency": "nonsense"},
        {"name": "x" * 5000, "adjacency": "diagonals"},
    ):
        r = client.post(reverse("trial-list"), data)
        assert r.status_code in (302, 422), data
        if r.status_code == 302:
            assert len(Trial.objects.get(monster=monster).name) <= 100
    assert client.get(url(Trial(pk=99999999999))).status_code == 404


def test_no_view_is_csrf_exempt_and_csrf_is_enforced(started, survivors):
    for name in ("trial_list", "trial_detail", "trial_act", "trial_join"):
        assert not getattr(getattr(views, name), "csrf_exempt", False), name
    c = Client(enforce_csrf_checks=True)
    c.force_login(survivors[0])
    setp(started, survivors[0], energy=5)
    assert c.post(url(started, "trial-act"), {"act": "move:C4"}).status_code == 403
    assert Participant.objects.get(trial=started, user=survivors[0]).location == "C3"


def test_the_admin_is_closed_to_players(started, survivors):
    c = logged_in(survivors[0])
    for u in ("/admin/trials/trial/", f"/admin/trials/trial/{started.pk}/change/", "/admin/trials/logentry/"):
        r = c.get(u)
        assert r.status_code == 302 and "/admin/login/" in r["Location"], u
