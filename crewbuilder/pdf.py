"""The Cybernekr0 printables: crew rosters and the quick-reference sheet.

``roster_pdf(crew_file, report, catalogue, paper)`` and
``quick_reference_pdf(catalogue, paper)`` build the context (all lookups and
formatting happen here, the templates only loop) and render it through
core.pdf (WeasyPrint, static files only, the size and time budget, the shared
cache). crewbuilder.roster_tasks serves rosters from that cache by fingerprint.

Rules text comes from a ``Catalogue``: a small read-only view (section ->
slug -> entry dict) built from the catalogue data file or from the database,
so the web views and ``manage.py crew pdf`` (no database) print the same.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from functools import cached_property

from catalogue.loader import catalogue_file_for, export_catalogue
from core.pdf import DEFAULT_PAPER, PdfRefused, pdf_filename, render_pdf, slugify
from crewbuilder import limits
from crewbuilder.finding_lines import finding_lines, message_tokens
from rules.cybernekro.engine import SUCCESS_AT

__all__ = ["Catalogue", "pdf_filename", "quick_reference_pdf", "render_pdf", "roster_pdf", "slugify"]

ATTRIBUTES = ("strength", "toughness", "agility", "intellect", "discipline")
ATTRIBUTE_LABELS = {"strength": "STR", "toughness": "TOU", "agility": "AGI", "intellect": "INT", "discipline": "DIS"}

ENTRY_SECTIONS = ("traits", "body_mods", "equipment", "armor", "weapons", "keywords", "sorceries")
ITEM_SECTIONS = ("weapons", "armor", "equipment")
TABLE_SECTIONS = ("damage_table", "neural_overload", "environment_effects")


# --------------------------------------------------------------------------
# Catalogue lookups.


_DB_CATALOGUES: dict = {}


class Catalogue:
    """Read-only rules lookups: ``entry("traits", "big") -> {...}`` and friends.

    Built from the catalogue data file (``from_file``/``from_data``) or from the
    database (``from_db``); either way each entry is the flat dict of the data
    file (slug, name, cost, text, section, ...).
    """

    def __init__(self, system: dict, sections: dict, tables: dict | None = None, rules: dict | None = None):
        self.system = dict(system)
        self._sections = {
            name: OrderedDict((entry["slug"], entry) for entry in entries or ()) for name, entries in sections.items()
        }
        self._tables = {name: list(rows or ()) for name, rows in (tables or {}).items()}
        self.rules = dict(rules or {})
        self._keywords_by_name = {
            str(entry.get("keyword") or entry.get("name", "")).lower(): entry
            for entry in self._sections.get("keywords", {}).values()
        }

    # Builders -------------------------------------------------------------

    @classmethod
    def from_data(cls, data: dict) -> Catalogue:
        def entries(value):
            if isinstance(value, dict):  # {slug: entry}
                return [{"slug": slug, **entry} for slug, entry in value.items()]
            return list(value or ())

        system = {
            "slug": data.get("system") if isinstance(data.get("system"), str) else "",
            "name": data.get("name", ""),
            "edition": data.get("edition", ""),
        }
        sections = {name: entries(data.get(name)) for name in ENTRY_SECTIONS}
        tables = {name: entries(data.get(name)) for name in TABLE_SECTIONS if data.get(name)}
        return cls(system, sections, tables, data.get("crew_rules") or {})

    @classmethod
    def from_json(cls, path) -> Catalogue:
        with open(path, encoding="utf-8") as handle:
            return cls.from_data(json.load(handle))

    @classmethod
    def from_file(cls, system: str = "cybernekro") -> Catalogue:
        """The catalogue data file shipped for a system (its last edition); no database."""
        data = catalogue_file_for(system)
        if data is None:
            raise FileNotFoundError(f"no catalogue data file for {system!r}")
        return cls.from_data(data)

    @classmethod
    def from_db(cls, system) -> Catalogue:
        """From the database rows of a GameSystem (house rules included), cached per catalogue version."""
        key = (system.pk, system.slug, system.edition, system.catalogue_version)
        found = _DB_CATALOGUES.get(key)
        if found is None:
            found = cls.from_data(export_catalogue(system))
            if len(_DB_CATALOGUES) >= 16:
                _DB_CATALOGUES.clear()
            _DB_CATALOGUES[key] = found
        return found

    # Lookups --------------------------------------------------------------

    @property
    def title(self) -> str:
        return " ".join(part for part in (self.system.get("name"), self.system.get("edition")) if part)

    def entry(self, section: str, slug: str) -> dict | None:
        return self._sections.get(section, {}).get(slug)

    def entries(self, section: str) -> list[dict]:
        return list(self._sections.get(section, {}).values())

    @cached_property
    def message_tokens(self) -> re.Pattern:
        """Words of a finding's message, each trait, body-mod or item name one word ("auto pistol")."""
        return message_tokens(
            entry.get("name") for section in ("traits", "body_mods", *ITEM_SECTIONS) for entry in self.entries(section)
        )

    def item(self, slug: str) -> tuple[str | None, dict | None]:
        """(section, entry) of a carried item: weapon, armor or equipment."""
        for section in ITEM_SECTIONS:
            found = self.entry(section, slug)
            if found is not None:
                return section, found
        return None, None

    def keyword(self, label: str) -> dict | None:
        """The keyword entry of a weapon keyword as printed: "Piercing 2" -> Piercing X."""
        label = str(label).strip()
        found = self.entry("keywords", slugify(label)) or self._keywords_by_name.get(label.lower())
        if found is None:
            match = re.match(r"^(.*?)\s*\d+$", label)
            if match:
                base = match.group(1)
                found = (
                    self.entry("keywords", slugify(base) + "-x")
                    or self.entry("keywords", slugify(base))
                    or self._keywords_by_name.get(base.lower())
                )
        return found

    def table(self, name: str) -> list[dict]:
        return list(self._tables.get(name, ()))


