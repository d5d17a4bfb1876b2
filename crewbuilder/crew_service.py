"""What the crew pages show, built from the one validation report.

Views call these functions; the numbers all come from
``crewbuilder.validation`` (which calls ``rules``), and the
catalogue snapshot. Nothing here decides a rule: the picker asks the
validator what an option would break by validating the crew with it added.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from catalogue.loader import snapshot_for_system
from crewbuilder import crew_edits, crew_summary, crewfile, editor_fragments
from crewbuilder.crew_reports import report_for, status_of
from crewbuilder.finding_lines import finding_lines
from crewbuilder.models import Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew, Keyword
from crewbuilder.validation import character_to_data, crew_to_data, validate_crew
from rules.cybernekro.character import keyword_parts

ATTRIBUTE_LABELS = {
    "strength": "Strength",
    "toughness": "Toughness",
    "agility": "Agility",
    "intellect": "Intellect",
    "discipline": "Discipline",
}


# --- list -------------------------------------------------------------------


LIST_PAGE_SIZE = 12
ROW_URLS = ("crew-edit", "crew-detail", "crew-duplicate", "crew-delete", "campaign-detail")


def _url_makers() -> dict:
    """Each row's links from one reverse() per name, not one per row: a page of rows costs the same as one."""
    marker = 987654321
    return {name.replace("-", "_"): reverse(name, args=[marker]).replace(str(marker), "{}") for name in ROW_URLS}


def list_page(owner, search: str = "", page_number=1, per_page: int = LIST_PAGE_SIZE):
    """One page of the owner's crews (name search), from the stored summaries.

    The same number of queries for 1 crew or 200: the summaries are stored on
    the crew (crew_summary.py); only a stale one is validated again.
    """
    # Other games' crews (Soylent Ghoul drone sets) are listed by their own apps (the game registry).
    # campaign copies are marked with their campaign
    crews = (
        Crew.objects.select_related("system", "campaign_entry__campaign")
        .owned_by(owner)
        .without_drone_sets()
        .defer("notes", "accepted_findings", "system__rules")
    )  # JSON a row never shows
    if search:
        crews = crews.filter(name__icontains=search)
    page = Paginator(crews.order_by("-updated_at", "-id"), per_page).get_page(page_number)
    page.object_list = list(page.object_list)
    crew_summary.refresh_stale(page.object_list)
    makers, now = _url_makers(), timezone.now()
    campaign_url = makers.pop("campaign_detail")
    # Links and times made here once per row: the template's per-row filters cost more than the rows' data.
    # Each row a flat dict of what it shows: a template looks a dict key up at once, where an object's
    # attribute costs a failed subscript first; and a reverse one-to-one with no campaign copy raises,
    # which in a template costs a dir() of the crew. Links and times made here once per page.
    page.rows = []
    for c in page.object_list:
        entry = getattr(c, "campaign_entry", None)  # set when the crew is a campaign copy
        page.rows.append(
            {
                "name": c.name,
                "system": c.system.name,
                "points": c.summary_points,
                "budget": c.budget,
                "status": c.summary_status,
                "errors": c.summary_errors,
                "changed_iso": c.updated_at.isoformat(),
                "changed_ago": timesince(c.updated_at, now),
                "campaign": entry.campaign.name if entry is not None else "",
                "campaign_url": campaign_url.format(entry.campaign_id) if entry is not None else "",
            }
            | {name: url.format(c.pk) for name, url in makers.items()}
        )
    return page


# --- create, duplicate, delete, import, export ---------------------------------


def create_crew(*, owner, system, name: str) -> Crew:
    name = crew_edits._clean_text(name, "Crew name", crew_edits.NAME_MAX, required=True)
    budget = snapshot_for_system(system).rules["budget"]
    return Crew.objects.create(owner=owner, system=system, name=name, budget=budget)


