"""Printable PDFs through WeasyPrint: crew rosters and the quick-reference sheet.

Three layers, each usable on its own:

- ``html_to_pdf(html, paper)`` renders an HTML string with ``static/css/pdf.css``
  (its fonts loaded and the stylesheet parsed once per thread, then reused).
  Its resources resolve only from ``static/`` on disk (and ``data:`` URIs):
  ``StaticOnlyFetcher`` refuses http(s), ftp and every file outside
  ``static/``, so a render never touches the network whatever the HTML says.
- ``render_pdf(template_name, context, paper)`` renders a Django template
  from ``templates/pdf/`` and then the HTML.
- ``roster_pdf(crew_file, report, catalogue, paper)`` and
  ``quick_reference_pdf(catalogue, paper)`` build the context (all lookups and
  formatting happen here, the templates only loop) and render.

Rules text comes from a ``Catalogue``: a small read-only view (section ->
slug -> entry dict) built from the catalogue data file or from the database,
so the web views and ``manage.py crew pdf`` (no database) print the same.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import mimetypes
import re
import signal
import threading
from collections import OrderedDict
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from core.paths import STATIC_DIR

# Our paper names (User.paper_size) -> CSS @page size keywords.
PAPER_SIZES = {"A4": "A4", "LETTER": "letter"}
DEFAULT_PAPER = "A4"

ATTRIBUTES = ("strength", "toughness", "agility", "intellect", "discipline")
ATTRIBUTE_LABELS = {"strength": "STR", "toughness": "TOU", "agility": "AGI", "intellect": "INT", "discipline": "DIS"}

ENTRY_SECTIONS = ("traits", "body_mods", "equipment", "armor", "weapons", "keywords", "sorceries")
ITEM_SECTIONS = ("weapons", "armor", "equipment")
TABLE_SECTIONS = ("damage_table", "neural_overload", "environment_effects")


def normalize_paper(value, default: str = DEFAULT_PAPER) -> str:
    """"a4", "Letter", "LETTER" -> "A4" / "LETTER"; anything else -> default."""
    value = str(value or "").strip().upper()
    if value == "US-LETTER" or value == "US LETTER":
        value = "LETTER"
    return value if value in PAPER_SIZES else default


def slugify(text: str) -> str:
    """The crew-format slug: lower-case, runs of non [a-z0-9] -> "-", trimmed."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


# --------------------------------------------------------------------------
# Resource fetching: local static files only.


class RefusedURL(ValueError):
    """A resource the PDF renderer must not fetch (network, or outside static/)."""


class StaticOnlyFetcher(URLFetcher):
    """WeasyPrint URL fetcher that serves ``static/`` from disk and data: URIs.

    Anything else (http, https, ftp, file outside ``static/`` ...) raises
    ``RefusedURL``; WeasyPrint then logs a warning and leaves the resource out.
    ``refused`` records the refused URLs (tests read it).
    """

    def __init__(self, root: Path = STATIC_DIR, **kwargs):
        super().__init__(allowed_protocols=("data", "file"), allow_redirects=False, **kwargs)
        self.root = Path(root).resolve()
        self.refused: list[str] = []

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme == "file" and parts.netloc in ("", "localhost"):
            path = Path(url2pathname(unquote(parts.path))).resolve()
            if path.is_relative_to(self.root) and path.is_file():
                mime_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": mime_type})
        self.refused.append(url)
        raise RefusedURL(f"PDF rendering fetches only local static files, refused: {url}")

    def __call__(self, url):
        return self.fetch(url)


# --------------------------------------------------------------------------
# Rendering.


def _page_css(paper: str) -> CSS:
    return CSS(string=f"@page {{ size: {PAPER_SIZES[normalize_paper(paper)]}; }}")


STYLESHEET = STATIC_DIR / "css" / "pdf.css"


def _stylesheet_version() -> int:
    try:
        return STYLESHEET.stat().st_mtime_ns
    except OSError:  # pragma: no cover
        return 0


class _Shared(threading.local):
    """Per thread: one FontConfiguration and pdf.css parsed once into it.

    Loading the four shipped fonts and parsing the stylesheet costs more than
    laying out a one-line page, so every render of a thread reuses them (the
    stylesheet is parsed again when pdf.css changes on disk). Documents never
    carry their own @font-face rules, so the configuration does not grow.
    """

    version = None
    font_config = None
    stylesheet = None
    page_css: dict


