"""Recording a campaign game is idempotent (issue 17, finding 7): a double
click, a retried request or ten identical submissions at once record one game."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.models import Game, GameCrew, HistoryEntry
from tests.race import race

SUBMISSIONS = 10


def _form_token(client, campaign) -> str:
    html = client.get(reverse("game-create", args=[campaign.pk])).content.decode()
    return re.search(r'name="submission" value="([^"]+)"', html).group(1)


def _game_form(mine, theirs, **extra) -> dict:
    return {
        "played_on": "2026-11-20",
        "scenario": "Exploration",
        "result": str(mine.pk),
        f"played-{mine.pk}": "1",
        f"played-{theirs.pk}": "1",
        f"treasure-{mine.pk}": "2",
        **extra,
    }


def _recorded_once(campaign):
    game = Game.objects.get(campaign=campaign)
    assert GameCrew.objects.filter(game=game).count() == 2
    assert HistoryEntry.objects.filter(campaign=campaign, kind="game-recorded").count() == 1
    return game


@pytest.mark.django_db
def test_a_double_click_records_one_game(client, campaign, user, two_crews):
    mine, theirs = two_crews
    client.force_login(user)
    data = _game_form(mine, theirs, submission=_form_token(client, campaign))
    url = reverse("game-create", args=[campaign.pk])
    first, second = client.post(url, data), client.post(url, data, follow=True)
    game = _recorded_once(campaign)
    assert first.url == reverse("game-detail", args=[campaign.pk, game.pk])
    assert second.redirect_chain[0][0] == first.url
    assert "already recorded" in second.content.decode()


@pytest.mark.django_db
def test_a_retried_request_without_the_forms_token_records_one_game(client, campaign, user, two_crews):
    mine, theirs = two_crews
    client.force_login(user)
    url = reverse("game-create", args=[campaign.pk])
    for _ in range(3):
        assert client.post(url, _game_form(mine, theirs)).status_code == 302
    _recorded_once(campaign)


@pytest.mark.django_db
def test_two_games_with_the_same_result_are_two_games(client, campaign, user, two_crews):
    """Each time the form is opened it is a new game, even with the same result."""
    mine, theirs = two_crews
    client.force_login(user)
    url = reverse("game-create", args=[campaign.pk])
    for _ in range(2):
        client.post(url, _game_form(mine, theirs, submission=_form_token(client, campaign)))
    assert Game.objects.filter(campaign=campaign).count() == 2


@pytest.mark.django_db
def test_a_form_sent_back_with_problems_keeps_its_token(client, campaign, user, two_crews):
    mine, theirs = two_crews
    client.force_login(user)
    token = _form_token(client, campaign)
    url = reverse("game-create", args=[campaign.pk])
    response = client.post(url, _game_form(mine, theirs, submission=token, result=""))
    assert response.status_code == 422
    assert f'name="submission" value="{token}"' in response.content.decode()


@pytest.mark.django_db
def test_the_key_belongs_to_the_recorder(campaign, user, other_user, two_crews, today):
    """Another member replaying someone's token records their own game, not a link to the first."""
    from campaigns import idempotency

    content = {"scenario": "Exploration"}
    assert idempotency.submission_key(user.pk, "a" * 24, content) != idempotency.submission_key(
        other_user.pk, "a" * 24, content
    )
    assert idempotency.submission_key(user.pk, "", content) != idempotency.submission_key(other_user.pk, "", content)


@pytest.mark.django_db(transaction=True)
def test_ten_identical_submissions_at_once_record_one_game(campaign, user, two_crews):
    mine, theirs = two_crews
    clients = [Client() for _ in range(SUBMISSIONS)]
    for c in clients:
        c.force_login(user)
    data = _game_form(mine, theirs, submission=_form_token(clients[0], campaign))
    url = reverse("game-create", args=[campaign.pk])
    responses = [None] * SUBMISSIONS

    def submit(i):
        def call():
            responses[i] = clients[i].post(url, data)

        return call

    outcomes = race([submit(i) for i in range(SUBMISSIONS)], AssertionError)
    assert outcomes == ["ok"] * SUBMISSIONS, outcomes
    game = _recorded_once(campaign)
    assert {r.status_code for r in responses} == {302}
    assert {r.url for r in responses} == {reverse("game-detail", args=[campaign.pk, game.pk])}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(2))
def test_ten_identical_service_calls_at_once_record_one_game(campaign, user, two_crews, today, attempt):
    mine, theirs = two_crews
    games = []

    def record():
        games.append(
            services.record_game(
                campaign,
                user,
                played_on=today,
                scenario="Prisoner",
                submission_key="k" * 64,
                participants=[{"crew": mine, "treasure": 1}, {"crew": theirs}],
                winner=mine,
            ).pk
        )

    outcomes = race([record] * SUBMISSIONS, services.CampaignError)
    assert outcomes == ["ok"] * SUBMISSIONS, outcomes
    game = _recorded_once(campaign)
    assert games == [game.pk] * SUBMISSIONS
