"""Red-team probes of crews: other users' crews and their characters, share links,
exports and PDFs, the crew editor's inputs, the JSON odds API, the admin."""

import json

import pytest

from crewbuilder import crew_edits
from crewbuilder.models import Character, CharacterTrait, Crew
from tests.clients import logged_in

HX = {"HTTP_HX_REQUEST": "true"}
BAD = ["", "abc", "-1", "0", "1.5", "99999999999999999999999", "x" * 2000, "\u0661", "strength:9", ":"]


@pytest.fixture
def two_crews(make_crew, user, other_user):
    spec = [{"name": "Rust Saint", "traits": ["big"], "gear": ["sword"], "body_mods": ["neural-cabling"]}]
    return (
        make_crew(user, "Saints of Rust", spec, notes="SECRET-NOTE-VOX"),
        make_crew(other_user, "Mara's Own", [{"name": "Mara Blade", "traits": ["small"]}], notes="SECRET-NOTE-MARA"),
    )


def owner_urls(crew):
    ch = crew.characters.first()
    return [
        f"/crews/{crew.pk}/",
        f"/crews/{crew.pk}/edit/",
        f"/crews/{crew.pk}/export/",
        f"/crews/{crew.pk}/roster.pdf",
        f"/crews/{crew.pk}/delete/",
        f"/crews/{crew.pk}/pick/{ch.pk}/trait/",
        f"/crews/{crew.pk}/pick/{ch.pk}/gear/",
    ]


def snapshot(crew) -> dict:
    crew = Crew.objects.get(pk=crew.pk)
    return {
        "crew": (crew.name, crew.notes, crew.budget, crew.share_token, crew.version),
        "characters": list(Character.objects.filter(crew=crew).values()),
        "traits": list(CharacterTrait.objects.filter(character__crew=crew).values()),
    }


def test_another_users_crew_is_404_everywhere_and_unchanged(two_crews, user):
    mine, theirs = two_crews
    c = logged_in(user)
    before = snapshot(theirs)
    for u in owner_urls(theirs):
        r = c.get(u)
        assert r.status_code == 404, u
        assert b"SECRET-NOTE-MARA" not in r.content
    for action in sorted(crew_edits.EDITS):
        r = c.post(
            f"/crews/{theirs.pk}/edit/{action}/", {"name": "Hacked", "character": theirs.characters.first().pk}, **HX
        )
        assert r.status_code == 404, action
    for u in ("duplicate", "delete", "share"):
        assert c.post(f"/crews/{theirs.pk}/{u}/").status_code == 404
    assert snapshot(theirs) == before and Crew.objects.filter(owner=user).count() == 1
    # the probe can fail: the owner does see the notes
    assert b"SECRET-NOTE-VOX" in c.get(f"/crews/{mine.pk}/").content


def test_a_visitor_is_sent_to_log_in(client, two_crews):
    mine, _ = two_crews
    for u in owner_urls(mine) + ["/crews/", "/crews/new/", "/crews/import/"]:
        r = client.get(u)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), u
    assert client.post(f"/crews/{mine.pk}/edit/crew/", {"name": "x"}).status_code == 302
    assert Crew.objects.get(pk=mine.pk).name == "Saints of Rust"


def test_another_crews_character_or_trait_row_through_my_own_crew(two_crews, user):
    mine, theirs = two_crews
    c = logged_in(user)
    foreign = theirs.characters.first()
    foreign_row = CharacterTrait.objects.filter(character=foreign).first()
    before = snapshot(theirs)
    for action in sorted(crew_edits.CHARACTER_EDITS | {"remove-character", "move-character"}):
        data = {
            "character": foreign.pk,
            "name": "Hacked",
            "row": foreign_row.pk,
            "slug": "big",
            "attribute": "strength",
            "value": "1",
            "delta": "1",
            "direction": "up",
            "version": mine.version,
        }
        r = c.post(f"/crews/{mine.pk}/edit/{action}/", data, **HX)
        assert r.status_code == 422, action
    # a trait row of another crew through my own character
    own = mine.characters.first()
    for action in ("trait-choice", "remove-trait"):
        r = c.post(
            f"/crews/{mine.pk}/edit/{action}/",
            {"character": own.pk, "row": foreign_row.pk, "version": Crew.objects.get(pk=mine.pk).version},
            **HX,
        )
        # removing a row that is not (or no longer) on the character is a no-op, like a second click
        assert r.status_code == (200 if action == "remove-trait" else 422), action
    assert c.get(f"/crews/{mine.pk}/pick/{foreign.pk}/trait/").status_code == 404
    assert snapshot(theirs) == before


