"""PDFs never hold a web worker (issue 17 finding 1, issue 20 part 3): a budget
checked before any layout, a time limit, a shared cache on disk, and rendering
in the task worker with a "preparing" page meanwhile."""

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core import pdf, pdf_store, pdf_tasks
from crewbuilder import limits, roster_tasks
from crewbuilder import pdf as roster_printing
from crewbuilder.models import Crew

pytestmark = pytest.mark.django_db

DUMMY_TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def no_layout(monkeypatch):
    """Fails the test if anything is laid out (the refusals must come before any work)."""
    calls = []

    def refuse(*args):
        calls.append(args)
        raise AssertionError("WeasyPrint was asked to lay this out")

    monkeypatch.setattr(pdf, "_layout", refuse)
    return calls


@pytest.fixture
def dummy_tasks(settings):
    """A task backend that only records what is queued, as the database backend does before its worker runs."""
    settings.TASKS = DUMMY_TASKS
    backend = pdf_tasks.task_backends["default"]
    backend.clear()
    return backend


def roster_url(crew):
    return reverse("crew-roster", args=[crew.pk])


def test_a_roster_over_the_crew_limits_is_refused_before_any_layout(client, user, make_crew, no_layout):
    # A crew stored before the limits existed (or by hand): 30 characters with 25 swords each.
    crew = make_crew(user, characters=[{"name": f"C{i}", "gear": ["sword"] * 25} for i in range(30)])
    client.force_login(user)
    response = client.get(roster_url(crew))
    assert response.status_code == 422
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert 'data-pdf-state="refused"' in html
    assert "This crew has 30 characters; a roster prints at most 12" in html
    assert no_layout == []


def test_a_shared_roster_over_the_limits_is_refused_for_anyone(client, user, make_crew, no_layout):
    crew = make_crew(user, characters=[{"name": "Hoarder", "gear": ["sword"] * (limits.GEAR_MAX_PER_CHARACTER + 1)}])
    Crew.objects.filter(pk=crew.pk).update(share_token="tok")
    response = client.get(reverse("crew-roster-shared", args=["tok"]))
    assert response.status_code == 422
    assert "Hoarder has 23 items; a roster prints at most 22 per character" in response.content.decode()
    assert no_layout == []


def test_with_a_task_worker_a_crew_over_the_limits_is_refused_at_once_not_queued(
    client, user, make_crew, no_layout, dummy_tasks
):
    crew = make_crew(user, characters=[{"name": f"C{i}"} for i in range(limits.CHARACTERS_MAX + 1)])
    client.force_login(user)
    response = client.get(roster_url(crew))
    assert response.status_code == 422
    assert "This crew has 13 characters" in response.content.decode()
    assert dummy_tasks.results == []


