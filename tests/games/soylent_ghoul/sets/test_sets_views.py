"""Drone set pages: list and create, the owner's page and its edits, re-deal,
share, delete, export, PDFs, and the crew pages' handling of drone sets."""

import json
import re
import subprocess

import pytest
from django.urls import NoReverseMatch, reverse

from games.soylent_ghoul.sets import crewfile
from games.soylent_ghoul.sets.models import DroneSet
from tests.games.soylent_ghoul.sets.conftest import codes, truth

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def owner(client, user):
    client.force_login(user)
    return client


def pdf_text(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()


def test_home_lists_my_sets_and_offers_the_four_groups(owner, drone_set, make_set, other_user):
    make_set(other_user, name="Not mine")
    page = owner.get("/games/soylent/").content.decode()
    assert "The Lamplit" in page and "Not mine" not in page
    for name, numbers in (
        ("Scene Shifters", 'M 3" · Nerve 7'),
        ("Eyes", 'M 12" · Nerve 3'),
        ("Mannikins", 'M 24" · Nerve 6'),
        ("Gardeners", 'M 3" · Nerve 6'),
    ):
        assert name in page and numbers in page
    assert 'value="4"' in page  # the suggested number of drones


def test_games_link_only_when_the_tracker_exists(owner, catalogue):
    page = owner.get("/games/soylent/").content.decode()
    try:
        url = reverse("soylent-game-list")
    except NoReverseMatch:
        assert ">Games</a>" not in page
    else:
        assert f'href="{url}"' in page


def test_create_a_set(owner, catalogue, user):
    response = owner.post("/games/soylent/", {"name": "Gazers", "group": "eyes", "drones": "3"})
    drone_set = DroneSet.objects.get(crew__owner=user)
    assert response.status_code == 302 and response["Location"] == f"/games/soylent/sets/{drone_set.pk}/"
    assert drone_set.crew.name == "Gazers" and drone_set.drones.count() == 3


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": "", "group": "eyes", "drones": "4"}, "Set name must not be empty"),
        ({"name": "X", "group": "", "drones": "4"}, "Choose a Ghoul group"),
        ({"name": "X", "group": "eyes", "drones": "four"}, "whole number"),
        ({"name": "X", "group": "eyes", "drones": "40"}, "from 1 to 12"),
    ],
)
def test_create_with_bad_input_is_a_422_with_the_reason(owner, catalogue, data, message):
    response = owner.post("/games/soylent/", data)
    assert response.status_code == 422 and message in response.content.decode()
    assert not DroneSet.objects.exists()


def test_the_set_page_shows_group_drones_and_codes_but_not_the_key(owner, drone_set):
    response = owner.get(f"/games/soylent/sets/{drone_set.pk}/")
    page = response.content.decode()
    assert "Gardeners" in page and "Lighter" in page and "Darker" in page and "Snapped" in page
    assert all(code in page for code in codes(drone_set))
    assert "Show my secret key" in page and "sg-true" not in page
    assert "HX-Request" in response["Vary"]


def test_show_key_full_page_and_htmx_partial(owner, drone_set):
    full = owner.get(f"/games/soylent/sets/{drone_set.pk}/?key=1").content.decode()
    part = owner.get(f"/games/soylent/sets/{drone_set.pk}/?key=1&part=key", **HTMX).content.decode()
    hidden = owner.get(f"/games/soylent/sets/{drone_set.pk}/?part=key", **HTMX).content.decode()
    assert (
        "<html" in full
        and "<html" not in part
        and part.lstrip().startswith('<section class="card sg-key" id="secret-key"')
    )
    for name, code in truth(drone_set).items():
        assert f">{code}</span>" in full and f">{code}</span>" in part and code not in hidden
    assert "Hide my secret key" in part and "Show my secret key" in hidden