@pytest.mark.parametrize("action", sorted(crew_edits.EDITS))
def test_bad_input_in_the_editor_is_a_4xx(two_crews, user, action):
    mine, _ = two_crews
    c = logged_in(user)
    for bad in BAD:
        version = Crew.objects.get(pk=mine.pk).version
        data = {
            k: bad
            for k in (
                "character",
                "name",
                "notes",
                "budget",
                "code",
                "note",
                "direction",
                "attribute",
                "step",
                "delta",
                "value",
                "slug",
                "row",
                "raise",
            )
        }
        data["version"] = version
        r = c.post(f"/crews/{mine.pk}/edit/{action}/", data, **HX)
        assert r.status_code in (200, 409, 422), (action, bad, r.status_code)
    for version in ("", "abc", "99999999999999999999999"):
        r = c.post(f"/crews/{mine.pk}/edit/{action}/", {"version": version}, **HX)
        assert r.status_code in (200, 409, 422), (action, version)
    assert c.post(f"/crews/{mine.pk}/edit/nonsense/", {}).status_code == 404


def test_the_share_link_is_read_only_and_revocable(client, two_crews, user):
    mine, _ = two_crews
    c = logged_in(user)
    c.post(f"/crews/{mine.pk}/share/")
    token = Crew.objects.get(pk=mine.pk).share_token
    assert token
    page = client.get(f"/s/{token}/")
    assert page.status_code == 200 and b"Rust Saint" in page.content
    html = page.content.decode()
    # no form that writes (the print button's paper choice is a GET form: issue 18)
    assert 'method="post"' not in html.lower() and "hx-post" not in html and f"/crews/{mine.pk}/edit/" not in html
    assert all('method="get"' in form for form in html.split("<form")[1:])
    assert client.get(f"/s/{token}/roster.pdf").status_code == 200
    assert client.post(f"/s/{token}/").status_code == 405
    c.post(f"/crews/{mine.pk}/share/", {"revoke": "1"})
    for t in (token, token[:-1], "x" * 65, "x"):
        assert client.get(f"/s/{t}/").status_code == 404
        assert client.get(f"/s/{t}/roster.pdf").status_code == 404


def test_the_drone_set_crew_cannot_be_edited_or_exported_through_the_crew_pages(user, make_user):
    """A Soylent Ghoul drone set is a Crew: the crew editor must not be a side door to its tokens."""
    from django.core.management import call_command

    from games.soylent_ghoul.sets import services as soylent_services
    from games.soylent_ghoul.sets.models import Token

    call_command("loadcatalogue", verbosity=0)
    drone_set = soylent_services.create_drone_set(user, "Lamplit", "gardeners")
    crew = drone_set.crew
    truth = set(Token.objects.filter(drone__drone_set=drone_set, is_true=True).values_list("pk", flat=True))
    c = logged_in(user)
    for action in sorted(crew_edits.EDITS):
        r = c.post(f"/crews/{crew.pk}/edit/{action}/", {"name": "Changed", "version": crew.version}, **HX)
        assert r.status_code == 302 and r["Location"] == f"/games/soylent/sets/{drone_set.pk}/", action
    assert Crew.objects.get(pk=crew.pk).name == "Lamplit"
    export = c.get(f"/crews/{crew.pk}/export/")
    assert export.status_code == 302
    assert set(Token.objects.filter(drone__drone_set=drone_set, is_true=True).values_list("pk", flat=True)) == truth
    # another user: 404, not a redirect that confirms the set exists
    other = logged_in(make_user("zed"))
    for u in (f"/crews/{crew.pk}/", f"/crews/{crew.pk}/export/", f"/crews/{crew.pk}/edit/"):
        assert other.get(u).status_code == 404, u


