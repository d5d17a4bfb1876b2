import pytest

from rules.cybernekro.battle import catalogue


@pytest.fixture(autouse=True)
def _engine_reads_the_bundled_catalogue(monkeypatch):
    """The engine's unit tests play by the bundled file, as the engine on its own does (the web app
    installs the database's catalogue at start: tests/battles)."""
    monkeypatch.setattr(catalogue, "_provider", None)