# --------------------------------------------------------------------------
# Roster context.


def _signed(value) -> str:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return "–" if value in (None, "") else str(value)
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"−{-number}")


def _number(value) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value)
    return text.replace(".5", "½") if text.endswith(".5") else text


def _boxes(count) -> str:
    """Tick boxes to track a resource at the table: 3 -> "☐☐☐"."""
    try:
        return "☐" * max(0, min(int(count), 12))
    except (TypeError, ValueError):
        return ""


def _keywords(value) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(part) for part in value if str(part).strip()]


# The status's lists of findings, and what a card calls each
SUMMARY_KINDS = (("errors", "not valid"), ("accepted", "house rule"), ("warnings", "advice"))


def _finding_key(finding: dict) -> tuple:
    return (finding.get("code"), finding.get("character"))


def crew_status(report: dict) -> dict:
    """valid / valid with house rules / not valid, and the reasons.

    A finding the owner accepted as a house rule (the report's "accepted" or
    "house_rules" list, or a finding marked "accepted") no longer makes the
    crew "not valid" on paper, but it is listed as a house rule.
    """
    accepted = []
    for key in ("accepted", "house_rules"):
        value = report.get(key)
        if isinstance(value, list):
            accepted.extend(f for f in value if isinstance(f, dict))
    accepted_keys = {_finding_key(f) for f in accepted}
    errors = [f for f in report.get("errors") or () if isinstance(f, dict)]
    outstanding = []
    for finding in errors:
        if finding.get("accepted") or _finding_key(finding) in accepted_keys:
            if _finding_key(finding) not in accepted_keys:
                accepted.append(finding)
                accepted_keys.add(_finding_key(finding))
        else:
            outstanding.append(finding)
    warnings = [f for f in report.get("warnings") or () if isinstance(f, dict) and _finding_key(f) not in accepted_keys]

    # The same answer as the crew page (crew_service.status_of): strict "valid"
    # first; accepted findings make it "valid with house rules" only when
    # nothing else is wrong.
    legal_with_house_rules = report.get("valid_with_house_rules", not outstanding)
    if report.get("valid"):
        state, label = "valid", "Valid"
    elif accepted and legal_with_house_rules and not outstanding:
        state, label = "house-rules", "Valid with house rules"
    else:
        state, label = "invalid", "Not valid"
    return {"state": state, "label": label, "errors": outstanding, "accepted": accepted, "warnings": warnings}


