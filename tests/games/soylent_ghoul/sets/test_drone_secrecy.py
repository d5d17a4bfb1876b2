"""Nobody but the owner can learn a drone's true token, from any URL.

Method: fetch every page, export and PDF (pdftotext) as a viewer, move every
drone's true token to another of its tokens (codes, names, deal time all
unchanged), fetch again: a viewer's answers must be the same, byte for byte
(CSRF tokens aside), so nothing in them depends on the secret. Private URLs
must answer 404 (another user) or send to the login page (a visitor).
"""

import re
import subprocess

import pytest
from django.template.loader import render_to_string
from django.test import Client

from crewbuilder.models import Crew
from games.soylent_ghoul.sets import printing, services
from tests.games.soylent_ghoul.sets.conftest import truth

from .conftest import move_truth

CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


@pytest.fixture
def shared_set(drone_set):
    services.set_sharing(drone_set, True)
    drone_set.crew.refresh_from_db()
    return drone_set


def owner_urls(s) -> list[str]:
    pk, crew = s.pk, s.crew_id
    return [
        f"/games/soylent/sets/{pk}/",
        f"/games/soylent/sets/{pk}/?key=1",
        f"/games/soylent/sets/{pk}/?key=1&part=key",
        f"/games/soylent/sets/{pk}/redeal/",
        f"/games/soylent/sets/{pk}/delete/",
        f"/games/soylent/sets/{pk}/export/",
        f"/games/soylent/sets/{pk}/export/?true_tokens=1",
        f"/games/soylent/sets/{pk}/cards.pdf",
        f"/games/soylent/sets/{pk}/tokens.pdf",
        f"/games/soylent/sets/{pk}/key.pdf",
        f"/crews/{crew}/",
        f"/crews/{crew}/edit/",
        f"/crews/{crew}/export/",
        f"/crews/{crew}/roster.pdf",
        f"/crews/{crew}/delete/",
    ]


def shared_urls(s) -> list[str]:
    token = s.crew.share_token
    return [
        f"/games/soylent/s/{token}/",
        f"/games/soylent/s/{token}/cards.pdf",
        f"/games/soylent/s/{token}/tokens.pdf",
        f"/s/{token}/",
        f"/s/{token}/roster.pdf",
    ]


def content(response) -> bytes:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Type", "").startswith("application/pdf"):
        return subprocess.run(["pdftotext", "-layout", "-", "-"], input=body, capture_output=True, check=True).stdout
    return CSRF.sub(rb"\1", body)


def snapshot(client: Client, urls, **headers) -> dict:
    return {url: (r.status_code, r.get("Location"), content(r)) for url in urls for r in [client.get(url, **headers)]}


def assert_blind(client, drone_set, urls, **headers):
    before = snapshot(client, urls, **headers)
    old = truth(drone_set)
    move_truth(drone_set)
    assert truth(drone_set) != old
    after = snapshot(client, urls, **headers)
    for url in urls:
        assert before[url] == after[url], f"{url} changes with the secret"
    return after


def test_another_user_gets_404_everywhere(shared_set, client, other_user):
    client.force_login(other_user)
    for url in owner_urls(shared_set):
        assert client.get(url).status_code == 404, url
    for action in ("rename", "group", "add-drone", "rename-drone", "remove-drone"):
        assert client.post(f"/games/soylent/sets/{shared_set.pk}/edit/{action}/", {"name": "x"}).status_code == 404
    for url in ("redeal", "share", "delete"):
        assert client.post(f"/games/soylent/sets/{shared_set.pk}/{url}/").status_code == 404
    assert client.post(f"/crews/{shared_set.crew_id}/duplicate/").status_code == 404
    assert Crew.objects.filter(owner=other_user).count() == 0
    # their own list does not show it
    assert shared_set.crew.name.encode() not in client.get("/games/soylent/").content
    assert shared_set.crew.name.encode() not in client.get("/crews/").content
    assert_blind(client, shared_set, owner_urls(shared_set) + ["/games/soylent/", "/crews/"])


def test_a_visitor_is_sent_to_log_in(shared_set, client):
    for url in owner_urls(shared_set):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
    assert_blind(client, shared_set, owner_urls(shared_set))


@pytest.mark.parametrize("who", ["visitor", "other user", "owner"])
def test_the_share_link_shows_drones_and_codes_never_the_truth(shared_set, client, other_user, user, who):
    if who != "visitor":
        client.force_login(other_user if who == "other user" else user)
    urls = shared_urls(shared_set)
    after = assert_blind(client, shared_set, urls)
    token = shared_set.crew.share_token
    page = after[f"/games/soylent/s/{token}/"]
    assert page[0] == 200
    for drone in services.public_view(shared_set)["drones"]:
        assert drone.name.encode() in page[2]
        for code in drone.codes:
            assert code.encode() in page[2]
            assert code.encode() in after[f"/games/soylent/s/{token}/tokens.pdf"][2]
    # crewbuilder's own share URL sends to the drone set's page; its roster does not exist
    assert after[f"/s/{token}/"][:2] == (302, f"/games/soylent/s/{token}/")
    assert after[f"/s/{token}/roster.pdf"][0] == 404


def test_a_revoked_or_wrong_link_is_404(shared_set, client):
    token = shared_set.crew.share_token
    services.set_sharing(shared_set, False)
    for url in (
        f"/games/soylent/s/{token}/",
        f"/games/soylent/s/{token}/tokens.pdf",
        "/games/soylent/s/nope/",
        f"/games/soylent/s/{'x' * 65}/",
    ):
        assert client.get(url).status_code == 404


def test_the_owners_own_table_views_hide_the_key_until_asked(shared_set, client, user):
    client.force_login(user)
    public = [
        f"/games/soylent/sets/{shared_set.pk}/",
        f"/games/soylent/sets/{shared_set.pk}/cards.pdf",
        f"/games/soylent/sets/{shared_set.pk}/tokens.pdf",
        f"/games/soylent/sets/{shared_set.pk}/export/",
        "/games/soylent/",
        "/crews/",
    ]
    assert_blind(client, shared_set, public)
    # ... and the key views do show it
    key_page = client.get(f"/games/soylent/sets/{shared_set.pk}/?key=1").content.decode()
    key_pdf = content(client.get(f"/games/soylent/sets/{shared_set.pk}/key.pdf")).decode()
    export = client.get(f"/games/soylent/sets/{shared_set.pk}/export/?true_tokens=1").content.decode()
    for code in truth(shared_set).values():
        assert 'class="sg-code sg-true"' in key_page and f">{code}</span>" in key_page
        assert code in key_pdf and f'"true_token": "{code}"' in export


def test_printables_html_does_not_depend_on_the_secret(drone_set):
    """Not only the PDF text: the HTML behind the cards and token sheet (classes, order, marks) is identical."""

    def html():
        view = services.public_view(drone_set)
        return (
            render_to_string("soylent/pdf/cards.html", {**printing.cards_context(view), "paper_class": "a4"}),
            render_to_string("soylent/pdf/tokens.html", {**printing.tokens_context(view), "paper_class": "a4"}),
        )

    before = html()
    move_truth(drone_set)
    assert html() == before


def test_secret_pages_are_not_cached(drone_set, client, user):
    client.force_login(user)
    for url in (
        f"/games/soylent/sets/{drone_set.pk}/?key=1",
        f"/games/soylent/sets/{drone_set.pk}/key.pdf",
        f"/games/soylent/sets/{drone_set.pk}/export/?true_tokens=1",
    ):
        assert "no-store" in client.get(url)["Cache-Control"], url