@transaction.atomic
def duplicate(crew: Crew, owner) -> Crew:
    """A full copy (characters and every choice) owned by ``owner``."""
    copy_name = f"{crew.name} (copy)"[: crew_edits.NAME_MAX]
    new = Crew.objects.create(
        owner=owner,
        system=crew.system,
        name=copy_name,
        budget=crew.budget,
        notes=crew.notes,
        accepted_findings=copy.deepcopy(crew.accepted_findings),
    )
    for character in crew.characters.all():
        new_character = Character.objects.create(
            crew=new,
            name=character.name,
            position=character.position,
            notes=character.notes,
            attribute_changes=dict(character.attribute_changes or {}),
            **{a: getattr(character, a) for a in ATTRIBUTE_LABELS},
        )
        CharacterTrait.objects.bulk_create(
            CharacterTrait(
                character=new_character, trait=t.trait, choices=copy.deepcopy(t.choices), position=t.position
            )
            for t in character.traits.all()
        )
        CharacterBodyMod.objects.bulk_create(
            CharacterBodyMod(character=new_character, body_mod=m.body_mod, position=m.position)
            for m in character.body_mods.all()
        )
        CharacterGear.objects.bulk_create(
            CharacterGear(character=new_character, item=g.item, copies=g.copies, position=g.position)
            for g in character.gear.all()
        )
    return new


def delete(crew: Crew) -> None:
    crew.delete()


def export_file(crew: Crew) -> str:
    """The crew file text (crew-format.md) of a crew loaded with ``with_everything()``."""
    return crewfile.export_crew(crew)


def import_file(owner, raw: bytes) -> tuple[Crew | None, list[str]]:
    """Import a crew file: the crew and what of the file was ignored (one message per unknown field), or None
    and one message per problem."""
    try:
        crew, report = crewfile.import_crew_file(raw, owner)
    except crewfile.ImportRefused as refused:
        return None, [e["message"] for e in refused.report["errors"]] or ["The file is not a crew file."]
    return crew, [w["message"] for w in report["warnings"] if w["code"] == "unknown-field"]


# --- the editor's view of a crew ---------------------------------------------------


def _modifier_placement(base: dict, totals: dict) -> dict:
    """How far the player is through placing the creation modifiers.

    A +1 and a -1 may land on the same attribute (crew-format.md), so what
    matters is the sum and the two caps, not the count of non-zero values.
    """
    plus_total, minus_total = totals.get("plus", 4), totals.get("minus", 3)
    plus_used = sum(v for v in base.values() if v > 0)
    minus_used = -sum(v for v in base.values() if v < 0)
    total, needed = plus_used - minus_used, plus_total - minus_total
    if plus_used > plus_total:
        hint = f"{plus_used - plus_total} too many +1"
    elif minus_used > minus_total:
        hint = f"{minus_used - minus_total} too many −1"
    elif total < needed:
        hint = f"raise by {needed - total} more"
    elif total > needed:
        hint = f"lower by {total - needed} more"
    else:
        hint = ""
    return {
        "plus_used": plus_used,
        "minus_used": minus_used,
        "plus_total": plus_total,
        "minus_total": minus_total,
        "sum": total,
        "sum_needed": needed,
        "complete": not hint,
        "hint": hint,
    }


def _keyword_details(keywords: list, glossary: dict) -> list:
    details = []
    for keyword in keywords:
        name, _x = keyword_parts(keyword)
        entry = glossary.get(_slug(name)) or glossary.get(_slug(name) + "-x")
        details.append({"label": keyword, "text": entry.get("text", "") if entry else ""})
    return details


def keyword_glossary(system) -> dict:
    return {k.slug: {"name": k.name, "text": k.text} for k in Keyword.objects.filter(system=system)}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass
class ChoiceRow:
    pk: int
    entry: object
    cost: int
    copies: int = 1
    needs_raise: bool = False
    raise_slots: tuple = ()
    choice_label: str = ""


