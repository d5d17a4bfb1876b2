"""A crew's characters with every choice, in four queries and without the ORM's per-object prefetch work.

``prefetch_related`` builds (clones) a queryset for every character and every
relation, and ``select_related`` builds a catalogue entry (and decodes its JSON)
for every row, which costs more than the rows themselves on the editor's hot
path (an edit, the first look after it). Here the four result lists are read
once and handed to each object as its prefetched cache, and each row's entry is
the one instance kept per catalogue version (read-only: the editor never changes
an entry), so ``crew.characters.all()``, ``character.traits.all()``,
``row.trait`` and the rest read memory exactly as after
``Crew.objects.with_everything()``: same rows, same order, no further query.
"""

from __future__ import annotations

from django.db.models import Model, QuerySet

from crewbuilder.models import (
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
from crewbuilder.models.catalogue import SNAPSHOT_CACHE

ORDER = ("position", "id")

# (reverse accessor on Character, model of its rows, the row's field naming its catalogue entry, the entry's model)
CHOICES = (
    ("traits", CharacterTrait, "trait", Trait),
    ("body_mods", CharacterBodyMod, "body_mod", BodyMod),
    ("gear", CharacterGear, "item", Item),
)


def catalogue_entries(system: GameSystem, *, reload: bool = False) -> dict:
    """The system's traits, body-mods and items by model and pk, read once per catalogue version.

    Kept beside the catalogue snapshots (``SNAPSHOT_CACHE``): a catalogue or house-rule change bumps
    ``catalogue_version`` (a new key in every process) and clears them in this one."""
    key = ("editor-entries", system.pk, system.catalogue_version)
    entries = None if reload else SNAPSHOT_CACHE.get(key)
    if entries is None:
        entries = {model: {e.pk: e for e in model.objects.filter(system_id=system.pk)} for *_, model in CHOICES}
        SNAPSHOT_CACHE[key] = entries
    return entries


def prefetched(model: type[Model], rows: list) -> QuerySet:
    queryset = QuerySet(model=model)
    queryset._result_cache = rows
    queryset._prefetch_done = True
    return queryset


def _keep(instance: Model, name: str, queryset: QuerySet) -> None:
    if not hasattr(instance, "_prefetched_objects_cache"):
        instance._prefetched_objects_cache = {}
    instance._prefetched_objects_cache[name] = queryset


def load_characters(crew: Crew) -> list[Character]:
    """Give ``crew`` its characters (roster order) with their traits, body-mods and gear (and their entries)."""
    characters = list(Character.objects.filter(crew_id=crew.pk).order_by(*ORDER))
    _with_choices(crew, characters)
    _keep(crew, "characters", prefetched(Character, characters))
    return characters


def reload_character(crew: Crew, character_id: int, *, choices: bool) -> Character | None:
    """One of the crew's characters read again: its row (one query) and, with ``choices``, its choices (three)."""
    character = Character.objects.filter(crew_id=crew.pk, pk=character_id).first()
    if character is not None and choices:
        _with_choices(crew, [character])
    return character


def _with_choices(crew: Crew, characters: list[Character]) -> None:
    ids = [character.pk for character in characters]
    rows = {
        name: list(model.objects.filter(character_id__in=ids).order_by(*ORDER)) if characters else []
        for name, model, *_ in CHOICES
    }  # as prefetch_related: no query for the choices of no character
    link_choices(crew, characters, rows)


def link_choices(crew: Crew, characters: list[Character], rows: dict[str, list]) -> None:
    """Hand each character its choice rows (``rows``: accessor -> rows in roster order), each row its catalogue
    entry and character, and each character ``crew``."""
    by_id = {character.pk: character for character in characters}
    mine: dict[str, dict[int, list]] = {name: {pk: [] for pk in by_id} for name, *_ in CHOICES}
    if characters:
        entries = catalogue_entries(crew.system)
        for name, model, entry, entry_model in CHOICES:
            field = model._meta.get_field(entry)
            for row in rows[name]:
                entry_id = getattr(row, field.attname)
                if entry_id not in entries[entry_model]:  # an entry newer than this process's copy: read again
                    entries = catalogue_entries(crew.system, reload=True)
                field.set_cached_value(row, entries[entry_model][entry_id])
                model.character.field.set_cached_value(row, by_id[row.character_id])
                mine[name][row.character_id].append(row)
    for character in characters:
        Character.crew.field.set_cached_value(character, crew)
        for name, model, *_ in CHOICES:
            _keep(character, name, prefetched(model, mine[name][character.pk]))
