"""odds-format.md's third door: the Python function at the path it names, crewbuilder.rules.odds."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_named_function_is_the_engines():
    from crewbuilder.rules import OddsRequestError, odds

    assert odds is rules.odds
    # d20 + 2 succeeds at 11: faces 9-19 succeed, 20 is the critical, 1 the fumble, 2-8 fail
    answer = odds({"roll": "test", "modifier": 2, "jinxed": False})["exact"]
    assert answer == {"critical": "1/20", "success": "11/20", "failure": "7/20", "fumble": "1/20"}
    with pytest.raises(OddsRequestError):
        odds({"roll": "test", "modifier": 2, "target": 10})


def test_an_outside_program_imports_it_with_nothing_configured():
    script = (
        "import json, sys\n"
        "from crewbuilder.rules import odds\n"
        "answer = odds({'roll': 'damage', 'dice': 2, 'keywords': [], 'armor': 0, 'wounds': 0})\n"
        "print(json.dumps({'django': 'django' in sys.modules, 'lethal': answer['exact']['lethal']}))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    # 12+ needs two 6s kept: both dice (1/36), or one of them (10/36) and the bonus die a 6 (1/6): 16/216
    assert json.loads(out.stdout) == {"django": False, "lethal": "2/27"}
