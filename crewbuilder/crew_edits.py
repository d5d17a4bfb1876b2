"""Every change a player makes to a crew, as one function per edit.

Each edit runs in a transaction, checks the version the browser last saw
(optimistic locking: a stale tab gets StaleCrew, never a silent overwrite),
and bumps it. Edits refuse only what cannot be stored (bad input, unknown
catalogue slugs); rules breaches (over budget, too many characters, ...) are
stored and shown by validation, so a draft never loses the player's work.

The edits take typed keyword arguments: the editor's forms
(crewbuilder/forms_crews.py) read the POST and clean its text and numbers
with ``clean_text`` and ``parse_int`` below, so their messages are the same
wherever a crew is changed (the editor, the crew file, campaigns).
"""

from __future__ import annotations

import copy
import unicodedata

from django.db import connection, transaction
from django.db.models import F, Max, Sum
from django.utils import timezone

from core.prepared import prepared_cursor
from crewbuilder import limits, roster_tasks
from crewbuilder.models import BodyMod, Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew, Item, Trait
from crewbuilder.models.catalogue import ATTRIBUTES, GameSystem

NAME_MAX = 100
NOTES_MAX = 5000
BUDGET_MAX = 10000
# A hard stop far above the rules' 7, so a runaway form cannot fill the database
# nor make a roster too long to print (crewbuilder/limits.py).
CHARACTERS_HARD_LIMIT = limits.CHARACTERS_MAX
ATTRIBUTE_STORAGE_RANGE = (-9, 9)


class EditError(ValueError):
    """The input cannot be stored as given; the message says why, for people."""


class StaleCrew(Exception):
    """The crew changed since the editor loaded it (another tab or device)."""


CAMPAIGN_COPY_MESSAGE = (
    "This crew is enrolled in a campaign: hire, buy, rename and write notes through the "
    "campaign's page, so every change is in its history."
)


class CampaignCopy(EditError):
    """A crew enrolled in a campaign changes through the campaign (treasury, injuries, names and notes), so
    every change is in the campaign's history."""

    def __init__(self, message: str = CAMPAIGN_COPY_MESSAGE):
        super().__init__(message)


# Characters that make a name read as another (right-to-left overrides and isolates): refused in a crew's text
# here as in a crew file (crewfile.check_text), so that every crew the editor keeps exports and imports back.
BIDI_CONTROLS = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def bad_character(value: str, allowed: frozenset | set = frozenset()) -> str | None:
    """The first character a crew's text may not hold, described ("U+202E, a control character"), or None:
    control characters but ``allowed``, unpaired surrogates and the bidirectional controls."""
    for char in value:
        category = unicodedata.category(char)
        if char in BIDI_CONTROLS or (category in ("Cc", "Cs") and char not in allowed):
            kind = "an unpaired surrogate" if category == "Cs" else "a control character"
            return f"U+{ord(char):04X}, {kind}"
    return None


def _clean_text(value: str, field: str, max_length: int, *, required: bool) -> str:
    value = (value or "").strip()
    if required and not value:
        raise EditError(f"{field} cannot be empty.")
    if len(value) > max_length:
        raise EditError(f"{field} is {len(value)} characters long; the limit is {max_length}.")
    found = bad_character(value, frozenset("\n\r\t"))
    if found is not None:
        raise EditError(f"{field} contains {found}.")
    if field.endswith("name") and any(ch in value for ch in "\n\r\t"):
        raise EditError(f"{field} must be on one line.")
    return value


