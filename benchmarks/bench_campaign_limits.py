"""The largest campaign pages the limits allow, in KB and ms (make bench, DEBUG off).

Issue 17 measured a 904 KB campaign page (a 900 KB description) and a 1.5 MB
history (1,500 games). With the limits (docs/campaigns.md) the campaign page
carries at most two 5,000-character texts, and the history one page of 50
entries however long the campaign. Prints figures only.
"""

import datetime
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.django_bench import fresh_database, median_ms, start_django  # noqa: E402

start_django("bench-campaign-limits.sqlite3")

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

GAMES = 1500


def figures(client, label, url):
    client.get(url)
    with CaptureQueriesContext(connection) as q:
        size = len(client.get(url).content)
    print(f"  {label}: {size / 1024:.1f} KB, {len(q)} queries, {median_ms(lambda: client.get(url), repeat=9):.1f} ms")


def main():
    fresh_database()
    from campaigns import services
    from campaigns.models import CAMPAIGN_TEXT_MAX, Game, HistoryEntry
    from campaigns.views.campaigns import HISTORY_PER_PAGE
    from crewbuilder.models import Character, Crew, GameSystem, User

    system = GameSystem.objects.get(slug="cybernekro")
    organiser, player = User.objects.create_user("org", password="x"), User.objects.create_user("player", password="x")
    text = ("The Rust Road runs from the yards to the drowned chapel. " * 100)[:CAMPAIGN_TEXT_MAX]
    campaign = services.create_campaign(
        organiser, name="Longest", system=system, description=text, house_rules=text, treasure_value=5
    )
    services.invite(campaign, organiser, player.username)
    services.respond(campaign, player, accept=True)
    entries = []
    for user, name in ((organiser, "Saints"), (player, "Sinners")):
        crew = Crew.objects.create(owner=user, system=system, name=name)
        for i in range(3):
            Character.objects.create(
                crew=crew,
                name=f"{name} {i + 1}",
                position=i,
                strength=2,
                toughness=1,
                agility=1,
                intellect=-1,
                discipline=-2,
            )
        entries.append(services.enrol(campaign, user, crew))
    mine = entries[0]
    day = datetime.date(2026, 1, 1)
    Game.objects.bulk_create(
        Game(
            campaign=campaign,
            played_on=day + datetime.timedelta(days=g % 300),
            scenario="Exploration",
            recorded_by=organiser,
            status=Game.APPLIED,
        )
        for g in range(GAMES)
    )
    long_summary = ("Saints carried off 3 Treasure Token(s) from the drowned chapel after a long night. " * 4)[:300]
    HistoryEntry.objects.bulk_create(
        HistoryEntry(
            campaign=campaign,
            campaign_crew=mine,
            actor=organiser,
            kind="treasure",
            summary=long_summary,
            before={"treasury": g},
            after={"treasury": g + 3},
        )
        for g in range(2 * GAMES)
    )

    client = Client()
    client.force_login(player)
    print(
        f"  limits: description and house rules {CAMPAIGN_TEXT_MAX} characters each, "
        f"history {HISTORY_PER_PAGE} entries a page ({GAMES} games, {2 * GAMES} entries stored)"
    )
    figures(client, "campaign page, both texts at their limit", campaign.get_absolute_url())
    figures(client, "history, first page", f"/campaigns/{campaign.pk}/history/")
    figures(client, "history, last page", f"/campaigns/{campaign.pk}/history/?page=99999")  # the last page
    figures(client, "campaign list", "/campaigns/")
    figures(client, "home page", "/")


if __name__ == "__main__":
    main()
