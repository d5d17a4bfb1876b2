import pytest
from django.core.management import call_command


@pytest.fixture
def catalogue(db):
    """Every game's catalogue loaded as `make run` loads it."""
    call_command("loadcatalogue", verbosity=0)
