"""The crew file of crew-format.md: read, check, import, export.

Reading never raises on bad input: a file that cannot be read as a crew gives
a report with exactly one ``bad-format`` error saying where (exit code 2 in
the CLI). Strings are data, never markup: templates escape them; names are
limited to 100 characters without control characters.

``crew validate`` and the import read a file with the same reader, so what one
cannot read the other refuses with the same words: a blank or overlong name
and a listed ``fists`` are ``bad-format`` for both (rules-interpretations.md,
readings 8 and 8a).

Import runs in one transaction (all or nothing). Export writes the canonical
form: every field, gear in the user's order with one entry per copy, a trait
as a plain slug unless it carries choices. Export then import gives back the
same crew.
"""

import difflib
import json

from django.db import DatabaseError, transaction

from catalogue.loader import catalogue_file_for, current_system, load_catalogues, snapshot_for_system
from crewbuilder import crew_edits, limits
from crewbuilder.models import BodyMod, Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew, Item, Trait
from crewbuilder.validation import CatalogueSnapshot, crew_to_data, validate_crew
from rules.odds import RepeatedKey, no_repeated_keys

FORMAT = "crewbuilder.crew/1"
MAX_BYTES = 256 * 1024
# Reading follows crew-format.md alone: any notes, budget or attribute value of
# the right type is read and judged by the rules (an attribute of 100 is
# attribute-range, not bad-format). What the app can store is checked only on
# import (check_storable), with the editor's limits, so an imported crew can
# always be edited and exported again. Names are the exception (check_name):
# a name the app cannot store cannot be renamed silently either, so `crew
# validate` refuses it as the import does (reading 8a).
SLUG_MAX = 100
HOUSE_RULE_NOTE_MAX = 300
CHOICE_DEPTH = 3  # {"raise": [...]} needs one level; a little room for later traits
ATTRIBUTES = ("strength", "toughness", "agility", "intellect", "discipline")
# Notes may hold line breaks and tabs; every other control character (and the direction overrides that can make
# a name read as something else) is refused, in a file as in the editor (crew_edits.bad_character).
NOTES_ALLOWED_CONTROLS = {"\n", "\r", "\t"}
FORMAT_SECTION = "Crew file format (crew-format.md)"
# crew-format.md: "gear lists every item the character carries ... Fists are never listed." A sentence about
# the file, so listing them is bad-format (reading 8); the slug is the format's (the slug of "fists").
FISTS = "fists"
FISTS_LISTED = "fists are never listed, every character has them (crew-format.md)"

EXIT_VALID, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


