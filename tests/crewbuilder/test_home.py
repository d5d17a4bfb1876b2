import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_visitor_sees_what_the_app_does(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Build your crew" in html
    assert reverse("signup") in html
    assert reverse("login") in html


def test_logged_in_home_has_empty_states(client, user):
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "Welcome back, vox" in html
    assert "You have no crews yet" in html
    assert "You are in no campaign yet" in html


def test_pages_load_vendored_htmx_and_send_csrf_on_htmx_requests(client, user):
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert '/static/js/htmx.min.js' in html
    assert "//unpkg" not in html and "cdn" not in html.lower()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_content_security_policy_header(client):
    response = client.get(reverse("home"))
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy


def test_htmx_is_served_from_static(client):
    from django.contrib.staticfiles import finders

    path = finders.find("js/htmx.min.js")
    assert path is not None
    with open(path) as f:
        assert "htmx" in f.read(200)


def test_games_menu_links_every_game(client):
    from crewbuilder.views.games import GAMES

    body = client.get("/games/").content.decode()
    assert len(GAMES) == 4
    for name, title, _ in GAMES:
        assert f'href="{reverse(name)}"' in body and title in body