def _unchanged(previous: dict | None, index: int, last: int, model, char_report: dict, errors, warnings):
    """The character's entry in ``previous`` (a view of an earlier version) if it shows the same: the same kept row
    (editor_cache shares a character's row between versions until it changes, and a kept row and its choices are
    never changed), report and findings, in the same place of a crew of the same size."""
    if previous is None or len(previous["characters"]) != last + 1:
        return None
    ch = previous["characters"][index]
    if ch["model"] is model and ch["report"] == char_report and ch["errors"] == errors and ch["warnings"] == warnings:
        return ch
    return None


def _attribute_row(key: str, label: str, base: int, char_report: dict, steppers_key: str) -> dict:
    effective = char_report["attributes"].get(key, base)
    return {
        "key": key,
        "label": label,
        "base": base,
        "effective": effective,
        "steps": ((-1, "−", "lower"), (1, "+", "raise")),
        # the row is kept HTML (a step redraws the attributes, and mostly only one of them changed)
        "row_key": f"{steppers_key}:{key}:{base}:{effective}",
    }


def crew_view(crew: Crew, *, glossary: bool = False, previous: dict | None = None) -> dict:
    """Everything the editor and the crew page show; ``glossary`` adds keyword texts (one query).

    ``previous``, the editor's view of an earlier version, lends its entries of the characters an edit left as
    they were, with their pieces' keys (not with ``glossary``: its entries have no keyword texts)."""
    catalogue = snapshot_for_system(crew.system)
    keywords = keyword_glossary(crew.system) if glossary else {}
    if glossary:
        previous = None
    models = list(crew.characters.all())
    # a kept character (the same object as in ``previous``) is never changed: its crew-file data neither
    known = {id(ch["model"]): ch["data"] for ch in previous["characters"]} if previous else {}
    data = [known.get(id(model)) or character_to_data(model) for model in models]
    report = report_for(crew, catalogue, characters=data)
    rules = catalogue.rules
    findings_by_name: dict = {}
    for kind in ("errors", "warnings"):
        for finding in report[kind]:
            findings_by_name.setdefault((kind, finding["character"]), []).append(finding)
    characters = []
    last = len(models) - 1
    for index, (model, char_report) in enumerate(zip(models, report["characters"])):
        errors = findings_by_name.get(("errors", model.name), [])
        warnings = findings_by_name.get(("warnings", model.name), [])
        kept = _unchanged(previous, index, last, model, char_report, errors, warnings)
        if kept is not None:
            characters.append(kept)
            continue
        base = {a: getattr(model, a) for a in ATTRIBUTE_LABELS}
        steppers_key = editor_fragments.steppers_key(crew, model)
        characters.append(
            {
                "model": model,
                "report": char_report,
                "points": char_report["points"],
                "carry_used": _number(char_report["carry"]["used"]),
                "errors": errors,
                "warnings": warnings,
                "error_lines": finding_lines(errors, catalogue.message_tokens),
                "warning_lines": finding_lines(warnings, catalogue.message_tokens),
                "modifiers": _modifier_placement(base, rules.get("attribute_modifiers", {})),
                "attributes": [
                    _attribute_row(key, label, base[key], char_report, steppers_key)
                    for key, label in ATTRIBUTE_LABELS.items()
                ],
                "traits": [_trait_row(t, catalogue) for t in model.traits.all()],
                "body_mods": [ChoiceRow(m.pk, m.body_mod, m.body_mod.cost) for m in model.body_mods.all()],
                "gear": [ChoiceRow(g.pk, g.item, g.item.cost * g.copies, g.copies) for g in model.gear.all()],
                "weapons": [
                    {**w, "keyword_details": _keyword_details(w.get("keywords", []), keywords)}
                    for w in char_report.get("weapons", [])
                ],
                "moves": ([("up", "↑")] if index > 0 else []) + ([("down", "↓")] if index < last else []),
                "index": index,
                "data": data[index],
            }
        )
        ch = characters[-1]
        ch["line"] = _one_line(ch)
        # what each kept piece of the editor shows (editor_fragments.py)
        ch["folded_key"] = editor_fragments.folded_key(crew, ch, bool(models))
        ch["findings_key"] = editor_fragments.findings_key(crew, ch, bool(models))
        ch["choices_key"] = editor_fragments.choices_key(crew, ch)
        ch["tools_key"] = editor_fragments.tools_key(crew, ch)
        ch["weapons_key"] = editor_fragments.weapons_key(ch)
    crew_errors = findings_by_name.get(("errors", None), [])
    crew_warnings = findings_by_name.get(("warnings", None), [])
    # Where the summary's error count leads: the crew's own findings, else the first character's.
    first_with_errors = next((ch for ch in characters if ch["errors"]), None)
    if crew_errors or first_with_errors is None:
        errors_anchor = "#crew-findings"
    else:
        errors_anchor = f"#findings-{first_with_errors['model'].pk}"
    return {
        "error_count": len(report["errors"]),
        "errors_anchor": errors_anchor,
        # Accepting a rule breach as a house rule makes sense once there is a crew to play.
        "offer_house_rules": bool(models),
        "report": report,
        "points": report["points"],
        "budget": report["budget"],
        "over_budget": report["points"] > report["budget"],
        "status": status_of(report),
        "characters": characters,
        "crew_errors": crew_errors,
        "crew_warnings": crew_warnings,
        "crew_error_lines": finding_lines(crew_errors, catalogue.message_tokens),
        "crew_warning_lines": finding_lines(crew_warnings, catalogue.message_tokens),
        "crew_findings_key": editor_fragments.crew_findings_key(crew, crew_errors, crew_warnings, bool(models)),
        "all_errors": report["errors"],
        "all_warnings": report["warnings"],
        "accepted": report.get("accepted", []),
        # alike findings as one line each (crewbuilder.finding_lines), as the printed cards show them
        "all_error_lines": finding_lines(report["errors"], catalogue.message_tokens),
        "all_warning_lines": finding_lines(report["warnings"], catalogue.message_tokens),
        "accepted_lines": finding_lines(report.get("accepted", []), catalogue.message_tokens),
        "base_cost": rules.get("character_base_cost", 15),
        "max_characters": rules.get("crew_size", {}).get("max", 7),
        "attribute_choices": list(ATTRIBUTE_LABELS.items()),
    }


