"""Every POST of the drone set pages is read by a form: bad input is a clear 4xx, never a 500, and
changes nothing."""

import pytest

from games.soylent_ghoul.sets.models import DroneSet
from tests.clients import logged_in

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize(
    "drones, message",
    [
        ("abc", "Number of drones must be a whole number."),
        ("", "Number of drones must be a whole number."),
        ("1.5", "Number of drones must be a whole number."),
        ("0", "A drone set has from 1 to 12 drones."),
    ],
)
def test_a_new_set_with_a_bad_drone_count_is_refused_with_the_message(catalogue, user, drones, message):
    r = logged_in(user).post("/games/soylent/", {"name": "Lamplit", "group": "gardeners", "drones": drones})
    assert r.status_code == 422
    assert message in r.content.decode()
    assert 'value="Lamplit"' in r.content.decode()  # what was typed is shown again
    assert not DroneSet.objects.exists()


def test_a_new_set_from_the_form_is_created_with_its_typed_values(catalogue, user):
    r = logged_in(user).post("/games/soylent/", {"name": " Lamplit ", "group": "eyes", "drones": " 3 "})
    drone_set = DroneSet.objects.get()
    assert r.status_code == 302
    assert (drone_set.crew.name, drone_set.group, drone_set.drones.count()) == ("Lamplit", "eyes", 3)


@pytest.mark.parametrize("version", ["abc", "1.5", "x" * 200])
def test_an_edit_with_a_garbled_version_is_refused_and_saves_nothing(drone_set, user, version):
    r = logged_in(user).post(
        f"/games/soylent/sets/{drone_set.pk}/edit/rename/", {"name": "Other", "version": version}, **HX
    )
    assert r.status_code == 422
    assert "This page is out of date" in r.content.decode()
    assert DroneSet.objects.get(pk=drone_set.pk).crew.name == "The Lamplit"


def test_an_edit_with_the_version_drawn_is_saved_and_an_older_one_is_409(drone_set, user):
    c = logged_in(user)
    version = DroneSet.objects.get(pk=drone_set.pk).crew.version
    url = f"/games/soylent/sets/{drone_set.pk}/edit/rename/"
    assert c.post(url, {"name": "Lanterns", "version": version}, **HX).status_code == 200
    assert c.post(url, {"name": "Stale", "version": version}, **HX).status_code == 409
    assert DroneSet.objects.get(pk=drone_set.pk).crew.name == "Lanterns"


def test_revoking_the_share_link_is_read_from_the_form(drone_set, user):
    c = logged_in(user)
    c.post(f"/games/soylent/sets/{drone_set.pk}/share/")
    assert DroneSet.objects.get(pk=drone_set.pk).crew.share_token
    c.post(f"/games/soylent/sets/{drone_set.pk}/share/", {"revoke": "1"})
    assert DroneSet.objects.get(pk=drone_set.pk).crew.share_token is None
