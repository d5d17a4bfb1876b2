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
    assert "/static/js/htmx.min.js" in html
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


def test_games_menu_links_every_registered_game_in_order(client):
    from core.games import registry

    games = registry.games()
    assert [g.slug for g in games] == ["cybernekro-battles", "soylent-ghoul", "ghoul-role", "ghoulash", "slasher-trial"]
    body = client.get("/games/").content.decode()
    positions = [body.index(f'href="{reverse(g.home_url_name)}"') for g in games]
    assert positions == sorted(positions)
    assert all(g.title in body for g in games)


def test_home_lists_the_games_you_play_that_are_not_over(client, make_user):
    from django.core.management import call_command

    from games.slasher_trial import services as trials
    from games.slasher_trial.models import Trial

    call_command("loadcatalogue", verbosity=0, stdout=__import__("io").StringIO())
    vox, mara, eve = make_user("vox"), make_user("mara"), make_user("eve")
    night = trials.create_trial(vox, "Night at the yard")
    trials.join(night, mara)
    over = trials.create_trial(mara, "Last week")
    Trial.objects.filter(pk=over.pk).update(state=Trial.OVER)
    trials.create_trial(eve, "Eve's own trial")

    client.force_login(mara)
    html = client.get(reverse("home")).content.decode()
    assert "Your games in progress" in html
    assert f'href="{night.get_absolute_url()}"' in html and "The Slasher trial" in html
    assert "Last week" not in html and "Eve&#x27;s own trial" not in html and "Eve's own trial" not in html

    client.force_login(eve)
    assert "Night at the yard" not in client.get(reverse("home")).content.decode()
    client.force_login(make_user("newcomer"))
    assert "Your games in progress" not in client.get(reverse("home")).content.decode()


def test_favicon_ico_leads_to_the_app_icon(client):
    """A PDF shown in the browser names no icon, so the browser asked for /favicon.ico: a 404 each time."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/img/favicon.svg")
