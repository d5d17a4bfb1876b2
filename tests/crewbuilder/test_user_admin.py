"""The admin manages the custom user with Django's own user pages."""

import pytest


@pytest.mark.django_db
def test_the_admin_lists_users_and_changes_a_password(client, make_user, django_user_model):
    admin_user = django_user_model.objects.create_superuser("root", "root@example.org", "pw-for-the-admin-1")
    player = make_user("mara")
    client.force_login(admin_user)
    assert "mara" in client.get("/admin/crewbuilder/user/").content.decode()
    page = client.get(f"/admin/crewbuilder/user/{player.pk}/change/").content.decode()
    assert "paper_size" in page
    response = client.post(
        f"/admin/crewbuilder/user/{player.pk}/password/",
        {"password1": "a-new-long-passphrase-9", "password2": "a-new-long-passphrase-9", "usable_password": "true"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("a-new-long-passphrase-9")
