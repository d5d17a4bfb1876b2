"""Issue 17, finding 9: pages holding a secret (a Ghoulash hand, a drone set's
true tokens, a crew file) say ``Cache-Control: private, no-store``, their htmx
answers too, so no cache, shared or the browser's, keeps them."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _no_store(response):
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    return {"private", "no-store"} <= directives


def test_ghoulash_table_page_poll_and_action(client, ghoulash_game):
    client.force_login(ghoulash_game.creator)
    url = reverse("ghoulash-game", args=[ghoulash_game.pk])
    page = client.get(url)
    assert page.status_code == 200 and _no_store(page)
    assert _no_store(client.get(url, HTTP_HX_REQUEST="true"))
    act = client.post(reverse("ghoulash-game-act", args=[ghoulash_game.pk]), {"kind": "nonsense"},
                      HTTP_HX_REQUEST="true")
    assert act.status_code < 500 and _no_store(act)


def test_soylent_game_page_poll_and_action(client, soylent_game):
    client.force_login(soylent_game.creator)
    url = reverse("soylent-game", args=[soylent_game.pk])
    page = client.get(url)
    assert page.status_code == 200 and _no_store(page)
    assert _no_store(client.get(url, HTTP_HX_REQUEST="true"))
    act = client.post(reverse("soylent-game-act", args=[soylent_game.pk]), {"kind": "nonsense"},
                      HTTP_HX_REQUEST="true")
    assert act.status_code < 500 and _no_store(act)


def test_crew_export(client, catalogue, user):
    from crewbuilder.models import Crew, GameSystem

    crew = Crew.objects.create(owner=user, system=GameSystem.objects.get(slug="cybernekro"), name="Saints")
    client.force_login(user)
    response = client.get(reverse("crew-export", args=[crew.pk]))
    assert response.status_code == 200 and _no_store(response)


def test_drone_set_page_export_and_key(client, catalogue, user):
    from soylent.services import create_drone_set

    drone_set = create_drone_set(user, "Pale Hands", "gardeners")
    client.force_login(user)
    for url in (f"/games/soylent/sets/{drone_set.pk}/?key=1", f"/games/soylent/sets/{drone_set.pk}/export/",
                f"/games/soylent/sets/{drone_set.pk}/key.pdf"):
        response = client.get(url)
        assert response.status_code == 200 and _no_store(response), url
