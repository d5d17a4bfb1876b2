"""`manage.py crew validate | import | export`: output and exit codes."""

import io
import json

import pytest
from django.core.management import call_command

from crewbuilder.management.commands.crew import SUBCOMMANDS
from crewbuilder.models import Crew

LEGAL = {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1}


def crew_file(tmp_path, characters=3, **overrides):
    data = {
        "format": "crewbuilder.crew/1",
        "system": "cybernekro",
        "name": "Saints",
        "budget": 150,
        "characters": [
            {"name": f"C{i}", "attributes": dict(LEGAL), "traits": [], "body_mods": [], "gear": ["sword"]}
            for i in range(characters)
        ],
    }
    data.update(overrides)
    path = tmp_path / "crew.json"
    path.write_text(json.dumps(data) if not isinstance(data, bytes) else data)
    return path


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("crew", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_validate_valid_exits_0(tmp_path):
    code, out, _ = run("validate", str(crew_file(tmp_path)))
    report = json.loads(out)
    assert code == 0 and report["valid"] and report["points"] == 57


@pytest.mark.django_db
def test_validate_with_errors_exits_1(tmp_path):
    code, out, _ = run("validate", str(crew_file(tmp_path, characters=2)))
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "too-few-characters"


@pytest.mark.django_db
def test_validate_unknown_system_exits_1(tmp_path):
    code, out, _ = run("validate", str(crew_file(tmp_path, system="mordheim")))
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "unknown-system"


@pytest.mark.django_db
@pytest.mark.parametrize("content", [b"not json", b'{"format": "crewbuilder.crew/1"}', b"\xff\xfe"])
def test_validate_unreadable_exits_2(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, _ = run("validate", str(path))
    report = json.loads(out)
    assert code == 2 and [e["code"] for e in report["errors"]] == ["bad-format"] and not report["valid"]


@pytest.mark.django_db
def test_validate_missing_file_exits_2(tmp_path):
    code, out, _ = run("validate", str(tmp_path / "nothing.json"))
    assert code == 2 and json.loads(out)["errors"][0]["code"] == "bad-format"


@pytest.mark.django_db
def test_validate_oversize_file_exits_2(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (256 * 1024 + 1))
    code, out, _ = run("validate", str(path))
    assert code == 2 and "256 KiB" in json.loads(out)["errors"][0]["message"]


@pytest.mark.django_db
def test_import_prints_id_and_export_round_trips(tmp_path, user):
    path = crew_file(tmp_path)
    code, out, _ = run("import", str(path), "--owner", "VOX")
    crew = Crew.objects.get(pk=int(out))
    assert code == 0 and crew.owner == user
    code, exported, _ = run("export", str(crew.pk))
    assert code == 0 and json.loads(exported) == json.loads(path.read_text())


@pytest.mark.django_db
def test_import_refused_stores_nothing(tmp_path, user):
    path = crew_file(tmp_path)
    data = json.loads(path.read_text())
    data["characters"][0]["gear"].append("bazooka")
    path.write_text(json.dumps(data))
    code, out, err = run("import", str(path), "--owner", "vox")
    assert code == 1 and out == "" and "unknown-item" in err and Crew.objects.count() == 0


def test_subcommands_are_a_dict_others_can_extend():
    assert set(SUBCOMMANDS) >= {"validate", "import", "export"}


@pytest.mark.django_db
def test_validate_keeps_a_house_rule_among_the_errors_it_breaks(tmp_path):
    """crew-format.md: exit 1 "when it has errors": an accepted finding (an app extension) is still listed as one,
    marked, so `valid: false` never comes with an empty `errors`."""
    accepted = [{"code": "too-few-characters", "character": None, "note": "a duel"}]
    code, out, _ = run("validate", str(crew_file(tmp_path, characters=2, house_rules=accepted)))
    report = json.loads(out)
    assert code == 1 and not report["valid"] and report["valid_with_house_rules"]
    assert [(e["code"], e["house_rule"]) for e in report["errors"]] == [("too-few-characters", "a duel")]
    assert report["accepted"][0]["code"] == "too-few-characters"
