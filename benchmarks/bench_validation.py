"""Validate a fully geared crew from the database: median time and SQL queries.

    .venv/bin/python benchmarks/bench_validation.py

Runs against a throwaway SQLite database (DEBUG off), for 3 and 7 characters.
Time is wall time of "load with with_everything() + validate" with a warm
catalogue snapshot; the query count must not grow with the crew.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 60)
os.environ.setdefault("ALLOWED_HOSTS", "localhost")
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from catalogue.loader import snapshot_for_system  # noqa: E402
from crewbuilder.crewfile import import_crew_data  # noqa: E402
from crewbuilder.models import Crew, User  # noqa: E402
from crewbuilder.validation import crew_to_data, validate_crew  # noqa: E402

LEGAL = {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1}
ROUNDS = 300


def full_character(i):
    return {
        "name": f"Character {i}",
        "attributes": dict(LEGAL),
        "traits": ["big", {"slug": "deformed", "raise": ["strength", "agility"]}, "long-arms", "multi-headed"],
        "body_mods": ["neural-cabling", "extra-organs", "stim-injectors"],
        "gear": ["heavy-weapon", "light-armor", "trauma-kit", "knife", "knife", "lantern"],
    }


def measure(pk):
    def run_once():
        crew = Crew.objects.with_everything().get(pk=pk)
        return validate_crew(crew_to_data(crew), snapshot_for_system(crew.system), crew.accepted_findings)

    run_once()  # warm the catalogue snapshot
    with CaptureQueriesContext(connection) as queries:
        run_once()
    total, python = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        crew = Crew.objects.with_everything().get(pk=pk)
        loaded = time.perf_counter()
        validate_crew(crew_to_data(crew), snapshot_for_system(crew.system), crew.accepted_findings)
        end = time.perf_counter()
        total.append(end - start)
        python.append(end - loaded)
    return statistics.median(total) * 1000, statistics.median(python) * 1000, len(queries)


def main():
    call_command("migrate", verbosity=0)
    call_command("loadcatalogue", stdout=open(os.devnull, "w"))
    owner = User.objects.create_user("bench")
    for size in (3, 7):
        data = {
            "format": "crewbuilder.crew/1",
            "system": "cybernekro",
            "name": f"Bench {size}",
            "budget": 1000,
            "characters": [full_character(i) for i in range(size)],
        }
        crew = import_crew_data(data, owner)
        total, python, queries = measure(crew.pk)
        print(
            f"{size} characters: median {total:.2f} ms load+validate, "
            f"{python:.2f} ms validate (Python, after load), {queries} SQL queries"
        )


if __name__ == "__main__":
    main()
