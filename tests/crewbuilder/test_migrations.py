import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_pending_migrations():
    # --check exits non-zero (SystemExit) when a model change lacks a migration.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