# --- the JSON odds API ------------------------------------------------------------

ODDS_BODIES = [
    b"",
    b"null",
    b"[]",
    b"1",
    b'"x"',
    b"{}",
    b'{"roll": null}',
    b'{"roll": "nonsense"}',
    b'{"roll": 5}',
    b'{"roll": "test"}',
    b'{"roll": "test", "modifier": "x"}',
    b'{"roll": "test", "modifier": 1e308}',
    b'{"roll": "test", "modifier": 99999999999999999999999999}',
    b'{"roll": "test", "modifier": NaN}',
    b'{"roll": "test", "modifier": 1, "jinxed": "yes"}',
    b'{"roll": "test", "modifier": 1, "extra": 1}',
    b'{"roll": "damage", "dice": 100000}',
    b'{"roll": "damage", "dice": -1}',
    b'{"roll": "damage", "dice": 3, "keywords": "x"}',
    b'{"roll": "damage", "dice": 3, "keywords": [1, null, {}]}',
    b'{"roll": "damage", "dice": 3.5}',
    b'{"roll": "attack"}',
    b'{"roll": "attack", "action": "fight", "attacker": [], "weapon": {}, "target": 1}',
    b'{"roll": "attack", "action": "shoot", "attacker": {}, "weapon": "nope", "target": {}}',
    b'{"roll": "attack", "action": "fight", "attacker": {"agility": 1, "discipline": 0, "strength": 2, "traits": [], '
    b'"body_mods": []}, "weapon": {"damage": 1e9, "range": -1, "keywords": ["Overkill"]}, "target": {"toughness": 1, '
    b'"strength": 0, "armor": 1, "wounds": 0, "prone": false, "traits": [], "body_mods": [], "gear": []}}',
    b'{"roll": "neural-overload", "dread": 10000000}',
    b'{"roll": "morale", "discipline": 0, "dread": 300, "wounds": -5, "allies_in_los": 1000000}',
    b'{"roll": "panic", "nerve": 10000000000, "tokens": 10000000000}',
    b'{"roll": "panic", "nerve": true, "tokens": false}',
    b'{"roll": "ghoul-dice", "dice": 1000}',
    b'{"roll": "ghoul-dice", "dice": 0}',
    b"\xff\xfe",
    b"[" * 5000 + b"]" * 5000,
    b'{"roll": "test", "modifier": 1' + b" " * 20000 + b"}",
]


@pytest.mark.parametrize("raw", ODDS_BODIES, ids=[str(i) for i in range(len(ODDS_BODIES))])
def test_the_odds_api_answers_every_bad_request_with_a_4xx(client, catalogue, raw):
    r = client.post("/api/odds/", raw, content_type="application/json")
    assert r.status_code in (200, 400, 413), (raw[:80], r.status_code)
    if r.status_code != 200:
        assert "error" in json.loads(r.content)


def test_the_odds_api_works_and_only_takes_post(client, catalogue):
    r = client.post("/api/odds/", {"roll": "test", "modifier": 2, "jinxed": False}, content_type="application/json")
    assert r.status_code == 200 and "exact" in r.json()
    assert client.get("/api/odds/").status_code == 405


def test_only_the_stateless_odds_api_is_csrf_exempt():
    from django.urls import get_resolver

    exempt = []

    def walk(patterns, prefix=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif getattr(p.callback, "csrf_exempt", False) and not prefix.startswith("admin/"):
                exempt.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns)
    assert exempt == ["api/odds/"]


def test_the_admin_is_closed_to_players(two_crews, user):
    c = logged_in(user)
    for u in (
        "/admin/",
        "/admin/crewbuilder/crew/",
        f"/admin/crewbuilder/crew/{two_crews[1].pk}/change/",
        "/admin/auth/user/",
        "/admin/soylent/",
        "/admin/ghoulash/ghoulashbox/",
    ):
        r = c.get(u)
        assert r.status_code == 302 and "/admin/login/" in r["Location"], u
