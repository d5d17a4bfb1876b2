import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Game

pytestmark = pytest.mark.django_db


def test_start_campaign_page(client, user, catalogue):
    client.force_login(user)
    response = client.post(
        reverse("campaign-list"), {"name": "The Rust Road", "starting_budget": 150, "treasure_value": 5}
    )
    campaign = Campaign.objects.get()
    assert response.url == campaign.get_absolute_url()
    assert campaign.organiser == user


@pytest.mark.parametrize("name", ["campaign-detail", "campaign-history", "game-create"])
def test_outsiders_get_404(client, campaign, make_user, name):
    client.force_login(make_user("outsider"))
    assert client.get(reverse(name, args=[campaign.pk])).status_code == 404


def test_anonymous_goes_to_login(client, campaign):
    response = client.get(reverse("campaign-detail", args=[campaign.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_invited_player_sees_the_invitation_only(client, campaign, user, other_user):
    services.invite(campaign, user, other_user.username)
    client.force_login(other_user)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "You are invited" in html and "Standings" not in html
    client.post(reverse("campaign-respond", args=[campaign.pk]), {"accept": "1"})
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "Standings" in html


def test_member_pages_show_standings_games_and_history(client, campaign, user, other_user, two_crews, today):
    mine, theirs = two_crews
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine, "treasure": 1}, {"crew": theirs}],
        winner=theirs,
    )
    client.force_login(other_user)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "Saints" in html and "Sinners" in html and "waiting for confirmation" in html
    client.post(reverse("game-confirm", args=[campaign.pk, game.pk]))
    client.force_login(user)
    client.post(reverse("game-confirm", args=[campaign.pk, game.pk]))
    assert Game.objects.get().status == Game.APPLIED
    history = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    assert "carried off 1 Treasure Token" in history


def test_record_game_form_rolls_on_tables_and_keeps_input_on_error(client, campaign, user, two_crews):
    mine, theirs = two_crews
    table = services.create_table(campaign, user, kind="injury", name="Scars", die="D6", rows_text="1-6 | Scarred")
    hurt = mine.crew.characters.first()
    client.force_login(user)
    data = {
        "played_on": "2026-11-20",
        "scenario": "Exploration",
        f"played-{mine.pk}": "1",
        f"played-{theirs.pk}": "1",
        f"treasure-{mine.pk}": "2",
        f"table-{hurt.pk}": str(table.pk),
    }
    response = client.post(reverse("game-create", args=[campaign.pk]), data)
    assert response.status_code == 422
    assert "Choose the winner" in response.content.decode()
    response = client.post(reverse("game-create", args=[campaign.pk]), {**data, "result": str(mine.pk)})
    game = Game.objects.get()
    assert response.url == reverse("game-detail", args=[campaign.pk, game.pk])
    effect = game.participants.get(campaign_crew=mine).effects[0]
    assert effect["text"] == "Scarred" and 1 <= effect["roll"]["result"] <= 6


def test_campaign_copy_cannot_be_geared_for_free_in_the_editor(client, campaign, user, two_crews):
    mine, _ = two_crews
    client.force_login(user)
    character = mine.crew.characters.first()
    response = client.post(
        reverse("crew-edit-action", args=[mine.crew.pk, "add-gear"]),
        {"version": mine.crew.version, "character": character.pk, "slug": "sword"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "enrolled in a campaign" in response.content.decode()


def test_only_organiser_reverses(client, campaign, user, other_user, two_crews, today):
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
    entry = campaign.history.get(kind="treasure")
    client.force_login(other_user)
    client.post(reverse("history-reverse", args=[campaign.pk, entry.pk]))
    mine.refresh_from_db()
    assert mine.treasury == 1
    client.force_login(user)
    client.post(reverse("history-reverse", args=[campaign.pk, entry.pk]))
    mine.refresh_from_db()
    assert mine.treasury == 0


def test_scenario_generation_is_seeded_and_reads_the_catalogue(client, campaign, user):
    client.force_login(user)
    url = reverse("game-create", args=[campaign.pk])
    first = client.get(url + "?generate=d12&seed=31").content.decode()
    again = client.get(url + "?generate=d12&seed=31").content.decode()
    section = lambda html: html[html.index('id="gen-heading"') : html.index("Seed 31")]  # noqa: E731
    assert section(first) == section(again)
    assert "not in the free rules" in first
    assert "Round 6:" in first


def test_scenario_draw_rules():
    import random

    from rules.cybernekro import scenarios

    assert {scenarios.draw(random.Random(s), "d12").number for s in range(300)} == set(range(1, 13))
    assert {scenarios.draw(random.Random(s), "deck").number for s in range(600)} == set(range(1, 14))
    complications = [{"number": n, "name": f"c{n}"} for n in range(1, 14)]
    assert scenarios.complication_for(13, complications)["name"] == "c13"  # the King: "No complication"


def test_campaign_summary_pdf(client, campaign, user, make_user, two_crews, today):
    import io

    from pypdf import PdfReader

    mine, theirs = two_crews
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine, "treasure": 1}, {"crew": theirs}],
        winner=theirs,
    )
    services.confirm_game(game, user, for_everyone=True)
    client.force_login(user)
    response = client.get(reverse("campaign-summary-pdf", args=[campaign.pk]))
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for expected in ("The Rust Road", "Saints", "Sinners", "Prisoner", "Ghoul 1"):
        assert expected in text
    client.force_login(make_user("outsider"))
    assert client.get(reverse("campaign-summary-pdf", args=[campaign.pk])).status_code == 404