def test_html_over_the_size_budget_is_refused_before_any_layout(no_layout):
    with pytest.raises(pdf.PdfRefused, match="too long to print"):
        pdf.html_to_pdf("<p>" + "x" * pdf.PDF_HTML_MAX_BYTES + "</p>")
    with pytest.raises(pdf.PdfRefused, match="too long to print"):
        pdf.html_to_pdf("<b></b>" * (pdf.PDF_HTML_MAX_TAGS // 2 + 1))
    assert no_layout == []


def test_a_render_over_its_time_is_stopped_and_the_refusal_remembered(monkeypatch, no_layout):
    monkeypatch.setattr(pdf, "PDF_TIME_LIMIT_SECONDS", 0.2)

    def endless(*args):
        while True:  # busy: the budget counts CPU time
            pass

    monkeypatch.setattr(pdf, "_layout", endless)
    started = time.monotonic()
    with pytest.raises(pdf.PdfRefused, match="longer than 0.2 s"):
        pdf.html_to_pdf("<p>slow</p>")
    assert time.monotonic() - started < 60  # stopped, not endless (not a speed figure)
    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("tried again"))
    with pytest.raises(pdf.PdfRefused, match="longer than 0.2 s"):
        pdf.html_to_pdf("<p>slow</p>")


def test_with_a_task_worker_the_request_answers_preparing_and_queues_once(client, user, geared_crew, dummy_tasks):
    crew = geared_crew(user)
    client.force_login(user)
    first = client.get(roster_url(crew))
    assert first.status_code == 202
    html = first.content.decode()
    assert 'data-pdf-state="preparing"' in html
    assert '<meta http-equiv="refresh" content="2">' in html
    assert first["Cache-Control"] == "no-store"
    again = client.get(roster_url(crew))
    assert again.status_code == 202
    [queued] = dummy_tasks.results
    assert queued.task.name == "render_roster"  # by crew: the request built nothing

    queued.task.call(*queued.args)  # what the worker does
    ready = client.get(roster_url(crew))
    assert ready.status_code == 200
    assert ready["Content-Type"] == "application/pdf" and ready.content.startswith(b"%PDF")
    assert len(dummy_tasks.results) == 1


def test_a_refusal_found_by_the_worker_is_shown_on_the_next_reload(client, user, geared_crew, dummy_tasks, monkeypatch):
    crew = geared_crew(user)
    client.force_login(user)
    assert client.get(roster_url(crew)).status_code == 202
    [queued] = dummy_tasks.results

    def too_slow(*args):
        raise pdf.PdfRefused("This document took longer than 20 s to lay out, the most allowed.")

    monkeypatch.setattr(pdf, "_layout", too_slow)
    queued.task.call(*queued.args)
    response = client.get(roster_url(crew))
    assert response.status_code == 422
    assert "took longer than 20 s" in response.content.decode()


def _agility_step(client, crew, character, version: int, delta: int, capture_on_commit) -> None:
    """The editor's htmx step of one attribute, its commit's callbacks run (the roster queued)."""
    with capture_on_commit(execute=True):
        response = client.post(
            reverse("crew-edit-action", args=[crew.pk, "attribute"]),
            {"version": version, "character": character.pk, "attribute": "agility", "delta": delta},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200


def _quiet_since(crew_id, seconds: float) -> None:
    """As if the crew's last save was ``seconds`` ago."""
    Crew.objects.filter(pk=crew_id).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def test_each_save_queues_the_roster_which_then_prints_with_no_layout(
    client, user, geared_crew, dummy_tasks, monkeypatch, django_capture_on_commit_callbacks
):
    crew = geared_crew(user)
    client.force_login(user)
    character = crew.characters.first()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("crew-edit-action", args=[crew.pk, "add-gear"]),
            {"version": crew.version, "character": character.pk, "slug": "knife"},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200
    [queued] = dummy_tasks.results
    assert queued.task.name == "prerender_roster"
    assert list(queued.args) == [crew.pk, crew.version + 1]
    _quiet_since(crew.pk, roster_tasks.QUIET_SECONDS)  # when the worker runs it
    queued.task.call(*queued.args)

    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("Print should find the roster ready"))
    printed = client.get(roster_url(crew))
    assert printed.status_code == 200 and printed.content.startswith(b"%PDF")


def test_saves_while_a_render_waits_queue_nothing_and_it_renders_the_latest_version(
    client, user, geared_crew, dummy_tasks, monkeypatch, django_capture_on_commit_callbacks
):
    crew = geared_crew(user)
    client.force_login(user)
    character = crew.characters.first()
    for step, delta in enumerate((1, -1, 1)):
        _agility_step(client, crew, character, crew.version + step, delta, django_capture_on_commit_callbacks)
    [queued] = dummy_tasks.results  # one task for the three clicks
    assert list(queued.args) == [crew.pk, crew.version + 1]
    _quiet_since(crew.pk, roster_tasks.QUIET_SECONDS)
    queued.task.call(*queued.args)
    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("Print should find the latest version ready"))
    printed = client.get(roster_url(crew))
    assert printed.status_code == 200 and printed.content.startswith(b"%PDF")

    # Once it has run, the next save queues again.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("crew-edit-action", args=[crew.pk, "attribute"]),
            {"version": crew.version + 3, "character": character.pk, "attribute": "agility", "delta": -1},
            HTTP_HX_REQUEST="true",
        )
    assert [list(r.args) for r in dummy_tasks.results] == [[crew.pk, crew.version + 1], [crew.pk, crew.version + 4]]


def test_a_burst_of_edits_renders_once_after_it(
    client, user, geared_crew, dummy_tasks, monkeypatch, django_capture_on_commit_callbacks
):
    """A render waits until the crew has had no save for QUIET_SECONDS: the PDF worker's core stays free while
    a player clicks through the editor."""
    crew = geared_crew(user)
    client.force_login(user)
    character = crew.characters.first()

    def step(n, delta):
        _agility_step(client, crew, character, crew.version + n, delta, django_capture_on_commit_callbacks)
        return Crew.objects.get(pk=crew.pk).updated_at

    quiet = timedelta(seconds=roster_tasks.QUIET_SECONDS)
    saved_at = step(0, 1)
    [queued] = dummy_tasks.results
    assert saved_at + quiet <= queued.task.run_after <= timezone.now() + quiet  # queued as the save commits

    # The worker runs it while the player is still clicking: nothing laid out, the task waits again.
    saved_at = step(1, -1)
    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("rendered in the middle of a burst"))
    queued.task.call(*queued.args)
    [_, again] = dummy_tasks.results
    assert list(again.args) == [crew.pk, crew.version + 2]
    assert again.task.run_after == saved_at + quiet
    step(2, 1)  # still waiting: this save queues nothing
    assert len(dummy_tasks.results) == 2

    # Quiet now: it renders the latest version, and Print finds it.
    monkeypatch.undo()
    _quiet_since(crew.pk, roster_tasks.QUIET_SECONDS)
    again.task.call(*again.args)
    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("Print should find the latest version ready"))
    printed = client.get(roster_url(crew))
    assert printed.status_code == 200 and printed.content.startswith(b"%PDF")
    assert len(dummy_tasks.results) == 2


