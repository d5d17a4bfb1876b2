"""QA report: an invited player's home page said "You have 1 campaign invitation: answer." and then "ask your
organiser to invite you". With an invitation waiting, the empty text points to it instead."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign

pytestmark = pytest.mark.django_db

ASK_FOR_ONE = "ask your organiser to invite you"


@pytest.fixture
def invited(user, other_user, catalogue):
    campaign = services.create_campaign(user, name="The Rust Road", system=catalogue)
    services.invite(campaign, user, other_user.username)
    return other_user


def test_invited_player_is_pointed_at_the_invitation_not_told_to_ask_for_one(client, invited):
    client.force_login(invited)
    html = client.get(reverse("home")).content.decode()
    assert "You have 1 campaign invitation" in html
    assert "Answer the invitation above to join" in html
    assert ASK_FOR_ONE not in html


def test_the_campaign_list_says_the_same(client, invited):
    client.force_login(invited)
    html = client.get(reverse("campaign-list")).content.decode()
    assert "Accept the invitation above to join, or start one below." in html
    assert "Start one below and invite your group" not in html


def test_without_an_invitation_the_page_still_says_how_to_get_one(client, other_user):
    client.force_login(other_user)
    html = client.get(reverse("home")).content.decode()
    assert ASK_FOR_ONE in html and "Answer the invitation" not in html


def test_once_answered_the_campaign_is_listed(client, invited):
    services.respond(Campaign.objects.get(name="The Rust Road"), invited, accept=True)
    client.force_login(invited)
    html = client.get(reverse("home")).content.decode()
    assert "The Rust Road" in html
    assert "You are in no campaign yet" not in html and "campaign invitation" not in html
