"""PDFs rendered off the request path, so a print never holds a web worker.

The design (docs/limits.md, "PDFs and the web workers"):

- Every rendered PDF lands in a cache on disk shared by all workers and kept
  across restarts (crewbuilder.pdf_store). A reprint is a template render and
  a file read, from any worker.
- During a web request (``PdfMiddleware`` sets ``pdf.DEFER_RENDERING``) a PDF
  not yet in the cache is queued as a task (the ``django-tasks`` backport,
  its database backend where a worker runs: ``make serve`` starts one) and
  the request answers at once with a "preparing" page that reloads itself.
  One marker file per PDF stops a reload from queueing it again.
- With the immediate backend (``make run``, the tests) nothing is queued: the
  PDF is rendered in the request and served straight away.
- After each save of a Cybernekr0 crew, its roster is queued for the owner's
  paper (``prerender_roster``), so "Print roster" finds it ready. Only where a
  worker runs: with the immediate backend a save would wait for the render.
- Over its budget (crewbuilder.limits) a PDF is refused with a page saying
  why (``PdfMiddleware``), never a 500; the refusal is remembered for a while
  so asking again costs nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.db import transaction
from django.http import HttpResponse
from django.template.loader import render_to_string

from crewbuilder import pdf, pdf_store

try:  # Django 6 has the Tasks framework built in; 5.2 takes the backport
    from django.tasks import task, task_backends
    from django.tasks.backends.immediate import ImmediateBackend
except ImportError:  # pragma: no cover - depends on the Django version
    from django_tasks import task, task_backends
    from django_tasks.backends.immediate import ImmediateBackend

PREPARING_RELOAD_SECONDS = 2


def runs_immediately() -> bool:
    return isinstance(task_backends["default"], ImmediateBackend)


@task()
def render_html(key: str, html: str, paper: str) -> None:
    """Render queued HTML into the shared cache (a refusal is stored there too)."""
    if pdf_store.get(key) is not None:
        return
    token = pdf.DEFER_RENDERING.set(False)
    try:
        pdf.html_to_pdf(html, paper)
    except pdf.PdfRefused:
        pass  # html_to_pdf stored the refusal; the preparing page shows it
    finally:
        pdf_store.release_pending(key)
        pdf.DEFER_RENDERING.reset(token)


def render_later(key: str, html: str, paper: str) -> None:
    """Queue the render for the task worker once (a marker stops reloads queueing it again); raise PdfPreparing."""
    if pdf_store.claim_pending(key):
        try:
            render_html.enqueue(key, html, paper)
        except Exception:
            pdf_store.release_pending(key)
            raise
    raise pdf.PdfPreparing(key)


# --------------------------------------------------------------------------
# Rosters rendered ahead, after each save.


def _roster_sources() -> list:
    """The files a roster's look comes from (found through the template loader, wherever templates live)."""
    from django.template.loader import get_template

    return [Path(get_template("pdf/roster.html").origin.name), Path(pdf.__file__)]


def _rows_by_character(model, rows: list, count_field: str | None = None) -> dict:
    names = [field.attname for field in model._meta.concrete_fields]
    owner, count = names.index("character_id"), names.index(count_field) if count_field else None
    totals: dict = {}
    for row in rows:
        totals[row[owner]] = totals.get(row[owner], 0) + (row[count] if count is not None else 1)
    return totals


def roster_fingerprint(crew_id: int, paper: str) -> tuple[str, dict]:
    """A digest of every stored row a crew's roster is printed from, read without building anything.

    Five plain queries (the crew with its catalogue version, its characters,
    traits, body-mods and gear as tuples) instead of loading the models,
    validating and rendering the template: a reprint is then a file read. Any
    change to any of those rows, the catalogue, the paper, the roster template
    or the printing code gives another digest, so a stale roster is never served.
    Also returns the crew's outline (counts per character) for the budget check.
    """
    import weasyprint

    from crewbuilder.models import Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew

    characters = list(Character.objects.filter(crew_id=crew_id).order_by("pk").values_list())
    parts = {model: list(model.objects.filter(character__crew_id=crew_id).order_by("pk").values_list())
             for model in (CharacterTrait, CharacterBodyMod, CharacterGear)}
    rows = [
        list(Crew.objects.filter(pk=crew_id).values_list(
            "name", "notes", "budget", "accepted_findings", "version", "updated_at", "system_id",
            "system__catalogue_version", "system__edition")),
        characters,
        *parts.values(),
        [pdf.normalize_paper(paper), weasyprint.__version__, pdf._stylesheet_version()],
        [source.stat().st_mtime_ns for source in _roster_sources()],
    ]
    encoded = json.dumps(rows, default=str, sort_keys=True).encode("utf-8")
    traits = _rows_by_character(CharacterTrait, parts[CharacterTrait])
    mods = _rows_by_character(CharacterBodyMod, parts[CharacterBodyMod])
    gear = _rows_by_character(CharacterGear, parts[CharacterGear], "copies")
    name_at = [field.attname for field in Character._meta.concrete_fields].index("name")
    outline = {"characters": [
        {"name": row[name_at], "traits": [None] * traits.get(row[0], 0), "body_mods": [None] * mods.get(row[0], 0),
         "gear": [None] * gear.get(row[0], 0)}
        for row in characters
    ]}
    return "r" + hashlib.sha256(encoded).hexdigest(), outline


