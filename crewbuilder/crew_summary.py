"""The stored summary of a crew that lists show: points, status, error count.

A list of 200 crews must not validate 200 crews on every request, so each
crew keeps its last answer in ``Crew.summary_*`` with the stamp of the state
it was computed from: the crew's ``version`` (bumped by every edit, in the
editor and in campaigns) and its system's ``catalogue_version`` (bumped by every
catalogue or house-rule change). A stamp that no longer matches is stale and
is recomputed the next time the crew is validated or listed, so a list is
always true without any writer having to remember the summary.
"""

from __future__ import annotations

from crewbuilder.crew_reports import report_for, status_of
from crewbuilder.models import Crew


def stamp_of(crew: Crew) -> str:
    return f"{crew.version}:{crew.system.catalogue_version}"


def is_fresh(crew: Crew) -> bool:
    return bool(crew.summary_stamp) and crew.summary_stamp == stamp_of(crew)


def _values(crew: Crew, report: dict) -> dict:
    return {
        "summary_points": report["points"],
        "summary_status": status_of(report),
        "summary_errors": len(report["errors"]),
        "summary_stamp": stamp_of(crew),
    }


def store(crew: Crew, report: dict) -> None:
    """Keep the report's summary on the crew; no query when it is already there."""
    values = _values(crew, report)
    if all(getattr(crew, name) == value for name, value in values.items()):
        return
    for name, value in values.items():
        setattr(crew, name, value)
    # update(), not save(): the summary is no edit (no version bump, no new updated_at).
    Crew.objects.filter(pk=crew.pk, version=crew.version).update(**values)


def refresh_stale(crews) -> None:
    """Recompute the summaries of the listed crews that are stale (none: no query)."""
    stale = [crew for crew in crews if not is_fresh(crew)]
    if not stale:
        return
    full = {c.pk: c for c in Crew.objects.with_everything().filter(pk__in=[c.pk for c in stale])}
    for crew in stale:
        loaded = full.get(crew.pk)
        if loaded is None:
            continue
        store(loaded, report_for(loaded))
        for name in ("summary_points", "summary_status", "summary_errors", "summary_stamp"):
            setattr(crew, name, getattr(loaded, name))
