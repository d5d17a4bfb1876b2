"""One case-insensitive username lookup, on lower(username) (issue 20, item 4).

Its index use is checked on PostgreSQL in tests/campaigns/test_query_plans.py."""

from pathlib import Path

import pytest
from django.urls import reverse

from crewbuilder.forms_accounts import SignUpForm
from crewbuilder.models import User

pytestmark = pytest.mark.django_db
PROJECT = Path(__file__).resolve().parents[2]


def test_with_username_ignores_case_and_nothing_else(make_user):
    vox = make_user("Vox")
    make_user("vox2")
    assert list(User.objects.with_username("vOX")) == [vox]
    assert list(User.objects.with_username("vo")) == []
    assert list(User.objects.with_username("")) == list(User.objects.with_username(None)) == []
    assert User.objects.get_by_natural_key("VOX") == vox


def test_login_and_signup_use_it(client, make_user, password):
    make_user("Vox")
    assert client.post(reverse("login"), {"username": "vOx", "password": password}).status_code == 302
    form = SignUpForm({"username": "VOX", "email": "", "password1": "x8#Lq!z0pW", "password2": "x8#Lq!z0pW"})
    assert not form.is_valid() and "taken" in str(form.errors["username"])


def test_the_lookup_is_written_once():
    """``username__iexact`` compiles to UPPER(...), which no index serves: every lookup goes through
    ``User.objects.with_username``."""
    skip = {".venv", ".git", "tests", "var", "build", "dist", "node_modules", "static", "templates"}
    sources = [
        p
        for top in PROJECT.iterdir()
        if top.is_dir() and top.name not in skip and not top.name.endswith(".egg-info")
        for p in top.rglob("*.py")
    ]
    assert len(sources) > 50
    offenders = [
        str(p.relative_to(PROJECT))
        for p in sources
        if "username__iexact" in p.read_text(encoding="utf-8") and p.name != "accounts.py"
    ]
    assert offenders == []