def _weapon_rows(report_char: dict, char: dict, catalogue: Catalogue) -> list[dict]:
    profiles = report_char.get("weapons")
    if not isinstance(profiles, list):
        # Fallback: the catalogue profiles of the weapons carried, plus fists.
        slugs = []
        fists = catalogue.rules.get("fists", "fists")
        if fists:
            slugs.append(fists)
        for slug in char.get("gear") or ():
            if catalogue.entry("weapons", slug) is not None and slug not in slugs:
                slugs.append(slug)
        profiles = [catalogue.entry("weapons", slug) for slug in slugs]
        profiles = [p for p in profiles if p]
    rows = []
    for profile in profiles:
        if not isinstance(profile, dict):
            continue
        slug = profile.get("slug") or slugify(profile.get("name", ""))
        base = catalogue.entry("weapons", slug) or {}
        name = profile.get("name") or base.get("name") or slug
        kind = profile.get("kind", base.get("kind"))
        hands = profile.get("hands", base.get("hands"))
        rng = profile.get("range", base.get("range"))
        rows.append(
            {
                "name": name,
                "count": profile.get("copies", profile.get("count", 1)),
                "kind": kind or "",
                "hands": f"{hands}H" if hands else "",
                "damage": _number(profile.get("damage", base.get("damage"))),
                "range": f'{_number(rng)}"' if rng not in (None, "", 0) else "melee",
                "keywords": _keywords(profile.get("keywords", base.get("keywords"))),
            }
        )
    return rows


def _trait_choice_text(trait: dict) -> str:
    parts = []
    for key, value in trait.items():
        if key == "slug":
            continue
        if isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{key} {value}")
    return "; ".join(parts)


def _entry_block(entry: dict | None, slug: str, **extra) -> dict:
    if entry is None:
        return {"name": slug, "text": "", "unknown": True, "house_rule": False, **extra}
    return {
        "name": entry.get("name") or slug,
        "text": entry.get("text", ""),
        "unknown": False,
        "house_rule": bool(entry.get("house_rule")),
        **extra,
    }


def _gear_blocks(char: dict, catalogue: Catalogue) -> list[dict]:
    counts: OrderedDict[str, int] = OrderedDict()
    for slug in char.get("gear") or ():
        counts[slug] = counts.get(slug, 0) + 1
    blocks = []
    for slug, count in counts.items():
        section, entry = catalogue.item(slug)
        if section == "weapons":
            continue
        block = _entry_block(entry, slug, count=count, section=section or "")
        flags = []
        if entry:
            if entry.get("armor"):
                flags.append(f"armor {entry['armor']}")
            if entry.get("small"):
                flags.append("small")
            if entry.get("items", 1) and entry.get("items", 1) > 1:
                flags.append(f"{entry['items']} items")
        block["flags"] = flags
        blocks.append(block)
    # Armor and shields first, then suits and equipment, as on a stat card.
    order = {"armor": 0, "equipment": 1}
    blocks.sort(key=lambda b: order.get(b["section"], 2))
    return blocks


