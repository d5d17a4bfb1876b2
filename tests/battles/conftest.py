import pytest

from battles import services
from battles.models import Battle
from tests.crewbuilder.conftest import LEGAL, catalogue, geared_crew, make_crew  # noqa: F401  (shared fixtures)


@pytest.fixture
def started(user, other_user, geared_crew):
    """A started battle (Quick start) of ``size`` characters a side between user (seat 0) and other_user."""
    def make(size=3, seed=1, players=None):
        players = players or [user, other_user]
        crews = [geared_crew(u, size, name=f"Crew of {u.username}") for u in players]
        battle = services.create_battle(players[0], "quick-start-scenario", crews[0].pk,
                                        [u.username for u in players[1:]])
        for u, crew in zip(players[1:], crews[1:]):
            services.join(battle.pk, u, crew.pk)
        services.start(battle.pk, players[0], seed=seed)
        return Battle.objects.get(pk=battle.pk)
    return make


def post_step(client, battle, option, htmx=True, **extra):
    battle.refresh_from_db()
    data = {"v": battle.version, "option": option, **extra}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/battles/{battle.pk}/act/", data, headers=headers)
