"""Enrolment of a crew legal only with house rules waits for the organiser (reading C6)."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import CampaignCrew, EnrolmentRequest, HistoryEntry
from crewbuilder.models import Crew

pytestmark = pytest.mark.django_db

HOUSE_RULE = {"code": "too-few-characters", "character": None, "note": "we play two-a-side"}


@pytest.fixture
def member(campaign, user, other_user):
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    return other_user


@pytest.fixture
def house_crew(geared_crew):
    """A crew of two: too few characters, a finding its player accepted as a house rule."""

    def make(owner, name="Duo"):
        crew = geared_crew(owner, 2, name=name)
        crew.accepted_findings = [dict(HOUSE_RULE)]
        crew.save(update_fields=["accepted_findings"])
        return crew

    return make


def test_house_rules_crew_waits_for_approval(campaign, user, member, house_crew):
    crew = house_crew(member)
    request = services.enrol(campaign, member, crew)
    assert isinstance(request, EnrolmentRequest) and request.status == EnrolmentRequest.PENDING
    assert not CampaignCrew.objects.exists()  # nothing joins yet
    assert request.findings[0]["code"] == "too-few-characters" and request.findings[0]["note"] == HOUSE_RULE["note"]
    assert HistoryEntry.objects.filter(kind="enrol-requested").exists()
    with pytest.raises(services.CampaignError, match="already waiting"):
        services.enrol(campaign, member, crew)

    entry = services.approve_enrolment(request, user)

    request.refresh_from_db()
    assert request.status == EnrolmentRequest.APPROVED and request.entry == entry and request.decided_by == user
    assert entry.player == member and entry.crew_id != crew.pk and entry.crew.characters.count() == 2
    assert entry.crew.accepted_findings == [HOUSE_RULE]
    approved = HistoryEntry.objects.get(kind="enrol-approved")
    assert approved.before == {"request": "pending"} and approved.after["request"] == "approved"
    with pytest.raises(services.CampaignError, match="already approved"):
        services.approve_enrolment(request, user)


def test_refused_crew_does_not_join_and_may_ask_again(campaign, user, member, house_crew):
    crew = house_crew(member)
    request = services.enrol(campaign, member, crew)
    services.refuse_enrolment(request, user, "Three or nothing")
    request.refresh_from_db()
    assert request.status == EnrolmentRequest.REFUSED and request.reason == "Three or nothing"
    assert not CampaignCrew.objects.exists()
    with pytest.raises(services.CampaignError, match="already refused"):
        services.approve_enrolment(request, user)
    again = services.enrol(campaign, member, crew)
    assert again.status == EnrolmentRequest.PENDING


def test_only_the_organiser_decides(campaign, user, member, house_crew, make_user):
    request = services.enrol(campaign, member, house_crew(member))
    with pytest.raises(services.CampaignError, match="Only the organiser"):
        services.approve_enrolment(request, member)
    with pytest.raises(services.CampaignError, match="Only the organiser"):
        services.refuse_enrolment(request, member)
    request.refresh_from_db()
    assert request.status == EnrolmentRequest.PENDING


def test_crew_changed_since_the_request_is_not_approved(campaign, user, member, house_crew):
    crew = house_crew(member)
    request = services.enrol(campaign, member, crew)
    Crew.objects.filter(pk=crew.pk).update(version=crew.version + 1)  # the player edited it in the builder
    with pytest.raises(services.CampaignError, match="changed since it was submitted"):
        services.approve_enrolment(request, user)
    assert not CampaignCrew.objects.exists()


def test_valid_crew_joins_at_once_and_organisers_own_house_rules_too(campaign, user, member, geared_crew, house_crew):
    assert isinstance(services.enrol(campaign, member, geared_crew(member, 3)), CampaignCrew)
    own = services.enrol(campaign, user, house_crew(user))
    assert isinstance(own, CampaignCrew)
    assert HistoryEntry.objects.get(kind="enrolled", campaign_crew=own).after["house_rules"] == [
        "too-few-characters: we play two-a-side"
    ]


def test_approval_failure_applies_nothing(campaign, user, member, house_crew, monkeypatch):
    request = services.enrol(campaign, member, house_crew(member))
    entries = HistoryEntry.objects.count()

    def explode(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("campaigns.services.enrolment._log", explode)
    with pytest.raises(RuntimeError):
        services.approve_enrolment(request, user)
    request.refresh_from_db()
    assert request.status == EnrolmentRequest.PENDING and request.entry is None
    assert not CampaignCrew.objects.exists()
    assert Crew.objects.count() == 1  # no campaign copy left behind
    assert HistoryEntry.objects.count() == entries


# --- pages -------------------------------------------------------------------------------------


def test_organiser_sees_findings_and_approves_on_the_campaign_page(client, campaign, user, member, house_crew):
    crew = house_crew(member)
    client.force_login(member)
    response = client.post(reverse("campaign-enrol", args=[campaign.pk]), {"crew": crew.pk}, follow=True)
    html = response.content.decode()
    assert "joins once the organiser accepts them" in html
    assert 'name="crew"' not in html  # no second enrol form while waiting
    request = EnrolmentRequest.objects.get()

    # the player cannot decide, even by posting
    assert (
        client.post(
            reverse("campaign-enrolment-decide", args=[campaign.pk, request.pk]), {"decision": "approve"}
        ).status_code
        == 404
    )

    client.force_login(user)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "Crews waiting for your approval" in html
    assert "too-few-characters" in html and "we play two-a-side" in html
    client.post(reverse("campaign-enrolment-decide", args=[campaign.pk, request.pk]), {"decision": "approve"})
    assert CampaignCrew.objects.get().player == member


def test_refusal_on_the_page_shows_the_reason_to_the_player(client, campaign, user, member, house_crew):
    crew = house_crew(member)
    request = services.enrol(campaign, member, crew)
    client.force_login(user)
    client.post(
        reverse("campaign-enrolment-decide", args=[campaign.pk, request.pk]),
        {"decision": "refuse", "reason": "Three or nothing"},
    )
    client.force_login(member)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "refused “Duo”: Three or nothing" in html and 'name="crew"' in html


def test_outsider_cannot_decide(client, campaign, user, member, house_crew, make_user):
    request = services.enrol(campaign, member, house_crew(member))
    client.force_login(make_user("outsider"))
    assert (
        client.post(
            reverse("campaign-enrolment-decide", args=[campaign.pk, request.pk]), {"decision": "approve"}
        ).status_code
        == 404
    )
    request.refresh_from_db()
    assert request.status == EnrolmentRequest.PENDING


# --- the campaign's starting budget ------------------------------------------------------------


def _points(crew) -> int:
    from crewbuilder import crew_service

    return crew_service.report_for(Crew.objects.with_everything().get(pk=crew.pk))["points"]


def test_crew_over_the_campaign_budget_is_refused_whatever_its_own_budget(user, catalogue, geared_crew):
    campaign = services.create_campaign(user, name="Lean Times", system=catalogue, starting_budget=60)
    crew = geared_crew(user, 3, name="Saints")
    Crew.objects.filter(pk=crew.pk).update(budget=1000)  # legal for itself
    points = _points(crew)
    assert points > 60
    with pytest.raises(services.CampaignError) as refused:
        services.enrol(campaign, user, crew)
    assert str(refused.value) == (
        f"This campaign starts crews at 60 points; “Saints” costs {points} points. Trim it (or ask the organiser) first."
    )
    assert not CampaignCrew.objects.exists() and not EnrolmentRequest.objects.exists()
    assert not HistoryEntry.objects.filter(kind__startswith="enrol").exists()


def test_crew_over_its_own_budget_but_within_the_campaigns_joins_at_the_campaign_budget(campaign, user, geared_crew):
    crew = geared_crew(user, 4, name="Saints")
    points = _points(crew)
    assert 100 < points <= campaign.starting_budget == 150
    Crew.objects.filter(pk=crew.pk).update(budget=100)  # over budget for itself, not for the campaign
    entry = services.enrol(campaign, user, crew)
    assert isinstance(entry, CampaignCrew)
    assert entry.crew.budget == 150  # judged by the campaign's rules from now on
    assert Crew.objects.get(pk=crew.pk).budget == 100  # the original is untouched


def test_a_big_budget_crew_plays_at_the_campaign_budget(campaign, user, geared_crew):
    crew = geared_crew(user, 3, name="Saints")
    Crew.objects.filter(pk=crew.pk).update(budget=1000)
    entry = services.enrol(campaign, user, crew)
    assert Crew.objects.get(pk=entry.crew_id).budget == 150


def test_approval_judges_the_crew_by_the_campaign_budget_again(campaign, user, member, house_crew):
    crew = house_crew(member)
    request = services.enrol(campaign, member, crew)
    points = _points(crew)
    type(campaign).objects.filter(pk=campaign.pk).update(starting_budget=points - 1)
    with pytest.raises(services.CampaignError, match=f"starts crews at {points - 1} points; “Duo” costs {points}"):
        services.approve_enrolment(request, user)
    request.refresh_from_db()
    assert request.status == EnrolmentRequest.PENDING
    assert not CampaignCrew.objects.exists()


def test_refusal_for_the_budget_shows_on_the_campaign_page(client, user, catalogue, geared_crew):
    campaign = services.create_campaign(user, name="Lean Times", system=catalogue, starting_budget=60)
    crew = geared_crew(user, 3, name="Saints")
    client.force_login(user)
    response = client.post(reverse("campaign-enrol", args=[campaign.pk]), {"crew": crew.pk}, follow=True)
    assert response.status_code == 200
    assert "This campaign starts crews at 60 points; “Saints” costs" in response.content.decode()
    assert not CampaignCrew.objects.exists()