def _parse_int(value, field: str, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise EditError(f"{field} must be a whole number.") from None
    if not low <= number <= high:
        raise EditError(f"{field} must be between {low} and {high}.")
    return number


def claim_version(crew_id: int, expected_version: int | str | None):
    """Bump the crew's version if it is still the one the editor saw; returns the ``updated_at`` it wrote."""
    try:
        expected = int(expected_version)
    except (TypeError, ValueError):
        raise StaleCrew() from None
    now = _now()
    updated = Crew.objects.filter(pk=crew_id, version=expected).update(version=F("version") + 1, updated_at=now)
    if not updated:
        raise StaleCrew()
    return now


CHARACTER_GONE = "That character is not in this crew (it may have been removed)."


def _character(crew: Crew, character_id: int) -> Character:
    try:
        return Character.objects.get(pk=character_id, crew=crew)
    except (TypeError, ValueError, OverflowError, Character.DoesNotExist):
        raise EditError(CHARACTER_GONE) from None


def _saved(crew: Crew, character: Character) -> None:
    # The row as written (read in this edit, then saved): the editor's answer takes it instead of reading it again.
    crew.__dict__.setdefault("saved_characters", {})[character.pk] = character


def _next_position(queryset) -> int:
    top = queryset.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


# --- crew -------------------------------------------------------------------


def update_crew(crew: Crew, *, name: str | None = None, budget: int | None = None, notes: str | None = None) -> None:
    """Rename the crew, set its budget and notes; a value left out (None) stays as it is."""
    crew.name = _clean_text(crew.name if name is None else name, "Crew name", NAME_MAX, required=True)
    crew.budget = _parse_int(crew.budget if budget is None else budget, "Budget", 0, BUDGET_MAX)
    crew.notes = _clean_text(crew.notes if notes is None else notes, "Notes", NOTES_MAX, required=False)
    crew.save(update_fields=["name", "budget", "notes", "updated_at"])


def accept_finding(crew: Crew, *, code: str, note: str, character: str | None = None) -> None:
    """Accept a finding (of the crew, or of the character named ``character``) as a house rule."""
    code = _clean_text(code, "Finding", 60, required=True)
    note = _clean_text(note, "House-rule note", 300, required=True)
    kept = [f for f in crew.accepted_findings if not (f.get("code") == code and f.get("character") == character)]
    kept.append({"code": code, "character": character, "note": note})
    crew.accepted_findings = kept
    crew.save(update_fields=["accepted_findings", "updated_at"])


def unaccept_finding(crew: Crew, *, code: str, character: str | None = None) -> None:
    crew.accepted_findings = [
        f for f in crew.accepted_findings if not (f.get("code") == code and f.get("character") == character)
    ]
    crew.save(update_fields=["accepted_findings", "updated_at"])


# --- characters -------------------------------------------------------------


def add_character(crew: Crew, *, name: str | None = None) -> Character:
    """A new character at the end of the roster; without a name, "Character <n>"."""
    count = crew.characters.count()
    if count >= CHARACTERS_HARD_LIMIT:
        raise EditError(f"A crew can hold at most {CHARACTERS_HARD_LIMIT} characters here.")
    name = _clean_text(name or f"Character {count + 1}", "Character name", NAME_MAX, required=True)
    return Character.objects.create(crew=crew, name=name, position=_next_position(crew.characters))


def update_character(crew: Crew, *, character: int, name: str | None = None, notes: str | None = None) -> None:
    """Rename a character and set its notes; a value left out (None) stays as it is."""
    row = _character(crew, character)
    before = row.name
    row.name = _clean_text(row.name if name is None else name, "Character name", NAME_MAX, required=True)
    row.notes = _clean_text(row.notes if notes is None else notes, "Notes", limits.CHARACTER_NOTES_MAX, required=False)
    row.save(update_fields=["name", "notes"])
    _saved(crew, row)
    house_rules_follow_the_name(crew, before, row.name)


def house_rules_follow_the_name(crew: Crew, before: str, after: str) -> None:
    """A character's accepted house rules (kept by its name, as the crew file keeps them) follow its new name:
    renamed, it keeps them, and a character later given the old name does not inherit them."""
    if before == after or not any(f.get("character") == before for f in crew.accepted_findings):
        return
    crew.accepted_findings = [
        {**f, "character": after} if f.get("character") == before else f for f in crew.accepted_findings
    ]
    crew.save(update_fields=["accepted_findings", "updated_at"])


def remove_character(crew: Crew, *, character: int) -> None:
    _character(crew, character).delete()


MOVE_DIRECTIONS = ("up", "down")


def move_character(crew: Crew, *, character: int, direction: str) -> None:
    """Swap a character with its neighbour ("up" or "down") in the roster order."""
    character = _character(crew, character)
    if direction not in MOVE_DIRECTIONS:
        raise EditError("Move a character up or down.")
    ordered = list(crew.characters.order_by("position", "id"))
    index = ordered.index(character)
    other = index - 1 if direction == "up" else index + 1
    if not 0 <= other < len(ordered):
        return
    ordered[index], ordered[other] = ordered[other], ordered[index]
    for position, each in enumerate(ordered):
        if each.position != position:
            each.position = position
            each.save(update_fields=["position"])


def place_character(crew: Crew, *, character: int, place: int) -> None:
    """Put a character at a 0-based place in the roster order (a drag and drop)."""
    character = _character(crew, character)
    ordered = [c for c in crew.characters.order_by("position", "id") if c.pk != character.pk]
    place = _parse_int(place, "Place", 0, len(ordered))
    ordered.insert(place, character)
    for position, each in enumerate(ordered):
        if each.position != position:
            each.position = position
            each.save(update_fields=["position"])


def duplicate_character(crew: Crew, *, character: int) -> Character:
    """A copy of a character (every choice) placed right after it."""
    source = _character(crew, character)
    if crew.characters.count() >= CHARACTERS_HARD_LIMIT:
        raise EditError(f"A crew can hold at most {CHARACTERS_HARD_LIMIT} characters here.")
    name = f"{source.name} (copy)"[:NAME_MAX]
    crew.characters.filter(position__gt=source.position).update(position=F("position") + 1)
    copy = Character.objects.create(
        crew=crew,
        name=name,
        position=source.position + 1,
        notes=source.notes,
        attribute_changes=dict(source.attribute_changes or {}),
        **{a: getattr(source, a) for a in ATTRIBUTES},
    )
    CharacterTrait.objects.bulk_create(
        CharacterTrait(character=copy, trait_id=t.trait_id, choices=dict(t.choices), position=t.position)
        for t in source.traits.all()
    )
    CharacterBodyMod.objects.bulk_create(
        CharacterBodyMod(character=copy, body_mod_id=m.body_mod_id, position=m.position) for m in source.body_mods.all()
    )
    CharacterGear.objects.bulk_create(
        CharacterGear(character=copy, item_id=g.item_id, copies=g.copies, position=g.position)
        for g in source.gear.all()
    )
    return copy


def clear_changes(crew: Crew, *, character: int) -> None:
    """Drop what a campaign changed on a character (injuries, advancement): a copy of a campaign's crew
    brings them along (duplicate, crew file), and out of the campaign its player may want the crew as built.
    A campaign's own crew is never edited here (apply_edit refuses it)."""
    character = _character(crew, character)
    if character.attribute_changes:
        character.attribute_changes = {}
        character.save(update_fields=["attribute_changes"])
    _saved(crew, character)


def set_attribute(
    crew: Crew, *, character: int, attribute: str, delta: int | None = None, value: int | None = None
) -> None:
    """Set a base attribute to ``value``, or step it by ``delta`` (+1 or -1).

    Values outside the rules' -2..+3 are stored (and reported by validation)
    so that a player can pass through an illegal state while rearranging.
    """
    character = _character(crew, character)
    value = _attribute_value(character, attribute, delta, value)
    setattr(character, attribute, value)
    character.save(update_fields=[attribute])
    _saved(crew, character)


def _attribute_value(character: Character, attribute: str, delta, value) -> int:
    if attribute not in ATTRIBUTES:
        raise EditError("Unknown attribute.")
    low, high = ATTRIBUTE_STORAGE_RANGE
    if delta is not None:
        delta = _parse_int(delta, "Change", -1, 1)
        value = getattr(character, attribute) + delta
    else:
        value = _parse_int(value, attribute.capitalize(), low, high)
    if not low <= value <= high:
        raise EditError(f"{attribute.capitalize()} cannot go below {low} or above {high}.")
    return value


def set_kept_attribute(
    crew: Crew, kept: Character, user_id: int, expected_version: int | None, *, attribute: str, delta=None, value=None
) -> bool:
    """``set_attribute`` on a crew and character as the editor kept them at ``expected_version``
    (editor_cache.kept_crew), without reading them again: False, with nothing written, unless the stored rows are
    still exactly those.

    Each write compares what it changes: the crew's version and ``updated_at`` (every edit and every admin save
    moves them), its owner and catalogue version, and the attribute's stored value. Any difference, and any input
    the edit refuses, leaves the edit to ``apply_edit``, which reads everything and says what is wrong."""
    try:
        value = _attribute_value(kept, attribute, delta, value)
        expected = int(expected_version)  # type: ignore[arg-type]
    except (EditError, TypeError, ValueError):
        return False
    now = _now()
    if connection.vendor == "postgresql":
        written = _claim_and_write_kept(crew, kept, expected, user_id, now, attribute, value)
    else:
        with transaction.atomic():
            written = _claim_kept(crew, expected, user_id, now) and _write_kept(crew, kept, attribute, value)
            if not written:
                transaction.set_rollback(True)
    if not written:
        return False
    roster_tasks.roster_saved(crew.pk, expected + 1)  # committed: queued
    crew.version, crew.updated_at = expected + 1, now
    character = copy.copy(kept)  # the kept row is shared with other requests: never changed in place
    setattr(character, attribute, value)
    _saved(crew, character)
    return True


# The two compare-and-set writes of the commonest click in SQL of their own: the ORM spends about 0.5 ms building
# the claim's query (its catalogue condition is a join) and 0.15 ms the character's, against 0.01 ms to run each;
# together most of what the click costs beyond its page's redraw. Names come from the models.


def _quoted(model, field: str | None = None) -> str:
    return connection.ops.quote_name(model._meta.db_table if field is None else model._meta.get_field(field).column)


def _claim_sql(crew: Crew, expected: int, user_id: int, now) -> tuple[str, list]:
    """``claim_version``, where the stored crew is still the kept row: version, ``updated_at``, owner, catalogue."""
    table, systems = _quoted(Crew), _quoted(GameSystem)
    version, updated_at, pk = _quoted(Crew, "version"), _quoted(Crew, "updated_at"), _quoted(GameSystem, "id")
    sql = (
        f"UPDATE {table} SET {version} = {version} + 1, {updated_at} = %s "
        f"WHERE {_quoted(Crew, 'id')} = %s AND {version} = %s AND {updated_at} = %s AND {_quoted(Crew, 'owner')} = %s "
        f"AND EXISTS (SELECT 1 FROM {systems} WHERE {systems}.{pk} = {table}.{_quoted(Crew, 'system')} "
        f"AND {systems}.{_quoted(GameSystem, 'catalogue_version')} = %s)"
    )
    stamp = connection.ops.adapt_datetimefield_value
    return sql, [stamp(now), crew.pk, expected, stamp(crew.updated_at), user_id, crew.system.catalogue_version]


def _claim_kept(crew: Crew, expected: int, user_id: int, now) -> bool:
    sql, params = _claim_sql(crew, expected, user_id, now)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == 1


def _claim_and_write_kept(
    crew: Crew, kept: Character, expected: int, user_id: int, now, attribute: str, value: int
) -> bool:
    """PostgreSQL: the claim and the write as one statement (a data-modifying WITH), committed on its own: one
    round trip to the server instead of four (BEGIN, two updates, COMMIT), the most of the click's cost there.

    The claim also requires the character's kept value, so it claims nothing when the write would not happen.
    Every writer of a character claims the crew's version in the same transaction, so one that changed it in
    between holds or has moved the crew row, and the claim, waiting for that lock, finds another version."""
    claim, params = _claim_sql(crew, expected, user_id, now)
    table, characters, crew_pk = _quoted(Crew), _quoted(Character), _quoted(Crew, "id")
    column, character_pk = _quoted(Character, attribute), _quoted(Character, "id")
    character_crew = _quoted(Character, "crew")
    sql = (
        f"WITH claimed AS ({claim} "
        f"AND EXISTS (SELECT 1 FROM {characters} WHERE {characters}.{character_pk} = %s "
        f"AND {characters}.{character_crew} = {table}.{crew_pk} AND {characters}.{column} = %s) "
        f"RETURNING {table}.{crew_pk}) "
        f"UPDATE {characters} SET {column} = %s WHERE {character_pk} = %s "
        f"AND {character_crew} IN (SELECT {crew_pk} FROM claimed) AND {column} = %s"
    )
    stored = getattr(kept, attribute)
    params += [kept.pk, stored, value, kept.pk, stored]
    with prepared_cursor() as cursor:  # planned once per connection: the plan cost more than the statement
        cursor.execute(sql, params)
        return cursor.rowcount == 1


def _write_kept(crew: Crew, kept: Character, attribute: str, value: int) -> bool:
    """The attribute's new value, where the stored character is still the kept one (of this crew, same value)."""
    column = _quoted(Character, attribute)
    sql = (
        f"UPDATE {_quoted(Character)} SET {column} = %s "
        f"WHERE {_quoted(Character, 'id')} = %s AND {_quoted(Character, 'crew')} = %s AND {column} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value, kept.pk, crew.pk, getattr(kept, attribute)])
        return cursor.rowcount == 1


# --- traits, body-mods, gear --------------------------------------------------


def _catalogue_entry(model, crew: Crew, slug: str, label: str):
    try:
        return model.objects.get(system=crew.system, slug=slug)
    except model.DoesNotExist:
        raise EditError(f"Unknown {label}: {slug!r}.") from None


UNKNOWN_RAISED = "Unknown attribute in the trait's choice."
TRAIT_GONE = "That trait is no longer on this character."


def _check_raised(raised: list[str]) -> list[str]:
    if any(a not in ATTRIBUTES for a in raised):
        raise EditError(UNKNOWN_RAISED)
    return list(raised)


def add_trait(crew: Crew, *, character: int, slug: str, raised: list[str] | None = None) -> None:
    """Give a character a trait; ``raised`` holds the attributes a trait's choice raises."""
    character = _character(crew, character)
    trait = _catalogue_entry(Trait, crew, slug, "trait")
    if character.traits.count() >= limits.TRAITS_MAX_PER_CHARACTER:
        raise EditError(f"A character can hold at most {limits.TRAITS_MAX_PER_CHARACTER} traits here.")
    choices = {"raise": _check_raised(raised)} if raised else {}
    CharacterTrait.objects.create(
        character=character, trait=trait, choices=choices, position=_next_position(character.traits)
    )


def update_trait_choice(crew: Crew, *, character: int, row: int, raised: list[str]) -> None:
    character = _character(crew, character)
    try:
        trait_row = character.traits.get(pk=row)
    except (TypeError, ValueError, OverflowError, CharacterTrait.DoesNotExist):
        raise EditError(TRAIT_GONE) from None
    trait_row.choices = {**trait_row.choices, "raise": _check_raised(raised)}
    trait_row.save(update_fields=["choices"])


def remove_trait(crew: Crew, *, character: int, row: int) -> None:
    character = _character(crew, character)
    character.traits.filter(pk=row).delete()


def add_body_mod(crew: Crew, *, character: int, slug: str) -> None:
    character = _character(crew, character)
    body_mod = _catalogue_entry(BodyMod, crew, slug, "body-mod")
    if character.body_mods.count() >= limits.BODY_MODS_MAX_PER_CHARACTER:
        raise EditError(f"A character can hold at most {limits.BODY_MODS_MAX_PER_CHARACTER} body-mods here.")
    CharacterBodyMod.objects.create(
        character=character, body_mod=body_mod, position=_next_position(character.body_mods)
    )


def remove_body_mod(crew: Crew, *, character: int, row: int) -> None:
    character = _character(crew, character)
    character.body_mods.filter(pk=row).delete()


def add_gear(crew: Crew, *, character: int, slug: str) -> None:
    character = _character(crew, character)
    item = _catalogue_entry(Item, crew, slug, "item")
    if not item.purchasable:
        raise EditError(f"{item.name} cannot be bought (every model has fists already).")
    if (character.gear.aggregate(total=Sum("copies"))["total"] or 0) >= limits.GEAR_MAX_PER_CHARACTER:
        raise EditError(f"A character can carry at most {limits.GEAR_MAX_PER_CHARACTER} items here.")
    last = character.gear.order_by("-position", "-id").first()
    if last is not None and last.item_id == item.id:
        CharacterGear.objects.filter(pk=last.pk).update(copies=F("copies") + 1)
    else:
        CharacterGear.objects.create(character=character, item=item, position=_next_position(character.gear))


def remove_gear(crew: Crew, *, character: int, row: int) -> None:
    """Remove one copy of a gear row."""
    character = _character(crew, character)
    gear_row = character.gear.filter(pk=row).first()
    if gear_row is None:
        return
    if gear_row.copies > 1:
        gear_row.copies -= 1
        gear_row.save(update_fields=["copies"])
    else:
        gear_row.delete()


# Edits that change one character only: the editor re-renders just that card.
CHARACTER_EDITS = {
    "character",
    "attribute",
    "clear-changes",
    "add-trait",
    "trait-choice",
    "remove-trait",
    "add-body-mod",
    "remove-body-mod",
    "add-gear",
    "remove-gear",
}

EDITS = {
    "crew": update_crew,
    "accept": accept_finding,
    "unaccept": unaccept_finding,
    "add-character": add_character,
    "character": update_character,
    "remove-character": remove_character,
    "move-character": move_character,
    "place-character": place_character,
    "duplicate-character": duplicate_character,
    "attribute": set_attribute,
    "clear-changes": clear_changes,
    "add-trait": add_trait,
    "trait-choice": update_trait_choice,
    "remove-trait": remove_trait,
    "add-body-mod": add_body_mod,
    "remove-body-mod": remove_body_mod,
    "add-gear": add_gear,
    "remove-gear": remove_gear,
}


def apply_edit(crew: Crew, action: str, *, expected_version: int | None, **fields):
    """Apply one edit (``fields`` are its keyword arguments) atomically and return what it made (a new
    character), if anything.

    Raises EditError (CampaignCopy for a campaign's crew), StaleCrew or KeyError (unknown action)."""
    edit = EDITS[action]
    if hasattr(crew, "campaign_entry"):
        raise CampaignCopy()
    with transaction.atomic():
        claimed_at = claim_version(crew.pk, expected_version)
        roster_tasks.roster_saved(crew.pk, int(expected_version) + 1)  # after the commit: "Print roster" finds it ready
        crew.version, crew.updated_at = int(expected_version) + 1, claimed_at  # as stored: the editor's cache key
        return edit(crew, **fields)


def _now():
    return timezone.now()
