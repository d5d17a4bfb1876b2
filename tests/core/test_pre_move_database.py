"""A var/ database written before the layout move opens after it, its rows intact.

The fixture was written by the code of commit 11f0da1 (before config/, core/,
rules/ and games/ existed): two users, six crews (two enrolled in a campaign),
a Soylent Ghoul game, a Ghoulash game, a Ghoul role sheet and a Slasher trial.
"""

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pre-move.sqlite3.gz"

READ_BACK = """
import django
django.setup()
from campaigns.models import Campaign
from crewbuilder.models import Crew
from games.ghoul_role.models import GhoulSheet
from games.ghoulash.models import Game as GhoulashGame
from games.slasher_trial.models import Trial
from games.soylent_ghoul.play.models import Game as SoylentGame
from games.soylent_ghoul.sets.models import DroneSet
campaign = Campaign.objects.get()
print("campaign", campaign.name, sorted(c.crew.name for c in campaign.crews.all()))
print("crews", Crew.objects.count(), sorted({c.owner.username for c in Crew.objects.all()}))
print("drone sets", DroneSet.objects.count())
print("soylent", SoylentGame.objects.get().players.count())
print("ghoulash", GhoulashGame.objects.get().name)
print("sheet", GhoulSheet.objects.get().owner.username)
print("trial", Trial.objects.get().name)
"""


def _run(args, db_file):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_file}", "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def old_database(tmp_path):
    db_file = tmp_path / "crewbuilder.sqlite3"
    db_file.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    return db_file


def test_a_database_from_before_the_move_migrates_and_keeps_its_rows(old_database):
    migrated = _run(["manage.py", "migrate", "--noinput"], old_database)
    assert migrated.returncode == 0, migrated.stderr

    unapplied = _run(["manage.py", "migrate", "--check"], old_database)
    assert unapplied.returncode == 0, unapplied.stdout + unapplied.stderr

    read = _run(["-c", READ_BACK], old_database)
    assert read.returncode == 0, read.stderr
    assert read.stdout.splitlines() == [
        "campaign The Rust Road ['Saints', 'Sinners']",
        "crews 6 ['mara', 'vox']",
        "drone sets 2",
        "soylent 2",
        "ghoulash Del and Brian",
        "sheet vox",
        "trial Night at the yard",
    ]