class BadFormat(Exception):
    """The file is not a crew file; ``where`` is a path like characters[2].name."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where


class ImportRefused(Exception):
    """The crew cannot be stored (unreadable, unknown system or slugs); ``report`` says why."""

    def __init__(self, report: dict):
        super().__init__("; ".join(e["message"] for e in report["errors"]))
        self.report = report


# ---------------------------------------------------------------- reading


def decode(raw) -> object:
    """Bytes or text -> JSON value; BadFormat when too large or not JSON."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_BYTES:
        raise BadFormat("", f"the file is {len(raw)} bytes; the most is {MAX_BYTES} (256 KiB)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadFormat("", f"not UTF-8 (byte {exc.start})") from None
    text = text.removeprefix("\ufeff")
    try:
        # a key given twice is refused, not read as its last value without a word ("budget": 10, "budget": 150)
        return json.loads(text, parse_constant=reject_constant, object_pairs_hook=no_repeated_keys)
    except RepeatedKey as exc:
        raise BadFormat("", str(exc)) from None
    except ValueError as exc:
        raise BadFormat("", f"not JSON ({exc})") from None
    except RecursionError:
        # 256 KiB of "[[[[..." fits the size limit but not Python's stack
        raise BadFormat("", "not a crew file (lists or objects nested too deeply)") from None


def reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def check_text(value, where: str, *, limit: int | None, allowed_controls=frozenset(), required=True) -> str:
    if not isinstance(value, str):
        raise BadFormat(where, "expected a string")
    if required and not value.strip():
        raise BadFormat(where, "must not be empty")
    if limit is not None and len(value) > limit:
        raise BadFormat(where, f"longer than {limit} characters")
    found = crew_edits.bad_character(value, allowed_controls)  # the editor refuses the same
    if found is not None:
        raise BadFormat(where, f"contains {found}")
    return value


def check_int(value, where: str, low: int | None = None, high: int | None = None) -> int:
    # bool is an int in Python but not a number in a crew file
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFormat(where, "expected an integer")
    if low is not None and value < low or high is not None and value > high:
        if high is None:
            raise BadFormat(where, f"expected an integer of at least {low}")
        if low is None:
            raise BadFormat(where, f"expected an integer of at most {high}")
        raise BadFormat(where, f"expected an integer from {low} to {high}")
    return value


def check_list(value, where: str) -> list:
    if not isinstance(value, list):
        raise BadFormat(where, "expected a list")
    return value


def check_object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise BadFormat(where, "expected an object")
    return value


def check_name(value, where: str) -> str:
    """The crew's or a character's name: a string without control characters that the app can store (not blank,
    at most crew_edits.NAME_MAX characters). Anything else is bad-format, the same for `crew validate` and the
    import, which cannot store it and may not rename it (reading 8a)."""
    value = check_text(value, where, limit=None, required=False)
    if not value.strip():
        raise BadFormat(where, "must not be empty to be stored")
    if len(value) > crew_edits.NAME_MAX:
        raise BadFormat(where, f"longer than {crew_edits.NAME_MAX} characters, the most the app stores")
    return value


def check_slug(value, where: str) -> str:
    """A string; whether it names anything is the rules' to say: an empty or overlong slug is simply not in the
    catalogue (``unknown-item`` and the like, crew-format.md), not a mistyped field. Control characters are
    still refused, as in every text of the file."""
    return check_text(value, where, limit=None, required=False)


def read_envelope(raw) -> dict:
    """The parsed top-level object with a valid format and a system string."""
    data = check_object(decode(raw), "(top level)")
    if "format" not in data:
        raise BadFormat("format", "missing")
    if data["format"] != FORMAT:
        raise BadFormat("format", f"expected {FORMAT!r}")
    if "system" not in data:
        raise BadFormat("system", "missing")
    check_slug(data["system"], "system")  # an empty or unheard-of one is unknown-system
    return data


CREW_FIELDS = ("format", "system", "name", "budget", "notes", "characters", "house_rules")
CHARACTER_FIELDS = ("name", "attributes", "attribute_changes", "traits", "body_mods", "gear", "notes")


def unknown_fields(value: dict, known: tuple, character: str | None) -> list[dict]:
    """An ``unknown-field`` warning for each key the reader does not know (it is dropped): a misspelt
    "budjet" would otherwise leave the crew judged against the default budget without a word."""
    found = []
    for key in value:
        if key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        where = "a character in the crew file" if character is not None else "the crew file"
        found.append(
            {
                "code": "unknown-field",
                "character": character,
                "message": f"{json.dumps(key)} is not a field of {where}: it was ignored{hint}.",
                "rule": FORMAT_SECTION,
            }
        )
    return found


def read_cybernekro_crew(data: dict, default_budget: int = 150) -> dict:
    """The Cybernekr0 crew body, type-checked and normalised; unknown keys are dropped, each named in
    ``ignored`` (an ``unknown-field`` warning, check_crew_file)."""
    crew = {
        "format": FORMAT,
        "system": data["system"],
        "name": check_name(data["name"], "name") if "name" in data else missing("name"),
        "budget": check_int(data["budget"], "budget", 0) if "budget" in data else default_budget,
        "characters": [],
    }
    if "notes" in data:
        crew["notes"] = check_text(
            data["notes"], "notes", limit=None, allowed_controls=NOTES_ALLOWED_CONTROLS, required=False
        )
    if "characters" not in data:
        missing("characters")
    for index, character in enumerate(check_list(data["characters"], "characters")):
        crew["characters"].append(read_character(character, f"characters[{index}]"))
    if "house_rules" in data:
        crew["house_rules"] = read_house_rules(data["house_rules"])
    ignored = unknown_fields(data, CREW_FIELDS, None)
    for character, read in zip(data["characters"], crew["characters"]):
        ignored += unknown_fields(character, CHARACTER_FIELDS, read["name"])
    if ignored:
        crew["ignored"] = ignored
    return crew


def read_house_rules(value) -> list:
    """Findings the owner accepted as house rules (an added key of the crew file)."""
    accepted = []
    for index, entry in enumerate(check_list(value, "house_rules")):
        where = f"house_rules[{index}]"
        entry = check_object(entry, where)
        if "code" not in entry or "note" not in entry:
            missing(f"{where}.code" if "code" not in entry else f"{where}.note")
        character = entry.get("character")
        if character is not None:
            character = check_text(character, f"{where}.character", limit=None, required=False)
        accepted.append(
            {
                "code": check_slug(entry["code"], f"{where}.code"),
                "character": character,
                "note": check_text(entry["note"], f"{where}.note", limit=HOUSE_RULE_NOTE_MAX),
            }
        )
    return accepted


def missing(where: str):
    raise BadFormat(where, "missing")


def read_character(value, where: str) -> dict:
    value = check_object(value, where)
    if "name" not in value:
        missing(f"{where}.name")
    if "attributes" not in value:
        missing(f"{where}.attributes")
    attributes = check_object(value["attributes"], f"{where}.attributes")
    for key in attributes:
        if key not in ATTRIBUTES:
            raise BadFormat(
                f"{where}.attributes.{key}", "not an attribute (strength, toughness, agility, intellect, discipline)"
            )
    character = {
        "name": check_name(value["name"], f"{where}.name"),
        "attributes": {},
        "traits": [],
        "body_mods": [],
        "gear": [],
    }
    for attribute in ATTRIBUTES:
        if attribute not in attributes:
            missing(f"{where}.attributes.{attribute}")
        character["attributes"][attribute] = check_int(attributes[attribute], f"{where}.attributes.{attribute}")
    if "attribute_changes" in value:
        character["attribute_changes"] = read_attribute_changes(value["attribute_changes"], where)
    # crew-format.md names only budget and notes as optional: the lists are required.
    for key in ("traits", "body_mods", "gear"):
        if key not in value:
            missing(f"{where}.{key}")
    for index, trait in enumerate(check_list(value["traits"], f"{where}.traits")):
        character["traits"].append(read_trait(trait, f"{where}.traits[{index}]"))
    for key in ("body_mods", "gear"):
        for index, slug in enumerate(check_list(value[key], f"{where}.{key}")):
            slug = check_slug(slug, f"{where}.{key}[{index}]")
            if key == "gear" and slug == FISTS:
                raise BadFormat(f"{where}.gear[{index}]", FISTS_LISTED)
            character[key].append(slug)
    if "notes" in value:
        character["notes"] = check_text(
            value["notes"], f"{where}.notes", limit=None, allowed_controls=NOTES_ALLOWED_CONTROLS, required=False
        )
    return character


def read_attribute_changes(value, where: str) -> dict:
    """An optional key added to crew-format.md (reading C10): what a campaign changed since creation (injuries,
    advancement), e.g. ``{"toughness": -1}``. ``attributes`` stay the creation placement the format defines;
    the report's effective values add these changes. Zero changes are dropped (an export never writes them)."""
    changes = check_object(value, f"{where}.attribute_changes")
    read = {}
    for key, change in changes.items():
        if key not in ATTRIBUTES:
            raise BadFormat(
                f"{where}.attribute_changes.{key}",
                "not an attribute (strength, toughness, agility, intellect, discipline)",
            )
        if check_int(change, f"{where}.attribute_changes.{key}"):
            read[key] = change
    return {a: read[a] for a in ATTRIBUTES if a in read}


def read_trait(value, where: str):
    if isinstance(value, str):
        return check_slug(value, where)
    trait = check_object(value, where)
    if "slug" not in trait:
        missing(f"{where}.slug")
    check_slug(trait["slug"], f"{where}.slug")
    for key, choice in trait.items():
        check_text(key, f"{where} key", limit=SLUG_MAX)
        check_shallow(choice, f"{where}.{key}", CHOICE_DEPTH)
    if "raise" in trait:  # crew-format.md: "raise" is a list of attribute names; its values are the rules'
        for index, name in enumerate(check_list(trait["raise"], f"{where}.raise")):
            if not isinstance(name, str):
                raise BadFormat(f"{where}.raise[{index}]", "expected an attribute name")
    return dict(trait)  # choices are judged by the rules (trait-choice), not here


def check_shallow(value, where: str, depth: int) -> None:
    """A choice is a value or a short list; deep nesting is refused before it is stored."""
    if isinstance(value, (list, dict)):
        if depth <= 0:
            raise BadFormat(where, "nested too deeply for a trait choice")
        for index, inner in enumerate(value.values() if isinstance(value, dict) else value):
            check_shallow(inner, f"{where}[{index}]", depth - 1)
    elif isinstance(value, str):
        check_text(value, where, limit=SLUG_MAX, required=False)


# ---------------------------------------------------------------- systems


def bad_format_report(error: BadFormat, budget=150) -> dict:
    return {
        "valid": False,
        "points": 0,
        "budget": budget,
        "characters": [],
        "errors": [{"code": "bad-format", "character": None, "message": str(error), "rule": FORMAT_SECTION}],
        "warnings": [],
    }


def unknown_system_report(system: str, budget=150) -> dict:
    message = f"Unknown game system: {system!r}."
    if system not in CREW_READERS and catalogue_file_for(system) is not None:
        # A game with a catalogue but no crew body here yet (crew-format.md: "defined by the issue that builds them").
        message = f"{system!r} crew files cannot be read by this version of the app yet."
    report = bad_format_report(BadFormat("system", ""), budget)
    report["errors"] = [{"code": "unknown-system", "character": None, "message": message, "rule": FORMAT_SECTION}]
    return report


def catalogue_snapshot(system_slug: str):
    """The catalogue of a system: the database's (house rules included) when it
    holds one, else the data file shipped with the app; None when unknown."""
    try:
        system = current_system(system_slug)
        if system is not None:
            return snapshot_for_system(system)
    except DatabaseError:
        pass  # no tables yet: the data file is the same catalogue
    data = catalogue_file_for(system_slug)
    return CatalogueSnapshot(data) if data else None


# The crew bodies this app can read and judge, by system; other games add theirs.
CREW_READERS = {"cybernekro": (read_cybernekro_crew, validate_crew)}
# How other games store and write their bodies (system -> function); Cybernekr0
# is the default below. Games register theirs from their AppConfig.ready().
CREW_IMPORTERS: dict = {}  # system -> import(data, owner) -> Crew
CREW_EXPORTERS: dict = {}  # system -> export(crew, **options) -> file text


def check_crew_file(raw, snapshot_lookup=catalogue_snapshot):
    """(crew dict or None, report, exit code) for the raw bytes of a crew file."""
    try:
        envelope = read_envelope(raw)
    except BadFormat as error:
        return None, bad_format_report(error), EXIT_UNREADABLE
    system = envelope["system"]
    snapshot = snapshot_lookup(system) if system in CREW_READERS else None
    if snapshot is None:
        budget = envelope.get("budget")  # the file's, when it is one (the report shows what the file asked for)
        budget = budget if isinstance(budget, int) and not isinstance(budget, bool) and budget >= 0 else 150
        return None, unknown_system_report(system, budget), EXIT_ERRORS
    read_body, validate = CREW_READERS[system]
    try:
        crew = read_body(envelope, default_budget=snapshot.rules.get("budget", 150))
    except BadFormat as error:
        return None, bad_format_report(error), EXIT_UNREADABLE
    ignored = crew.pop("ignored", [])
    report = validate(crew, snapshot, crew.get("house_rules"))
    report["warnings"] = ignored + report["warnings"]
    return crew, report, EXIT_VALID if report["valid"] else EXIT_ERRORS


# ---------------------------------------------------------------- import / export

# Findings that mean the crew cannot be stored at all (no catalogue row to point at). An item the catalogue has
# but does not sell (``not-purchasable``, a house rule) has its row: the crew is kept as a draft with the error,
# as `crew validate` exits 1 for it (reading 8). Fists never get that far: listing them is bad-format.
UNSTORABLE = {"bad-format", "unknown-system", "unknown-trait", "unknown-body-mod", "unknown-item"}


def import_crew_file(raw, owner):
    """Store a crew file for ``owner``: (crew, report). Raises ImportRefused,
    storing nothing, when the file cannot be stored; a crew that merely breaks
    crew rules is stored (its report lists the errors) so it can be fixed."""
    crew_data, report, _ = check_crew_file(raw)
    if crew_data is None or any(e["code"] in UNSTORABLE for e in report["errors"]):
        raise ImportRefused(report)
    importer = CREW_IMPORTERS.get(crew_data["system"])
    if importer is None:
        importer = import_crew_data
        try:
            check_storable(crew_data)
        except BadFormat as error:
            raise ImportRefused(bad_format_report(error)) from None
    return importer(crew_data, owner), report


def check_storable(crew: dict) -> None:
    """BadFormat when a readable Cybernekr0 crew is beyond what the editor can hold."""

    # Names were checked when the file was read (check_name), for `crew validate` as for the import.
    def notes(value, where):
        if len(value) > crew_edits.NOTES_MAX:
            raise BadFormat(where, f"longer than {crew_edits.NOTES_MAX} characters, the most the app stores")

    notes(crew.get("notes", ""), "notes")
    if crew["budget"] > crew_edits.BUDGET_MAX:
        raise BadFormat("budget", f"above {crew_edits.BUDGET_MAX}, the most the app stores")
    if len(crew["characters"]) > crew_edits.CHARACTERS_HARD_LIMIT:
        raise BadFormat("characters", f"more than {crew_edits.CHARACTERS_HARD_LIMIT}, the most the app stores")
    low, high = crew_edits.ATTRIBUTE_STORAGE_RANGE
    for index, character in enumerate(crew["characters"]):
        where = f"characters[{index}]"
        notes(character.get("notes", ""), f"{where}.notes")
        if len(character.get("notes", "")) > limits.CHARACTER_NOTES_MAX:
            raise BadFormat(
                f"{where}.notes", f"longer than {limits.CHARACTER_NOTES_MAX} characters, the most the app stores"
            )
        for field, most, label in (
            ("traits", limits.TRAITS_MAX_PER_CHARACTER, "traits"),
            ("body_mods", limits.BODY_MODS_MAX_PER_CHARACTER, "body-mods"),
            ("gear", limits.GEAR_MAX_PER_CHARACTER, "items"),
        ):
            if len(character[field]) > most:
                raise BadFormat(f"{where}.{field}", f"more than {most} {label}, the most the app stores")
        for attribute, value in character["attributes"].items():
            if not low <= value <= high:
                raise BadFormat(f"{where}.attributes.{attribute}", f"outside {low}..{high}, the most the app stores")
        for attribute, value in character.get("attribute_changes", {}).items():
            if not low <= value <= high:
                raise BadFormat(
                    f"{where}.attribute_changes.{attribute}", f"outside {low}..{high}, the most the app stores"
                )


@transaction.atomic
def import_crew_data(data: dict, owner):
    system = current_system(data["system"])
    if system is None:
        load_catalogues()  # a fresh database: the shipped data files are the catalogue
        system = current_system(data["system"])
    traits = {t.slug: t for t in Trait.objects.filter(system=system)}
    body_mods = {m.slug: m for m in BodyMod.objects.filter(system=system)}
    items = {i.slug: i for i in Item.objects.filter(system=system)}
    crew = Crew.objects.create(
        owner=owner,
        system=system,
        name=data["name"],
        budget=data["budget"],
        notes=data.get("notes", ""),
        accepted_findings=data.get("house_rules", []),
    )
    trait_rows, mod_rows, gear_rows = [], [], []
    for position, c in enumerate(data["characters"]):
        character = Character.objects.create(
            crew=crew,
            position=position,
            name=c["name"],
            notes=c.get("notes", ""),
            attribute_changes=c.get("attribute_changes", {}),
            **c["attributes"],
        )
        for index, trait in enumerate(c["traits"]):
            slug = trait if isinstance(trait, str) else trait["slug"]
            choices = {} if isinstance(trait, str) else {k: v for k, v in trait.items() if k != "slug"}
            trait_rows.append(CharacterTrait(character=character, trait=traits[slug], choices=choices, position=index))
        for index, slug in enumerate(c["body_mods"]):
            mod_rows.append(CharacterBodyMod(character=character, body_mod=body_mods[slug], position=index))
        for index, (slug, copies) in enumerate(runs(c["gear"])):
            gear_rows.append(CharacterGear(character=character, item=items[slug], copies=copies, position=index))
    CharacterTrait.objects.bulk_create(trait_rows)
    CharacterBodyMod.objects.bulk_create(mod_rows)
    CharacterGear.objects.bulk_create(gear_rows)
    return crew


def runs(slugs: list) -> list:
    """["a", "a", "b", "a"] -> [("a", 2), ("b", 1), ("a", 1)]: copies without losing order."""
    grouped = []
    for slug in slugs:
        if grouped and grouped[-1][0] == slug:
            grouped[-1] = (slug, grouped[-1][1] + 1)
        else:
            grouped.append((slug, 1))
    return grouped


def export_crew(crew, **options) -> str:
    """The crew file text of a crew loaded with ``Crew.objects.with_everything()``.

    Accepted house rules travel with the crew under ``house_rules`` (a key
    added to crew-format.md, which allows adding), so another group sees them.
    Other games' crews are written by their CREW_EXPORTERS entry (``options``
    go to it, e.g. ``true_tokens=True`` for a drone set's owner).
    """
    exporter = CREW_EXPORTERS.get(crew.system.slug)
    if exporter is not None:
        return exporter(crew, **options)
    data = crew_to_data(crew)
    if crew.accepted_findings:
        data["house_rules"] = crew.accepted_findings
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
