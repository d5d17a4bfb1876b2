"""Drone set permissions: a set is its owner's (others and strangers get 404); a share link finds it until revoked."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from games.soylent_ghoul.sets import permissions, services
from games.soylent_ghoul.sets.models import DroneSet


def test_a_set_is_its_owners(drone_set, user, make_user):
    other = make_user("other")
    assert permissions.user_owns_drone_set(user, drone_set)
    assert permissions.get_drone_set_for_user(user, drone_set.pk) == drone_set
    for who in (other, AnonymousUser()):
        assert not permissions.user_owns_drone_set(who, drone_set)
        with pytest.raises(Http404):
            permissions.check_user_owns_drone_set(who, drone_set)
        with pytest.raises(Http404):
            permissions.get_drone_set_for_user(who, drone_set.pk)


def test_a_share_link_finds_the_set_until_revoked(drone_set):
    services.set_sharing(drone_set, on=True)
    token = DroneSet.objects.select_related("crew").get(pk=drone_set.pk).crew.share_token
    assert permissions.get_shared_drone_set(token) == drone_set
    assert list(DroneSet.objects.shared_by_token(token)) == [drone_set]
    for bad in ("", "x" * 65, token + "x"):
        assert not DroneSet.objects.shared_by_token(bad).exists()
        with pytest.raises(Http404):
            permissions.get_shared_drone_set(bad)
    services.set_sharing(drone_set, on=False)
    with pytest.raises(Http404):
        permissions.get_shared_drone_set(token)
