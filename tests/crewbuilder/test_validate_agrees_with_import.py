"""`crew validate` and the web import judge one file alike (crew-format.md: "the validator must give the same
report for a crew in the web app and for its exported file").

Each case runs the function behind `crew validate` (``check_crew_file`` on the app's catalogue), the command
itself (its exit code and printed report) and a logged-in import of the same file, and asserts they agree:
- a blank, overlong or hostile name and a listed ``fists`` cannot be read as a crew: ``bad-format``, exit 2,
  the import refuses the file showing the same message (readings 8 and 8a, docs/rules-interpretations.md);
- an item the catalogue marks not for sale (a house rule) is a rules error: ``not-purchasable``, exit 1, and the
  import keeps the crew as a draft with that error (reading 8).
"""

import html
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from crewbuilder.crewfile import EXIT_ERRORS, EXIT_UNREADABLE, EXIT_VALID, check_crew_file, export_crew
from crewbuilder.models import Crew, Item

LEGAL = {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1}


def crew_data():
    return {
        "format": "crewbuilder.crew/1",
        "system": "cybernekro",
        "name": "Saints of Rust",
        "budget": 150,
        "characters": [
            {"name": "Vox", "attributes": dict(LEGAL), "traits": ["big"], "body_mods": [], "gear": ["sword"]},
            {"name": "Mara", "attributes": dict(LEGAL), "traits": [], "body_mods": [], "gear": ["rifle"]},
            {"name": "Ilse", "attributes": dict(LEGAL), "traits": [], "body_mods": [], "gear": ["knife", "lantern"]},
        ],
    }