def roster_context(crew_file: dict, report: dict, catalogue: Catalogue, paper: str = DEFAULT_PAPER) -> dict:
    """Everything the roster template prints, looked up and formatted; the paper chooses the cards' columns."""
    status = crew_status(report)
    report_chars = [c for c in report.get("characters") or () if isinstance(c, dict)]
    by_name = {}
    for rc in report_chars:
        by_name.setdefault(rc.get("name"), rc)
    default_ap = catalogue.rules.get("ap")
    default_move = catalogue.rules.get("move")

    cards = []
    glossary: OrderedDict[str, dict] = OrderedDict()
    any_sorcerer = False
    for index, char in enumerate(crew_file.get("characters") or ()):
        if not isinstance(char, dict):
            continue
        rc = (
            report_chars[index]
            if index < len(report_chars) and report_chars[index].get("name") == char.get("name")
            else by_name.get(char.get("name"), {})
        )
        attributes = rc.get("attributes") or char.get("attributes") or {}
        traits, sorcerer, dreadless = [], False, ""
        for trait in char.get("traits") or ():
            slug = trait.get("slug") if isinstance(trait, dict) else trait
            entry = catalogue.entry("traits", slug)
            choice = _trait_choice_text(trait) if isinstance(trait, dict) else ""
            traits.append(_entry_block(entry, slug, choice=choice))
            if entry and entry.get("sorcerer"):
                sorcerer = True
            if entry and entry.get("never_gains_dread"):  # Artificial: "It can never gain Dread"
                dreadless = str(entry.get("name") or slug)
        body_mods = [_entry_block(catalogue.entry("body_mods", slug), slug) for slug in char.get("body_mods") or ()]
        weapons = _weapon_rows(rc, char, catalogue)
        for weapon in weapons:
            for label in weapon["keywords"]:
                entry = catalogue.keyword(label)
                if entry is not None:
                    glossary.setdefault(
                        entry["slug"], {"name": entry.get("name", label), "text": entry.get("text", "")}
                    )
        carry = rc.get("carry") or {}
        name = str(char.get("name") or "")
        findings = [
            {**f, "kind": kind} for key, kind in SUMMARY_KINDS for f in status[key] if f.get("character") == name
        ]
        any_sorcerer = any_sorcerer or sorcerer
        cards.append(
            {
                "index": index + 1,
                "name": name,
                "points": rc.get("points"),
                "attributes": [
                    {"label": ATTRIBUTE_LABELS[a], "name": a, "value": _signed(attributes.get(a))} for a in ATTRIBUTES
                ],
                "armor": _number(rc.get("armor", 0 if rc else None)),
                "move": f'{_number(rc.get("move", default_move))}"',
                "ap": _number(rc.get("ap", default_ap)),
                "ap_boxes": _boxes(rc.get("ap", default_ap)),
                "dreadless": dreadless,
                "carry_used": _number(carry.get("used")),
                "carry_max": _number(carry.get("max")),
                "weapons": weapons,
                "traits": traits,
                "body_mods": body_mods,
                "gear": _gear_blocks(char, catalogue),
                "sorcerer": sorcerer,
                "notes": str(char.get("notes") or ""),
                "findings": findings,
                "finding_lines": finding_lines(findings, catalogue.message_tokens),
            }
        )

    sorceries = []
    if any_sorcerer:
        for entry in catalogue.entries("sorceries"):
            sorceries.append(
                {"number": entry.get("number", ""), "name": entry.get("name", ""), "text": entry.get("text", "")}
            )

    points = report.get("points")
    budget = report.get("budget", crew_file.get("budget", catalogue.rules.get("budget")))
    glossary_entries = sorted(glossary.values(), key=lambda k: k["name"].lower())
    summary = summary_findings(status, cards)
    summary_lines = _summary_lines(status, summary)
    return {
        "crew_name": str(crew_file.get("name") or ""),
        "game": catalogue.title or str(crew_file.get("system") or ""),
        "points": _number(points),
        "budget": _number(budget),
        "status": status,
        "summary": summary,
        "cards": cards,
        "glossary": glossary_entries,
        "sorceries": sorceries,
        "columns": card_columns(cards, glossary_entries, sorceries, summary_lines, paper),
        # The summary is kept whole: after the banner and the running heads, one surely longer than
        # a page goes to page 2 however it is laid out, so it starts there.
        "summary_new_page": summary_lines > SURELY_OVER_A_PAGE * COLUMN_LINES.get(paper, COLUMN_LINES[DEFAULT_PAPER]),
        "house_rules_used": [
            block["name"]
            for card in cards
            for block in card["traits"] + card["body_mods"] + card["gear"]
            if block["house_rule"]
        ],
    }


# The cards print in two columns, each a float holding its stack of cards: WeasyPrint lays every
# card out once, where multi-column layout laid each out two to eight times (issue 20). A column
# breaks between its cards, never inside one (unless a card is taller than a page), and goes on
# on the next page. Which column a card goes in is decided here, as multi-column layout would
# fill them (page 1 left, page 1 right, page 2 left...), from each card's length in lines of rule
# text, guessed from its characters. The guess only chooses the column: a card guessed too short
# moves down its column to the next page, a card guessed too long leaves room the next card of
# its column takes; nothing is hidden or split.
CHARS_PER_LINE = 72  # of 6.7pt rule text in a card half a page wide
# Lines of it in a column: 95 on A4, 89 on US Letter, less a few for the guess's error (a card
# guessed short moves down, which can cost a page; one guessed long only leaves room).
COLUMN_LINES = {"A4": 92, "LETTER": 86}
CARD_GAP_LINES = 1.6  # the 4.5mm between two cards
# A card (or the summary) guessed this many pages long or more is surely longer than a page:
# WeasyPrint moves it to the next page unless it comes first, as it does any card kept whole
# that does not fit, but only after laying it out to the foot of the page to find that out, a
# quarter of the worst roster's layout (issue 20). Such a card starts a page itself (new_page):
# the same place, without the wasted layout. The guess runs short on long rosters (long words
# wrap early), so the margin is against the rarer guess that runs long.
SURELY_OVER_A_PAGE = 1.2


