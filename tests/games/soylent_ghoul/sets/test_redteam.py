"""Red-team probes of drone sets, beyond test_drone_secrecy.py: htmx partials and
refusals, other sets' drones through one's own set, the deal's randomness (place and
id of the true token), bad input on every form."""

import re
from collections import Counter

import pytest
from django.test import Client

from games.soylent_ghoul.sets import forms, services, views
from games.soylent_ghoul.sets.models import Drone, DroneSet, Token
from tests.clients import logged_in
from tests.games.soylent_ghoul.sets.conftest import truth

from .conftest import move_truth

HX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
BAD = ["", "abc", "-1", "0", "1.5", "99999999999999999999999", "x" * 500, "\u0661"]


VERSION = re.compile(rb'(name="version" value=")\d+')  # the set's edit counter (stale forms): not a secret


def stable(r) -> tuple:
    return r.status_code, r.get("Location"), VERSION.sub(rb"\1", CSRF.sub(rb"\1", r.content))


def test_the_key_partial_is_404_for_others_and_a_login_for_visitors(drone_set, other_user, client):
    key_urls = [f"/games/soylent/sets/{drone_set.pk}/?key=1&part=key", f"/games/soylent/sets/{drone_set.pk}/?key=1"]
    for u in key_urls:
        r = client.get(u, **HX)  # htmx is told to load the login page as a whole page
        assert r.status_code == 200 and r["HX-Redirect"].startswith("/accounts/login/?next=")
        assert all(code.encode() not in r.content for code in truth(drone_set).values())
    c = logged_in(other_user)
    for u in key_urls:
        r = c.get(u, **HX)
        assert r.status_code == 404
        assert all(code.encode() not in r.content for code in truth(drone_set).values())


def test_the_owners_refused_and_accepted_edits_never_put_the_key_on_screen(drone_set, user):
    """At the table the key stays hidden: an edit's answer (htmx or not, 422 or 200) is the same whatever the truth."""
    c = logged_in(user)
    drone = drone_set.drones.first()
    posts = [
        ("rename", {"name": ""}),
        ("group", {"group": "nonsense"}),
        ("rename-drone", {"drone": "abc", "name": "x"}),
        ("remove-drone", {"drone": "999999"}),
        ("add-drone", {"name": "x" * 500}),
        ("rename-drone", {"drone": drone.pk, "name": drone.name}),
    ]

    def answers():
        out = {}
        for action, data in posts:
            for hx in (True, False):
                out[(action, hx)] = stable(
                    c.post(f"/games/soylent/sets/{drone_set.pk}/edit/{action}/", data, **(HX if hx else {}))
                )
        out["messages"] = stable(c.get(f"/games/soylent/sets/{drone_set.pk}/"))
        return out

    c.get(f"/games/soylent/sets/{drone_set.pk}/")
    before = answers()
    assert before[("rename", True)][0] == 422 and before[("rename-drone", True)][0] == 200
    move_truth(drone_set)
    assert answers() == before
    # the probe can fail: the key page does change
    key_before = c.get(f"/games/soylent/sets/{drone_set.pk}/?key=1&part=key", **HX).content
    move_truth(drone_set)
    assert c.get(f"/games/soylent/sets/{drone_set.pk}/?key=1&part=key", **HX).content != key_before


def test_another_users_drone_through_my_own_set_is_refused(make_set, user, other_user):
    mine = make_set(user, "Mine")
    theirs = make_set(other_user, "Theirs")
    foreign = theirs.drones.first()
    c = logged_in(user)
    for action in ("rename-drone", "remove-drone"):
        r = c.post(f"/games/soylent/sets/{mine.pk}/edit/{action}/", {"drone": foreign.pk, "name": "Hacked"}, **HX)
        assert r.status_code == 422, action
        assert b"Theirs" not in r.content
    assert Drone.objects.get(pk=foreign.pk).name == foreign.name
    assert Token.objects.filter(drone=foreign).count() == 5


REFUSED = {
    "rename": {"name": ["", "   ", "x" * 500]},
    "group": {"group": ["", "abc", "-1", "x" * 500, "GARDENERS"]},
    "add-drone": {"name": ["x" * 500]},
    "rename-drone": {"drone": ["", "abc", "-1", "0", "1.5", "99999999999999999999999", "x" * 500]},
    "remove-drone": {"drone": ["", "abc", "-1", "0", "1.5", "99999999999999999999999", "x" * 500]},
}


