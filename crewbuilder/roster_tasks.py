"""Cybernekr0 rosters from the shared PDF cache, and rendered ahead after each save.

The generic machinery (the on-disk cache, the task that renders queued HTML,
the "preparing" and "refused" pages) is core.pdf_store and core.pdf_tasks; a
roster adds its own key and tasks, queued by crew rather than by HTML:

- A roster is found in the cache by a fingerprint of the stored rows it is
  printed from (``roster_fingerprint``), so a reprint builds nothing.
- After each save of a Cybernekr0 crew, its roster is queued for the owner's
  paper (``prerender_roster``), so "Print roster" finds it ready; one task
  waits per crew at a time, and renders the crew as it is once it has had no
  save for QUIET_SECONDS (a burst of edits renders once, after it). Only
  where a worker runs: with the immediate backend a save would wait for the render.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from pathlib import Path

import weasyprint
from django.db import transaction
from django.template.loader import get_template
from django.utils import timezone

from core import pdf, pdf_store
from core.pdf_tasks import runs_immediately, task
from crewbuilder import crew_service  # a module import, read at call time: crew_service -> crew_edits -> here
from crewbuilder import pdf as roster_printing
from crewbuilder.models import Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew
from crewbuilder.validation import crew_to_data

# --------------------------------------------------------------------------
# Rosters rendered ahead, after each save.


def _roster_sources() -> list:
    """The files a roster's look comes from (found through the template loader, wherever templates live)."""
    return [Path(get_template("pdf/roster.html").origin.name), Path(roster_printing.__file__), Path(pdf.__file__)]


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
    characters = list(Character.objects.filter(crew_id=crew_id).order_by("pk").values_list())
    parts = {
        model: list(model.objects.filter(character__crew_id=crew_id).order_by("pk").values_list())
        for model in (CharacterTrait, CharacterBodyMod, CharacterGear)
    }
    rows = [
        list(
            Crew.objects.filter(pk=crew_id).values_list(
                "name",
                "notes",
                "budget",
                "accepted_findings",
                "version",
                "updated_at",
                "system_id",
                "system__catalogue_version",
                "system__edition",
            )
        ),
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
    outline = {
        "characters": [
            {
                "name": row[name_at],
                "traits": [None] * traits.get(row[0], 0),
                "body_mods": [None] * mods.get(row[0], 0),
                "gear": [None] * gear.get(row[0], 0),
            }
            for row in characters
        ]
    }
    return "r" + hashlib.sha256(encoded).hexdigest(), outline


def roster_pdf_for(crew_id: int, paper: str) -> bytes:
    """A crew's roster from the shared cache by its fingerprint, else rendered (the view and the tasks share it).

    During a request with a task worker, a roster not in the cache is checked
    against the crew limits (from the fingerprint's rows: a refusal comes at
    once) and queued by crew: the request builds nothing.
    """
    fingerprint, outline = roster_fingerprint(crew_id, paper)
    found = pdf_store.get(fingerprint)
    if found is not None:
        return found
    refused = pdf_store.refusal(fingerprint)
    if refused is not None:
        raise pdf.PdfRefused(refused)
    roster_printing.check_roster_budget(outline)
    if pdf.DEFER_RENDERING.get() is not None and not runs_immediately():
        if pdf_store.claim_pending(fingerprint):
            try:
                render_roster.enqueue(crew_id, pdf.normalize_paper(paper), fingerprint)
            except Exception:
                pdf_store.release_pending(fingerprint)
                raise
        raise pdf.PdfPreparing(fingerprint)
    crew = Crew.objects.with_everything().get(pk=crew_id)
    catalogue = roster_printing.Catalogue.from_db(crew.system)
    try:
        data = roster_printing.roster_pdf(crew_to_data(crew), crew_service.report_for(crew), catalogue, paper)
    except pdf.PdfRefused as refusal:
        pdf_store.refuse(fingerprint, refusal.message)
        raise
    pdf_store.put(fingerprint, data)
    return data


@task()
def render_roster(crew_id: int, paper: str, fingerprint: str) -> None:
    """A roster asked for while not in the cache (the preparing page waits for it)."""
    token = pdf.DEFER_RENDERING.set(None)
    try:
        roster_pdf_for(crew_id, paper)
    except pdf.PdfRefused:
        pass  # stored under the fingerprint; the next reload shows it
    finally:
        pdf_store.release_pending(fingerprint)  # done, or failed: a reload may queue it again
        pdf.DEFER_RENDERING.reset(token)


def _prerender_key(crew_id: int) -> str:
    return f"prerender{crew_id}"


@task()
def prerender_roster(crew_id: int, version: int) -> None:
    """The crew's roster as it is now (at ``version`` or later): saves made while this one waited queued nothing.

    A crew saved again within QUIET_SECONDS is still being edited: the task queues itself for later instead."""
    key = _prerender_key(crew_id)
    crew = Crew.objects.select_related("owner").exclude(system__slug="soylent-ghoul").filter(pk=crew_id).first()
    if crew is None or crew.version < version:
        pdf_store.release_pending(key)
        return  # deleted (its id given again to a newer crew, on SQLite)
    if timezone.now() < crew.updated_at + timedelta(seconds=QUIET_SECONDS):
        # Still marked pending, so saves meanwhile queue nothing; the marker is renewed, as for a fresh claim.
        pdf_store.keep_pending(key)
        _enqueue_prerender(crew.pk, crew.version, crew.updated_at)
        return
    # Released before the rows are read: a save that commits after this read queues a render of its own.
    pdf_store.release_pending(key)
    token = pdf.DEFER_RENDERING.set(None)
    try:
        roster_pdf_for(crew.pk, pdf.normalize_paper(getattr(crew.owner, "paper_size", None)))
    except pdf.PdfRefused:
        pass  # stored; the Print link will say why
    finally:
        pdf.DEFER_RENDERING.reset(token)


# A roster is rendered once its crew has had no save for this long: a player's burst of edits (a click
# each) renders once, after it, instead of keeping the PDF worker's core busy while the table plays
# (benchmarks/bench_editor_http.py). "Print" within it asks for its own render, at once.
QUIET_SECONDS = 3


def roster_saved(crew_id: int, version: int) -> None:
    """Queue the crew's roster once the save commits, if it commits (only where a task worker runs).

    One render waits per crew at a time: a player's burst of edits (a click each) queues one task, which renders
    whatever the crew is when the crew has been quiet for QUIET_SECONDS, instead of a task row written per click
    and all but the last skipped."""
    if runs_immediately():
        return
    transaction.on_commit(lambda: _queue_prerender(crew_id, version))


def _queue_prerender(crew_id: int, version: int) -> None:
    key = _prerender_key(crew_id)
    if pdf_store.claim_pending(key):
        try:
            _enqueue_prerender(crew_id, version, timezone.now())
        except Exception:
            pdf_store.release_pending(key)
            raise


def _enqueue_prerender(crew_id: int, version: int, saved_at) -> None:
    prerender_roster.using(run_after=saved_at + timedelta(seconds=QUIET_SECONDS)).enqueue(crew_id, version)
