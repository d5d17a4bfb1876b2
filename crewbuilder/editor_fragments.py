"""Pieces of the crew editor drawn once per content, kept in this process.

After an edit only the edited character's pieces differ, so the first look
after it and the htmx answer redraw that one character, not seven. A piece's
key is a digest of everything it shows (``folded_key``, ``choices_key``:
the character's stored choices, its numbers and findings, the crew, the
catalogue version for the entries' texts), so a kept piece is never stale and
nothing has to be forgotten: a different content is a different key. The
page's CSRF token and the crew's version (in every plain form) change on every
request or edit, so a piece holds markers for them and each use writes the
current ones in (``{% fragment %}`` in ``templatetags/editor_fragments.py``).

In-process memory, not Django's cache: a piece costs microseconds to look up
here and a file read there, and a gunicorn worker that has not drawn a piece
yet simply draws it once.
"""

from __future__ import annotations

import hashlib

# The page's CSRF token and the crew's version stand in kept HTML as these markers (control characters never get
# into a crew, crew_edits refuses them): each use writes the current ones in.
CSRF_MARK = "\x00csrf\x00"
VERSION_MARK = "\x00version\x00"
MAX_PIECES = 4096

_pieces: dict[str, str] = {}


def key_of(*parts) -> str:
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=16).hexdigest()


def get(key: str) -> str | None:
    return _pieces.get(key)


def keep(key: str, html: str) -> None:
    if len(_pieces) >= MAX_PIECES:
        _pieces.clear()  # crude but bounded: each piece is drawn again once
    _pieces[key] = html


def forget_all() -> None:
    _pieces.clear()


def fill(html: str, *, csrf_token: str, version) -> str:
    return html.replace(CSRF_MARK, csrf_token).replace(VERSION_MARK, str(version))


def _entry(entry) -> tuple:
    # What a choice list shows of its entry, so even a catalogue changed without a new version shows true.
    return (entry.pk, entry.name, entry.text, getattr(entry, "section", ""), getattr(entry, "house_rule", False))


def _rows(rows) -> tuple:
    return tuple(
        (row.pk, row.cost, row.copies, row.needs_raise, row.raise_slots, row.choice_label, _entry(row.entry))
        for row in rows
    )


def folded_key(crew, ch: dict, offer_house_rules: bool) -> str:
    """Everything a folded character card shows (its line, points, findings and links)."""
    model = ch["model"]
    return key_of(
        "folded", crew.pk, model.pk, model.name, ch["index"], ch["points"], ch["line"], ch["errors"], ch["warnings"],
        offer_house_rules,
    )  # fmt: skip


def findings_key(crew, ch: dict, offer_house_rules: bool) -> str:
    """Everything a character's findings show (with the house-rule offer: a plain form)."""
    return key_of("findings", crew.pk, ch["model"].pk, ch["errors"], ch["warnings"], offer_house_rules)


def crew_findings_key(crew, errors: list, warnings: list, offer_house_rules: bool) -> str:
    """The crew's own findings (with the house-rule offer)."""
    return key_of("crew-findings", crew.pk, errors, warnings, offer_house_rules)


def tools_key(crew, ch: dict) -> str:
    """An open character's name, notes and order tools."""
    model = ch["model"]
    return key_of("tools", crew.pk, model.pk, model.name, model.notes, ch["moves"])


def steppers_key(crew, model) -> str:
    """An open character's attribute rows but their numbers, which each row's key adds (crew_service: the same
    steps for every value, a refused step says why)."""
    return key_of("steppers", crew.pk, model.pk, model.name)


def weapons_key(ch: dict) -> str:
    return key_of("weapons", ch["weapons"])


def choices_key(crew, ch: dict) -> str:
    """Everything an open character's traits, body-mods and gear lists show (entries' texts by catalogue version)."""
    model = ch["model"]
    system = crew.system
    return key_of(
        "choices", crew.pk, model.pk, model.name, system.pk, system.catalogue_version,
        _rows(ch["traits"]), _rows(ch["body_mods"]), _rows(ch["gear"]),
    )  # fmt: skip
