"""Crew models: URLs, defaults, and a constant number of queries to validate."""

import io
import json

import pytest
from django.core.management import call_command
from django.db import IntegrityError

from crewbuilder.crew_reports import report_for as validate_crew_model
from crewbuilder.crewfile import import_crew_data
from crewbuilder.models import Crew, GameSystem

LEGAL = {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1}


def full_character(i):
    return {
        "name": f"C{i}",
        "attributes": dict(LEGAL),
        "traits": ["big", {"slug": "deformed", "raise": ["strength", "agility"]}, "long-arms"],
        "body_mods": ["neural-cabling", "extra-organs"],
        "gear": ["sword", "light-armor", "shield", "trauma-kit", "knife", "knife"],
    }


def make_crew(owner, size):
    data = {
        "format": "crewbuilder.crew/1",
        "system": "cybernekro",
        "name": f"Crew {size}",
        "budget": 1000,
        "characters": [full_character(i) for i in range(size)],
    }
    return import_crew_data(data, owner)


@pytest.fixture
def catalogue(db):
    call_command("loadcatalogue", stdout=io.StringIO())


def test_defaults_and_absolute_url(catalogue, user):
    crew = Crew.objects.create(owner=user, system=GameSystem.objects.get(slug="cybernekro"), name="Saints")
    assert (crew.budget, crew.version, crew.share_token, crew.accepted_findings) == (150, 1, None, [])
    assert crew.get_absolute_url() in (f"/crews/{crew.pk}/",) or str(crew.pk) in crew.get_absolute_url()


def test_share_tokens_are_unique_but_may_be_empty(catalogue, user):
    system = GameSystem.objects.get(slug="cybernekro")
    Crew.objects.create(owner=user, system=system, name="A")
    Crew.objects.create(owner=user, system=system, name="B")  # two NULL tokens are fine
    Crew.objects.create(owner=user, system=system, name="C", share_token="abc")
    with pytest.raises(IntegrityError):
        Crew.objects.create(owner=user, system=system, name="D", share_token="abc")


def test_an_edition_lives_beside_another(db):
    GameSystem.objects.create(slug="cybernekro", name="Cybernekr0", edition="1.1.3")
    GameSystem.objects.create(slug="cybernekro", name="Cybernekr0", edition="1.2")
    with pytest.raises(IntegrityError):
        GameSystem.objects.create(slug="cybernekro", name="Cybernekr0", edition="1.2")


def count_queries(django_assert_num_queries, pk, expected):
    with django_assert_num_queries(expected):
        crew = Crew.objects.with_everything().get(pk=pk)
        return validate_crew_model(crew)


def test_validation_queries_do_not_grow_with_the_crew(catalogue, user, django_assert_num_queries):
    small, large = make_crew(user, 3), make_crew(user, 7)
    validate_crew_model(Crew.objects.with_everything().get(pk=small.pk))  # warm the catalogue snapshot
    # crew+owner+system, characters, traits, body-mods, gear
    report3 = count_queries(django_assert_num_queries, small.pk, 5)
    report7 = count_queries(django_assert_num_queries, large.pk, 5)
    assert len(report3["characters"]) == 3 and len(report7["characters"]) == 7


def test_report_from_the_database_equals_report_from_the_file(catalogue, user):
    from crewbuilder.crewfile import check_crew_file, export_crew

    crew = Crew.objects.with_everything().get(pk=make_crew(user, 4).pk)
    _, file_report, _ = check_crew_file(export_crew(crew))
    assert validate_crew_model(crew) == file_report


def test_catalogue_change_is_seen_by_the_next_validation(catalogue, user):
    from crewbuilder.models import Item

    crew = make_crew(user, 3)
    before = validate_crew_model(Crew.objects.with_everything().get(pk=crew.pk))["points"]
    sword = Item.objects.get(slug="sword")
    sword.cost = 5
    sword.save()
    after = validate_crew_model(Crew.objects.with_everything().get(pk=crew.pk))["points"]
    assert after == before + 3


def test_accepted_findings_from_the_crew(catalogue, user):
    crew = make_crew(user, 2)
    crew.accepted_findings = [{"code": "too-few-characters", "character": None, "note": "skirmish of two"}]
    crew.save()
    report = validate_crew_model(Crew.objects.with_everything().get(pk=crew.pk))
    assert report["valid"] is False and report["valid_with_house_rules"] is True and report["house_rules"] is True
    assert json.dumps(report)  # plain JSON all the way


def test_admin_crew_page_shows_the_same_report(catalogue, client, make_user):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    crew = make_crew(boss, 2)
    client.force_login(boss)
    page = client.get(f"/admin/crewbuilder/crew/{crew.pk}/change/").content.decode()
    assert "NOT valid" in page and "too-few-characters" in page
