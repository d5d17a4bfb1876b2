"""`pip install .` gives a working app: every app, migration, template, static file and catalogue file."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tracked(pattern: str) -> set[str]:
    out = subprocess.run(["git", "ls-files", pattern], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_wheel_holds_everything_the_app_serves(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next(tmp_path.glob("crewbuilder-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())

    needed = set()
    for pattern in (
        "config/*.py",
        "core/*",
        "rules/*.py",
        "catalogue/*",
        "crewbuilder/*.py",
        "campaigns/*.py",
        "games/*",
    ):
        needed |= {p for p in _tracked(pattern) if not p.endswith((".pyc",))}
    missing = sorted(needed - names)
    assert not missing, missing
    assert any(n.startswith("games/ghoulash/migrations/0001") for n in names)
    assert "core/templates/base.html" in names and "core/static/js/htmx.min.js" in names
    assert "catalogue/data/cybernekro-1.1.3.json" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "crewbuilder = config.manage:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
