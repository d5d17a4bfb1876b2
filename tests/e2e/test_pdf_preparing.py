"""Print with a task worker: the "preparing" page shows at once on a phone,
reloads by itself, and the PDF arrives when the worker has rendered it
(core/pdf_tasks.py, crewbuilder/roster_tasks.py)."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, expect

from crewbuilder import roster_tasks
from tests.e2e.conftest import PHONE, assert_fits_a_phone


@pytest.fixture
def shared_crew(transactional_db, django_user_model):
    call_command("loadcatalogue", verbosity=0)
    from crewbuilder.models import Character, CharacterGear, Crew, GameSystem, Item

    system = GameSystem.objects.get(slug="cybernekro")
    owner = django_user_model.objects.create_user("vox", password="neon-bones-1138")
    crew = Crew.objects.create(owner=owner, system=system, name="Saints of Rust", share_token="saints")
    for i in range(3):
        character = Character.objects.create(crew=crew, name=f"Ghoul {i}", position=i, strength=1)
        CharacterGear.objects.create(character=character, item=Item.objects.get(system=system, slug="sword"))
    return crew


def test_the_preparing_page_turns_into_the_pdf_by_itself(browser: Browser, server_url: str, shared_crew, settings):
    # What the database backend does until its worker runs: queue and return.
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(server_url + "/s/saints/roster.pdf")
        expect(page.get_by_role("heading", name="Preparing your PDF…")).to_be_visible()
        assert_fits_a_phone(page)
        check_again = page.get_by_role("link", name="Check again")
        assert check_again.bounding_box()["height"] >= 40  # a thumb's target

        def is_the_pdf(response):
            return (
                response.url.endswith("/s/saints/roster.pdf")
                and response.headers.get("content-type") == "application/pdf"
            )

        with page.expect_response(is_the_pdf, timeout=20_000) as arrived:
            roster_tasks.roster_pdf_for(shared_crew.pk, "A4")  # the worker renders it into the shared cache
        response = arrived.value
        assert response.status == 200  # Chromium opens it in its PDF viewer
        assert "saints-of-rust-roster.pdf" in response.headers["content-disposition"]
    finally:
        context.close()
