"""Catalogue data files <-> catalogue models.

Each ``catalogue/data/*.json`` file holds one game system and edition:
``{"system", "name", "edition", "source", "crew_rules", <section>: [entries]}``.
Every entry is flat: the columns of its model (``slug``, ``name``, ``cost``,
``damage``...) plus any other keys, which land in the row's ``effects``.

``load_catalogues()`` upserts by system + slug (idempotent), never deletes, and
never overwrites a house-rule row. ``export_catalogue()`` rebuilds the same
shape from the database, house rules included.
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from catalogue import DATA_DIR
from crewbuilder.models import (
    BodyMod,
    Complication,
    EnvironmentEffect,
    GameSystem,
    Item,
    Keyword,
    Npc,
    RulesEntry,
    Scenario,
    Sorcery,
    TableRow,
    Trait,
)
from crewbuilder.models.catalogue import CURRENT, SNAPSHOT_CACHE, current_system_version
from crewbuilder.validation import CatalogueSnapshot

CATALOGUE_DIR = DATA_DIR

# Systems whose files this loader was written for (their unknown sections are
# skipped); any other game's sections without a model of their own land in
# RulesEntry rows, one ``part`` per section.
KNOWN_SYSTEMS = {"cybernekro"}

# Data-file section -> (model, fixed column values for rows of that section).
SECTIONS = {
    "traits": (Trait, {}),
    "body_mods": (BodyMod, {}),
    "equipment": (Item, {"category": Item.EQUIPMENT}),
    "armor": (Item, {"category": Item.ARMOR}),
    "weapons": (Item, {"category": Item.WEAPON}),
    "keywords": (Keyword, {}),
    "sorceries": (Sorcery, {}),
    "scenarios": (Scenario, {}),
    "complications": (Complication, {}),
    "environment_effects": (EnvironmentEffect, {}),
    "neural_overload": (TableRow, {"table": TableRow.NEURAL_OVERLOAD}),
    "damage_table": (TableRow, {"table": TableRow.DAMAGE_TABLE}),
    "npcs": (Npc, {}),
}
HEADER_KEYS = ("system", "name", "edition", "source", "crew_rules")
SHARED_COLUMNS = ("slug", "name", "cost", "purchasable", "number", "text", "section")
NOT_COLUMNS = {"id", "system", "effects", "house_rule", "position", "category", "table", "part"}
RULES_PART = re.compile(r"^[a-z][a-z0-9_]{0,49}$")
UNREAD = object()  # current_catalogue: not read in this request (None is "no system loaded")


def model_columns(model) -> set:
    """Column names an entry key may fill directly (the rest goes to effects)."""
    return {f.attname for f in model._meta.concrete_fields} - NOT_COLUMNS


def row_values(model, entry: dict, position: int) -> dict:
    """Column values of a row from a flat data-file entry."""
    columns = model_columns(model)
    values = {"effects": {}, "position": position, "house_rule": False, "purchasable": True, "text": "", "section": ""}
    for key, value in entry.items():
        if key == "house_rule":
            continue  # a data file is the published rules
        if key in columns:
            values[key] = value
        else:
            values["effects"][key] = value
    if values.get("cost") is None:
        values["cost"] = 0
    return values


@dataclass
class LoadResult:
    label: str
    counts: dict = field(default_factory=dict)  # section -> (new, updated, unchanged)
    messages: list = field(default_factory=list)
    loaded: bool = True


def read_catalogue_file(path: Path):
    """The parsed file, or an error message: never raises on a bad file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"{Path(path).name}: not readable JSON ({exc}); skipped"
    if not isinstance(data, dict):
        return None, f"{Path(path).name}: top level is not an object; skipped"
    for key in ("system", "name", "edition"):
        if not isinstance(data.get(key), str) or not data.get(key):
            return None, f"{Path(path).name}: no {key!r} string; skipped"
    return data, None


def catalogue_files(directory: Path = CATALOGUE_DIR) -> list:
    return sorted(Path(directory).glob("*.json"))


def load_catalogues(directory: Path = CATALOGUE_DIR) -> list:
    """Load every catalogue file of the directory; one LoadResult per file."""
    results = []
    for path in catalogue_files(directory):
        data, problem = read_catalogue_file(path)
        if problem:
            results.append(LoadResult(label=path.name, messages=[problem], loaded=False))
            continue
        try:
            results.append(load_catalogue_data(data, label=path.name))
        except Exception as exc:  # a dropped-in file must never stop the others loading
            results.append(LoadResult(label=path.name, messages=[f"{path.name}: not loaded ({exc!r})"], loaded=False))
    return results


@transaction.atomic
def load_catalogue_data(data: dict, label: str = "") -> LoadResult:
    system, _ = GameSystem.objects.get_or_create(
        slug=data["system"], edition=data["edition"], defaults={"name": data["name"]}
    )
    system.name = data["name"]
    system.source = data.get("source", "") or ""
    result = LoadResult(label=f"{label} ({system.slug} {system.edition})")
    if system.rules_are_house_rules:
        result.messages.append("crew rules: edited as house rules; kept them, the file's not loaded")
    else:
        system.rules = data.get("crew_rules", {}) or {}
    system.save()
    for section, entries in data.items():
        if section in HEADER_KEYS:
            continue
        if section in SECTIONS:
            model, fixed = SECTIONS[section]
        elif system.slug not in KNOWN_SYSTEMS and RULES_PART.match(section):
            model, fixed = RulesEntry, {"part": section}
        else:
            result.messages.append(f"{section}: no catalogue table for this section; skipped")
            continue
        if not isinstance(entries, list):
            result.messages.append(f"{section}: not a list; skipped")
            continue
        result.counts[section] = upsert_section(system, model, fixed, entries, result.messages)
    system.bump_catalogue_version()
    return result


