"""Issue 17, finding 9: pages holding a secret (a Ghoulash hand, a drone set's
true tokens, a crew file, a share or join link) say ``Cache-Control: private, no-store``, their htmx
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
    act = client.post(
        reverse("ghoulash-game-act", args=[ghoulash_game.pk]), {"kind": "nonsense"}, HTTP_HX_REQUEST="true"
    )
    assert act.status_code < 500 and _no_store(act)


def test_soylent_game_page_poll_and_action(client, soylent_game):
    client.force_login(soylent_game.creator)
    url = reverse("soylent-game", args=[soylent_game.pk])
    page = client.get(url)
    assert page.status_code == 200 and _no_store(page)
    assert _no_store(client.get(url, HTTP_HX_REQUEST="true"))
    act = client.post(reverse("soylent-game-act", args=[soylent_game.pk]), {"kind": "nonsense"}, HTTP_HX_REQUEST="true")
    assert act.status_code < 500 and _no_store(act)


def test_crew_export(client, catalogue, user):
    from crewbuilder.models import Crew, GameSystem

    crew = Crew.objects.create(owner=user, system=GameSystem.objects.get(slug="cybernekro"), name="Saints")
    client.force_login(user)
    response = client.get(reverse("crew-export", args=[crew.pk]))
    assert response.status_code == 200 and _no_store(response)


def test_drone_set_page_export_and_key(client, catalogue, user):
    from games.soylent_ghoul.sets.services import create_drone_set

    drone_set = create_drone_set(user, "Pale Hands", "gardeners")
    client.force_login(user)
    for url in (
        f"/games/soylent/sets/{drone_set.pk}/?key=1",
        f"/games/soylent/sets/{drone_set.pk}/export/",
        f"/games/soylent/sets/{drone_set.pk}/key.pdf",
    ):
        response = client.get(url)
        assert response.status_code == 200 and _no_store(response), url


def test_pages_with_a_share_or_join_link(client, catalogue, make_user):
    from crewbuilder.models import Crew, GameSystem
    from games.ghoul_role import services as role
    from games.slasher_trial import services as trials

    owner = make_user("vox")
    crew = Crew.objects.create(
        owner=owner, system=GameSystem.objects.get(slug="cybernekro"), name="Saints", share_token="s" * 32
    )
    trial = trials.create_trial(owner, "Night at the yard")
    sheet = role.create_sheet(owner, role.goals_for(role.catalogue(), "cave", "ghoul", "4-players", 4, None))
    role.set_sharing(sheet.pk, owner, on=True)
    client.force_login(owner)
    for url in (
        reverse("crew-detail", args=[crew.pk]),
        reverse("trial-detail", args=[trial.pk]),
        reverse("ghoulrole-sheet", args=[sheet.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200 and _no_store(response), url
    act = client.post(reverse("trial-act", args=[trial.pk]), {"action": "nonsense"}, HTTP_HX_REQUEST="true")
    assert act.status_code == 422 and _no_store(act)
