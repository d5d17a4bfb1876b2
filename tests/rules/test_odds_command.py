"""python manage.py odds FILE|-: prints the answer (exit 0) or {"error": ...} (exit 2)."""

import io
import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def call(args, stdin="", monkeypatch=None):
    """call_command with stdin/stdout captured: (exit code, parsed JSON)."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        call_command("odds", *args, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def test_request_from_a_file_in_a_real_process(tmp_path):
    request = tmp_path / "damage.json"
    request.write_text(
        json.dumps(
            {
                "roll": "damage",
                "dice": 3,
                "keywords": ["Overkill", "Piercing 1"],
                "armor": 2,
                "wounds": 1,
                "prone": False,
            }
        )
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "odds", str(request)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["exact"] == {
        "none": "0",
        "light": "5/108",
        "serious": "29/144",
        "critical": "7/24",
        "lethal": "199/432",
    }
    bad = subprocess.run(
        [sys.executable, "manage.py", "odds", "-"], input="{oops", capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert bad.returncode == 2 and set(json.loads(bad.stdout)) == {"error"}


def test_request_from_stdin_with_a_catalogue_weapon(monkeypatch):
    request = {
        "roll": "attack",
        "action": "shoot",
        "weapon": "archeogun",
        "attacker": {"agility": 0, "discipline": 1, "strength": 0, "traits": [], "body_mods": []},
        "target": {
            "toughness": 0,
            "strength": 0,
            "armor": 2,
            "wounds": 0,
            "prone": False,
            "traits": [],
            "body_mods": [],
            "gear": [],
        },
        "situation": {"cover": True, "long_range": False, "surrounded": False, "modifier": 0},
    }
    code, answer = call(["-"], json.dumps(request), monkeypatch)
    assert code == 0
    assert answer["exact"]["to_hit"] == {"critical": "1/20", "hit": "3/10", "miss": "3/5", "fumble": "1/20"}
    assert sum(F(v) for v in answer["exact"]["target"].values()) == 1


@pytest.mark.parametrize(
    "stdin",
    [
        "{oops",
        json.dumps({"roll": "test", "modifier": 1, "luck": 7}),
        json.dumps({"roll": "neural-overload", "dread": 12}),
        "[]",
    ],
)
def test_bad_json_and_bad_requests_exit_2_with_an_error(stdin, monkeypatch):
    code, answer = call(["-"], stdin, monkeypatch)
    assert code == 2 and set(answer) == {"error"} and answer["error"]


def test_missing_file_exits_2(tmp_path, monkeypatch):
    code, answer = call([str(tmp_path / "nope.json")], "", monkeypatch)
    assert code == 2 and "error" in answer


def test_a_request_file_saved_with_a_byte_order_mark_is_read(tmp_path, monkeypatch):
    request = tmp_path / "notepad.json"
    request.write_text(json.dumps({"roll": "test", "modifier": 2, "jinxed": False}), encoding="utf-8-sig")
    assert request.read_bytes().startswith(b"\xef\xbb\xbf")
    code, answer = call([str(request)], monkeypatch=monkeypatch)
    assert code == 0 and "error" not in answer
    code, answer = call(["-"], "\ufeff" + json.dumps({"roll": "test", "modifier": 2, "jinxed": False}), monkeypatch)
    assert code == 0 and "error" not in answer
