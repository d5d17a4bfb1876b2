"""The rules engine never imports Django (checked in a fresh interpreter)."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parents[2]


def test_rules_package_and_every_submodule_import_without_django():
    names = sorted(m.name for m in pkgutil.iter_modules(rules.__path__))
    assert {"dice", "cybernekro", "odds"} <= set(names)
    code = (
        "import importlib, sys\n"
        "import rules\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module('rules.' + name)\n"
        "from rules import odds\n"
        "assert callable(odds)\n"
        "from rules.cybernekro.battle import catalogue, npcs\n"  # no provider installed: the bundled file
        "assert catalogue.data() is catalogue.file_data()\n"
        "assert npcs.npc_model('tomb-bots', 'npc-1', 1).name == 'Tomb Bot 1'\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout
