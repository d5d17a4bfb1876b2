"""Every campaign POST is read by a form: bad input gets a clear message and
changes nothing; a field left out of a form is left as it is."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import CampaignCrew, EnrolmentRequest, Membership
from crewbuilder.models import Character, Crew

pytestmark = pytest.mark.django_db


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_enrolling_someone_elses_crew_is_refused(client, campaign, user, other_user, geared_crew):
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    theirs = geared_crew(user, 3, name="Not yours")
    client.force_login(other_user)
    for crew in (theirs.pk, "", "abc"):
        response = client.post(reverse("campaign-enrol", args=[campaign.pk]), {"crew": crew}, follow=True)
        assert "Choose one of your crews." in _messages(response)
    assert not CampaignCrew.objects.filter(player=other_user).exists()


def test_an_invitation_needs_a_username(client, campaign, user):
    client.force_login(user)
    response = client.post(reverse("campaign-invite", args=[campaign.pk]), {"username": "  "}, follow=True)
    assert "Whose username?" in _messages(response) and not Membership.objects.exists()


def test_declining_is_any_answer_but_accept(client, campaign, user, other_user):
    services.invite(campaign, user, other_user.username)
    client.force_login(other_user)
    response = client.post(reverse("campaign-respond", args=[campaign.pk]), {"accept": "0"})
    assert response.url == reverse("campaign-list")
    assert Membership.objects.get(user=other_user).status == Membership.Status.DECLINED


def test_a_decision_must_be_approve_or_refuse(client, campaign, user, other_user):
    client.force_login(user)
    response = client.post(reverse("campaign-enrolment-decide", args=[campaign.pk, 999]), {"decision": "maybe"})
    assert response.status_code == 404  # no such request
    assert not EnrolmentRequest.objects.exists()


def test_renaming_a_character_leaves_notes_left_out_of_the_form(client, campaign, user, two_crews):
    mine, _ = two_crews
    character = mine.crew.characters.first()
    services.edit_character(mine, user, character.pk, notes="Keeps a diary")
    client.force_login(user)
    version = Crew.objects.get(pk=mine.crew_id).version
    client.post(
        reverse("campaign-crew-edit", args=[campaign.pk]),
        {"character": character.pk, "name": "Renamed", "version": version},
    )
    character.refresh_from_db()
    assert character.name == "Renamed" and character.notes == "Keeps a diary"


def test_a_bad_character_id_is_a_message_not_a_500(client, campaign, user, two_crews):
    mine, _ = two_crews
    client.force_login(user)
    response = client.post(
        reverse("campaign-crew-edit", args=[campaign.pk]),
        {"character": "abc", "name": "X", "version": mine.crew.version},
        follow=True,
    )
    assert "That character is not in your campaign crew." in _messages(response)


def test_hiring_with_an_attribute_out_of_range_says_which(client, campaign, user, two_crews):
    mine, _ = two_crews
    CampaignCrew.objects.filter(pk=mine.pk).update(treasury=10)
    client.force_login(user)
    before = Character.objects.filter(crew_id=mine.crew_id).count()
    response = client.post(
        reverse("campaign-shop", args=[campaign.pk]),
        {
            "hire": "1",
            "name": "Newcomer",
            "strength": 7,
            "toughness": "x",
            "agility": 1,
            "intellect": -1,
            "discipline": -1,
        },
        follow=True,
    )
    text = _messages(response)
    assert "Strength must be between -2 and 3." in text and "Toughness must be a whole number." in text
    assert Character.objects.filter(crew_id=mine.crew_id).count() == before
    assert CampaignCrew.objects.get(pk=mine.pk).treasury == 10


def test_a_bad_seed_is_a_message(client, campaign, user):
    client.force_login(user)
    response = client.get(reverse("game-create", args=[campaign.pk]) + "?generate=d12&seed=soon")
    assert response.status_code == 422 and "The seed must be a whole number." in response.content.decode()


def test_confirming_with_for_everyone_0_confirms_only_your_crew(client, campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    game = services.record_game(
        campaign,
        other_user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine}, {"crew": theirs}],
        is_draw=True,
    )
    client.force_login(user)  # the organiser
    client.post(reverse("game-confirm", args=[campaign.pk, game.pk]), {"for_everyone": "0"})
    parts = {p.campaign_crew_id: p.confirmed_at for p in game.participants.all()}
    assert parts[mine.pk] is not None and parts[theirs.pk] is None
