"""Issue 18, lists that scale: /crews/ and /dice/ read stored summaries, paginate, search."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from crewbuilder import crew_service
from crewbuilder.models import Crew, Item


def _crews(geared_crew, user, count):
    first = geared_crew(user, 3, name="Crew 0")
    for i in range(1, count):
        copy = crew_service.duplicate(first, user)
        Crew.objects.filter(pk=copy.pk).update(name=f"Crew {i}")
    return first


def _queries(client, url, params=None):
    client.get(url, params or {})  # warm: stale summaries are computed once, the catalogue snapshot cached
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params or {}).status_code == 200
    return len(queries)


@pytest.mark.parametrize("url_name", ["crew-list", "dice-home"])
def test_list_queries_are_the_same_for_1_and_200_crews(
    client, make_user, geared_crew, url_name, django_assert_num_queries
):
    one, many = make_user("one"), make_user("many")
    _crews(geared_crew, one, 1)
    _crews(geared_crew, many, 200)
    client.force_login(one)
    expected = _queries(client, reverse(url_name))
    client.force_login(many)
    client.get(reverse(url_name))  # warm
    with django_assert_num_queries(expected):
        assert client.get(reverse(url_name)).status_code == 200


def test_list_paginates_and_searches(client, user, geared_crew):
    _crews(geared_crew, user, crew_service.LIST_PAGE_SIZE + 5)
    client.force_login(user)
    html = client.get(reverse("crew-list")).content.decode()
    assert html.count('class="row-actions"') == crew_service.LIST_PAGE_SIZE
    assert "Page 1 of 2" in html and f"{crew_service.LIST_PAGE_SIZE + 5} crews" in html
    second = client.get(reverse("crew-list"), {"page": 2}).content.decode()
    assert second.count('class="row-actions"') == 5
    wanted = crew_service.LIST_PAGE_SIZE + 1  # on the second page
    found = client.get(reverse("crew-list"), {"q": f"crew {wanted}"}).content.decode()
    assert found.count('class="row-actions"') == 1 and f">Crew {wanted}<" in found
    none = client.get(reverse("crew-list"), {"q": "nobody"}).content.decode()
    assert "No crew name contains" in none
    assert client.get(reverse("crew-list"), {"page": "x"}).status_code == 200  # a bad page number is page 1


def _row(client, crew):
    html = client.get(reverse("crew-list")).content.decode()
    start = html.index(f'href="{reverse("crew-edit", args=[crew.pk])}"')
    return html[start : html.index("</tr>", start)]


def test_an_edit_shows_in_the_list(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    assert "/ 150" in _row(client, crew) and 'data-status="valid"' in _row(client, crew)
    before = Crew.objects.get(pk=crew.pk).summary_points
    character = crew.characters.first()
    crew.refresh_from_db()
    client.post(
        reverse("crew-edit-action", args=[crew.pk, "add-gear"]),
        {"version": crew.version, "character": character.pk, "slug": "heavy-weapon"},
        HTTP_HX_REQUEST="true",
    )
    row = _row(client, crew)
    assert f"{before + 5} / 150" in row
    crew.refresh_from_db()
    client.post(
        reverse("crew-edit-action", args=[crew.pk, "crew"]),
        {"version": crew.version, "budget": 10},
        HTTP_HX_REQUEST="true",
    )
    row = _row(client, crew)
    assert 'data-status="invalid"' in row and "1 error" in row


def test_a_catalogue_change_shows_in_the_list(client, user, geared_crew, catalogue):
    crew = geared_crew(user, 3)
    client.force_login(user)
    before = Crew.objects.get(pk=crew.pk)
    _row(client, crew)
    points = Crew.objects.get(pk=crew.pk).summary_points
    sword = Item.objects.get(system=catalogue, slug="sword")
    sword.cost += 10
    sword.save()  # an admin edit (a house rule): bumps the catalogue version
    assert f"{points + 30} / 150" in _row(client, crew)
    assert Crew.objects.get(pk=crew.pk).updated_at == before.updated_at  # the summary is no edit


def test_a_house_rule_acceptance_shows_in_the_list(client, user, make_crew, legal_attributes):
    crew = make_crew(user, characters=[{"name": f"G{i}", "attributes": legal_attributes} for i in range(2)])
    client.force_login(user)
    assert 'data-status="invalid"' in _row(client, crew)
    crew.refresh_from_db()
    client.post(
        reverse("crew-edit-action", args=[crew.pk, "accept"]),
        {"version": crew.version, "code": "too-few-characters", "note": "we play 2v2"},
        HTTP_HX_REQUEST="true",
    )
    assert 'data-status="house_rules"' in _row(client, crew)


def test_the_dice_assistant_offers_the_latest_crews_and_finds_the_others(client, user, geared_crew):
    from crewbuilder.dice_service import DICE_CREWS

    first = _crews(geared_crew, user, DICE_CREWS + 3)
    Crew.objects.filter(pk=first.pk).update(name="Oldest Crew", updated_at="2000-01-01T00:00:00Z")
    client.force_login(user)
    html = client.get(reverse("dice-home")).content.decode()
    attacker = html[html.index('id="attacker"') : html.index("</select>", html.index('id="attacker"'))]
    assert len({crew for crew in re.findall(r"\((Crew \d+|Oldest Crew)\)", attacker)}) == DICE_CREWS
    assert "Oldest Crew" not in attacker
    found = client.get(reverse("dice-home"), {"crews_q": "oldest"}).content.decode()
    assert "Ghoul 1 (Oldest Crew)" in found
    # a picked character stays offered (and used) whatever the search
    picked = f"crew:{first.characters.first().pk}"
    kept = client.get(reverse("dice-home"), {"attacker": picked}).content.decode()
    assert f'<option value="{picked}" selected>Ghoul 1 (Oldest Crew)</option>' in kept