def test_edits_by_htmx_return_the_editor(owner, drone_set):
    url = f"/games/soylent/sets/{drone_set.pk}/edit"
    response = owner.post(f"{url}/rename/", {"name": "Lanterns"}, **HTMX)
    assert response.status_code == 200 and response.content.decode().lstrip().startswith('<div id="set-editor">')
    owner.post(f"{url}/group/", {"group": "mannikins"}, **HTMX)
    owner.post(f"{url}/add-drone/", {"name": "Wick"}, **HTMX)
    first = drone_set.drones.first()
    owner.post(f"{url}/rename-drone/", {"drone": first.pk, "name": "Wax"}, **HTMX)
    second = drone_set.drones.all()[1]
    response = owner.post(f"{url}/remove-drone/", {"drone": second.pk}, **HTMX)
    page = response.content.decode()
    assert "Mannikins" in page and "Become" in page and "Wick" in page and "Wax" in page
    drone_set = DroneSet.objects.select_related("crew").get(pk=drone_set.pk)
    assert drone_set.crew.name == "Lanterns" and drone_set.group == "mannikins"
    assert [d.name for d in drone_set.drones.all()] == ["Wax", "Drone 3", "Drone 4", "Wick"]


def test_edits_without_js_redirect_and_bad_edits_are_422(owner, drone_set):
    url = f"/games/soylent/sets/{drone_set.pk}/edit"
    response = owner.post(f"{url}/rename/", {"name": "Plain"})
    assert response.status_code == 302 and response["Location"] == f"/games/soylent/sets/{drone_set.pk}/"
    response = owner.post(f"{url}/rename/", {"name": ""}, **HTMX)
    assert response.status_code == 422 and "Set name must not be empty" in response.content.decode()
    response = owner.post(f"{url}/group/", {"group": "wendigo"})
    assert response.status_code == 422 and "Choose a Ghoul group" in response.content.decode()
    assert owner.post(f"{url}/explode/", {}).status_code == 404
    assert owner.get(f"{url}/rename/").status_code == 405
    drone_set.refresh_from_db()
    assert drone_set.crew.name == "Plain" and drone_set.group == "gardeners"


def test_redeal_asks_first_then_deals(owner, drone_set):
    page = owner.get(f"/games/soylent/sets/{drone_set.pk}/redeal/").content.decode()
    assert "Re-deal the true tokens" in page and '<form method="post">' in page
    before_codes, dealt = codes(drone_set), drone_set.dealt_at
    response = owner.post(f"/games/soylent/sets/{drone_set.pk}/redeal/")
    assert response.status_code == 302
    drone_set.refresh_from_db()
    assert drone_set.dealt_at > dealt and codes(drone_set) == before_codes


def test_share_and_revoke(owner, drone_set):
    owner.post(f"/games/soylent/sets/{drone_set.pk}/share/")
    drone_set.crew.refresh_from_db()
    token = drone_set.crew.share_token
    page = owner.get(f"/games/soylent/sets/{drone_set.pk}/").content.decode()
    assert f"/games/soylent/s/{token}/" in page
    shared = owner.get(f"/games/soylent/s/{token}/")
    assert (
        shared.status_code == 200 and shared["X-Robots-Tag"] == "noindex" and shared["Referrer-Policy"] == "no-referrer"
    )
    owner.post(f"/games/soylent/sets/{drone_set.pk}/share/", {"revoke": "1"})
    assert owner.get(f"/games/soylent/s/{token}/").status_code == 404