def roster_pdf_for(crew_id: int, paper: str) -> bytes:
    """A crew's roster from the shared cache by its fingerprint, else rendered (the view and the tasks share it).

    During a request with a task worker, a roster not in the cache is checked
    against the crew limits (from the fingerprint's rows: a refusal comes at
    once) and queued by crew: the request builds nothing.
    """
    from crewbuilder.crew_service import report_for
    from crewbuilder.models import Crew
    from crewbuilder.validation import crew_to_data

    fingerprint, outline = roster_fingerprint(crew_id, paper)
    found = pdf_store.get(fingerprint)
    if found is not None:
        return found
    refused = pdf_store.refusal(fingerprint)
    if refused is not None:
        raise pdf.PdfRefused(refused)
    pdf.check_roster_budget(outline)
    if pdf.DEFER_RENDERING.get() and not runs_immediately():
        if pdf_store.claim_pending(fingerprint):
            try:
                render_roster.enqueue(crew_id, pdf.normalize_paper(paper), fingerprint)
            except Exception:
                pdf_store.release_pending(fingerprint)
                raise
        raise pdf.PdfPreparing(fingerprint)
    crew = Crew.objects.with_everything().get(pk=crew_id)
    catalogue = pdf.Catalogue.from_db(crew.system)
    try:
        data = pdf.roster_pdf(crew_to_data(crew), report_for(crew), catalogue, paper)
    except pdf.PdfRefused as refusal:
        pdf_store.refuse(fingerprint, refusal.message)
        raise
    pdf_store.put(fingerprint, data)
    return data


@task()
def render_roster(crew_id: int, paper: str, fingerprint: str) -> None:
    """A roster asked for while not in the cache (the preparing page waits for it)."""
    token = pdf.DEFER_RENDERING.set(False)
    try:
        roster_pdf_for(crew_id, paper)
    except pdf.PdfRefused:
        pass  # stored under the fingerprint; the next reload shows it
    finally:
        pdf_store.release_pending(fingerprint)  # done, or failed: a reload may queue it again
        pdf.DEFER_RENDERING.reset(token)


@task()
def prerender_roster(crew_id: int, version: int) -> None:
    from crewbuilder.models import Crew

    crew = Crew.objects.select_related("owner").exclude(system__slug="soylent-ghoul").filter(pk=crew_id).first()
    if crew is None or crew.version != version:
        return  # deleted, or saved again since: the later save queued its own render
    token = pdf.DEFER_RENDERING.set(False)
    try:
        roster_pdf_for(crew.pk, pdf.normalize_paper(getattr(crew.owner, "paper_size", None)))
    except pdf.PdfRefused:
        pass  # stored; the Print link will say why
    finally:
        pdf.DEFER_RENDERING.reset(token)


def roster_saved(crew_id: int, version: int) -> None:
    """Queue the crew's roster once the save commits, if it commits (only where a task worker runs)."""
    if runs_immediately():
        return
    transaction.on_commit(lambda: prerender_roster.enqueue(crew_id, version))


# --------------------------------------------------------------------------
# The pages a PDF request may get instead of a PDF.


class PdfMiddleware:
    """Defers PDF rendering during requests; turns PdfPreparing and PdfRefused into pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = pdf.DEFER_RENDERING.set(True)
        try:
            return self.get_response(request)
        finally:
            pdf.DEFER_RENDERING.reset(token)

    def process_exception(self, request, exception):
        if isinstance(exception, pdf.PdfPreparing):
            return status_page(request, "preparing", 202, reload=PREPARING_RELOAD_SECONDS)
        if isinstance(exception, pdf.PdfRefused):
            return status_page(request, "refused", 422, message=exception.message)
        return None


def status_page(request, state: str, status: int, *, message: str = "", reload: int | None = None) -> HttpResponse:
    html = render_to_string(
        "pdf_status.html", {"state": state, "message": message, "reload": reload}, request=request
    )
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = "no-store"
    if reload:
        response["Retry-After"] = str(reload)
    return response
