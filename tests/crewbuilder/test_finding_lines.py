"""Alike findings as one line (crewbuilder.finding_lines), shared by the printed cards and the editor."""

import pytest

from crewbuilder import pdf
from crewbuilder.finding_lines import finding_lines
from crewbuilder.validation import CatalogueSnapshot


@pytest.fixture(scope="module")
def rules():
    return pdf.Catalogue.from_file("cybernekro")


BESTIAL = "BESTIAL models can only fight, get up, move; {} is carried but cannot be used."


def test_finding_lines_share_a_line_when_messages_differ_in_one_name(rules):
    def finding(message, code="bestial-unusable-item", kind="advice", **extra):
        return {"code": code, "kind": kind, "character": "Vox", "message": message, **extra}

    items = ["auto pistol", "auto rifle", "esoteric concoction"]
    artificial = "ARTIFICIAL models can only take body-mods marked // A; {} is not."
    findings = [
        finding(BESTIAL.format(items[0])),
        finding(artificial.format("Extra organs"), "artificial-body-mod", "not valid"),
        finding(BESTIAL.format(items[1])),
        finding("Vox carries 9 items; the most is 7.", "over-capacity", "not valid"),
        finding(BESTIAL.format(items[2])),
        finding(artificial.format("Neural cabling"), "artificial-body-mod", "not valid"),
    ]
    lines = finding_lines(findings, rules.message_tokens)
    assert [(line["code"], line["count"]) for line in lines] == [
        ("bestial-unusable-item", 3),
        ("artificial-body-mod", 2),
        ("over-capacity", 1),
    ]
    bestial, body_mods, capacity = lines
    # a name from the catalogue is never cut: "auto pistol / auto rifle", not "auto pistol / rifle"
    assert bestial["before"] == "BESTIAL models can only fight, get up, move; "
    assert bestial["parts"] == items
    assert bestial["after"] == " is carried but cannot be used."
    assert body_mods["parts"] == ["Extra organs", "Neural cabling"] and body_mods["after"] == " is not."
    assert capacity["before"] == "Vox carries 9 items; the most is 7." and capacity["parts"] == []

    # without the catalogue's names only whole words are kept apart
    assert finding_lines(findings[:3:2])[0]["parts"] == ["pistol", "rifle"]


def test_finding_lines_keep_unlike_messages_and_notes_apart(rules):
    def finding(message, note=None):
        return {"code": "odd", "kind": "advice", "character": "Vox", "message": message, "note": note}

    unlike = finding_lines([finding("The sky is red."), finding("Bring a lantern.")], rules.message_tokens)
    assert [(line["before"], line["parts"]) for line in unlike] == [("The sky is red.", []), ("Bring a lantern.", [])]
    same = finding_lines([finding("The sky is red.")] * 3, rules.message_tokens)
    assert [(line["before"], line["count"], line["parts"]) for line in same] == [("The sky is red.", 3, [])]
    noted = finding_lines(
        [finding(BESTIAL.format("auto pistol"), "ours"), finding(BESTIAL.format("auto rifle"))], rules.message_tokens
    )
    assert [(line["note"], line["count"], line["parts"]) for line in noted] == [("ours", 1, []), ("", 1, [])]


def test_alike_findings_of_two_characters_stay_apart(rules):
    lines = finding_lines(
        [
            {"code": "bestial-unusable-item", "character": "Vox", "message": BESTIAL.format("auto pistol")},
            {"code": "bestial-unusable-item", "character": "Ash", "message": BESTIAL.format("auto rifle")},
            {"code": "bestial-unusable-item", "character": "Vox", "message": BESTIAL.format("crossbow")},
        ],
        rules.message_tokens,
    )
    assert [(line["character"], line["parts"]) for line in lines] == [
        ("Vox", ["auto pistol", "crossbow"]),
        ("Ash", []),
    ]
    assert lines[1]["before"] == BESTIAL.format("auto rifle")


def test_the_validators_catalogue_keeps_the_same_names_whole(rules):
    from catalogue.loader import catalogue_file_for

    snapshot = CatalogueSnapshot(catalogue_file_for("cybernekro"))
    messages = [BESTIAL.format("auto pistol"), BESTIAL.format("auto rifle")]
    assert snapshot.message_tokens.findall(messages[0]) == rules.message_tokens.findall(messages[0])
    line = finding_lines([{"code": "x", "message": m, "rule": "p. 9"} for m in messages], snapshot.message_tokens)
    assert line == [
        {
            "kind": "",
            "code": "x",
            "character": None,
            "note": "",
            "rule": "p. 9",
            "count": 2,
            "before": "BESTIAL models can only fight, get up, move; ",
            "parts": ["auto pistol", "auto rifle"],
            "after": " is carried but cannot be used.",
        }
    ]
