"""The battle list and the export name the scenario (the campaign scenario's own name), never its slug."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services
from campaigns import services as campaign_services
from tests.campaigns.conftest import campaign, two_crews  # noqa: F401  (shared fixtures)
from tests.clients import logged_in

pytestmark = pytest.mark.django_db


def _listed(client):
    page = client.get("/battles/").content.decode()
    return page.split('id="mine-heading"')[1].split("</section>")[0]


def test_the_list_and_the_export_name_a_campaign_scenario_by_its_own_name(campaign, two_crews, user):
    heist = campaign_services.create_scenario(campaign, user, name="Data heist")
    battle = services.create_from_campaign(user, campaign, f"campaign:{heist.pk}")
    services.start(battle.pk, user, seed=2)
    me = logged_in(user)
    listed = _listed(me)
    assert "Data heist" in listed and "· campaign ·" not in listed
    doc = json.loads(me.get(f"/battles/{battle.pk}/export.json").content)
    assert doc["scenario_name"] == "Data heist" and doc["scenario"] == "campaign"


def test_the_list_and_the_export_name_a_rules_scenario(started, user):
    battle = started()
    me = logged_in(user)
    listed = _listed(me)
    assert "Quick start scenario" in listed and "quick-start-scenario" not in listed
    doc = json.loads(me.get(f"/battles/{battle.pk}/export.json").content)
    assert doc["scenario_name"] == battle.scenario_name and doc["scenario_name"] != "quick-start-scenario"


def test_the_lists_queries_do_not_grow_with_its_battles(campaign, two_crews, user, django_assert_num_queries):
    me = logged_in(user)
    heist = campaign_services.create_scenario(campaign, user, name="Data heist")
    services.create_from_campaign(user, campaign, f"campaign:{heist.pk}")
    me.get("/battles/")
    with CaptureQueriesContext(connection) as one:
        me.get("/battles/")
    for name in ("Vault", "Tower"):
        own = campaign_services.create_scenario(campaign, user, name=name)
        services.create_from_campaign(user, campaign, f"campaign:{own.pk}")
    with django_assert_num_queries(len(one)):
        listed = _listed(me)
    assert all(name in listed for name in ("Data heist", "Vault", "Tower"))
