"""Issue 17, finding 2: owning a Soylent Ghoul drone set must not break the
Cybernekr0 dice assistant (it offers Cybernekr0 characters only)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def drone_set_owner(catalogue, user):
    from games.soylent_ghoul.sets import services

    services.create_drone_set(user, "The Lamplit", "gardeners")
    return user


@pytest.mark.parametrize(
    "url",
    [
        reverse("dice-home"),
        reverse("dice-quick", args=["morale"]),
        reverse("dice-attack-roll") + "?weapon=axe&a_agility=1&a_strength=2&t_toughness=1&t_armor=1",
        reverse("dice-quick", args=["morale"]) + "?roll=1&seed=5",
    ],
)
def test_dice_pages_work_for_a_drone_set_owner(client, drone_set_owner, url):
    client.force_login(drone_set_owner)
    response = client.get(url, follow=True)
    assert response.status_code == 200
    assert "The Lamplit" not in response.content.decode()
