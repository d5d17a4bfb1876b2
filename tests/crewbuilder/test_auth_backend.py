"""The signed-in user kept in the cache (crewbuilder/auth_backend.py): one query fewer, never a stale sign-in."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from crewbuilder.auth_backend import CachedModelBackend, cache_key

pytestmark = pytest.mark.django_db

CACHED = "crewbuilder.auth_backend.CachedModelBackend"


def _signed_in(user, password) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": user.username, "password": password})
    assert response.status_code == 302
    return client


def _kept(user, password) -> Client:
    """Signed in, with one page seen since: the user is in the cache."""
    client = _signed_in(user, password)
    client.get(reverse("crew-list"))
    return client


def _assert_signed_out(client) -> None:
    response = client.get(reverse("crew-list"))
    assert response.status_code == 302 and reverse("login") in response.url


def _user_queries(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries if 'FROM "crewbuilder_user"' in q["sql"]]


def test_a_login_signs_in_through_the_cached_backend(user, password):
    client = _signed_in(user, password)
    assert client.session[BACKEND_SESSION_KEY] == CACHED


def test_the_user_row_is_read_once_then_kept(user, password):
    client = _signed_in(user, password)
    assert len(_user_queries(client, reverse("crew-list"))) == 1  # the login saved the row: read it again
    assert _user_queries(client, reverse("crew-list")) == []
    assert _user_queries(client, reverse("crew-list")) == []


def test_a_changed_password_signs_out_the_other_sessions(user, password):
    phone, laptop = _kept(user, password), _signed_in(user, password)
    response = laptop.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "grave-dust-and-rust-77",
            "new_password2": "grave-dust-and-rust-77",
        },
    )
    assert response.status_code == 302
    assert laptop.get(reverse("crew-list")).status_code == 200  # the session that changed it stays signed in
    _assert_signed_out(phone)


def test_a_deactivated_user_is_signed_out_at_once(user, password):
    client = _kept(user, password)
    user.refresh_from_db()
    user.is_active = False
    user.save()
    _assert_signed_out(client)


def test_a_kept_copy_of_a_user_made_inactive_without_save_still_signs_in_no_one(user, password):
    # A write that skips save() (a queryset update) leaves the kept copy; an inactive copy still refuses.
    client = _kept(user, password)
    kept = cache.get(cache_key(user.pk))
    kept.is_active = False
    cache.set(cache_key(user.pk), kept)
    assert CachedModelBackend().get_user(user.pk) is None
    _assert_signed_out(client)


def test_a_deleted_user_is_signed_out(user, password):
    client = _kept(user, password)
    user.delete()
    _assert_signed_out(client)


def test_a_changed_setting_shows_at_once(user, password):
    client = _kept(user, password)
    user.refresh_from_db()
    user.email = "new@example.com"
    user.save()
    client.get(reverse("crew-list"))
    assert CachedModelBackend().get_user(user.pk).email == "new@example.com"


def test_a_session_signed_in_before_the_cached_backend_stays_signed_in(user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse("crew-list")).status_code == 200


def test_a_signup_signs_in_through_the_cached_backend(client):
    response = client.post(
        reverse("signup"),
        {"username": "Nyx", "email": "", "password1": "rust-and-bone-42", "password2": "rust-and-bone-42"},
    )
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == CACHED
