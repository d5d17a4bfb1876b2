"""What every benchmark of pages does first, in one place: Django on a throwaway SQLite database in var/,
the rules catalogue loaded, and the two measures (median time, query count).

Call ``start_django`` before importing anything that needs Django's settings.
"""

import os
import statistics
import time
from pathlib import Path

import django
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

ROOT = Path(__file__).resolve().parent.parent
_DATABASE: Path | None = None


def start_django(database_name: str) -> None:
    """Point Django at var/<database_name> (made anew by ``fresh_database``) and set it up."""
    global _DATABASE
    _DATABASE = ROOT / "var" / database_name
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{_DATABASE}"
    django.setup()


def fresh_database() -> None:
    """An empty database, migrated, with every game's catalogue and the static files the pages link."""
    assert _DATABASE is not None, "start_django() first"
    _DATABASE.parent.mkdir(exist_ok=True)
    _DATABASE.unlink(missing_ok=True)
    call_command("migrate", verbosity=0)
    call_command("loadcatalogue", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def median_ms(fn, repeat: int = 15) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def queries(fn) -> int:
    with CaptureQueriesContext(connection) as q:
        fn()
    return len(q)


def make_crew(owner, name: str, size: int):
    """A legal-looking Cybernekr0 crew of ``size`` characters, each with a trait, a body-mod and three items."""
    from crewbuilder.models import (  # the models need django.setup() first
        BodyMod,
        Character,
        CharacterBodyMod,
        CharacterGear,
        CharacterTrait,
        Crew,
        GameSystem,
        Item,
        Trait,
    )

    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=owner, system=system, name=name)
    for i in range(size):
        character = Character.objects.create(
            crew=crew, name=f"{name} {i}", position=i, strength=2, toughness=1, agility=1, intellect=-1, discipline=-2
        )
        CharacterTrait.objects.create(
            character=character, trait=Trait.objects.get(system=system, slug="big" if i % 2 else "small")
        )
        CharacterBodyMod.objects.create(
            character=character, body_mod=BodyMod.objects.get(system=system, slug="neural-cabling")
        )
        for j, slug in enumerate(["sword", "light-armor", "pistol"]):
            CharacterGear.objects.create(
                character=character, item=Item.objects.get(system=system, slug=slug), position=j
            )
    return crew
