"""Issue 17, finding 9: ``?paper=`` on a PDF link picks the paper of that one
PDF and never changes the saved setting; the settings form (POST) does."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, user, catalogue):
    client.force_login(user)
    return client


def test_quick_reference_with_paper_saves_nothing(logged_in, user):
    response = logged_in.get("/rules/cybernekro/quick-reference.pdf", {"paper": "LETTER"})
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.paper_size == "A4"


def test_settings_page_shows_and_saves_the_paper(logged_in, user):
    page = logged_in.get(reverse("account-settings"))
    assert page.status_code == 200 and 'value="LETTER"' in page.content.decode()
    response = logged_in.post(reverse("account-settings"), {"paper_size": "LETTER"}, follow=True)
    assert "US Letter" in response.content.decode()
    user.refresh_from_db()
    assert user.paper_size == "LETTER"


def test_settings_refuse_an_unknown_paper_with_a_message(logged_in, user):
    response = logged_in.post(reverse("account-settings"), {"paper_size": "TABLOID"})
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    user.refresh_from_db()
    assert user.paper_size == "A4"


def test_settings_need_a_login(client):
    response = client.post(reverse("account-settings"), {"paper_size": "LETTER"})
    assert response.status_code == 302 and reverse("login") in response["Location"]