def _one_line(character: dict) -> str:
    """A collapsed character's summary: its choices and the numbers a player scans for."""
    choices = [row.entry.name for row in character["traits"]] + [row.entry.name for row in character["body_mods"]]
    choices += [f"{row.entry.name} ×{row.copies}" if row.copies > 1 else row.entry.name for row in character["gear"]]
    report = character["report"]
    numbers = f'Armor {report["armor"]} · Move {report["move"]}" · AP {report["ap"]}'
    return " · ".join([", ".join(choices) or "no traits, body-mods or gear", numbers])


def _number(value):
    return int(value) if float(value).is_integer() else float(value)


def _trait_row(row: CharacterTrait, catalogue) -> ChoiceRow:
    entry = row.trait
    choice = (catalogue.traits.get(entry.slug) or {}).get("choice") or (entry.effects or {}).get("choice") or {}
    raise_count = choice.get("raise", 0) if isinstance(choice, dict) else 0
    if isinstance(raise_count, dict):
        raise_count = raise_count.get("count", 2)
    raised = list(row.choices.get("raise", []))
    slots = tuple(raised + [""] * max(int(raise_count or 0) - len(raised), 0))
    label = ", ".join(ATTRIBUTE_LABELS.get(a, a) for a in raised)
    return ChoiceRow(
        row.pk,
        entry,
        entry.cost,
        needs_raise=bool(raise_count),
        raise_slots=slots,
        choice_label=f"raises {label}" if label else "",
    )


# --- pickers ----------------------------------------------------------------------

PICKERS = {
    "trait": ("add-trait", "trait", "traits"),
    "body-mod": ("add-body-mod", "body-mod", "body_mods"),
    "gear": ("add-gear", "gear", "gear"),
}

