"""The other player hears that a game waits for their confirmation (issue 19):
on their home page and on the campaign page, until they confirm."""

import pytest
from django.urls import reverse

from campaigns import services

pytestmark = pytest.mark.django_db

NOTICE = "for your confirmation"


def _record(campaign, user, mine, theirs, today, scenario="Prisoner"):
    return services.record_game(
        campaign,
        user,
        played_on=today,
        scenario=scenario,
        participants=[{"crew": mine, "treasure": 1}, {"crew": theirs}],
        winner=mine,
    )


def _pages(client, campaign):
    return (
        client.get(reverse("home")).content.decode(),
        client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode(),
    )


def test_the_other_player_is_told_on_home_and_campaign_pages(client, campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    client.force_login(other_user)
    assert all(NOTICE not in page for page in _pages(client, campaign))
    game = _record(campaign, user, mine, theirs, today)
    link = reverse("game-detail", args=[campaign.pk, game.pk])
    home, detail = _pages(client, campaign)
    for page in (home, detail):
        assert "A game waits for your confirmation" in page and f'href="{link}">Check and confirm' in page
        assert "vox recorded Prisoner on 2026-11-22" in page and "won by Saints" in page
        assert "(your crew Sinners)" in page
    assert "in The Rust Road" in home  # the home page names the campaign
    client.post(reverse("game-confirm", args=[campaign.pk, game.pk]))
    assert all(NOTICE not in page for page in _pages(client, campaign))


def test_no_notice_for_a_game_you_are_not_in_or_that_no_longer_waits(
    client, campaign, user, other_user, make_user, two_crews, today
):
    mine, theirs = two_crews
    outsider = make_user("outsider")
    services.invite(campaign, user, outsider.username)
    services.respond(campaign, outsider, accept=True)
    game = _record(campaign, user, mine, theirs, today)
    client.force_login(outsider)  # a member without a crew in the game
    assert all(NOTICE not in page for page in _pages(client, campaign))
    services.withdraw_game(game, user, "wrong crews")
    client.force_login(other_user)
    assert all(NOTICE not in page for page in _pages(client, campaign))


def test_several_waiting_games_are_counted(client, campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    _record(campaign, user, mine, theirs, today, scenario="Prisoner")
    _record(campaign, user, mine, theirs, today, scenario="Exploration")
    client.force_login(other_user)
    home, detail = _pages(client, campaign)
    assert "2 games wait for your confirmation" in home and "2 games wait for your confirmation" in detail
    assert home.index("recorded Exploration") < home.index("recorded Prisoner")  # newest first
