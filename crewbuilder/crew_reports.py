"""A crew's validation report and the status the pages and lists show from it.

Its own module because both the crew pages (crew_service) and the stored list
summaries (crew_summary) need it, and crew_service lists crews through
crew_summary.
"""

from __future__ import annotations

from catalogue.loader import snapshot_for_system
from crewbuilder.models import Crew
from crewbuilder.validation import crew_to_data, validate_crew


def report_for(crew: Crew, catalogue=None, characters: list[dict] | None = None) -> dict:
    """The report of a Crew (load it with ``Crew.objects.with_everything()``): the web pages, import and the CLI
    all validate through this. ``characters``: the characters' crew-file data, when the caller has it."""
    catalogue = catalogue or snapshot_for_system(crew.system)
    return validate_crew(crew_to_data(crew, characters), catalogue, crew.accepted_findings)


def status_of(report: dict) -> str:
    if report["valid"]:
        return "valid"
    if report.get("accepted") and report.get("valid_with_house_rules"):
        return "house_rules"
    return "invalid"