def upsert_section(system, model, fixed: dict, entries: list, messages: list) -> tuple:
    existing = {row.slug: row for row in model.objects.filter(system=system, **fixed)}
    # Slugs are unique per system across the whole model (not per section), so
    # a row of another section with the same slug must not be clobbered.
    per_system = fixed and getattr(model, "SLUG_UNIQUE_PER_SYSTEM", True)
    other_slugs = (
        set(model.objects.filter(system=system).exclude(**fixed).values_list("slug", flat=True))
        if per_system
        else set()
    )
    new_rows, changed_rows, unchanged = [], [], 0
    update_fields = set()
    for position, entry in enumerate(entries, start=1):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("slug"), str)
            or not isinstance(entry.get("name"), str)
        ):
            messages.append(f"entry {position}: needs a slug and a name; skipped")
            continue
        values = {**row_values(model, entry, position), **fixed}
        row = existing.get(entry["slug"])
        if row is None:
            if entry["slug"] in other_slugs:
                messages.append(f"{entry['slug']}: slug already used by another section; skipped")
                continue
            new_rows.append(model(system=system, **values))
        elif row.house_rule:
            messages.append(f"{entry['slug']}: a house-rule entry has this slug; kept it, file entry not loaded")
        else:
            changed = {k: v for k, v in values.items() if getattr(row, k) != v}
            if changed:
                for key, value in changed.items():
                    setattr(row, key, value)
                update_fields.update(changed)
                changed_rows.append(row)
            else:
                unchanged += 1
    # bulk operations bypass save(), so the system's version is bumped once by the caller
    model.objects.bulk_create(new_rows)
    if changed_rows:
        model.objects.bulk_update(changed_rows, sorted(update_fields))
    return len(new_rows), len(changed_rows), unchanged


def current_system(slug: str):
    """The game system crews of ``slug`` use by default: the last loaded edition."""
    return GameSystem.objects.filter(slug=slug).order_by("-id").first()


def export_catalogue(system) -> dict:
    """The whole catalogue of a system as data-file JSON, house rules included."""
    data = {
        "system": system.slug,
        "name": system.name,
        "edition": system.edition,
        "source": system.source,
        "crew_rules": system.rules,
    }
    for section, (model, fixed) in SECTIONS.items():
        data[section] = [
            row.to_entry()
            for row in model.objects.filter(system=system, **fixed).order_by("house_rule", "position", "id")
        ]
    for row in RulesEntry.objects.filter(system=system).order_by("part", "house_rule", "position", "id"):
        data.setdefault(row.part, []).append(row.to_entry())
    return data


def rules_entries(system_slug: str, part: str) -> list:
    """The entries of one section of a game's catalogue (the last loaded edition),
    house rules included, as data-file dicts: what the game pages pass to the engine."""
    system = current_system(system_slug)
    if system is None:
        return []
    rows = RulesEntry.objects.filter(system=system, part=part).order_by("house_rule", "position", "id")
    return [row.to_entry() for row in rows]


def catalogue_data_from_db(system) -> dict:
    """Alias kept for readers: the snapshot data of a system from the database."""
    return export_catalogue(system)


def catalogue_file_for(slug: str, directory: Path = CATALOGUE_DIR):
    """The parsed data file of a system (the last edition by file name), or None."""
    found = None
    for path in catalogue_files(directory):
        data, problem = read_catalogue_file(path)
        if not problem and data["system"] == slug:
            found = data
    return found


def snapshot_for_system(system):
    """The validator's catalogue snapshot of a system, cached per catalogue version.

    ``system.catalogue_version`` comes with the crew (select_related), so a warm
    cache costs no query; any catalogue change bumps the version.
    """
    key = (system.pk, system.slug, system.edition, system.catalogue_version)
    snapshot = SNAPSHOT_CACHE.get(key)
    if snapshot is None:
        snapshot = CatalogueSnapshot(export_catalogue(system))
        SNAPSHOT_CACHE[key] = snapshot
    return snapshot


def current_catalogue(slug: str) -> dict | None:
    """The whole catalogue (``export_catalogue``) of the current system of ``slug``, house rules included;
    None when none is loaded. What the pages read it from costs no query when warm: the system's version
    comes from the shared cache once a request (``CURRENT``), the data from this process's copy of that
    version (``SNAPSHOT_CACHE``). Callers must not change it."""
    held = CURRENT.get(slug, UNREAD)  # one lookup: another thread's request may empty CURRENT meanwhile
    if held is not UNREAD:
        return held
    found = current_system_version(slug)
    data = None
    if found is not None:
        key = ("export", *found)
        data = SNAPSHOT_CACHE.get(key)
        if data is None:
            system = GameSystem.objects.filter(pk=found[0]).first()
            data = export_catalogue(system) if system is not None else None
            SNAPSHOT_CACHE[key] = data
    CURRENT[slug] = data
    return data