def test_a_prerender_for_a_crew_that_is_gone_or_older_does_nothing(user, geared_crew, monkeypatch, settings):
    crew = geared_crew(user)
    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("rendered a crew no one will print"))
    roster_tasks.prerender_roster.call(crew.pk, crew.version + 1)  # an id given again to a newer crew
    roster_tasks.prerender_roster.call(crew.pk + 1000, 1)
    assert not list(settings.PDF_CACHE_DIR.glob("*.pdf"))


def test_the_immediate_backend_serves_the_pdf_in_the_same_request(client, user, geared_crew, settings):
    crew = geared_crew(user)
    client.force_login(user)
    response = client.get(roster_url(crew))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    # kept under its HTML's digest and under the crew's fingerprint (the reprint's fast path)
    stored = sorted(settings.PDF_CACHE_DIR.glob("*.pdf"), key=lambda path: path.name)
    assert len(stored) == 2 and stored[1].name.startswith("r")
    assert all(path.read_bytes() == response.content for path in stored)


def test_the_store_is_shared_on_disk_and_writes_whole_files(settings):
    pdf_store.put("ab12", b"%PDF-1.7 whole")
    assert (settings.PDF_CACHE_DIR / "ab12.pdf").read_bytes() == b"%PDF-1.7 whole"
    assert pdf_store.get("ab12") == b"%PDF-1.7 whole"
    assert not list(settings.PDF_CACHE_DIR.glob(".tmp-*"))
    with pytest.raises(ValueError):
        pdf_store.get("../secret")
    assert pdf_store.claim_pending("cd34") is True
    assert pdf_store.claim_pending("cd34") is False
    pdf_store.put("cd34", b"%PDF")
    assert pdf_store.claim_pending("cd34") is True  # stored: the marker went with it


def test_a_refusal_is_forgotten_after_a_while(settings):
    pdf_store.refuse("ef56", "too slow")
    assert pdf_store.refusal("ef56") == "too slow"
    marker = settings.PDF_CACHE_DIR / "ef56.refused"
    old = time.time() - pdf_store.REFUSAL_TTL_SECONDS - 1
    import os

    os.utime(marker, (old, old))
    assert pdf_store.refusal("ef56") is None
    assert not marker.exists()


def test_a_reprint_reads_the_shared_file_with_a_fixed_number_of_queries(
    client, user, geared_crew, monkeypatch, django_assert_num_queries
):
    crew = geared_crew(user, size=7)
    client.force_login(user)
    first = client.get(roster_url(crew))
    assert first.status_code == 200
    monkeypatch.setattr(pdf, "_layout", lambda *args: pytest.fail("laid out again"))
    monkeypatch.setattr(roster_printing, "roster_context", lambda *args: pytest.fail("built again"))
    # crew (the session and the user from the cache); then the fingerprint: crew, characters, traits, body-mods, gear
    with django_assert_num_queries(6):
        again = client.get(roster_url(crew))
    assert again.status_code == 200 and again.content == first.content


def test_any_change_to_a_character_prints_anew_even_without_a_new_crew_version(client, user, geared_crew):
    # A campaign's roll-table effect saves the character alone (campaigns.services._apply_effect).
    crew = geared_crew(user)
    client.force_login(user)
    before = client.get(roster_url(crew)).content
    character = crew.characters.order_by("position").first()
    character.notes = "Lost an eye"
    character.save()
    after = client.get(roster_url(crew))
    assert after.status_code == 200 and after.content != before
    from tests.crewbuilder.test_pdf import pdf_text

    assert "Lost an eye" in pdf_text(after.content)


def test_every_other_pdf_is_queued_by_its_html_and_served_when_ready(client, catalogue, dummy_tasks):
    # The quick reference stands for every PDF built by core.pdf.render_pdf (campaign summary, drone cards...).
    url = reverse("quick-reference-pdf", args=["cybernekro"])
    first = client.get(url)
    assert first.status_code == 202 and 'data-pdf-state="preparing"' in first.content.decode()
    assert client.get(url).status_code == 202
    [queued] = dummy_tasks.results
    assert queued.task.name == "render_html"
    queued.task.call(*queued.args)
    ready = client.get(url)
    assert ready.status_code == 200 and ready.content.startswith(b"%PDF")
    assert len(dummy_tasks.results) == 1


def test_a_refused_edit_queues_nothing(client, user, geared_crew, dummy_tasks, django_capture_on_commit_callbacks):
    crew = geared_crew(user)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("crew-edit-action", args=[crew.pk, "add-gear"]),
            {"version": crew.version, "character": crew.characters.first().pk, "slug": "bfg-9000"},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 422
    assert dummy_tasks.results == []
