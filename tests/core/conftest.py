# test_no_store.py checks pages of several games: their fixtures, shared
from tests.crewbuilder.conftest import catalogue  # noqa: F401  (shared fixtures)
from tests.games.ghoulash.conftest import ghoulash_catalogue, ghoulash_game  # noqa: F401
from tests.games.soylent_ghoul.play.conftest import soylent_game, soylent_system  # noqa: F401