# campaign (the session and the user from the cache), standings (+ memorial, + characters, + their gear with items: issue 18's quantities),
# the roster's traits (their attributes as the sheets show them), requests, games, tables, scenarios, members,
# games awaiting your confirmation
PAGE_QUERIES = 12


def test_the_rosters_show_the_attributes_of_the_sheets(client, campaign, user, make_crew):
    from tests.crewbuilder.conftest import LEGAL

    crew = make_crew(
        user,
        characters=[
            {"name": "Ash", "attributes": dict(LEGAL), "traits": ["big"]},
            {
                "name": "Vex",
                "attributes": dict(LEGAL),
                "traits": [{"slug": "deformed", "raise": ["strength", "agility"]}],
            },
            {"name": "Mira", "attributes": dict(LEGAL), "traits": ["gifted"]},
        ],
    )
    services.enrol(campaign, user, crew)
    client.force_login(user)
    page = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    base = LEGAL

    def line(name, changes):
        a = {k: base[k] + changes.get(k, 0) for k in base}
        return (
            f'<strong>{name}</strong> <span class="muted">STR {a["strength"]:+d} TOU {a["toughness"]:+d} '
            f"AGI {a['agility']:+d} INT {a['intellect']:+d} DIS {a['discipline']:+d}</span>"
        )

    assert line("Ash", {"toughness": 2}) in page  # Big: +2 Toughness
    assert line("Vex", {"strength": 1, "agility": 1, "toughness": -1, "intellect": -1, "discipline": -1}) in page
    assert line("Mira", {k: 1 for k in base}) in page  # Gifted: +1 to every attribute


def test_campaign_page_queries_do_not_grow_with_games_or_crews(client, campaign, user, make_user, geared_crew, today):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(user)
    url = reverse("campaign-detail", args=[campaign.pk])
    entries = [services.enrol(campaign, user, geared_crew(user, 3, name="Saints"))]

    def add_player(name):
        player = make_user(name)
        services.invite(campaign, user, player.username)
        services.respond(campaign, player, accept=True)
        entries.append(services.enrol(campaign, player, geared_crew(player, 3, name=f"{name} crew")))

    def play(n):
        for i in range(n):
            game = services.record_game(
                campaign,
                user,
                played_on=today,
                scenario="Exploration",
                participants=[{"crew": entries[0], "treasure": 1}, {"crew": entries[-1]}],
                winner=entries[0],
            )
            services.confirm_game(game, user, for_everyone=True)

    def waiting(name):
        """A player whose crew is legal only with house rules: a pending request on the page."""
        player = make_user(name)
        services.invite(campaign, user, player.username)
        services.respond(campaign, player, accept=True)
        crew = geared_crew(player, 2, name=f"{name} duo")
        crew.accepted_findings = [{"code": "too-few-characters", "character": None, "note": "two-a-side"}]
        crew.save()
        services.enrol(campaign, player, crew)

    add_player("p1")
    waiting("w1")
    services.create_scenario(campaign, user, name="Ambush", card=3)
    play(2)
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        html = client.get(url).content.decode()
    assert (
        "Crews waiting for your approval" in html
        and "Ambush" in html
        and 'p1 crew <span class="muted">3 characters' in html
    )
    for name in ("p2", "p3", "p4"):
        add_player(name)
    for name in ("w2", "w3"):
        waiting(name)
    services.create_scenario(campaign, user, name="Parley")
    play(12)
    with CaptureQueriesContext(connection) as large:
        html = client.get(url).content.decode()
    assert html.count("enrolment-request") == 3 and 'p4 crew <span class="muted">3 characters' in html
    assert len(large) == len(small) == PAGE_QUERIES, [q["sql"] for q in large.captured_queries]
