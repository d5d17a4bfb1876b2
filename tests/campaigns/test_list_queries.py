"""The campaign list and the home page cost the same number of queries however
many campaigns, invitations and waiting games a player has (issue 20)."""

import pytest
from django.urls import reverse

from campaigns import services

pytestmark = pytest.mark.django_db

# your campaigns (one union query), your invitations (the session and the user from the cache)
LIST_QUERIES = 2
# crews, campaigns, invitations, games awaiting confirmation, then one query for each
# game registered at the table (Cybernekr0 battles, Soylent Ghoul, Ghoulash, the Slasher trial, the Ghoul role)
HOME_QUERIES = 9


def _grow(organiser, player, catalogue, make_user, geared_crew, today, n, start=0):
    for i in range(start, start + n):
        campaign = services.create_campaign(organiser, name=f"Road {i}", system=catalogue)
        services.invite(campaign, organiser, player.username)
        services.respond(campaign, player, accept=True)
        mine = services.enrol(campaign, organiser, geared_crew(organiser, 3, name=f"Saints {i}"))
        theirs = services.enrol(campaign, player, geared_crew(player, 3, name=f"Sinners {i}"))
        services.record_game(
            campaign,
            organiser,
            played_on=today,
            scenario="Prisoner",
            participants=[{"crew": mine}, {"crew": theirs}],
            winner=mine,
        )
        invite_only = services.create_campaign(make_user(f"org{i}"), name=f"Invite {i}", system=catalogue)
        services.invite(invite_only, invite_only.organiser, player.username)


@pytest.mark.parametrize("page, queries", [("campaign-list", LIST_QUERIES), ("home", HOME_QUERIES)])
def test_queries_do_not_grow_with_campaigns(
    client, user, other_user, catalogue, make_user, geared_crew, today, django_assert_num_queries, page, queries
):
    _grow(user, other_user, catalogue, make_user, geared_crew, today, 1)
    client.force_login(other_user)
    client.get(reverse(page))
    with django_assert_num_queries(queries):
        small = client.get(reverse(page)).content.decode()
    _grow(user, other_user, catalogue, make_user, geared_crew, today, 4, start=1)
    with django_assert_num_queries(queries):
        large = client.get(reverse(page)).content.decode()
    assert "Road 0" in small and "Road 4" in large and "Road 4" not in small
