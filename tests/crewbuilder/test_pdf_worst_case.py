"""The roster of a crew at every limit (benchmarks/worst_case.py) prints every item, on A4 and Letter.

The guard for any change to the roster's layout made for speed (issue 20): whatever the
cards' arrangement, every character's name, points, weapons and gear with their
quantities, traits, body-mods, notes and the sorcery checklist are on the paper.
Text is compared with all whitespace removed, so a long name wrapped inside its
card still counts, and case-folded, as rule names print in capitals.
"""

import re
import shutil
from collections import Counter

import pytest

from benchmarks.worst_case import worst_crew
from crewbuilder import crew_service
from crewbuilder import pdf as roster_printing
from crewbuilder.models import CharacterGear, CharacterTrait, Crew, Trait
from crewbuilder.validation import crew_to_data
from tests.crewbuilder.test_pdf import card_places, pdf_text, roster_html

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


@pytest.fixture
def worst(catalogue, django_user_model):
    owner = django_user_model.objects.create_user("worst-owner", password="x" * 20)
    crew = worst_crew(owner, catalogue, characters=7)
    # Whatever traits the worst case takes, its last character's last trait becomes Sorcerer, so that
    # card surely carries the techno-sorcery checklist too.
    last = CharacterTrait.objects.filter(character__crew=crew).order_by("character__position", "position").last()
    last.trait = Trait.objects.get(system=catalogue, slug="sorcerer")
    last.save()
    # Its items are all different: the first character carries two of a weapon and two of a piece of
    # gear instead, so the quantities are printed too.
    first = list(CharacterGear.objects.filter(character__crew=crew, character__position=0).order_by("position"))
    for category in ("weapon", "equipment"):
        rows = [row for row in first if row.item.category == category]
        rows[1].item = rows[0].item
        rows[1].save()
    crew = Crew.objects.with_everything().get(pk=crew.pk)
    return crew_to_data(crew), crew_service.report_for(crew), roster_printing.Catalogue.from_db(catalogue)


@pytest.mark.parametrize("paper", ["A4", "LETTER"])
def test_worst_case_roster_prints_every_item(worst, paper):
    crew_file, report, catalogue = worst
    data = roster_printing.roster_pdf(crew_file, report, catalogue, paper, cache=False)
    text = squeezed(pdf_text(data))

    assert squeezed(f"{report['points']} / {report['budget']}") in text
    sorcerers = 0
    assert max(Counter(crew_file["characters"][0]["gear"]).values()) == 2
    for character, checked in zip(crew_file["characters"], report["characters"], strict=True):
        assert squeezed(character["name"]) in text
        assert squeezed(f"{checked['points']} pts") in text
        assert squeezed(character["notes"]) in text
        for slug, count in Counter(character["gear"]).items():
            section, entry = catalogue.item(slug)
            name = entry["name"][0].upper() + entry["name"][1:] if section == "weapons" else entry["name"]
            assert squeezed(name + (f" ×{count}" if count > 1 else "")) in text, (character["name"], slug)
        sorcerer = False
        for slug in character["traits"]:
            trait = catalogue.entry("traits", slug if isinstance(slug, str) else slug["slug"])
            assert squeezed(trait["name"]) in text, slug
            sorcerer = sorcerer or bool(trait.get("sorcerer"))
        sorcerers += sorcerer
        for slug in character["body_mods"]:
            assert squeezed(catalogue.entry("body_mods", slug)["name"]) in text, slug

    assert sorcerers, "the worst case should have a sorcerer, whose card carries the checklist"
    for sorcery in catalogue.entries("sorceries"):
        checklist_line = squeezed(f"☐ {sorcery['number']} {sorcery['name']}")
        assert text.count(checklist_line) == sorcerers, sorcery["name"]


def unhyphenated(text: str) -> str:
    return squeezed(text).replace("-", "")


def test_worst_case_cards_print_every_finding_once_alike_ones_on_a_line(worst):
    crew_file, report, catalogue = worst
    context = roster_printing.roster_context(crew_file, report, catalogue, "A4")
    text = squeezed(pdf_text(roster_printing.roster_pdf(crew_file, report, catalogue, "A4", cache=False)))
    grouped = 0
    for card in context["cards"]:
        lines = card["finding_lines"]
        messages = [line["before"] + part + line["after"] for line in lines for part in line["parts"]]
        messages += [line["before"] for line in lines if not line["parts"]]
        assert sorted(messages) == sorted({f["message"] for f in card["findings"]}), card["name"]
        assert sum(line["count"] for line in lines) == len(card["findings"])
        for line in lines:
            printed = f"{line['code']}{' ×%d' % line['count'] if line['count'] > 1 else ''}: {line['before']}"
            # pdftotext drops a hyphen a line ends on: "body-" / "mods" reads "bodymods"
            assert unhyphenated(printed + " / ".join(line["parts"]) + line["after"]) in unhyphenated(text), line
        grouped += sum(line["count"] - 1 for line in lines)
    assert grouped >= 50  # the bestial characters' unusable items, each rule printed once per card


def test_worst_case_planned_breaks_only_spare_layout(worst):
    crew_file, report, catalogue = worst
    _, html = roster_html(crew_file, report, catalogue, "A4")
    assert html.count(" new-page") >= 5  # the cards of a page and more that the plan sends on to a page
    assert card_places(html, "A4") == card_places(html.replace(" new-page", ""), "A4")
