"""Soylent Ghoul in the game registry: its home tile, drone sets (crews of its
system) in "My crews", their pages, and the drone cards printed from a crew file."""

from django.urls import reverse

from core.games.registry import CrewList, GameEntry
from crewbuilder.crewfile import BadFormat, check_crew_file, read_envelope
from games.soylent_ghoul.play import entry as play_entry

from . import services
from .models import DroneSet
from .printing import cards_pdf, view_from_file


def crew_url(crew, token: str | None) -> str:
    if token:
        return reverse("soylent-set-shared", args=[token])
    drone_set = DroneSet.objects.filter(crew=crew).only("pk").first()
    return reverse("soylent-set-detail", args=[drone_set.pk]) if drone_set else reverse("soylent-home")


def crew_file_pdf(raw: bytes, paper: str):
    """A drone set file prints its drone cards; None for a file of another system."""
    try:
        if read_envelope(raw).get("system") != services.SYSTEM:
            return None
    except BadFormat:
        return None
    crew, report, code = check_crew_file(raw)
    if crew is None or not report["valid"]:
        return None, report, code
    return cards_pdf(view_from_file(crew), paper), report, code


ENTRY = GameEntry(
    slug="soylent-ghoul",
    title="Soylent Ghoul",
    blurb="Drone sets with secret true tokens, printable cards and token sheets, and a game tracker for the table.",
    home_url_name="soylent-home",
    order=10,
    in_progress=play_entry.in_progress,
    crew_system=services.SYSTEM,
    crew_url=crew_url,
    crew_list=CrewList(
        title="Soylent Ghoul drone sets", template="soylent/_crew_list_rows.html", rows=services.sets_for
    ),
    crew_file_pdf=crew_file_pdf,
    pdf_kinds=("cards", "tokens", "key"),
)
