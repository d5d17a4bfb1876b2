"""The history page: sentences with names (issue 19), a page at a time (issue 17, finding 8)."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import HistoryEntry
from campaigns.views.campaigns import HISTORY_PER_PAGE
from tests.campaigns.test_reversal import _counted_game, _scar

pytestmark = pytest.mark.django_db


def _entries_on(html: str) -> int:
    return html.count('<li class="card"><time')


def _flood(campaign, user, n):
    HistoryEntry.objects.bulk_create(
        HistoryEntry(campaign=campaign, actor=user, kind="invited", summary=f"entry {i}") for i in range(n)
    )


def test_history_reads_as_sentences_with_names(client, campaign, user, two_crews, today):
    mine, theirs = two_crews
    ghoul_1, ghoul_2 = list(mine.crew.characters.order_by("position"))[:2]
    _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        treasure=3,
        effects=[_scar(campaign, user, ghoul_2)],
        casualties=[{"character": ghoul_1.pk, "name": ghoul_1.name, "outcome": "dead"}],
    )
    services.buy_gear(mine, user, ghoul_2.pk, "sword")
    services.edit_crew(mine, user, name="Rust Saints")
    client.force_login(user)
    html = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    said = re.findall(r"<li>([^<]+)</li>", html)
    for sentence in [
        "The treasury of Rust Saints went from 0 Treasure Tokens to 3 Treasure Tokens.",
        "Ghoul 1 left the roster for the memorial. At death: Strength +2, Toughness +1, Agility +1, "
        "Intellect −1 and Discipline −2; traits SMALL; body-mods Neural cabling; carrying sword and light armor.",
        "Discipline of Ghoul 2 went from −2 to −3.",
        "Agility of Ghoul 2 went from +1 to +2.",
        "The notes on Ghoul 2 gained “Scars: Lost an eye”.",
        "Ghoul 2 now carries sword, for 4 points.",
        "The budget of Rust Saints went from 150 to 154 points.",
        "The treasury of Rust Saints went from 3 Treasure Tokens to 2 Treasure Tokens.",
        "The crew “Saints” was renamed “Rust Saints”.",
        "The game went from waiting for confirmation to counted.",
        "Crews: Saints and Sinners.",
        "Sinners enrols with 99 points and 3 characters.",
    ]:
        assert sentence in said, (sentence, said)
    # no raw field data: no slugs, keys or arrows
    for raw in ("body_mods", "neural-cabling", "light-armor", "treasury:", "→", '<th scope="row">'):
        assert raw not in html.split('<ol class="timeline">')[1], raw


def test_history_is_paginated_newest_first(client, campaign, user):
    _flood(campaign, user, 2 * HISTORY_PER_PAGE + 19)  # + the "started the campaign" entry = 120
    client.force_login(user)
    url = reverse("campaign-history", args=[campaign.pk])
    first = client.get(url).content.decode()
    assert _entries_on(first) == HISTORY_PER_PAGE
    assert f"entry {2 * HISTORY_PER_PAGE + 18}" in first and "Page 1 of 3" in first
    assert 'rel="next" href="?page=2"' in first and 'rel="prev"' not in first
    last = client.get(url + "?page=3").content.decode()
    assert _entries_on(last) == 20 and "started the campaign" in last and 'rel="next"' not in last
    # a page that does not exist is a page that does, never an error
    assert "Page 3 of 3" in client.get(url + "?page=999").content.decode()
    assert "Page 1 of 3" in client.get(url + "?page=abc").content.decode()


# campaign (with system and organiser), count, the page's entries, their characters' names (the session and the
# user from the cache)
HISTORY_QUERIES = 4


def test_history_page_queries_do_not_grow_with_the_history(
    client, campaign, user, two_crews, today, django_assert_num_queries
):
    mine, theirs = two_crews
    _counted_game(campaign, user, mine, theirs, today, effects=[_scar(campaign, user, mine.crew.characters.first())])
    client.force_login(user)
    url = reverse("campaign-history", args=[campaign.pk])
    client.get(url)  # warm the catalogue snapshot cache
    with django_assert_num_queries(HISTORY_QUERIES):
        small = client.get(url).content.decode()
    for _ in range(30):
        _counted_game(
            campaign, user, mine, theirs, today, effects=[_scar(campaign, user, mine.crew.characters.first())]
        )
    with django_assert_num_queries(HISTORY_QUERIES):
        large = client.get(url).content.decode()
    assert _entries_on(small) < _entries_on(large) == HISTORY_PER_PAGE
