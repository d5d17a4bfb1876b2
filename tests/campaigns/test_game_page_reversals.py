"""QA report: a game's page still said "Brute: dead" after that death was reversed in the history.

The game page shows each step reversed since (a death, a table effect, the treasure) as reversed, with the date.
"""

import re

import pytest
from django.urls import reverse
from django.utils import dateformat, timezone

from campaigns import services
from campaigns.models import HistoryEntry
from tests.campaigns.test_reversal import _counted_game, _scar

pytestmark = pytest.mark.django_db


def _casualties(html: str) -> list[str]:
    block = html.split("<h3>Casualties</h3>")[1].split("</ul>")[0]
    return [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li>(.*?)</li>", block, re.S)]


def _effects(html: str) -> list[str]:
    block = html.split("<h3>Rolled on tables</h3>")[1].split("</ul>")[0]
    return re.findall(r"<li>(.*?)</li>", block, re.S)


@pytest.fixture
def bloody_game(campaign, user, two_crews, today):
    mine, theirs = two_crews
    brute, other = list(mine.crew.characters.order_by("position"))[:2]
    brute.name = "Brute"
    brute.save()
    game = _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        treasure=2,
        effects=[_scar(campaign, user, other), _scar(campaign, user, other, seed=5)],
        casualties=[
            {"character": brute.pk, "name": "Brute", "outcome": "dead"},
            {"character": other.pk, "name": other.name, "outcome": "ooa"},
        ],
    )
    return game, other


def _page(client, user, campaign, game) -> str:
    client.force_login(user)
    return client.get(reverse("game-detail", args=[campaign.pk, game.pk])).content.decode()


def test_a_standing_death_reads_dead(client, campaign, user, bloody_game):
    game, other = bloody_game
    assert _casualties(_page(client, user, campaign, game)) == ["Brute: dead", f"{other.name}: out of action"]


def test_a_reversed_death_reads_reversed_with_its_date(client, campaign, user, bloody_game):
    game, other = bloody_game
    services.reverse_entry(HistoryEntry.objects.get(kind="death"), user)
    html = _page(client, user, campaign, game)
    today = dateformat.format(timezone.localdate(), "j M Y")  # "30 Nov 2026": wraps between words on a phone
    assert _casualties(html) == [
        f"Brute: dead — reversed on {today}: back on the roster",
        f"{other.name}: out of action",
    ]
    assert "Brute: <del>dead</del> — reversed on" in html
    assert "<strong>dead</strong>" not in html
    assert "Treasure carried off: 2 ·" in html  # the rest of the game still stands
    assert "<del>" not in "".join(_effects(html))


def test_one_reversed_effect_of_two_on_the_same_character(client, campaign, user, bloody_game):
    game, _ = bloody_game
    first, second = HistoryEntry.objects.filter(kind="effect").order_by("pk")
    services.reverse_entry(second, user)
    effects = _effects(_page(client, user, campaign, game))
    assert "<del>" not in effects[0]
    assert effects[1].startswith("<del>") and "— reversed on" in effects[1]


def test_reversed_treasure_and_a_whole_reversed_game(client, campaign, user, bloody_game):
    game, _ = bloody_game
    services.reverse_entry(HistoryEntry.objects.get(kind="game-counted"), user)
    html = _page(client, user, campaign, game)
    assert "reversed by the organiser: does not count" in html
    assert re.search(r"Treasure carried off: <del>2</del> \(reversed on <time", html)
    assert _casualties(html)[0].startswith("Brute: dead — reversed on")
    assert all(e.startswith("<del>") for e in _effects(html))