def run_crew(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("crew", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


def validate(tmp_path, data):
    """(report, exit code) of `crew validate`, the function and the command agreeing with each other."""
    raw = json.dumps(data, ensure_ascii=False).encode()
    _, report, code = check_crew_file(raw)
    path = tmp_path / "crew.json"
    path.write_bytes(raw)
    command_code, out, _ = run_crew("validate", str(path))
    printed = json.loads(out)
    assert command_code == code
    assert [(e["code"], e["message"]) for e in printed["errors"]] == [
        (e["code"], e["message"]) for e in report["errors"]
    ]
    return report, code


def web_import(client, data):
    """(response, the crew it stored or None) of a logged-in POST of the file to the import page."""
    before = list(Crew.objects.values_list("pk", flat=True))
    upload = SimpleUploadedFile("crew.json", json.dumps(data, ensure_ascii=False).encode(), "application/json")
    response = client.post(reverse("crew-import"), {"file": upload})
    return response, Crew.objects.exclude(pk__in=before).first()


def assert_both_refuse(client, tmp_path, data, where, says):
    report, code = validate(tmp_path, data)
    assert code == EXIT_UNREADABLE, report["errors"]
    assert [e["code"] for e in report["errors"]] == ["bad-format"]
    message = report["errors"][0]["message"]
    assert message.startswith(where + ": ") and says in message, message
    response, crew = web_import(client, data)
    assert response.status_code == 422 and crew is None
    assert response.context["problems"] == [message]  # the validator's words, shown as they are
    assert html.escape(message) in response.content.decode()
    # the `crew import` command refuses it the same way
    path = tmp_path / "crew.json"
    cli_code, _, err = run_crew("import", str(path), "--owner", "vox")
    assert cli_code == EXIT_UNREADABLE and json.loads(err)["errors"][0]["message"] == message
    assert not Crew.objects.exists()


@pytest.fixture
def logged_in(client, user, catalogue):
    client.force_login(user)
    return client


# ---------------------------------------------------------------- names


def _crew_name(value):
    data = crew_data()
    data["name"] = value
    return data


def _character_name(value):
    data = crew_data()
    data["characters"][1]["name"] = value
    return data


@pytest.mark.parametrize("blank", ["", "   ", "\u00a0 \u3000"])
def test_a_blank_crew_name_is_bad_format_for_both(logged_in, tmp_path, blank):
    assert_both_refuse(logged_in, tmp_path, _crew_name(blank), "name", "must not be empty to be stored")


@pytest.mark.parametrize("blank", ["", "   ", "\u00a0 \u3000"])
def test_a_blank_character_name_is_bad_format_for_both(logged_in, tmp_path, blank):
    assert_both_refuse(
        logged_in, tmp_path, _character_name(blank), "characters[1].name", "must not be empty to be stored"
    )


@pytest.mark.parametrize("make, where", [(_crew_name, "name"), (_character_name, "characters[1].name")])
def test_a_name_over_the_limit_is_bad_format_for_both(logged_in, tmp_path, make, where):
    assert_both_refuse(
        logged_in, tmp_path, make("x" * 101), where, "longer than 100 characters, the most the app stores"
    )


@pytest.mark.parametrize("hostile", ["Vox\x00", "Vox\nMara", "\t", "\u202eVox", "x" * 200 + "\x07"])
@pytest.mark.parametrize("make, where", [(_crew_name, "name"), (_character_name, "characters[1].name")])
def test_a_name_with_a_control_character_is_bad_format_for_both(logged_in, tmp_path, make, where, hostile):
    assert_both_refuse(logged_in, tmp_path, make(hostile), where, "contains U+")


def test_names_at_the_limit_are_valid_for_both_and_kept(logged_in, tmp_path):
    data = crew_data()
    data["name"] = "n" * 100
    data["characters"][1]["name"] = "Mara " + "m" * 95
    report, code = validate(tmp_path, data)
    assert (code, report["errors"]) == (EXIT_VALID, [])
    response, crew = web_import(logged_in, data)
    assert crew is not None and response.url == reverse("crew-edit", args=[crew.pk])
    assert json.loads(export_crew(Crew.objects.with_everything().get(pk=crew.pk))) == data


# ---------------------------------------------------------------- gear


def test_fists_in_gear_are_bad_format_for_both(logged_in, tmp_path):
    # crew-format.md: "gear lists every item the character carries ... Fists are never listed."
    data = crew_data()
    data["characters"][1]["gear"] = ["rifle", "fists"]
    assert_both_refuse(logged_in, tmp_path, data, "characters[1].gear[1]", "fists are never listed")
    assert "every character has them" in validate(tmp_path, data)[0]["errors"][0]["message"]


def test_fists_alone_in_gear_are_bad_format_too(logged_in, tmp_path):
    data = crew_data()
    data["characters"][0]["gear"] = ["fists"]
    assert_both_refuse(logged_in, tmp_path, data, "characters[0].gear[0]", "fists are never listed")


def test_an_item_not_for_sale_is_an_error_for_both_and_the_crew_is_kept_as_a_draft(logged_in, tmp_path):
    # A house rule: staff take the lantern off sale (the admin's "purchasable"). A crew that lists it is readable
    # and names a catalogue entry, so it is judged (not-purchasable, exit 1) and the import keeps it to be fixed.
    lantern = Item.objects.get(system__slug="cybernekro", slug="lantern")
    lantern.purchasable = False
    lantern.save()
    data = crew_data()
    report, code = validate(tmp_path, data)
    assert code == EXIT_ERRORS
    assert [(e["code"], e["character"]) for e in report["errors"]] == [("not-purchasable", "Ilse")]
    response, crew = web_import(logged_in, data)
    assert crew is not None and response.url == reverse("crew-edit", args=[crew.pk])
    assert "fists" not in report["errors"][0]["message"]  # the message is the item's, not the fists'
    stored = Crew.objects.with_everything().get(pk=crew.pk)
    assert json.loads(export_crew(stored)) == data  # nothing lost, so the exported file gives the same report
    page = logged_in.get(reverse("crew-edit", args=[crew.pk]))
    assert page.status_code == 200
    assert html.escape(report["errors"][0]["message"]) in page.content.decode()
