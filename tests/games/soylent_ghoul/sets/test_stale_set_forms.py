"""Issue 17, finding 6: a drone-set form drawn before the set last changed (an older tab) answers 409 with
a clear message and saves nothing, instead of overwriting the newer change."""

import re

import pytest

from games.soylent_ghoul.sets.models import Drone, DroneSet

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def owner(client, user):
    client.force_login(user)
    return client


def drawn_version(page: str) -> str:
    versions = set(re.findall(r'name="version" value="(\d+)"', page))
    assert len(versions) == 1, versions  # every editor form carries the version the page was drawn with
    return versions.pop()


def edit(client, drone_set, action, htmx=True, **data):
    return client.post(f"/games/soylent/sets/{drone_set.pk}/edit/{action}/", data, **(HTMX if htmx else {}))


@pytest.mark.parametrize("htmx", [True, False])
def test_an_older_tabs_rename_answers_409_and_keeps_the_newer_name(owner, drone_set, htmx):
    old_tab = drawn_version(owner.get(f"/games/soylent/sets/{drone_set.pk}/").content.decode())
    new_tab = drawn_version(owner.get(f"/games/soylent/sets/{drone_set.pk}/").content.decode())
    assert edit(owner, drone_set, "rename", name="Newer", version=new_tab).status_code == 200
    r = edit(owner, drone_set, "rename", htmx=htmx, name="Older", version=old_tab)
    page = r.content.decode()
    assert r.status_code == 409
    assert "This drone set changed elsewhere" in page and "your change was not saved" in page
    assert "What you typed: “Older”" in page
    assert 'value="Newer"' in page  # the set as it is now, with a form drawn at its new version
    assert drawn_version(page) == str(DroneSet.objects.get(pk=drone_set.pk).crew.version)
    assert DroneSet.objects.get(pk=drone_set.pk).crew.name == "Newer"
    if htmx:
        assert page.lstrip().startswith('<div id="set-editor">')


def test_an_older_tabs_drone_rename_and_group_change_answer_409(owner, drone_set):
    version = drawn_version(owner.get(f"/games/soylent/sets/{drone_set.pk}/").content.decode())
    first = drone_set.drones.first()
    assert edit(owner, drone_set, "rename-drone", drone=first.pk, name="Wax", version=version).status_code == 200
    assert edit(owner, drone_set, "rename-drone", drone=first.pk, name="Wick", version=version).status_code == 409
    assert edit(owner, drone_set, "group", group="eyes", version=version).status_code == 409
    assert edit(owner, drone_set, "remove-drone", drone=first.pk, version=version).status_code == 409
    assert Drone.objects.get(pk=first.pk).name == "Wax"
    assert DroneSet.objects.get(pk=drone_set.pk).group == "gardeners"


def test_edits_in_one_tab_follow_each_other(owner, drone_set):
    """The editor is redrawn with the new version after each edit, so one tab never trips over itself."""
    page = owner.get(f"/games/soylent/sets/{drone_set.pk}/").content.decode()
    for name in ("One", "Two", "Three"):
        r = edit(owner, drone_set, "rename", name=name, version=drawn_version(page))
        assert r.status_code == 200
        page = r.content.decode()
    assert DroneSet.objects.get(pk=drone_set.pk).crew.name == "Three"
