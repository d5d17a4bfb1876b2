import pytest
from django.core.management import call_command


@pytest.fixture
def catalogue(db):
    """The rules catalogue loaded as `make run` loads it."""
    call_command("loadcatalogue", verbosity=0)
    from crewbuilder.models import GameSystem

    return GameSystem.objects.get(slug="cybernekro")


@pytest.fixture
def make_crew(catalogue):
    """A crew built through the models: characters are (name, attributes, traits, body-mods, gear)."""
    from crewbuilder.models import (
        BodyMod,
        Character,
        CharacterBodyMod,
        CharacterGear,
        CharacterTrait,
        Crew,
        Item,
        Trait,
    )

    def make(owner, name="Saints of Rust", characters=(), **extra):
        crew = Crew.objects.create(owner=owner, system=catalogue, name=name, **extra)
        for position, spec in enumerate(characters):
            spec = dict(spec)
            attrs = spec.pop("attributes", {"strength": 1})
            character = Character.objects.create(crew=crew, name=spec["name"], position=position, **attrs)
            for i, trait in enumerate(spec.get("traits", [])):
                slug, choices = (
                    (trait, {})
                    if isinstance(trait, str)
                    else (trait["slug"], {k: v for k, v in trait.items() if k != "slug"})
                )
                CharacterTrait.objects.create(
                    character=character,
                    trait=Trait.objects.get(system=catalogue, slug=slug),
                    choices=choices,
                    position=i,
                )
            for i, slug in enumerate(spec.get("body_mods", [])):
                CharacterBodyMod.objects.create(
                    character=character, body_mod=BodyMod.objects.get(system=catalogue, slug=slug), position=i
                )
            for i, slug in enumerate(spec.get("gear", [])):
                CharacterGear.objects.create(
                    character=character, item=Item.objects.get(system=catalogue, slug=slug), position=i
                )
        return crew

    return make


LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}


@pytest.fixture
def legal_attributes():
    return dict(LEGAL)


@pytest.fixture
def geared_crew(make_crew):
    """A crew of ``size`` geared characters (each with traits, a body-mod and gear)."""

    def make(owner, size=3, name="Saints of Rust"):
        specs = [
            {
                "name": f"Ghoul {i + 1}",
                "attributes": dict(LEGAL),
                "traits": ["big"] if i % 2 else ["small"],
                "body_mods": ["neural-cabling"],
                "gear": ["sword", "light-armor"],
            }
            for i in range(size)
        ]
        return make_crew(owner, name=name, characters=specs)

    return make