GEAR_GROUPS = [
    (
        "1-handed melee weapons",
        lambda e: e.get("_category") == "weapon" and e.get("kind") == "melee" and e.get("hands") == 1,
    ),
    (
        "2-handed melee weapons",
        lambda e: e.get("_category") == "weapon" and e.get("kind") == "melee" and e.get("hands") == 2,
    ),
    (
        "1-handed ranged weapons",
        lambda e: e.get("_category") == "weapon" and e.get("kind") == "ranged" and e.get("hands") == 1,
    ),
    (
        "2-handed ranged weapons",
        lambda e: e.get("_category") == "weapon" and e.get("kind") == "ranged" and e.get("hands") == 2,
    ),
    ("Armor, shields and suits", lambda e: e.get("_category") == "armor"),
    ("Equipment", lambda e: e.get("_category") == "equipment"),
]


def picker(crew: Crew, character_id: int, kind: str, query: str = "") -> dict | None:
    """The options for one character, grouped as the rules group them; ``query`` keeps the names containing it."""
    if kind not in PICKERS:
        return None
    action, label, field = PICKERS[kind]
    models = list(crew.characters.all())
    index = next((i for i, c in enumerate(models) if c.pk == character_id), None)
    if index is None:
        return None
    catalogue = snapshot_for_system(crew.system)
    data = crew_to_data(crew)
    before = validate_crew(data, catalogue)
    name = models[index].name
    before_codes = _codes_for(before, name)

    def reasons_if_added(slug: str) -> list[str]:
        trial = copy.deepcopy(data)
        trial["characters"][index][field].append(slug)
        after = validate_crew(trial, catalogue)
        return [f["message"] for f in _findings_for(after, name) if (f["code"], f["character"]) not in before_codes]

    if kind == "trait":
        entries = [dict(e, _category="trait") for e in catalogue.traits.values()]
        groups = [("Traits", entries)]
    elif kind == "body-mod":
        entries = [dict(e, _category="body-mod") for e in catalogue.body_mods.values()]
        groups = [("Body-mods (// A: allowed for Artificial models)", entries)]
    else:
        entries = [
            dict(e, _category=catalogue.category[slug])
            for slug, e in catalogue.items.items()
            if e.get("purchasable", True)
        ]
        groups = [(title, [e for e in entries if test(e)]) for title, test in GEAR_GROUPS]
    query = " ".join(query.split()).lower()
    if query:
        groups = [(title, [e for e in group if query in e["name"].lower()]) for title, group in groups]
    return {
        "kind": kind,
        "query": query,
        "kind_label": label,
        "action": action,
        "character": models[index],
        "groups": [
            {"label": title, "options": [_option(e, reasons_if_added) for e in group]}
            for title, group in groups
            if group
        ],
    }


def _option(entry: dict, reasons_if_added) -> dict:
    detail = ""
    if entry.get("_category") == "weapon":
        rng = f'{entry["range"]}"' if entry.get("range") else "melee"
        keywords = ", ".join(entry.get("keywords") or []) or "no keywords"
        detail = f"damage {entry.get('damage')}, {rng}, {keywords}{' · small' if entry.get('small') else ''}"
    elif entry.get("_category") == "armor" and entry.get("armor"):
        detail = f"{entry['armor']} armor"
    elif entry.get("_category") == "body-mod" and entry.get("artificial"):
        detail = "// A"
    elif entry.get("small"):
        detail = "small"
    return {
        "slug": entry["slug"],
        "name": entry["name"],
        "cost": entry.get("cost", 0),
        "text": entry.get("text", ""),
        "detail": detail,
        "house_rule": entry.get("house_rule", False),
        "reasons": reasons_if_added(entry["slug"]),
    }


def _findings_for(report: dict, name: str) -> list:
    return [f for f in report["errors"] + report["warnings"] if f["character"] in (name, None)]


def _codes_for(report: dict, name: str) -> set:
    return {(f["code"], f["character"]) for f in _findings_for(report, name)}
