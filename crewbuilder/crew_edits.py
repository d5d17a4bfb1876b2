"""Every change a player makes to a crew, as one function per edit.

Each edit runs in a transaction, checks the version the browser last saw
(optimistic locking: a stale tab gets StaleCrew, never a silent overwrite),
and bumps it. Edits refuse only what cannot be stored (bad input, unknown
catalogue slugs); rules breaches (over budget, too many characters, ...) are
stored and shown by validation, so a draft never loses the player's work.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Max, Sum
from django.utils import timezone

from crewbuilder import limits, roster_tasks
from crewbuilder.models import BodyMod, Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew, Item, Trait
from crewbuilder.models.catalogue import ATTRIBUTES

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


def _clean_text(value: str, field: str, max_length: int, *, required: bool) -> str:
    value = (value or "").strip()
    if required and not value:
        raise EditError(f"{field} cannot be empty.")
    if len(value) > max_length:
        raise EditError(f"{field} is {len(value)} characters long; the limit is {max_length}.")
    if any(ord(ch) < 32 and ch not in "\n\r\t" for ch in value):
        raise EditError(f"{field} contains control characters.")
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


def _character(crew: Crew, character_id) -> Character:
    try:
        return Character.objects.get(pk=int(character_id), crew=crew)
    except (TypeError, ValueError, Character.DoesNotExist):
        raise EditError("That character is not in this crew (it may have been removed).") from None


def _next_position(queryset) -> int:
    top = queryset.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


# --- crew -------------------------------------------------------------------


def update_crew(crew: Crew, data) -> None:
    crew.name = _clean_text(data.get("name", crew.name), "Crew name", NAME_MAX, required=True)
    crew.budget = _parse_int(data.get("budget", crew.budget), "Budget", 0, BUDGET_MAX)
    crew.notes = _clean_text(data.get("notes", crew.notes), "Notes", NOTES_MAX, required=False)
    crew.save(update_fields=["name", "budget", "notes", "updated_at"])


def accept_finding(crew: Crew, data) -> None:
    code = _clean_text(data.get("code"), "Finding", 60, required=True)
    character = (data.get("character") or "").strip() or None
    note = _clean_text(data.get("note"), "House-rule note", 300, required=True)
    kept = [f for f in crew.accepted_findings if not (f.get("code") == code and f.get("character") == character)]
    kept.append({"code": code, "character": character, "note": note})
    crew.accepted_findings = kept
    crew.save(update_fields=["accepted_findings", "updated_at"])


def unaccept_finding(crew: Crew, data) -> None:
    code = (data.get("code") or "").strip()
    character = (data.get("character") or "").strip() or None
    crew.accepted_findings = [
        f for f in crew.accepted_findings if not (f.get("code") == code and f.get("character") == character)
    ]
    crew.save(update_fields=["accepted_findings", "updated_at"])


# --- characters -------------------------------------------------------------


def add_character(crew: Crew, data) -> Character:
    count = crew.characters.count()
    if count >= CHARACTERS_HARD_LIMIT:
        raise EditError(f"A crew can hold at most {CHARACTERS_HARD_LIMIT} characters here.")
    name = _clean_text(data.get("name") or f"Character {count + 1}", "Character name", NAME_MAX, required=True)
    return Character.objects.create(crew=crew, name=name, position=_next_position(crew.characters))


def update_character(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    character.name = _clean_text(data.get("name", character.name), "Character name", NAME_MAX, required=True)
    character.notes = _clean_text(
        data.get("notes", character.notes), "Notes", limits.CHARACTER_NOTES_MAX, required=False
    )
    character.save(update_fields=["name", "notes"])


def remove_character(crew: Crew, data) -> None:
    _character(crew, data.get("character")).delete()


def move_character(crew: Crew, data) -> None:
    """Swap a character with its neighbour ("up" or "down") in the roster order."""
    character = _character(crew, data.get("character"))
    direction = data.get("direction")
    if direction not in ("up", "down"):
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


def place_character(crew: Crew, data) -> None:
    """Put a character at a 0-based place in the roster order (a drag and drop)."""
    character = _character(crew, data.get("character"))
    ordered = [c for c in crew.characters.order_by("position", "id") if c.pk != character.pk]
    place = _parse_int(data.get("place"), "Place", 0, len(ordered))
    ordered.insert(place, character)
    for position, each in enumerate(ordered):
        if each.position != position:
            each.position = position
            each.save(update_fields=["position"])


def duplicate_character(crew: Crew, data) -> Character:
    """A copy of a character (every choice) placed right after it."""
    source = _character(crew, data.get("character"))
    if crew.characters.count() >= CHARACTERS_HARD_LIMIT:
        raise EditError(f"A crew can hold at most {CHARACTERS_HARD_LIMIT} characters here.")
    name = f"{source.name} (copy)"[:NAME_MAX]
    crew.characters.filter(position__gt=source.position).update(position=F("position") + 1)
    copy = Character.objects.create(
        crew=crew,
        name=name,
        position=source.position + 1,
        notes=source.notes,
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


def set_attribute(crew: Crew, data) -> None:
    """Set a base attribute, or step it with delta=+1/-1.

    Values outside the rules' -2..+3 are stored (and reported by validation)
    so that a player can pass through an illegal state while rearranging.
    """
    character = _character(crew, data.get("character"))
    attribute = data.get("attribute")
    if data.get("step"):  # a stepper button: "strength:1" or "strength:-1"
        attribute, _, delta = str(data.get("step")).partition(":")
        data = {"delta": delta}
    if attribute not in ATTRIBUTES:
        raise EditError("Unknown attribute.")
    low, high = ATTRIBUTE_STORAGE_RANGE
    if data.get("delta") not in (None, ""):
        delta = _parse_int(data.get("delta"), "Change", -1, 1)
        value = getattr(character, attribute) + delta
    else:
        value = _parse_int(data.get("value"), attribute.capitalize(), low, high)
    if not low <= value <= high:
        raise EditError(f"{attribute.capitalize()} cannot go below {low} or above {high}.")
    setattr(character, attribute, value)
    character.save(update_fields=[attribute])


# --- traits, body-mods, gear --------------------------------------------------


def _catalogue_entry(model, crew: Crew, slug: str, label: str):
    try:
        return model.objects.get(system=crew.system, slug=slug)
    except model.DoesNotExist:
        raise EditError(f"Unknown {label}: {slug!r}.") from None


def add_trait(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    trait = _catalogue_entry(Trait, crew, (data.get("slug") or "").strip(), "trait")
    if character.traits.count() >= limits.TRAITS_MAX_PER_CHARACTER:
        raise EditError(f"A character can hold at most {limits.TRAITS_MAX_PER_CHARACTER} traits here.")
    choices = {}
    raised = [a for a in data.getlist("raise") if a] if hasattr(data, "getlist") else data.get("raise") or []
    if raised:
        if any(a not in ATTRIBUTES for a in raised):
            raise EditError("Unknown attribute in the trait's choice.")
        choices["raise"] = list(raised)
    CharacterTrait.objects.create(
        character=character, trait=trait, choices=choices, position=_next_position(character.traits)
    )


def update_trait_choice(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    try:
        row = character.traits.get(pk=int(data.get("row")))
    except (TypeError, ValueError, CharacterTrait.DoesNotExist):
        raise EditError("That trait is no longer on this character.") from None
    raised = [a for a in data.getlist("raise") if a] if hasattr(data, "getlist") else data.get("raise") or []
    if any(a not in ATTRIBUTES for a in raised):
        raise EditError("Unknown attribute in the trait's choice.")
    row.choices = {**row.choices, "raise": list(raised)}
    row.save(update_fields=["choices"])


def remove_trait(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    character.traits.filter(pk=_row_id(data)).delete()


def add_body_mod(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    body_mod = _catalogue_entry(BodyMod, crew, (data.get("slug") or "").strip(), "body-mod")
    if character.body_mods.count() >= limits.BODY_MODS_MAX_PER_CHARACTER:
        raise EditError(f"A character can hold at most {limits.BODY_MODS_MAX_PER_CHARACTER} body-mods here.")
    CharacterBodyMod.objects.create(
        character=character, body_mod=body_mod, position=_next_position(character.body_mods)
    )


def remove_body_mod(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    character.body_mods.filter(pk=_row_id(data)).delete()


def add_gear(crew: Crew, data) -> None:
    character = _character(crew, data.get("character"))
    item = _catalogue_entry(Item, crew, (data.get("slug") or "").strip(), "item")
    if not item.purchasable:
        raise EditError(f"{item.name} cannot be bought (every model has fists already).")
    if (character.gear.aggregate(total=Sum("copies"))["total"] or 0) >= limits.GEAR_MAX_PER_CHARACTER:
        raise EditError(f"A character can carry at most {limits.GEAR_MAX_PER_CHARACTER} items here.")
    last = character.gear.order_by("-position", "-id").first()
    if last is not None and last.item_id == item.id:
        CharacterGear.objects.filter(pk=last.pk).update(copies=F("copies") + 1)
    else:
        CharacterGear.objects.create(character=character, item=item, position=_next_position(character.gear))


def remove_gear(crew: Crew, data) -> None:
    """Remove one copy of a gear row."""
    character = _character(crew, data.get("character"))
    row = character.gear.filter(pk=_row_id(data)).first()
    if row is None:
        return
    if row.copies > 1:
        row.copies -= 1
        row.save(update_fields=["copies"])
    else:
        row.delete()


def _row_id(data) -> int:
    try:
        return int(data.get("row"))
    except (TypeError, ValueError):
        raise EditError("Which entry? The form did not say.") from None


# Edits that change one character only: the editor re-renders just that card.
CHARACTER_EDITS = {
    "character",
    "attribute",
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
    "add-trait": add_trait,
    "trait-choice": update_trait_choice,
    "remove-trait": remove_trait,
    "add-body-mod": add_body_mod,
    "remove-body-mod": remove_body_mod,
    "add-gear": add_gear,
    "remove-gear": remove_gear,
}


# A crew enrolled in a campaign changes through the campaign (treasury,
# injuries, names and notes), so every change is in the campaign's history.
CAMPAIGN_COPY_EDITS: frozenset = frozenset()


def _guard_campaign_copy(crew: Crew, action: str, data) -> None:
    if not hasattr(crew, "campaign_entry"):
        return
    changes_budget = action == "crew" and str(data.get("budget", crew.budget)).strip() != str(crew.budget)
    if action not in CAMPAIGN_COPY_EDITS or changes_budget:
        raise EditError(
            "This crew is enrolled in a campaign: hire, buy, rename and write notes through the "
            "campaign's page, so every change is in its history."
        )


def apply_edit(crew: Crew, action: str, data, expected_version):
    """Apply one edit atomically and return what it made (a new character), if anything.

    Raises EditError, StaleCrew or KeyError (unknown action)."""
    edit = EDITS[action]
    _guard_campaign_copy(crew, action, data)
    with transaction.atomic():
        claimed_at = claim_version(crew.pk, expected_version)
        roster_tasks.roster_saved(crew.pk, int(expected_version) + 1)  # after the commit: "Print roster" finds it ready
        crew.version, crew.updated_at = int(expected_version) + 1, claimed_at  # as stored: the editor's cache key
        return edit(crew, data)


def _now():
    return timezone.now()
