"""core.prepared on the stepper click: its statement is planned once per PostgreSQL connection, and only it.

Runs under ``make test-postgres`` (CI runs both); SQLite has no prepared statements and is skipped.
"""

import pytest
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from core.prepared import prepared_cursor
from crewbuilder.models import Crew

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(f"prepared statements are PostgreSQL's (make test-postgres); this database is {connection.vendor}")


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def _click(client, crew, character, delta, version=None):
    if version is None:
        crew.refresh_from_db()
        version = crew.version
    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "attribute"]),
        {"version": version, "character": character.pk, "step": f"agility:{delta}"},
        **HX,
    )
    assert response.status_code == 200
    return response


def test_stepper_clicks_run_one_statement_prepared_once(client, user, geared_crew, django_assert_num_queries):
    crew = geared_crew(user, 3)
    character = crew.characters.order_by("position").first()
    client.force_login(user)
    client.get(reverse("crew-edit", args=[crew.pk]))
    before = set(_prepared_statements())

    for n, delta in enumerate([1, -1, 1]):
        with django_assert_num_queries(1):  # logged as Django's own queries are
            response = _click(client, crew, character, delta, version=crew.version + n)
        assert f'id="base-agility-{character.pk}">{character.agility + (n % 2 == 0):+d}<' in response.content.decode()

    made = [s for s in _prepared_statements() if s not in before]
    assert len(made) == 1  # the three clicks share one plan
    assert made[0].startswith("WITH claimed AS (UPDATE")
    assert crew.characters.get(pk=character.pk).agility == character.agility + 1
    assert Crew.objects.get(pk=crew.pk).version == crew.version + 3


def test_a_stale_click_through_the_prepared_statement_changes_nothing(client, user, geared_crew):
    crew = geared_crew(user, 3)
    character = crew.characters.order_by("position").first()
    client.force_login(user)
    client.get(reverse("crew-edit", args=[crew.pk]))
    _click(client, crew, character, 1)
    stale_version = crew.version  # what a second tab still shows
    _click(client, crew, character, 1)
    agility = crew.characters.get(pk=character.pk).agility

    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "attribute"]),
        {"version": stale_version, "character": character.pk, "step": "agility:1"},
        **HX,
    )

    assert response.status_code == 409
    assert crew.characters.get(pk=character.pk).agility == agility


def test_django_own_queries_are_never_prepared(user, geared_crew):
    crew = geared_crew(user, 3)
    before = set(_prepared_statements())
    for _ in range(8):  # past psycopg's threshold of 5
        list(Crew.objects.filter(pk=crew.pk))
    assert set(_prepared_statements()) == before


@override_settings(DATABASE_PREPARED=False)
def test_with_database_prepared_off_nothing_is_prepared(client, user, geared_crew):
    crew = geared_crew(user, 3)
    character = crew.characters.order_by("position").first()
    client.force_login(user)
    client.get(reverse("crew-edit", args=[crew.pk]))
    before = set(_prepared_statements())
    for delta in [1, -1, 1]:
        _click(client, crew, character, delta)
    with prepared_cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [1])
        assert cursor.fetchone() == (2,)
    assert set(_prepared_statements()) == before
