"""Withdrawing a game recorded by mistake, before it counts."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Game, HistoryEntry

pytestmark = pytest.mark.django_db


def _game(campaign, recorder, mine, theirs, today):
    return services.record_game(
        campaign,
        recorder,
        played_on=today,
        scenario="Exploration",
        participants=[{"crew": mine, "treasure": 2}, {"crew": theirs, "treasure": 1}],
        winner=mine,
    )


def test_the_recorder_withdraws_a_pending_game_and_it_never_counts(campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    game = _game(campaign, other_user, mine, theirs, today)
    services.withdraw_game(game, other_user, "wrong  scenario\n")
    game.refresh_from_db()
    assert game.status == Game.WITHDRAWN
    entry = HistoryEntry.objects.get(kind="game-withdrawn")
    assert entry.actor == other_user and entry.game == game
    assert entry.before == {"game": "pending"} and entry.after == {"game": "withdrawn", "reason": "wrong scenario"}
    # confirmations after the withdrawal apply nothing
    assert services.confirm_game(game, user, for_everyone=True) is False
    mine.refresh_from_db()
    assert mine.treasury == 0


def test_who_may_withdraw(campaign, user, other_user, make_user, two_crews, today):
    mine, theirs = two_crews
    game = _game(campaign, other_user, mine, theirs, today)
    with pytest.raises(services.CampaignError):
        services.withdraw_game(game, make_user("eve"))
    services.withdraw_game(game, user)  # the organiser, who did not record it
    assert Game.objects.get(pk=game.pk).status == Game.WITHDRAWN
    organisers_game = _game(campaign, user, mine, theirs, today)
    with pytest.raises(services.CampaignError, match="Only whoever recorded"):
        services.withdraw_game(organisers_game, other_user)  # a player, not its recorder


def test_a_counted_game_cannot_be_withdrawn(campaign, user, two_crews, today):
    mine, theirs = two_crews
    game = _game(campaign, user, mine, theirs, today)
    services.confirm_game(game, user, for_everyone=True)
    with pytest.raises(services.CampaignError, match="reverses a counted game"):
        services.withdraw_game(game, user)
    assert Game.objects.get(pk=game.pk).status == Game.APPLIED
    assert not HistoryEntry.objects.filter(kind="game-withdrawn").exists()


def test_withdraw_through_the_page(client, campaign, user, other_user, make_user, two_crews, today):
    mine, theirs = two_crews
    game = _game(campaign, user, mine, theirs, today)
    url = reverse("game-withdraw", args=[campaign.pk, game.pk])
    detail = reverse("game-detail", args=[campaign.pk, game.pk])
    client.force_login(other_user)
    assert "Withdraw this game" not in client.get(detail).content.decode()
    client.post(url, {"reason": "mine"})
    assert Game.objects.get(pk=game.pk).status == Game.PENDING
    client.force_login(make_user("eve"))
    assert client.post(url).status_code == 404
    client.force_login(user)
    assert client.get(url).status_code == 405
    assert "Withdraw this game" in client.get(detail).content.decode()
    response = client.post(url, {"reason": "recorded twice"}, follow=True)
    assert "withdrawn before it counted" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.WITHDRAWN
    campaign_page = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "withdrawn" in campaign_page


def test_confirming_a_game_withdrawn_meanwhile_says_so(client, campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    game = _game(campaign, other_user, mine, theirs, today)
    services.withdraw_game(game, other_user, "wrong scenario")
    client.force_login(user)
    page = client.post(reverse("game-confirm", args=[campaign.pk, game.pk]), follow=True).content.decode()
    assert "This game was withdrawn: there is nothing to confirm." in page
    assert "Confirmed. Waiting for the other players." not in page