_SHARED = _Shared()


def _shared_styles() -> tuple[FontConfiguration, CSS]:
    version = _stylesheet_version()
    if _SHARED.version != version or _SHARED.stylesheet is None:
        font_config = FontConfiguration()
        stylesheet = CSS(filename=str(STYLESHEET), font_config=font_config, url_fetcher=StaticOnlyFetcher())
        _SHARED.font_config, _SHARED.stylesheet, _SHARED.version = font_config, stylesheet, version
        _SHARED.page_css = {}
    return _SHARED.font_config, _SHARED.stylesheet


def _shared_page_css(paper: str) -> CSS:
    found = _SHARED.page_css.get(paper)
    if found is None:
        found = _SHARED.page_css[paper] = _page_css(paper)
    return found


# --------------------------------------------------------------------------
# Budget: what may be rendered, and for how long (crewbuilder/limits.py).


class PdfRefused(Exception):
    """A PDF over its size or time budget; ``message`` is for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class PdfPreparing(Exception):
    """The PDF is being rendered off the request path (crewbuilder.pdf_tasks); ask again shortly."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


# Set for the length of a web request (crewbuilder.pdf_tasks.PdfMiddleware): a
# PDF not in the shared cache is then queued for the task worker instead of
# being rendered while a web worker waits. Scripts and the task worker render inline.
DEFER_RENDERING: contextvars.ContextVar[bool] = contextvars.ContextVar("defer_pdf_rendering", default=False)


def check_budget(html: str) -> None:
    """PdfRefused, before any layout, when the HTML is beyond what the limits allow."""
    from crewbuilder import limits

    size, tags = len(html.encode("utf-8")), html.count("<")
    if size > limits.PDF_HTML_MAX_BYTES or tags > limits.PDF_HTML_MAX_TAGS:
        raise PdfRefused(
            f"This document is too long to print ({size // 1024} KB in {tags:,} elements; the most is "
            f"{limits.PDF_HTML_MAX_BYTES // 1024} KB and {limits.PDF_HTML_MAX_TAGS:,} elements). "
            "Shorten it, or print it in parts."
        )


