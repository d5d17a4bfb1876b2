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
_STAMP = hashlib.blake2b(repr(sorted((m.__name__, f) for m, f in _FIELDS.items())).encode(), digest_size=6).hexdigest()


def cache_key(crew_id: int) -> str:
    return f"editor-kept:{_STAMP}:{crew_id}"


def _values(instance) -> list:
    return [getattr(instance, name) for name in _FIELDS[type(instance)]]


def _built(model, values: list):
    if not isinstance(values, list) or len(values) != len(_FIELDS[model]):
        raise ValueError(f"not a {model.__name__} row")  # from_db would defer the missing fields: a query each
    return model.from_db(DEFAULT_DB_ALIAS, _FIELDS[model], values)


def share(crew: Crew, characters: list[Character], pieces: dict[int, dict[str, str]]) -> None:
    """Write ``crew`` (the row as stored at its version, not a campaign copy) and its characters for other
    workers, with the pieces the editor shows at that version (character pk -> {piece: key}, editor_fragments)."""
    record = {
        "pieces": pieces,
        "crew": _values(crew),
        "system": _values(crew.system),
        "characters": [_values(character) for character in characters],
        "choices": {
            name: [_values(row) for character in characters for row in getattr(character, name).all()]
            for name, *_ in crew_loading.CHOICES
        },
    }
    cache.set(cache_key(crew.pk), record, TIMEOUT)


def take(crew_id: int, version: int) -> tuple[Crew, list[Character], dict[int, dict[str, str]]] | None:
    """The crew, its characters (every choice linked, as ``crew_loading.load_characters`` gives them) and the
    pieces shown, as shared at ``version``, or None."""
    record = cache.get(cache_key(crew_id))
    if record is None:
        return None
    try:
        crew = _built(Crew, record["crew"])
        if crew.version != version:
            return None
        Crew.system.field.set_cached_value(crew, _built(GameSystem, record["system"]))
        characters = [_built(Character, values) for values in record["characters"]]
        rows = {
            name: [_built(model, values) for values in record["choices"][name]]
            for name, model, *_ in crew_loading.CHOICES
        }
        pieces = {int(pk): {str(p): str(key) for p, key in keys.items()} for pk, keys in record["pieces"].items()}
    except (AttributeError, KeyError, TypeError, ValueError):  # a record this code cannot read: as if none
        return None
    crew_loading.link_choices(crew, characters, rows)
    return crew, characters, pieces
