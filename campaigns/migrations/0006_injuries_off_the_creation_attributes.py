# Reading C10: an injury (a table row such as "toughness -1") used to be added to the character's base
# attributes, so the creation check (four +1, three -1) called the crew invalid. The effects still standing
# (not reversed) move off the base attributes into ``Character.attribute_changes``; the values played stay
# the same, the base goes back to the placement as created. A death entry's saved rows (what a reversal
# restores) of an injured character move the same way.

from django.db import migrations

ATTRIBUTES = ("strength", "toughness", "agility", "intellect", "discipline")


def _diffs(entry) -> dict:
    before, after = entry.before or {}, entry.after or {}
    return {
        a: after[a] - before[a]
        for a in ATTRIBUTES
        if isinstance(before.get(a), int) and isinstance(after.get(a), int) and after[a] != before[a]
    }


def _move(base: dict, changes: dict, diffs: dict, sign: int) -> None:
    """``sign`` 1: take ``diffs`` off ``base`` into ``changes``; -1: put them back."""
    for attribute, diff in diffs.items():
        base[attribute] -= sign * diff
        changes[attribute] = changes.get(attribute, 0) + sign * diff
        if not changes[attribute]:
            del changes[attribute]


def forwards(apps, schema_editor):
    HistoryEntry = apps.get_model("campaigns", "HistoryEntry")
    Character = apps.get_model("crewbuilder", "Character")
    for effect in HistoryEntry.objects.filter(kind="effect", undone_by__isnull=True).order_by("pk"):
        diffs = _diffs(effect)
        character_id = (effect.before or {}).get("character")
        if not diffs or not isinstance(character_id, int):
            continue
        character = Character.objects.filter(pk=character_id).first()
        if character is not None:
            base = {a: getattr(character, a) for a in ATTRIBUTES}
            changes = dict(character.attribute_changes or {})
            _move(base, changes, diffs, 1)
            for attribute, value in base.items():
                setattr(character, attribute, value)
            character.attribute_changes = changes
            character.save(update_fields=[*ATTRIBUTES, "attribute_changes"])
            continue
        for death in HistoryEntry.objects.filter(kind="death", undone_by__isnull=True, pk__gt=effect.pk):
            rows = (death.before or {}).get("rows")
            if not rows or rows.get("id") != character_id:
                continue
            changes = dict(rows.get("attribute_changes") or {})
            _move(rows["attributes"], changes, diffs, 1)
            rows["attribute_changes"] = changes
            death.save(update_fields=["before"])


def backwards(apps, schema_editor):
    HistoryEntry = apps.get_model("campaigns", "HistoryEntry")
    Character = apps.get_model("crewbuilder", "Character")
    for character in Character.objects.exclude(attribute_changes={}):
        for attribute, change in (character.attribute_changes or {}).items():
            setattr(character, attribute, getattr(character, attribute) + change)
        character.attribute_changes = {}
        character.save(update_fields=[*ATTRIBUTES, "attribute_changes"])
    for death in HistoryEntry.objects.filter(kind="death"):
        rows = (death.before or {}).get("rows")
        if rows and rows.get("attribute_changes"):
            _move(rows["attributes"], rows["attribute_changes"], rows["attribute_changes"].copy(), -1)
            death.save(update_fields=["before"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0005_submitted_forms"),
        ("crewbuilder", "0008_character_attribute_changes"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