@contextmanager
def time_limit(seconds: float):
    """Stop a render that uses more than ``seconds`` of CPU time with PdfRefused.

    CPU time, not wall time: the budget measures the document's work, not how
    busy the machine is (a legal roster must not be refused because three
    others render beside it). Only a process's main thread can be interrupted
    (a SIGPROF timer): gunicorn's sync workers and the task worker render
    there. Elsewhere (runserver's threads) the size budget alone bounds the work.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise PdfRefused(f"This document took longer than {seconds:g} s to lay out, the most allowed. "
                         "Shorten it, or print it in parts.")

    previous = signal.signal(signal.SIGPROF, expired)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def pdf_key(html: str, paper: str) -> str:
    """The name of a rendered PDF in the shared cache: what it is rendered from, digested."""
    import weasyprint

    digest = hashlib.sha256()
    for part in (weasyprint.__version__, str(_stylesheet_version()), normalize_paper(paper), html):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def html_to_pdf(html: str, paper: str = DEFAULT_PAPER, fetcher: StaticOnlyFetcher | None = None, cache: bool = True) -> bytes:
    """Render an HTML string to PDF bytes with static/css/pdf.css; relative URLs resolve under static/.

    Raises PdfRefused when the HTML is over its budget (checked first, before
    any layout) or the layout runs over its time. With the default fetcher the
    fonts and stylesheet are shared between renders and the result is kept in
    the shared on-disk cache (crewbuilder.pdf_store; ``cache=False`` renders
    anew and keeps nothing). During a web request a PDF not in the cache is
    handed to the task worker (PdfPreparing) unless the task backend is the
    immediate one: then it is rendered here, in the request. A caller's own
    fetcher gets a fresh font configuration and stylesheet, fetched through it.
    """
    from crewbuilder import limits, pdf_store

    paper = normalize_paper(paper)
    check_budget(html)
    key = None
    if cache and fetcher is None:
        key = pdf_key(html, paper)
        found = pdf_store.get(key)
        if found is not None:
            return found
        refused = pdf_store.refusal(key)
        if refused is not None:
            raise PdfRefused(refused)
        if DEFER_RENDERING.get():
            from crewbuilder import pdf_tasks

            if not pdf_tasks.runs_immediately():
                pdf_tasks.render_later(key, html, paper)  # raises PdfPreparing
    try:
        with time_limit(limits.PDF_TIME_LIMIT_SECONDS):
            data = _layout(html, paper, fetcher)
    except PdfRefused as refusal:
        if key is not None:
            pdf_store.refuse(key, refusal.message)
        raise
    if key is not None:
        pdf_store.put(key, data)
    return data


def _layout(html: str, paper: str, fetcher: StaticOnlyFetcher | None) -> bytes:
    if fetcher is None:
        fetcher = StaticOnlyFetcher()
        font_config, stylesheet = _shared_styles()
        page_css = _shared_page_css(paper)
    else:
        font_config = FontConfiguration()
        stylesheet = CSS(filename=str(STYLESHEET), font_config=font_config, url_fetcher=fetcher)
        page_css = _page_css(paper)
    document = HTML(string=html, base_url=STATIC_DIR.as_uri() + "/", url_fetcher=fetcher)
    return document.write_pdf(stylesheets=[stylesheet, page_css], font_config=font_config)


def render_pdf(template_name: str, context: dict, paper: str = DEFAULT_PAPER, cache: bool = True) -> bytes:
    """Render a Django template (e.g. "pdf/roster.html") to PDF bytes."""
    from django.template.loader import render_to_string

    paper = normalize_paper(paper)
    html = render_to_string(template_name, {**context, "paper": paper, "paper_class": paper.lower()})
    return html_to_pdf(html, paper, cache=cache)


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
            name: OrderedDict((entry["slug"], entry) for entry in entries or ())
            for name, entries in sections.items()
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
        from catalogue.loader import catalogue_file_for

        data = catalogue_file_for(system)
        if data is None:
            raise FileNotFoundError(f"no catalogue data file for {system!r}")
        return cls.from_data(data)

    @classmethod
    def from_db(cls, system) -> Catalogue:
        """From the database rows of a GameSystem (house rules included), cached per catalogue version."""
        from catalogue.loader import export_catalogue

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


def roster_context(crew_file: dict, report: dict, catalogue: Catalogue) -> dict:
    """Everything the roster template prints, looked up and formatted."""
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
        rc = report_chars[index] if index < len(report_chars) and report_chars[index].get("name") == char.get("name") else by_name.get(char.get("name"), {})
        attributes = rc.get("attributes") or char.get("attributes") or {}
        traits, sorcerer = [], False
        for trait in char.get("traits") or ():
            slug = trait.get("slug") if isinstance(trait, dict) else trait
            entry = catalogue.entry("traits", slug)
            choice = _trait_choice_text(trait) if isinstance(trait, dict) else ""
            traits.append(_entry_block(entry, slug, choice=choice))
            if entry and entry.get("sorcerer"):
                sorcerer = True
        body_mods = [_entry_block(catalogue.entry("body_mods", slug), slug) for slug in char.get("body_mods") or ()]
        weapons = _weapon_rows(rc, char, catalogue)
        for weapon in weapons:
            for label in weapon["keywords"]:
                entry = catalogue.keyword(label)
                if entry is not None:
                    glossary.setdefault(entry["slug"], {"name": entry.get("name", label), "text": entry.get("text", "")})
        carry = rc.get("carry") or {}
        name = str(char.get("name") or "")
        findings = [
            {**f, "kind": kind}
            for kind, group in (("not valid", status["errors"]), ("house rule", status["accepted"]), ("advice", status["warnings"]))
            for f in group
            if f.get("character") == name
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
                "carry_used": _number(carry.get("used")),
                "carry_max": _number(carry.get("max")),
                "weapons": weapons,
                "traits": traits,
                "body_mods": body_mods,
                "gear": _gear_blocks(char, catalogue),
                "sorcerer": sorcerer,
                "notes": str(char.get("notes") or ""),
                "findings": findings,
            }
        )

    sorceries = []
    if any_sorcerer:
        for entry in catalogue.entries("sorceries"):
            sorceries.append({"number": entry.get("number", ""), "name": entry.get("name", ""), "text": entry.get("text", "")})

    points = report.get("points")
    budget = report.get("budget", crew_file.get("budget", catalogue.rules.get("budget")))
    return {
        "crew_name": str(crew_file.get("name") or ""),
        "game": catalogue.title or str(crew_file.get("system") or ""),
        "points": _number(points),
        "budget": _number(budget),
        "status": status,
        "cards": cards,
        "glossary": sorted(glossary.values(), key=lambda k: k["name"].lower()),
        "sorceries": sorceries,
        "house_rules_used": [
            block["name"]
            for card in cards
            for block in card["traits"] + card["body_mods"] + card["gear"]
            if block["house_rule"]
        ],
    }


def check_roster_budget(crew_file: dict) -> None:
    """PdfRefused for a crew beyond the limits (stored before they existed, or built by hand): checked before anything is laid out."""
    from crewbuilder import limits

    characters = [c for c in crew_file.get("characters") or () if isinstance(c, dict)]
    if len(characters) > limits.CHARACTERS_MAX:
        raise PdfRefused(f"This crew has {len(characters)} characters; a roster prints at most "
                         f"{limits.CHARACTERS_MAX}. Remove some, or split the crew, to print it.")
    for character in characters:
        for field, most, label in (("gear", limits.GEAR_MAX_PER_CHARACTER, "items"),
                                   ("traits", limits.TRAITS_MAX_PER_CHARACTER, "traits"),
                                   ("body_mods", limits.BODY_MODS_MAX_PER_CHARACTER, "body-mods")):
            count = len(character.get(field) or ())
            if count > most:
                raise PdfRefused(f"{character.get('name') or 'A character'} has {count} {label}; a roster prints at "
                                 f"most {most} per character. Remove some to print the crew.")
        # Notes are not checked here: a campaign's roll-table effects add lines to them; the HTML budget bounds them.


def roster_pdf(crew_file: dict, report: dict, catalogue: Catalogue, paper: str = DEFAULT_PAPER, cache: bool = True) -> bytes:
    check_roster_budget(crew_file)
    return render_pdf("pdf/roster.html", roster_context(crew_file, report, catalogue), paper, cache=cache)


# --------------------------------------------------------------------------
# Quick reference.


def quick_reference_context(catalogue: Catalogue) -> dict:
    """Tables from the catalogue where it has them; the template holds the rest of the rules text."""
    return {
        "game": catalogue.title,
        "damage_table": [
            {"roll": f'{row.get("number")}+', "name": row.get("name", ""), "text": row.get("text", "")}
            for row in catalogue.table("damage_table")
        ],
        "neural_overload": [
            {"roll": row.get("name") or f'{row.get("number")}+', "text": row.get("text", "")}
            for row in catalogue.table("neural_overload")
        ],
        "default_ap": catalogue.rules.get("ap"),
        "move": catalogue.rules.get("move"),
        # The engine's threshold, so the sheet and the odds cannot disagree.
        "success_at": _success_at(),
    }


def _success_at() -> int:
    from rules.cybernekro.engine import SUCCESS_AT

    return SUCCESS_AT


def quick_reference_pdf(catalogue: Catalogue, paper: str = DEFAULT_PAPER, cache: bool = True) -> bytes:
    return render_pdf("pdf/quick_reference.html", quick_reference_context(catalogue), paper, cache=cache)


def crew_file_pdf(raw: bytes, paper: str = DEFAULT_PAPER):
    """(PDF bytes or None, report, exit code) for the raw bytes of a crew file.

    No database: the crew is read and validated against the catalogue data
    file shipped with the app (``manage.py crew pdf``). A crew that cannot be
    read gives no PDF; an invalid one prints, with its banner.
    """
    from catalogue.loader import catalogue_file_for
    from crewbuilder.crewfile import check_crew_file
    from crewbuilder.validation import CatalogueSnapshot

    files = {}

    def snapshot_from_file(slug):
        data = catalogue_file_for(slug)
        if data is None:
            return None
        files[slug] = data
        return CatalogueSnapshot(data)

    crew, report, code = check_crew_file(raw, snapshot_lookup=snapshot_from_file)
    if crew is None:
        return None, report, code
    catalogue = Catalogue.from_data(files[crew.get("system", "cybernekro")])
    return roster_pdf(crew, report, catalogue, paper), report, code


def pdf_filename(name: str, suffix: str) -> str:
    """A safe download name: "Saints of <Rust>!" -> "saints-of-rust-roster.pdf"."""
    base = slugify(name)[:60].strip("-") or "crew"
    return f"{base}-{suffix}.pdf"
