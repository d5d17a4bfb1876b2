"""The editor's crew at its latest version, as plain values in the cache every worker shares.

``editor_cache`` keeps a crew's rows in the memory of the worker that read them. gunicorn hands a player's
next click to whichever worker is free, so with three workers most clicks found nothing kept and read the crew,
its characters and every choice again (issue 20: the attribute step through gunicorn). Here the worker that
kept a version also writes its rows to the shared cache (one entry per crew, the latest version only), and
another worker builds the same objects from it instead of five queries.

A record is only ever a hint, and serves one edit: ``crew_edits.set_kept_attribute``, whose claim compares the
record's crew row (version, ``updated_at``, owner, catalogue version) with the stored one and whose write
compares the attribute's value. When the crew row matches, the record's characters are the stored ones, under
the rule ``editor_cache`` already relies on (every change to a crew's characters claims a new version, with a
new ``updated_at``). Plain values, not pickled models: a record survives a restart of the code that wrote it,
and its key names the fields, so a record of other fields is never read.

A worker that kept an earlier version of the crew takes from the record only the characters that changed since:
the others stay the objects it kept (their row and choices compared with the record's), so what it worked out
for them (the editor's view, its kept pieces) serves again. Each worker also keeps the values it last shared
or took per crew, so sharing the next version reads only the edited character's.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS

from crewbuilder import crew_loading
from crewbuilder.models import Character, Crew, GameSystem

TIMEOUT = 3600
MODELS = (Crew, GameSystem, Character, *(model for _, model, *_ in crew_loading.CHOICES))
_FIELDS = {model: [field.attname for field in model._meta.concrete_fields] for model in MODELS}
_CHARACTER_PK = _FIELDS[Character].index("id")
_STAMP = hashlib.blake2b(repr(sorted((m.__name__, f) for m, f in _FIELDS.items())).encode(), digest_size=6).hexdigest()


def cache_key(crew_id: int) -> str:
    return f"editor-kept:{_STAMP}:{crew_id}"


def _values(instance) -> list:
    return [getattr(instance, name) for name in _FIELDS[type(instance)]]


def _built(model, values: list):
    if not isinstance(values, list) or len(values) != len(_FIELDS[model]):
        raise ValueError(f"not a {model.__name__} row")  # from_db would defer the missing fields: a query each
    return model.from_db(DEFAULT_DB_ALIAS, _FIELDS[model], values)


# crew pk -> [(character, its values, its choices' values by accessor)] of the last version shared from here:
# editor_cache's kept characters are never changed (an edit copies one), and an edit leaves all but one of them
# as they were. Only the last version: older characters are not kept alive (the garbage collector walks them).
_records: dict[int, list[tuple[Character, list, dict[str, list]]]] = {}
MAX_CREWS = 256


def _records_of(crew_id: int, characters: list[Character]) -> list[tuple[Character, list, dict[str, list]]]:
    """Each character's record: the one held for the crew's last version where it is the same object."""
    before = {id(kept[0]): kept for kept in _records.get(crew_id, [])}  # held there: no other object has the id
    return [before.get(id(character)) or _record_of(character) for character in characters]


def _record_of(character: Character) -> tuple[Character, list, dict[str, list]]:
    choices = {name: [_values(row) for row in getattr(character, name).all()] for name, *_ in crew_loading.CHOICES}
    return character, _values(character), choices


def _keep_records(crew_id: int, records: list) -> None:
    if len(_records) >= MAX_CREWS:
        _records.clear()  # bounded: a crew's values are read again once
    _records[crew_id] = records


def forget_all() -> None:
    _records.clear()


def share(crew: Crew, characters: list[Character], pieces: dict[int, dict[str, str]]) -> None:
    """Write ``crew`` (the row as stored at its version, not a campaign copy) and its characters (kept ones:
    read only) for other workers, with the pieces the editor shows at that version (character pk -> {piece: key},
    editor_fragments)."""
    records = _records_of(crew.pk, characters)
    _keep_records(crew.pk, records)
    record = {
        "pieces": pieces,
        "crew": _values(crew),
        "system": _values(crew.system),
        "characters": [values for _, values, _ in records],
        "choices": {
            name: [row for _, _, choices in records for row in choices[name]] for name, *_ in crew_loading.CHOICES
        },
    }
    cache.set(cache_key(crew.pk), record, TIMEOUT)


def take(
    crew_id: int, version: int, known: tuple | None = None
) -> tuple[Crew, list[Character], dict[int, dict[str, str]]] | None:
    """The crew, its characters (every choice linked, as ``crew_loading.load_characters`` gives them) and the
    pieces shown, as shared at ``version``, or None.

    ``known``: (created_at, catalogue version, characters) of an earlier version this process kept. Its
    characters whose row and choices the record holds unchanged are taken as they are (kept ones are never
    changed): the editor then reuses what it worked out for them (``crew_service.crew_view``'s ``previous``)."""
    record = cache.get(cache_key(crew_id))
    if record is None:
        return None
    try:
        crew = _built(Crew, record["crew"])
        if crew.version != version:
            return None
        Crew.system.field.set_cached_value(crew, _built(GameSystem, record["system"]))
        mine = {name: _by_character(model, record["choices"][name]) for name, model, *_ in crew_loading.CHOICES}
        reusable = _reusable(crew_id, crew, known)
        records, characters, built = [], [], []
        rows: dict[str, list] = {name: [] for name, *_ in crew_loading.CHOICES}
        for values in record["characters"]:
            pk = values[_CHARACTER_PK] if isinstance(values, list) else None
            choices = {name: mine[name].get(pk, []) for name in mine}
            kept = reusable.get(pk)
            if kept is not None and kept[1] == values and kept[2] == choices:
                character = kept[0]
            else:
                character = _built(Character, values)
                built.append(character)
                for name, model, *_ in crew_loading.CHOICES:
                    rows[name] += [_built(model, row) for row in choices[name]]
            characters.append(character)
            records.append((character, values, choices))
        pieces = {int(pk): {str(p): str(key) for p, key in keys.items()} for pk, keys in record["pieces"].items()}
    except (AttributeError, KeyError, TypeError, ValueError):  # a record this code cannot read: as if none
        return None
    crew_loading.link_choices(crew, built, rows)
    for character in characters:
        Character.crew.field.set_cached_value(character, crew)
    _keep_records(crew_id, records)
    return crew, characters, pieces


def _by_character(model, rows: list) -> dict[int, list]:
    at = _FIELDS[model].index("character_id")
    mine: dict[int, list] = {}
    for row in rows:
        mine.setdefault(row[at], []).append(row)
    return mine


def _reusable(crew_id: int, crew: Crew, known: tuple | None) -> dict[int, tuple[Character, list, dict[str, list]]]:
    if known is None or tuple(known[:2]) != (crew.created_at, crew.system.catalogue_version):
        return {}
    return {kept[0].pk: kept for kept in _records_of(crew_id, known[2])}