def _lines(text, per_line: int = CHARS_PER_LINE) -> int:
    return 1 + len(str(text or "")) // per_line


def _card_lines(card: dict) -> float:
    """Head, stats, weapons, rules, notes, findings and tracks of a character card, in lines."""
    lines = 12 + len(card["weapons"]) + _lines(card["notes"])
    for line in card["finding_lines"]:
        lines += _lines(f"{line['code']} {line['before']} {' / '.join(line['parts'])} {line['after']} {line['note']}")
    for block in card["traits"] + card["body_mods"] + card["gear"]:
        lines += _lines(f"{block['name']} {block.get('choice', '')} {block['text']}")
    lines += sum(2 for part in ("traits", "body_mods", "gear") if card[part])
    return lines + (7 if card["sorcerer"] else 0)


def _summary_lines(status: dict, summary: dict) -> float:
    lines = 9 + (5 if status["state"] == "invalid" else 0)
    for group in summary.values():
        lines += sum(_lines(f.get("message")) + 1 for f in group["crew"])
        lines += sum(_lines(card["name"], CHARS_PER_LINE - 30) for card, _ in group["cards"])
    return lines


def summary_findings(status: dict, cards: list[dict]) -> dict:
    """What the summary lists of each kind of finding: the crew's own in full, and a line for each card that
    prints findings of that kind (its count), so that each finding is printed once.

    {"errors" | "accepted" | "warnings": {"crew": [finding], "cards": [(card, count)]}}. A finding naming no
    character, or a character without a card, is the crew's.
    """
    on_cards = {card["name"] for card in cards}
    summary = {}
    for key, kind in SUMMARY_KINDS:
        counted = [(card, sum(1 for f in card["findings"] if f["kind"] == kind)) for card in cards]
        summary[key] = {
            "crew": [f for f in status[key] if f.get("character") not in on_cards],
            "cards": [(card, count) for card, count in counted if count],
        }
    return summary


def card_columns(
    cards: list[dict], glossary: list[dict], sorceries: list[dict], summary_lines: float = 0, paper: str = DEFAULT_PAPER
) -> list[list[tuple[str, dict, bool]]]:
    """The cards, then the keyword and sorcery reference cards, split into a left and a right column.

    Characters fill the columns in order, as multi-column layout would (page 1 left, page 1
    right, page 2 left...); each reference card then goes where it fits, else where a column
    ends first. Each column is followed as a stream of pages: (page reached, lines left on it).
    Each card comes as (kind, card, new_page): new_page for a card, not the first of its column,
    that the plan sends on to a later page than the card above it ends on, or surely longer than
    a page, or a page long and surely longer than the room the cards above it leave. It starts
    the next page, where WeasyPrint would move it after laying it out under the cards above (see
    SURELY_OVER_A_PAGE).
    """
    full = COLUMN_LINES.get(paper, COLUMN_LINES[DEFAULT_PAPER])
    capacity = [full - summary_lines]  # of each page, the first under the summary
    reached = [[0, capacity[0]], [0, capacity[0]]]
    jumped = [False, False]  # a column sent on to a later page than its last card ends on
    columns: list[list[tuple[str, dict, bool]]] = [[], []]

    def page_lines(number: int) -> float:
        return capacity[0] if number == 0 else full

    def start_page(column: int, number: int) -> None:
        if reached[column][0] < number:
            reached[column][:] = [number, page_lines(number)]
            jumped[column] = True

    def place(column: int, kind: str, card: dict, lines: float) -> None:
        number, room = reached[column]
        # Surely moved to the next page: longer than a page, or a page long under cards that
        # leave it surely too little room (the room is a guess too, hence the same margin).
        moved = lines > SURELY_OVER_A_PAGE * full or (lines >= full and lines > SURELY_OVER_A_PAGE * room)
        columns[column].append((kind, card, bool(columns[column]) and (moved or jumped[column])))
        jumped[column] = False
        if lines > room and room < page_lines(number):  # does not fit under the cards above: next page
            number, room = number + 1, full
        while lines > room:  # longer than a page: it goes on over the next
            lines -= room
            number, room = number + 1, full
        reached[column][:] = [number, room - lines - CARD_GAP_LINES]

    column = 0
    for card in cards:
        lines = _card_lines(card)
        number, room = reached[column]
        if lines > room and room < page_lines(number):
            if column == 0:
                column = 1  # the right column of the same page
                start_page(1, number)
            else:
                column = 0  # the left column of the next page
                start_page(0, number + 1)
        place(column, "character", card, lines)
    references = []
    if glossary:
        references.append(("glossary", 4 + sum(_lines(f"{k['name']} {k['text']}") for k in glossary)))
    if sorceries:  # 6.2pt type on 7.25pt lines: 78 characters a line, 0.9 of a rule line each
        sorcery_lines = sum(_lines(f"{s['number']} {s['name']} {s['text']}", 78) for s in sorceries)
        references.append(("sorceries", 5 + 0.9 * sorcery_lines))
    for kind, lines in references:
        # Where it fits on the page a column has reached, the earliest page first; else at the top of
        # the next page of the column that has reached the lesser page (the left one if neither).
        order = sorted((0, 1), key=lambda c: (reached[c][0], -reached[c][1]))
        fits = [c for c in order if reached[c][1] >= lines]
        place(fits[0] if fits else min((0, 1), key=lambda c: reached[c][0]), kind, {}, lines)
    return columns


