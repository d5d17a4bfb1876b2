"""validation.check_character: a character is checked once per content and catalogue (a crew edit changes one)."""

import copy

from crewbuilder import validation
from crewbuilder.validation import CatalogueSnapshot, validate_crew
from tests.crewbuilder.test_validation import CATALOGUE_FILE, STR0, char, crew

OVERLOADED = char("Mule", attributes=STR0, gear=["sword", "axe", "lantern", "rifle", "gas-mask"])


def _counted(monkeypatch) -> list:
    checked = []
    check = validation._check_character

    def counting(character, catalogue, findings):
        checked.append(character["name"])
        return check(character, catalogue, findings)

    monkeypatch.setattr(validation, "_check_character", counting)
    return checked


def test_an_edit_checks_only_the_changed_character(monkeypatch):
    catalogue = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    checked = _counted(monkeypatch)
    data = crew(char("A"), char("B"), char("C"))
    first = validate_crew(data, catalogue)
    edited = copy.deepcopy(data)
    edited["characters"][1]["gear"] = ["sword"]
    second = validate_crew(edited, catalogue)
    assert checked == ["A", "B", "C", "B"]
    assert second["points"] == first["points"] + catalogue.items["sword"]["cost"]
    assert second == validate_crew(edited, CatalogueSnapshot.from_file(CATALOGUE_FILE))  # as if never kept


def test_a_kept_character_keeps_its_findings_in_crew_order(monkeypatch):
    catalogue = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    data = crew(char("A"), OVERLOADED, char("C"))
    first = validate_crew(data, catalogue)
    checked = _counted(monkeypatch)
    again = validate_crew(data, catalogue)
    assert checked == []
    assert again == first
    assert [(f["code"], f["character"]) for f in again["errors"]] == [("over-capacity", "Mule")]


def test_each_report_has_its_own_objects():
    catalogue = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    data = crew(OVERLOADED)
    first = validate_crew(data, catalogue)
    first["characters"][0]["carry"]["used"] = 99
    first["characters"][0]["weapons"].clear()
    first["errors"][0]["message"] = "changed"
    second = validate_crew(data, catalogue)
    assert second["characters"][0]["carry"]["used"] == 6
    assert second["characters"][0]["weapons"]
    assert second["errors"][0]["message"] != "changed"


def test_another_catalogue_checks_again():
    cheap = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    dear = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    dear.items["sword"] = {**dear.items["sword"], "cost": dear.items["sword"]["cost"] + 5}  # a house rule
    data = crew(char("A", gear=["sword"]))
    assert validate_crew(data, dear)["points"] == validate_crew(data, cheap)["points"] + 5


def test_the_kept_reports_are_bounded(monkeypatch):
    monkeypatch.setattr(validation, "MAX_CHECKED_CHARACTERS", 3)
    catalogue = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    for n in range(7):
        validate_crew(crew(char(f"N{n}"), fill=1), catalogue)
        assert len(catalogue.checked_characters) <= 3


def test_validation_leaves_the_crew_data_as_it_was():
    """The editor hands the same character data to the reports of several versions (crew_service.crew_view)."""
    catalogue = CatalogueSnapshot.from_file(CATALOGUE_FILE)
    data = crew(OVERLOADED, char("B", traits=["bestial"], gear=["rifle", "heavy-armor"]), char("C", traits=["bestial"]))
    before = copy.deepcopy(data)
    for _ in range(2):
        validate_crew(data, catalogue, [{"code": "over-capacity", "character": "Mule", "note": "house"}])
        assert data == before
