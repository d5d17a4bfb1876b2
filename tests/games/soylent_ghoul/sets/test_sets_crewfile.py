"""The soylent-ghoul crew file: read, validate, import, export, and `manage.py crew`."""

import io
import json

import pytest
from django.core.management import call_command

from crewbuilder import crewfile as core
from games.soylent_ghoul.sets import crewfile, services
from games.soylent_ghoul.sets.models import DroneSet
from tests.games.soylent_ghoul.sets.conftest import codes, truth


def body(**overrides):
    data = {
        "format": "crewbuilder.crew/1",
        "system": "soylent-ghoul",
        "name": "Gazers",
        "group": "eyes",
        "drones": [{"name": f"Eye {i}"} for i in range(1, 5)],
    }
    data.update(overrides)
    return data


def raw(**overrides) -> bytes:
    return json.dumps(body(**overrides)).encode()


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("crew", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


def test_a_minimal_file_is_valid_with_the_groups_numbers(catalogue):
    crew, report, code = core.check_crew_file(raw())
    assert code == 0 and report["valid"] and report["errors"] == [] and report["warnings"] == []
    assert report["group"]["name"] == "Eyes"
    # the report has every key of crew-format.md's report (points and budget: none for a drone set)
    assert {"valid", "points", "budget", "characters", "errors", "warnings"} <= set(report)
    assert report["points"] is None and report["budget"] is None
    assert report["characters"][0] == {"name": "Eye 1", "move": 12, "nerve": 3, "tokens": 5}


@pytest.mark.parametrize(
    "overrides, where",
    [
        ({"name": 7}, "name"),
        ({"group": None}, "group"),
        ({"drones": {"name": "x"}}, "drones"),
        ({"drones": [{"nom": "x"}]}, "drones[0].name"),
        ({"drones": [{"name": "x", "tokens": "AAAA"}]}, "drones[0].tokens"),
        ({"drones": [{"name": "x", "tokens": ["AAAA", 4]}]}, "drones[0].tokens[1]"),
        ({"drones": [{"name": "x", "true_token": ["AAAA"]}]}, "drones[0].true_token"),
    ],
)
def test_mistyped_fields_are_bad_format(catalogue, overrides, where):
    crew, report, code = core.check_crew_file(raw(**overrides))
    assert crew is None and code == 2
    assert report["errors"][0]["code"] == "bad-format" and where in report["errors"][0]["message"]


def test_missing_group_or_drones_is_bad_format(catalogue):
    for key in ("group", "drones", "name"):
        data = body()
        del data[key]
        _, report, code = core.check_crew_file(json.dumps(data))
        assert code == 2 and report["errors"][0]["message"].startswith(key)


@pytest.mark.parametrize(
    "overrides, code",
    [
        ({"group": "vampires"}, "unknown-group"),
        ({"drones": []}, "too-few-drones"),
        ({"drones": [{"name": f"D{i}"} for i in range(13)]}, "too-many-drones"),
        ({"drones": [{"name": "D", "tokens": ["AAAA", "BBBB"]}]}, "token-count"),
        ({"drones": [{"name": "D", "tokens": ["AAAA", "BBBB", "CCCC", "DDDD", "S0S0"]}]}, "token-code"),
        (
            {
                "drones": [
                    {"name": "D", "tokens": ["AAAA", "BBBB", "CCCC", "DDDD", "EEEE"]},
                    {"name": "E", "tokens": ["AAAA", "FFFF", "GGGG", "HHHH", "JJJJ"]},
                ]
            },
            "duplicate-token-code",
        ),
        ({"drones": [{"name": "D", "true_token": "AAAA"}]}, "true-token-unknown"),
        (
            {"drones": [{"name": "D", "tokens": ["AAAA", "BBBB", "CCCC", "DDDD", "EEEE"], "true_token": "FFFF"}]},
            "true-token-unknown",
        ),
    ],
)
def test_rules_findings_make_it_invalid_and_import_refuses_it(catalogue, user, overrides, code):
    _, report, exit_code = core.check_crew_file(raw(**overrides))
    assert exit_code == 1 and code in [e["code"] for e in report["errors"]]
    with pytest.raises(core.ImportRefused):
        core.import_crew_file(raw(**overrides), user)
    assert not DroneSet.objects.exists()


def test_other_than_four_drones_is_advice_only(catalogue):
    _, report, code = core.check_crew_file(raw(drones=[{"name": "Solo"}]))
    assert code == 0 and report["valid"]
    assert [w["code"] for w in report["warnings"]] == ["drone-count-advice"]


def test_import_deals_fresh_codes_and_truth_when_the_file_has_none(catalogue, user):
    crew, report = core.import_crew_file(raw(), user)
    drone_set = DroneSet.objects.get(crew=crew)
    assert crew.owner == user and drone_set.group == "eyes"
    assert [d.name for d in drone_set.drones.all()] == ["Eye 1", "Eye 2", "Eye 3", "Eye 4"]
    assert len(set(codes(drone_set))) == 20 and len(truth(drone_set)) == 4


def test_export_then_import_gives_the_same_set_without_the_secret(drone_set, other_user):
    text = core.export_crew(drone_set.crew)
    data = json.loads(text)
    assert data == {
        "format": "crewbuilder.crew/1",
        "system": "soylent-ghoul",
        "name": "The Lamplit",
        "group": "gardeners",
        "drones": [{"name": f"Drone {i + 1}", "tokens": codes(drone_set)[5 * i : 5 * i + 5]} for i in range(4)],
    }
    assert "true" not in text.lower()
    copy = DroneSet.objects.get(crew=core.import_crew_file(text.encode(), other_user)[0])
    assert crewfile.export_data(copy) == data  # same codes; the truth is dealt afresh
    assert len(truth(copy)) == 4


def test_export_with_true_tokens_only_when_asked_and_it_round_trips(drone_set, other_user):
    text = core.export_crew(drone_set.crew, true_tokens=True)
    data = json.loads(text)
    assert {d["name"]: d["true_token"] for d in data["drones"]} == truth(drone_set)
    copy = DroneSet.objects.get(crew=core.import_crew_file(text.encode(), other_user)[0])
    assert truth(copy) == truth(drone_set) and codes(copy) == codes(drone_set)
    assert crewfile.export_text(copy, include_truth=True) == text


def test_the_app_and_the_file_give_the_same_report(drone_set):
    services.add_drone(drone_set, "Fifth")
    _, from_file, _ = core.check_crew_file(core.export_crew(drone_set.crew))
    assert crewfile.report_for(drone_set) == from_file
    assert [w["code"] for w in from_file["warnings"]] == ["drone-count-advice"]


# --- manage.py crew ------------------------------------------------------------


def test_cli_validate_import_export(catalogue, user, tmp_path):
    path = tmp_path / "set.json"
    path.write_bytes(raw())
    code, out, _ = run("validate", str(path))
    assert code == 0 and json.loads(out)["valid"]
    code, out, _ = run("import", str(path), "--owner", user.username)
    assert code == 0
    drone_set = DroneSet.objects.get(crew_id=int(out))
    code, out, _ = run("export", str(drone_set.crew_id))
    assert code == 0 and json.loads(out) == crewfile.export_data(drone_set) and "true_token" not in out
    code, out, _ = run("export", str(drone_set.crew_id), "--true-tokens")
    assert {d["name"]: d["true_token"] for d in json.loads(out)["drones"]} == truth(drone_set)


def test_cli_refuses_a_bad_set(catalogue, user, tmp_path):
    path = tmp_path / "set.json"
    path.write_bytes(raw(group="vampires"))
    code, out, _ = run("validate", str(path))
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "unknown-group"
    code, _, err = run("import", str(path), "--owner", user.username)
    assert code == 1 and "unknown-group" in err and not DroneSet.objects.exists()


def test_cli_pdf_prints_the_drone_cards(catalogue, tmp_path):
    import subprocess

    path, out = tmp_path / "set.json", tmp_path / "cards.pdf"
    path.write_bytes(
        raw(drones=[{"name": "Iris", "tokens": ["AAAA", "BBBB", "CCCC", "DDDD", "EEEE"], "true_token": "CCCC"}])
    )
    code, _, _ = run("pdf", str(path), "-o", str(out))
    assert code == 0 and out.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "Iris" in text and "Eyes" in text and "Check" in text and "AAAA" in text
    assert "true" not in text.lower()  # cards are public, even printed from a file with the key
