"""Who may see and change a drone set, in one place.

A drone set is its owner's: each rule comes as a yes/no question (``user_owns_drone_set``) and a
raising check (``check_user_owns_drone_set``), which answers 404 so another player's set (and its
secret true tokens) is not even said to exist. The shared page is reached by its link alone.
"""

from __future__ import annotations

from django.http import Http404

from .models import DroneSet


def user_owns_drone_set(user, drone_set: DroneSet) -> bool:
    return user.is_authenticated and drone_set.crew.owner_id == user.pk


def check_user_owns_drone_set(user, drone_set: DroneSet) -> None:
    if not user_owns_drone_set(user, drone_set):
        raise Http404


def get_drone_set_for_user(user, pk: int) -> DroneSet:
    """The user's own drone set, or 404 (also for other users' sets)."""
    drone_set = DroneSet.objects.for_page().filter(pk=pk).first()
    if drone_set is None:
        raise Http404
    check_user_owns_drone_set(user, drone_set)
    return drone_set


def get_shared_drone_set(token: str) -> DroneSet:
    """The drone set shared under this link, or 404 (a revoked link included)."""
    drone_set = DroneSet.objects.shared_by_token(token).for_page().first()
    if drone_set is None:
        raise Http404
    return drone_set
