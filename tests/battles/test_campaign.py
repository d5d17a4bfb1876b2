"""A campaign battle: started by a member with the enrolled crews, its end pre-fills the game record form."""

from dataclasses import replace

import pytest

from battles import services
from battles.models import Battle
from rules.cybernekro.battle import codec, scenario_steps
from rules.cybernekro.battle.state import Status
from tests.campaigns.conftest import campaign, two_crews  # noqa: F401  (shared fixtures)
from tests.clients import logged_in

pytestmark = pytest.mark.django_db


def client_for(user, password=None):
    return logged_in(user)


def test_members_start_a_battle_with_the_enrolled_crews(campaign, two_crews, user, other_user, make_user, password):
    outsider = client_for(make_user("outsider"), password)
    assert outsider.get(f"/battles/campaign/{campaign.pk}/").status_code == 404
    r = client_for(other_user, password).post(f"/battles/campaign/{campaign.pk}/", {"scenario": "exploration"})
    battle = Battle.objects.get()
    assert r.status_code == 302 and battle.campaign == campaign
    assert [(s.user, s.campaign_crew) for s in battle.seats.order_by("seat")] == [
        (user, two_crews[0]),
        (other_user, two_crews[1]),
    ]
    assert all(s.joined for s in battle.seats.all())


def _finish(battle, dead_index=0, ooa_index=1):
    """End the battle as the engine records it: seat 1 lost a character dead and one OoA, seat 0 won with 2 treasure."""
    state = codec.loads(battle.state)
    for index, status in ((dead_index, Status.DEAD), (ooa_index, Status.OUT_OF_ACTION)):
        state = state.with_model(replace(state.model(f"1-{index}"), status=status))
    state = replace(state, scenario=replace(state.scenario, carried_off=(("0", 2, False),)))
    state = scenario_steps.end(state, None, ("0",))
    battle.state = codec.dumps(state)
    battle.status = Battle.FINISHED
    battle.save()


def test_the_record_form_arrives_prefilled_from_the_battle(campaign, two_crews, user, other_user, make_user, password):
    battle = services.create_from_campaign(user, campaign, "exploration")
    services.start(battle.pk, user, seed=4)
    me = client_for(user, password)
    url = f"/campaigns/{campaign.pk}/games/new/?battle={battle.pk}"
    assert me.get(url).status_code == 404  # not over yet
    _finish(Battle.objects.get(pk=battle.pk))
    page = me.get(url).content.decode()
    mine, theirs = two_crews
    dead, ooa, fine = list(theirs.crew.characters.all())
    assert f'value="{mine.pk}" checked' in page
    assert f'name="treasure-{mine.pk}" value="2"' in page and f'name="treasure-{theirs.pk}" value="0"' in page
    assert f'name="outcome-{dead.pk}"' in page
    section = page.split(f'name="outcome-{dead.pk}"')[1].split("</select>")[0]
    assert '<option value="dead" selected>' in section
    section = page.split(f'name="outcome-{ooa.pk}"')[1].split("</select>")[0]
    assert '<option value="ooa" selected>' in section
    section = page.split(f'name="outcome-{fine.pk}"')[1].split("</select>")[0]
    assert '<option value="" selected>' in section and section.count("selected") == 1
    assert "Exploration" in page


def test_only_this_campaigns_battle_and_its_players_prefill(
    campaign, two_crews, user, other_user, make_user, password, geared_crew
):
    standalone = services.create_battle(user, "quick-start-scenario", geared_crew(user).pk, [other_user.username])
    me = client_for(user, password)
    assert me.get(f"/campaigns/{campaign.pk}/games/new/?battle={standalone.pk}").status_code == 404
    assert me.get(f"/campaigns/{campaign.pk}/games/new/?battle=nope").status_code == 404