def test_delete_asks_then_deletes(owner, drone_set):
    assert "Delete the drone set" in owner.get(f"/games/soylent/sets/{drone_set.pk}/delete/").content.decode()
    response = owner.post(f"/games/soylent/sets/{drone_set.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == "/games/soylent/"
    assert not DroneSet.objects.exists()


def test_export_downloads_the_file_with_the_key_only_when_asked(owner, drone_set):
    plain = owner.get(f"/games/soylent/sets/{drone_set.pk}/export/")
    assert plain["Content-Disposition"] == 'attachment; filename="the-lamplit.json"'
    assert json.loads(plain.content) == crewfile.export_data(drone_set)
    keyed = owner.get(f"/games/soylent/sets/{drone_set.pk}/export/?true_tokens=1")
    assert keyed["Content-Disposition"] == 'attachment; filename="the-lamplit-with-key.json"'
    assert {d["name"]: d["true_token"] for d in json.loads(keyed.content)["drones"]} == truth(drone_set)


def test_drone_cards_pdf(owner, make_set, user):
    drone_set = make_set(user, name="Gazers", group="eyes", drone_names=["Iris", "Lid"])
    text = pdf_text(owner.get(f"/games/soylent/sets/{drone_set.pk}/cards.pdf"))
    assert "Iris" in text and "Lid" in text and "Check" in text and "Snapped" in text
    assert re.search(r'M\s+NERVE\s+12"\s+3\b', text), text  # Eyes: M=12 Nerve=3
    assert all(code in text for code in codes(drone_set))


def test_token_sheet_and_key_pdfs_follow_the_paper_setting(owner, drone_set, user):
    tokens = owner.get(f"/games/soylent/sets/{drone_set.pk}/tokens.pdf?paper=LETTER")
    text = pdf_text(tokens)
    assert all(code in text for code in codes(drone_set))
    user.refresh_from_db()
    assert user.paper_size == "A4"  # for this PDF only: a GET saves nothing
    info = subprocess.run(["pdfinfo", "-"], input=tokens.content, capture_output=True, check=True).stdout.decode()
    assert "612 x 792" in info  # US letter
    key = pdf_text(owner.get(f"/games/soylent/sets/{drone_set.pk}/key.pdf"))
    for name, code in truth(drone_set).items():
        assert any(name in line and code in line for line in key.splitlines()), (name, code)


def test_query_budget_of_the_set_page_does_not_grow_with_drones(owner, make_set, user, django_assert_num_queries):
    small = make_set(user, name="Small", count=2)
    large = make_set(user, name="Large", count=8)
    owner.get(f"/games/soylent/sets/{small.pk}/")  # warm the session and the user
    with django_assert_num_queries(6):
        owner.get(f"/games/soylent/sets/{small.pk}/?key=1")
    with django_assert_num_queries(6):
        owner.get(f"/games/soylent/sets/{large.pk}/?key=1")


# --- the crew pages -------------------------------------------------------------


def test_crew_list_links_drone_sets(owner, drone_set):
    page = owner.get("/crews/").content.decode()
    assert "Soylent Ghoul drone sets" in page and f'href="/games/soylent/sets/{drone_set.pk}/"' in page


@pytest.mark.parametrize(
    "path, method",
    [
        ("/", "get"),
        ("/edit/", "get"),
        ("/export/", "get"),
        ("/delete/", "get"),
        ("/delete/", "post"),
        ("/duplicate/", "post"),
        ("/share/", "post"),
        ("/edit/rename/", "post"),
        ("/pick/1/traits/", "get"),
    ],
)
def test_crew_pages_send_a_drone_set_to_its_page(owner, drone_set, path, method):
    response = getattr(owner, method)(f"/crews/{drone_set.crew_id}{path}")
    assert response.status_code == 302 and response["Location"] == f"/games/soylent/sets/{drone_set.pk}/"
    assert DroneSet.objects.filter(pk=drone_set.pk).exists()
    assert DroneSet.objects.count() == 1


def test_roster_pdf_of_a_drone_set_is_404(owner, drone_set):
    assert owner.get(f"/crews/{drone_set.crew_id}/roster.pdf").status_code == 404


def test_importing_a_drone_set_file_on_the_crew_import_page(owner, catalogue, user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = {
        "format": "crewbuilder.crew/1",
        "system": "soylent-ghoul",
        "name": "Shifted",
        "group": "scene-shifters",
        "drones": [{"name": "Brush"}, {"name": "Easel"}],
    }
    upload = SimpleUploadedFile("set.json", json.dumps(data).encode(), content_type="application/json")
    response = owner.post("/crews/import/", {"file": upload}, follow=True)
    drone_set = DroneSet.objects.get(crew__owner=user)
    assert response.redirect_chain[-1][0] == f"/games/soylent/sets/{drone_set.pk}/"
    assert "Shifted" in response.content.decode() and "Scene Shifters" in response.content.decode()


def test_the_import_page_reached_from_soylent_speaks_of_drone_sets(client, user):
    client.force_login(user)
    home = client.get("/games/soylent/").content.decode()
    assert 'href="/crews/import/?game=soylent-ghoul">Import a drone set file</a>' in home
    page = client.get("/crews/import/?game=soylent-ghoul").content.decode()
    assert "<h1>Import a drone set file</h1>" in page and "added to your drone sets" in page
    assert "<h1>Import a crew file</h1>" in client.get("/crews/import/").content.decode()
