"""One row lock for a game's every action (Ghoulash games, Slasher trials).

The first statement bumps the row's ``version``: on PostgreSQL that takes the
row lock at once, like ``select_for_update``; on SQLite it takes the database's
write lock before anything is read, so a racing request waits instead of acting
on a stale snapshot. SQLite's shared-cache test database refuses a locked table
outright instead of waiting: retry briefly then.
"""

import time

from django.db import OperationalError, connection, transaction
from django.db.models import F


def run_locked(model, pk: int, work, *, missing: Exception, busy: Exception):
    """``work(row)`` in a transaction holding ``model`` row ``pk``'s lock; raises
    ``missing`` when there is no such row, ``busy`` when the lock never comes."""
    for attempt in range(100):
        try:
            with transaction.atomic():
                if not model.objects.filter(pk=pk).update(version=F("version") + 1):
                    raise missing
                row = model.objects.select_for_update().get(pk=pk)
                return work(row)
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc) or connection.in_atomic_block:
                raise
            time.sleep(0.02 + 0.01 * attempt)
    raise busy
