"""The signed-in user from Django's cache: no query for it on each request (issue 20).

Django's ModelBackend reads the user's row on every request that looks at
``request.user``: about a third of a millisecond of ORM work, on a table of
phones tapping the editor. The row changes rarely (last login, password,
active, paper size), and every change the app, the admin and Django's own
commands make goes through ``save()`` or ``delete()``, whose signals drop the
kept copy (``forget_user``), in the cache every worker shares. A write that
skips the signals (a queryset ``update()``) is seen within ``TIMEOUT``.

Everything else stays Django's: the password check at login, the session's
auth hash (a changed password still signs out other sessions, compared with
the fresh row after the save dropped the copy) and the ``is_active`` check,
made on every request, kept copy or not. Permissions are not kept: the copy
is stored before anything asks for them.
"""

from __future__ import annotations

import hashlib

import django
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction

TIMEOUT = 300  # seconds: the longest a write that bypasses save() goes unseen


def _stamp() -> str:
    # A kept copy is a pickled model: another Django or another set of columns must not unpickle it.
    fields = ",".join(f.attname for f in get_user_model()._meta.concrete_fields)
    return hashlib.blake2b(f"{django.__version__}:{fields}".encode(), digest_size=6).hexdigest()


_STAMP: str | None = None


def cache_key(user_id) -> str:
    global _STAMP
    if _STAMP is None:
        _STAMP = _stamp()
    return f"auth-user:{_STAMP}:{user_id}"


class CachedModelBackend(ModelBackend):
    """ModelBackend, with ``get_user`` served from the cache while the user's row is unchanged."""

    def get_user(self, user_id):
        key = cache_key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)  # None for a missing or inactive user: not kept
            if user is not None:
                cache.set(key, user, TIMEOUT)
            return user
        return user if self.user_can_authenticate(user) else None


def forget_user(sender, instance, **kwargs) -> None:
    """Drop a user's kept copy after any save or delete of its row: now, and again once the change is
    committed, in case another request read the old row meanwhile and kept it."""
    if instance.pk is None:
        return
    key = cache_key(instance.pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
