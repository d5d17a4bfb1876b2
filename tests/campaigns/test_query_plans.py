"""The hot queries of the campaign pages and of the username lookup use indexes
(issue 20, item 4), checked on PostgreSQL's own plans.

Each page's queries are captured and EXPLAINed with sequential scans switched
off for the planner: it then picks an index wherever one can serve, so a
``Seq Scan`` left on a big table, or an index scan with no condition (the
whole table in index order), means no index can narrow it: the query reads
every row on the server, as the campaign list's ``DISTINCT … OR`` did.
Runs under ``make test-postgres``; SQLite has another planner and is skipped.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from crewbuilder.models import User

pytestmark = pytest.mark.django_db

# Tables that grow with every user, crew, campaign or game on the server.
BIG_TABLES = {
    "crewbuilder_user",
    "crewbuilder_crew",
    "crewbuilder_character",
    "django_session",
    "campaigns_campaign",
    "campaigns_membership",
    "campaigns_campaigncrew",
    "campaigns_game",
    "campaigns_gamecrew",
    "campaigns_historyentry",
    "campaigns_enrolmentrequest",
    "campaigns_memorial",
}


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(f"query plans are checked on PostgreSQL (make test-postgres); this database is {connection.vendor}")


def sequential_scans(sql: str, params=()) -> list[str]:
    """The big tables this query reads whole in PostgreSQL's plan: a ``Seq Scan``,
    or an index scan with no index condition (every row, in index order)."""
    import json

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        try:
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0]
        finally:
            cursor.execute("SET LOCAL enable_seqscan = on")
    plan = json.loads(plan) if isinstance(plan, str) else plan
    whole = []

    def walk(node):
        table = node.get("Relation Name")
        if table in BIG_TABLES:
            kind = node["Node Type"]
            if kind == "Seq Scan" or (kind in ("Index Scan", "Index Only Scan") and "Index Cond" not in node):
                whole.append(table)
        for child in node.get("Plans", []):
            walk(child)

    walk(plan[0]["Plan"])
    return whole


def assert_no_sequential_scan(captured):
    reads = [q["sql"] for q in captured if q["sql"].lstrip().upper().startswith("SELECT")]
    assert reads
    scans = {sql: sequential_scans(sql) for sql in reads}
    assert not any(scans.values()), {sql: tables for sql, tables in scans.items() if tables}


SERVER_USERS = 3000


@pytest.fixture
def big_server(catalogue):
    """Thousands of users, crews, campaigns, memberships, games and history entries, then ANALYZE:
    the planner works from a server's statistics, not from empty tables, where a whole-table
    scan is as cheap as any index and the plans say nothing."""
    import datetime

    from campaigns.models import (
        Campaign,
        CampaignCrew,
        EnrolmentRequest,
        Game,
        GameCrew,
        HistoryEntry,
        Membership,
        Memorial,
    )
    from crewbuilder.models import Crew

    users = User.objects.bulk_create(User(username=f"player{i}", password="!") for i in range(SERVER_USERS))
    crews = Crew.objects.bulk_create(Crew(owner=u, system=catalogue, name=f"Crew {u.pk}") for u in users)
    campaigns = Campaign.objects.bulk_create(
        Campaign(name=f"Road {u.pk}", system=catalogue, organiser=u) for u in users
    )
    Membership.objects.bulk_create(
        Membership(
            campaign=c, user=users[(i + k) % SERVER_USERS], status=Membership.ACCEPTED if k < 3 else Membership.INVITED
        )
        for i, c in enumerate(campaigns)
        for k in range(1, 5)
    )
    entries = CampaignCrew.objects.bulk_create(
        CampaignCrew(campaign=c, player=u, crew=crew) for c, u, crew in zip(campaigns, users, crews)
    )
    day = datetime.date(2026, 1, 1)
    games = Game.objects.bulk_create(
        Game(
            campaign=c,
            played_on=day,
            scenario="Exploration",
            recorded_by=c.organiser,
            status=Game.PENDING if i % 3 else Game.APPLIED,
        )
        for i, c in enumerate(campaigns)
    )
    GameCrew.objects.bulk_create(GameCrew(game=g, campaign_crew=e) for g, e in zip(games, entries))
    HistoryEntry.objects.bulk_create(
        HistoryEntry(campaign=c, actor=c.organiser, kind="invited", summary="x") for c in campaigns for _ in range(3)
    )
    Memorial.objects.bulk_create(Memorial(campaign_crew=e, name="Fallen") for e in entries)
    EnrolmentRequest.objects.bulk_create(
        EnrolmentRequest(
            campaign=c,
            player=users[(i + 1) % SERVER_USERS],
            crew=crews[(i + 1) % SERVER_USERS],
            crew_version=1,
            status=EnrolmentRequest.REFUSED,
        )
        for i, c in enumerate(campaigns)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


@pytest.fixture
def busy_campaign(big_server, campaign, user, other_user, two_crews, today, make_user):
    """A campaign with a counted game, a pending one, history, and another campaign around it."""
    mine, theirs = two_crews
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine, "treasure": 1}, {"crew": theirs}],
        winner=mine,
    )
    services.confirm_game(game, user, for_everyone=True)
    services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Exploration",
        participants=[{"crew": mine}, {"crew": theirs}],
        is_draw=True,
    )
    stranger = make_user("stranger")
    services.create_campaign(stranger, name="Elsewhere", system=campaign.system)
    return campaign


@pytest.mark.parametrize("page", ["home", "campaign-list"])
def test_your_campaigns_use_indexes(client, other_user, busy_campaign, page):
    client.force_login(other_user)
    with CaptureQueriesContext(connection) as captured:
        html = client.get(reverse(page)).content.decode()
    assert "The Rust Road" in html and "Elsewhere" not in html
    assert_no_sequential_scan(captured)


@pytest.mark.parametrize("page", ["campaign-detail", "campaign-history", "game-create"])
def test_campaign_pages_use_indexes(client, other_user, busy_campaign, page):
    client.force_login(other_user)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(page, args=[busy_campaign.pk])).status_code == 200
    assert_no_sequential_scan(captured)


def test_the_username_lookup_uses_the_lowercase_index(big_server, user, campaign, make_user):
    query = User.objects.with_username("VOX")
    assert list(query) == [user]
    sql, params = query.query.sql_with_params()
    assert sequential_scans(sql, params) == []
    # what it replaces: UPPER(username) = UPPER(%s) has no index and scans the users table
    sql, params = User.objects.filter(username__iexact="VOX").query.sql_with_params()
    assert sequential_scans(sql, params) == ["crewbuilder_user"]


def test_login_and_invitation_look_up_users_by_index(big_server, client, campaign, user, make_user, password):
    make_user("Mara")
    with CaptureQueriesContext(connection) as captured:
        assert client.post(reverse("login"), {"username": "VOX", "password": password}).status_code == 302
        services.invite(campaign, user, "mara")
    lookups = [q["sql"] for q in captured if 'FROM "crewbuilder_user"' in q["sql"] and "LOWER(" in q["sql"]]
    assert len(lookups) == 2
    assert_no_sequential_scan(captured)
