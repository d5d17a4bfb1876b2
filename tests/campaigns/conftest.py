import datetime

import pytest

from campaigns import services
from tests.crewbuilder.conftest import LEGAL, catalogue, geared_crew, make_crew  # noqa: F401  (shared fixtures)


@pytest.fixture
def campaign(user, catalogue):
    return services.create_campaign(user, name="The Rust Road", system=catalogue, treasure_value=5)


@pytest.fixture
def two_crews(campaign, user, other_user, geared_crew):
    """Organiser (user) and one player (other_user), each with an enrolled valid crew."""
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    mine = services.enrol(campaign, user, geared_crew(user, 3, name="Saints"))
    theirs = services.enrol(campaign, other_user, geared_crew(other_user, 3, name="Sinners"))
    return mine, theirs


@pytest.fixture
def today():
    return datetime.date(2026, 11, 22)
