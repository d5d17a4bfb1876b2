import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_signup_creates_user_and_logs_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {
            "username": "Vox",
            "email": "vox@example.com",
            "password1": "rust-and-bone-42",
            "password2": "rust-and-bone-42",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("home")
    user = django_user_model.objects.get(username="Vox")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_rejects_username_differing_only_in_case(client, user):
    response = client.post(
        reverse("signup"),
        {"username": "VOX", "email": "", "password1": "rust-and-bone-42", "password2": "rust-and-bone-42"},
    )
    assert response.status_code == 200
    assert "That username is taken" in response.content.decode()


def test_database_enforces_case_insensitive_usernames(django_user_model, user):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        django_user_model.objects.create_user(username="VoX", password="x")


def test_signup_shows_password_errors(client):
    response = client.post(
        reverse("signup"), {"username": "newbie", "email": "", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert "too short" in response.content.decode()


def test_signed_in_user_visiting_signup_goes_home(client, user):
    client.force_login(user)
    assert client.get(reverse("signup")).url == reverse("home")


def test_login_is_case_insensitive(client, user, password):
    response = client.post(reverse("login"), {"username": "VOX", "password": password})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_with_wrong_password_says_so(client, user):
    response = client.post(reverse("login"), {"username": "vox", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_logout_is_a_post(client, user):
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_change_password(client, user, password):
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": "new-rusty-secret-9", "new_password2": "new-rusty-secret-9"},
    )
    assert response.url == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("new-rusty-secret-9")


def test_change_password_needs_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_password_reset_sends_mail_with_working_link(client, user):
    user.email = "vox@example.com"
    user.save()
    response = client.post(reverse("password_reset"), {"email": "vox@example.com"})
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    path = link.split("testserver", 1)[1]
    response = client.get(path, follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "brand-new-secret-7", "new_password2": "brand-new-secret-7"})
    assert response.url == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("brand-new-secret-7")


def test_password_reset_for_unknown_address_reveals_nothing(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_admin_is_for_staff_only(client, user, django_user_model):
    client.force_login(user)
    assert client.get("/admin/").status_code == 302
    staff = django_user_model.objects.create_user(username="boss", password="x", is_staff=True, is_superuser=True)
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200