@pytest.mark.parametrize("action", list(forms.EDIT_FORMS))
def test_bad_input_on_every_edit_is_a_422_and_changes_nothing(drone_set, user, action):
    c = logged_in(user)
    before = (
        list(Drone.objects.filter(drone_set=drone_set).values()),
        truth(drone_set),
        drone_set.crew.name,
        DroneSet.objects.get(pk=drone_set.pk).group,
    )
    ((field, values),) = REFUSED[action].items()
    for bad in values:
        data = {"name": "Fine name", "drone": drone_set.drones.first().pk, field: bad}
        for hx in (True, False):
            r = c.post(f"/games/soylent/sets/{drone_set.pk}/edit/{action}/", data, **(HX if hx else {}))
            assert r.status_code == 422, (action, bad, hx, r.status_code)
    assert c.post(f"/games/soylent/sets/{drone_set.pk}/edit/nonsense/").status_code == 404
    fresh = DroneSet.objects.select_related("crew").get(pk=drone_set.pk)
    assert (
        list(Drone.objects.filter(drone_set=drone_set).values()),
        truth(drone_set),
        fresh.crew.name,
        fresh.group,
    ) == before


def test_bad_input_on_create_is_a_422(catalogue, user):
    c = logged_in(user)
    for data in (
        {},
        {"name": "x", "group": "nonsense", "drones": "4"},
        {"name": "", "group": "gardeners", "drones": "4"},
        {"name": "x", "group": "gardeners", "drones": "abc"},
        {"name": "x", "group": "gardeners", "drones": "-1"},
        {"name": "x", "group": "gardeners", "drones": "99999999999999999999999"},
        {"name": "x" * 500, "group": "gardeners", "drones": "4"},
    ):
        assert c.post("/games/soylent/", data).status_code == 422, data
    assert DroneSet.objects.count() == 0


def test_the_true_token_is_dealt_to_every_place_and_id_order(catalogue, user):
    """Neither a token's place in its drone's list nor its database id order says which one is true."""
    sets = [services.create_drone_set(user, f"Set {i}", "gardeners", count=10) for i in range(20)]
    places, id_ranks = Counter(), Counter()
    for s in sets:
        for drone in s.drones.all():
            tokens = list(drone.tokens.order_by("position"))
            places[next(i for i, t in enumerate(tokens) if t.is_true)] += 1
            by_id = sorted(tokens, key=lambda t: t.pk)
            id_ranks[next(i for i, t in enumerate(by_id) if t.is_true)] += 1
    assert set(places) == set(range(5)) and set(id_ranks) == set(range(5))  # 200 drones: each place seen
    assert max(places.values()) < 80


def test_a_redeal_can_keep_or_move_the_truth(make_set, user):
    drone_set = make_set(user)
    drone = drone_set.drones.first()
    seen = Counter()
    for _ in range(80):
        services.redeal(drone_set)
        seen[Token.objects.get(drone=drone, is_true=True).code] += 1
    assert len(seen) == 5  # every token, the old true one included (80 deals: a miss is ~1e-7)


def test_only_post_changes_and_csrf_is_on(drone_set, user):
    for name in (
        "soylent_home",
        "set_detail",
        "set_edit",
        "set_redeal",
        "set_share",
        "set_delete",
        "set_export",
        "cards_pdf",
        "tokens_pdf",
        "key_pdf",
        "set_shared",
        "shared_cards_pdf",
        "shared_tokens_pdf",
    ):
        assert not getattr(getattr(views, name), "csrf_exempt", False), name
    c = logged_in(user)
    old = truth(drone_set)
    for u in ("share", "redeal", "delete"):
        assert c.get(f"/games/soylent/sets/{drone_set.pk}/{u}/").status_code in (200, 405)
    assert truth(drone_set) == old and DroneSet.objects.filter(pk=drone_set.pk).exists()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    for u in ("share", "redeal", "delete"):
        assert strict.post(f"/games/soylent/sets/{drone_set.pk}/{u}/").status_code == 403
    drone_set.crew.refresh_from_db()
    assert drone_set.crew.share_token is None and DroneSet.objects.filter(pk=drone_set.pk).exists()
