"""The largest things the limits allow (crewbuilder/limits.py), for the benchmarks."""

from crewbuilder import limits


def worst_crew(owner, system, name="Worst case", characters=limits.CHARACTERS_MAX):
    """A Cybernekr0 crew at every limit: characters, items, traits, body-mods, notes, names.

    ``characters`` makes fewer characters, each still at every limit (the roster benchmark's 7).
    """
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

    items = list(Item.objects.filter(system=system, purchasable=True).order_by("slug"))
    traits = list(Trait.objects.filter(system=system).exclude(slug="deformed").order_by("slug"))
    mods = list(BodyMod.objects.filter(system=system).order_by("slug"))
    # the longest crew name the field holds (PostgreSQL refuses a longer one; SQLite would store it)
    crew_name = ((name + " ") * 10)[: Crew._meta.get_field("name").max_length]
    crew = Crew.objects.create(owner=owner, system=system, name=crew_name, notes="n" * 5000)
    gear, taken, fitted = [], [], []
    for i in range(characters):
        character = Character.objects.create(
            crew=crew,
            name=f"{name} {i:02} " + "x" * 80,
            position=i,
            strength=2,
            toughness=1,
            agility=1,
            intellect=-1,
            discipline=-2,
            notes=("word " * limits.CHARACTER_NOTES_MAX)[: limits.CHARACTER_NOTES_MAX],
        )
        for j in range(limits.GEAR_MAX_PER_CHARACTER):
            gear.append(CharacterGear(character=character, item=items[(i + j) % len(items)], position=j))
        for j in range(limits.TRAITS_MAX_PER_CHARACTER):
            taken.append(CharacterTrait(character=character, trait=traits[(i + j) % len(traits)], position=j))
        for j in range(limits.BODY_MODS_MAX_PER_CHARACTER):
            fitted.append(CharacterBodyMod(character=character, body_mod=mods[(i + j) % len(mods)], position=j))
    CharacterGear.objects.bulk_create(gear)
    CharacterTrait.objects.bulk_create(taken)
    CharacterBodyMod.objects.bulk_create(fitted)
    return crew
