"""Who may see and change what, in one place (campaigns/permissions.py): each
yes/no question agrees with its raising twin, and the pages answer 404 to
anyone outside a campaign."""

import pytest
from django.http import Http404
from django.urls import reverse

from campaigns import permissions, services
from campaigns.errors import CampaignError
from campaigns.models import Game

pytestmark = pytest.mark.django_db


def _agree(question, check, *args):
    """The yes/no answer, after checking the raising twin says the same."""
    answer = question(*args)
    try:
        check(*args)
    except (CampaignError, Http404):
        assert not answer
    else:
        assert answer
    return answer


def test_organiser_member_and_invited(campaign, user, other_user, make_user):
    outsider = make_user("outsider")
    assert _agree(permissions.user_is_organiser, permissions.check_user_is_organiser, user, campaign)
    assert not _agree(permissions.user_is_organiser, permissions.check_user_is_organiser, other_user, campaign)
    assert _agree(permissions.user_is_member, permissions.check_user_is_member, user, campaign)
    services.invite(campaign, user, other_user.username)
    assert not _agree(permissions.user_is_member, permissions.check_user_is_member, other_user, campaign)
    assert permissions.user_is_invited(other_user, campaign)
    assert permissions.user_can_see_campaign(other_user, campaign, allow_invited=True)
    assert not permissions.user_can_see_campaign(other_user, campaign)
    services.respond(campaign, other_user, accept=True)
    assert _agree(permissions.user_is_member, permissions.check_user_is_member, other_user, campaign)
    assert not permissions.user_can_see_campaign(outsider, campaign, allow_invited=True)
    with pytest.raises(Http404):
        permissions.get_campaign_for_user(outsider, campaign.pk, allow_invited=True)


def test_only_the_player_edits_their_crew(campaign, user, other_user, two_crews):
    mine, theirs = two_crews
    assert _agree(permissions.user_can_edit_crew, permissions.check_user_can_edit_crew, user, mine)
    assert not _agree(permissions.user_can_edit_crew, permissions.check_user_can_edit_crew, user, theirs)


def test_the_recorder_or_the_organiser_withdraws_a_game(campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    game = services.record_game(
        campaign,
        other_user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine}, {"crew": theirs}],
        is_draw=True,
    )
    game = Game.objects.select_related("campaign").get(pk=game.pk)
    for who in (user, other_user):  # the organiser, the recorder
        assert _agree(permissions.user_can_withdraw_game, permissions.check_user_can_withdraw_game, who, game)
    third = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine}, {"crew": theirs}],
        is_draw=True,
    )
    assert not _agree(
        permissions.user_can_withdraw_game,
        permissions.check_user_can_withdraw_game,
        other_user,
        Game.objects.select_related("campaign").get(pk=third.pk),
    )


@pytest.mark.parametrize("name", ["campaign-enrolment-decide"])
def test_organiser_only_page_is_404_for_a_member(client, campaign, user, other_user, two_crews, name):
    client.force_login(other_user)
    assert client.post(reverse(name, args=[campaign.pk, 1]), {"decision": "approve"}).status_code == 404


def test_every_campaign_post_answers_404_to_outsiders(client, campaign, user, two_crews, make_user, today):
    mine, theirs = two_crews
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine}, {"crew": theirs}],
        is_draw=True,
    )
    entry = campaign.history.first()
    urls = [
        reverse(name, args=[campaign.pk])
        for name in (
            "campaign-invite",
            "campaign-respond",
            "campaign-enrol",
            "campaign-scenario-create",
            "campaign-crew-edit",
            "campaign-table-create",
            "game-create",
            "campaign-shop",
        )
    ]
    urls += [reverse(name, args=[campaign.pk, game.pk]) for name in ("game-confirm", "game-withdraw")]
    urls += [reverse("history-reverse", args=[campaign.pk, entry.pk])]
    client.force_login(make_user("outsider"))
    for url in urls:
        assert client.post(url, {}).status_code == 404, url
