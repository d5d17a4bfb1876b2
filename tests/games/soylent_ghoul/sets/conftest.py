import pytest
from django.core.management import call_command


@pytest.fixture
def catalogue(db):
    """Every game's catalogue loaded as `make run` loads it."""
    call_command("loadcatalogue", verbosity=0)


@pytest.fixture
def make_set(catalogue):
    from games.soylent_ghoul.sets import services

    def make(owner, name="The Lamplit", group="gardeners", **extra):
        return services.create_drone_set(owner, name, group, **extra)

    return make


@pytest.fixture
def drone_set(make_set, user):
    return make_set(user)


def truth(drone_set) -> dict:
    """{drone name: true code} straight from the database (the test's own view of the secret)."""
    from games.soylent_ghoul.sets.models import Token

    return {
        t.drone.name: t.code
        for t in Token.objects.filter(drone__drone_set=drone_set, is_true=True).select_related("drone")
    }


def codes(drone_set) -> list[str]:
    from games.soylent_ghoul.sets.models import Token

    return list(
        Token.objects.filter(drone__drone_set=drone_set)
        .order_by("drone__position", "position")
        .values_list("code", flat=True)
    )


def move_truth(drone_set) -> None:
    """Every drone's true token moves to its next token; nothing else changes."""
    from games.soylent_ghoul.sets.models import Token

    for drone in drone_set.drones.all():
        tokens = list(drone.tokens.all())
        index = next(i for i, t in enumerate(tokens) if t.is_true)
        Token.objects.filter(drone=drone).update(is_true=False)
        Token.objects.filter(pk=tokens[(index + 1) % len(tokens)].pk).update(is_true=True)
