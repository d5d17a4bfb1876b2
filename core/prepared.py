"""A cursor for PostgreSQL statements run on every click: planned once per connection, not once per run.

PostgreSQL plans a statement each time it receives one as text. For the stepper click's single statement
(crewbuilder.crew_edits) the plan cost more than the work: about 0.19 ms of its 0.28 ms, against 0.09 ms
prepared (issue 20). A prepared statement is parsed and planned once per connection, and Django keeps
connections (CONN_MAX_AGE). Django's own cursors bind parameters on the client and are never prepared
(connection poolers in transaction mode cannot keep prepared statements); only the statements run through
``prepared_cursor`` are. Behind such a pooler (PgBouncer before 1.21), set DATABASE_PREPARED=0.

Elsewhere (SQLite, or DATABASE_PREPARED=0) it is Django's usual cursor.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.db import connection


def prepared_cursor():
    """A cursor (use it as a context manager) whose ``execute`` prepares the statement on the server.

    Queries run through it are logged as Django's are (tests count them), through the same wrapper.
    """
    if connection.vendor != "postgresql" or not settings.DATABASE_PREPARED:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_preparing_cursor_class()(connection.connection))


@cache
def _preparing_cursor_class():
    # Imported here: the PostgreSQL backend needs psycopg, which only a PostgreSQL setup must have.
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):
        """Server-side binding (parameters sent apart from the text, as preparing needs), always prepared."""

        def execute(self, query, params=None, *, prepare=True, binary=None):
            return super().execute(query, params, prepare=prepare, binary=binary)

    return PreparingCursor
