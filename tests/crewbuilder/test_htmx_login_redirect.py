"""An htmx request from a page whose session has ended is sent to the login page as a whole page
(HX-Redirect), never answered with the login form to swap into part of the page."""

from urllib.parse import quote

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def test_a_poll_after_logout_sends_the_page_to_the_login_form(client):
    game = "http://testserver/games/ghoulash/games/7/"
    response = client.get(reverse("ghoulash-home"), headers={"HX-Request": "true", "HX-Current-URL": game})
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{LOGIN}?next={quote('/games/ghoulash/games/7/', safe='')}"
    assert response.content == b""
    assert "HX-Request" in response["Vary"]


def test_without_a_current_url_the_request_itself_is_the_way_back(client):
    url = reverse("ghoulash-home") + "?tab=boxes"
    response = client.get(url, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == f"{LOGIN}?next={quote(url, safe='')}"


def test_a_current_url_on_another_site_is_not_used(client):
    response = client.get(
        reverse("ghoulash-home"), headers={"HX-Request": "true", "HX-Current-URL": "https://evil.example/steal"}
    )
    assert response["HX-Redirect"] == f"{LOGIN}?next={quote(reverse('ghoulash-home'), safe='')}"


def test_a_plain_request_gets_the_usual_redirect(client):
    response = client.get(reverse("ghoulash-home"))
    assert response.status_code == 302
    assert response["Location"].startswith(f"{LOGIN}?next=")
    assert "HX-Redirect" not in response


def test_other_redirects_to_htmx_requests_are_left_alone(client, user, password):
    client.force_login(user)  # client.login() passes no request, which django-axes refuses
    response = client.post(reverse("logout"), headers={"HX-Request": "true"})
    assert response.status_code == 302
    assert "HX-Redirect" not in response