def check_roster_budget(crew_file: dict) -> None:
    """PdfRefused for a crew beyond the limits (stored before they existed, or built by hand): checked before anything is laid out."""
    characters = [c for c in crew_file.get("characters") or () if isinstance(c, dict)]
    if len(characters) > limits.CHARACTERS_MAX:
        raise PdfRefused(
            f"This crew has {len(characters)} characters; a roster prints at most "
            f"{limits.CHARACTERS_MAX}. Remove some, or split the crew, to print it."
        )
    for character in characters:
        for field, most, label in (
            ("gear", limits.GEAR_MAX_PER_CHARACTER, "items"),
            ("traits", limits.TRAITS_MAX_PER_CHARACTER, "traits"),
            ("body_mods", limits.BODY_MODS_MAX_PER_CHARACTER, "body-mods"),
        ):
            count = len(character.get(field) or ())
            if count > most:
                raise PdfRefused(
                    f"{character.get('name') or 'A character'} has {count} {label}; a roster prints at "
                    f"most {most} per character. Remove some to print the crew."
                )
        # Notes are not checked here: a campaign's roll-table effects add lines to them; the HTML budget bounds them.


def roster_pdf(
    crew_file: dict, report: dict, catalogue: Catalogue, paper: str = DEFAULT_PAPER, cache: bool = True
) -> bytes:
    check_roster_budget(crew_file)
    return render_pdf("pdf/roster.html", roster_context(crew_file, report, catalogue, paper), paper, cache=cache)


# --------------------------------------------------------------------------
# Quick reference.


def quick_reference_context(catalogue: Catalogue) -> dict:
    """Tables from the catalogue where it has them; the template holds the rest of the rules text."""
    return {
        "game": catalogue.title,
        "damage_table": [
            {"roll": f"{row.get('number')}+", "name": row.get("name", ""), "text": row.get("text", "")}
            for row in catalogue.table("damage_table")
        ],
        "neural_overload": [
            {"roll": row.get("name") or f"{row.get('number')}+", "text": row.get("text", "")}
            for row in catalogue.table("neural_overload")
        ],
        "default_ap": catalogue.rules.get("ap"),
        "move": catalogue.rules.get("move"),
        # The engine's threshold, so the sheet and the odds cannot disagree.
        "success_at": SUCCESS_AT,
    }


def quick_reference_pdf(catalogue: Catalogue, paper: str = DEFAULT_PAPER, cache: bool = True) -> bytes:
    return render_pdf("pdf/quick_reference.html", quick_reference_context(catalogue), paper, cache=cache)
