"""Printed rosters and quick-reference sheets (crewbuilder/pdf.py), read back from the PDF.

The rendering they go through (fetcher, fonts, cache) is core/pdf.py: tests/core/test_pdf.py.

No database: the roster is rendered from a crew file and a report shaped like
crew-format.md's, with rules text from the catalogue data file.
"""

import copy
import re
import shutil
import subprocess
import threading
from io import BytesIO

import pytest
from pypdf import PdfReader

from core import pdf as core_pdf
from crewbuilder import pdf

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")

SEVEN = {
    "format": "crewbuilder.crew/1",
    "system": "cybernekro",
    "name": "Saints of Rust",
    "budget": 150,
    "characters": [
        {
            "name": "Vox the Hollow",
            "attributes": {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1},
            "traits": ["big", {"slug": "deformed", "raise": ["strength", "agility"]}],
            "body_mods": ["neural-cabling"],
            "gear": ["heavy-weapon", "light-armor", "trauma-kit", "trauma-kit"],
            "notes": "found in the ossuary",
        },
        {
            "name": "Sister Cathode",
            "attributes": {"strength": -1, "toughness": 0, "agility": 0, "intellect": 2, "discipline": 0},
            "traits": ["sorcerer", "inspiring"],
            "body_mods": ["excessive-neural-cabling"],
            "gear": ["staff", "mind-concealer", "esoteric-concoction", "cyber-jack"],
        },
        {
            "name": "Gutter Kell",
            "attributes": {"strength": 0, "toughness": 0, "agility": 2, "intellect": -1, "discipline": 0},
            "traits": ["ambidextrous", "reckless-sprinter"],
            "body_mods": [],
            "gear": ["sword", "axe", "stealth-suit", "gas-grenade", "lockpicks"],
        },
        {
            "name": "Ossuary Unit 9",
            "attributes": {"strength": 1, "toughness": 1, "agility": -1, "intellect": 0, "discipline": 0},
            "traits": ["artificial"],
            "body_mods": ["reinforced-body", "augmented-arms", "mechanical-claw"],
            "gear": ["chain-gun", "medium-armor", "repair-kit"],
        },
        {
            "name": "Mother Pell",
            "attributes": {"strength": 0, "toughness": 1, "agility": -1, "intellect": 0, "discipline": 1},
            "traits": ["darkborn"],
            "body_mods": ["extra-organs"],
            "gear": ["crossbow", "knife", "light-armor", "extra-ammo", "night-vision-goggles"],
        },
        {
            "name": "The Brothers Quill",
            "attributes": {"strength": 1, "toughness": 0, "agility": 1, "intellect": -1, "discipline": 0},
            "traits": ["multi-headed", "long-arms"],
            "body_mods": ["stim-injectors"],
            "gear": ["polearm", "shield", "lantern", "gas-mask"],
        },
        {
            "name": "Ash-Eater",
            "attributes": {"strength": 1, "toughness": -1, "agility": 1, "intellect": 0, "discipline": 0},
            "traits": ["driven-by-madness"],
            "body_mods": [],
            "gear": ["flamethrower", "pistol", "hazard-suit", "rope-and-hook"],
        },
    ],
}

WEAPONS = {
    "Vox the Hollow": ["heavy weapon"],
    "Sister Cathode": ["staff"],
    "Gutter Kell": ["sword", "axe"],
    "Ossuary Unit 9": ["chain gun"],
    "Mother Pell": ["crossbow", "knife"],
    "The Brothers Quill": ["polearm"],
    "Ash-Eater": ["flamethrower", "pistol"],
}


def make_report(crew, rules, *, with_weapons=True, errors=(), accepted=(), warnings=()):
    """A validation report shaped like crew-format.md's (plus "ap" and "weapons")."""
    characters = []
    for char in crew["characters"]:
        entry = {
            "name": char["name"],
            "points": 30,
            "attributes": dict(char["attributes"]),
            "armor": 1,
            "move": 6,
            "ap": 3,
            "carry": {"used": 4.5, "max": 6},
        }
        if with_weapons:
            slugs = ["fists"] + [s for s in char["gear"] if rules.entry("weapons", s)]
            entry["weapons"] = [
                {
                    k: rules.entry("weapons", s)[k]
                    for k in ("slug", "name", "hands", "kind", "damage", "range", "keywords")
                }
                for s in slugs
            ]
        characters.append(entry)
    return {
        "valid": not errors,
        "points": 148,
        "budget": crew.get("budget", 150),
        "characters": characters,
        "errors": list(errors),
        "warnings": list(warnings),
        "accepted": list(accepted),
    }


@pytest.fixture(scope="module")
def rules():
    return pdf.Catalogue.from_file("cybernekro")


@pytest.fixture(scope="module")
def roster(rules):
    return pdf.roster_pdf(SEVEN, make_report(SEVEN, rules), rules, "A4")


def pdf_text(data: bytes) -> str:
    """The PDF's text with every run of whitespace made one space."""
    if shutil.which("pdftotext"):
        out = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True
        ).stdout
        text = out.decode("utf-8")
    else:  # pragma: no cover
        text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)
    return re.sub(r"\s+", " ", text)


def page_sizes(data: bytes):
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(BytesIO(data)).pages]


# --- the roster ------------------------------------------------------------


def test_roster_is_a_pdf(roster):
    assert roster.startswith(b"%PDF-")
    assert b"%%EOF" in roster[-64:]


def test_roster_prints_every_character_weapon_and_rules_text(roster, rules):
    text = pdf_text(roster)
    assert "Saints of Rust" in text
    assert "Cybernekr0 1.1.3" in text
    assert "148 / 150" in text
    for char in SEVEN["characters"]:
        assert char["name"] in text
        for weapon in WEAPONS[char["name"]]:
            assert weapon.capitalize() in text  # "heavy weapon" prints "Heavy weapon"
        for trait in char["traits"]:
            slug = trait["slug"] if isinstance(trait, dict) else trait
            entry = rules.entry("traits", slug)
            assert entry["text"] in text, slug
        for slug in char["body_mods"]:
            assert rules.entry("body_mods", slug)["text"] in text, slug
        for slug in char["gear"]:
            section, entry = rules.item(slug)
            if section != "weapons":
                assert entry["name"].lower() in text.lower()
                assert entry["text"].replace("\n", " ") in text, slug
    # The notes, the deformed choice, copies and the weapon profiles.
    assert "found in the ossuary" in text
    assert "raise strength, agility" in text
    assert "trauma kit ×2" in text.lower()
    assert "Piercing 2, Reliable, Reload" in text  # crossbow keywords
    assert '18"' in text  # crossbow range


def test_roster_prints_effective_attributes_armor_move_ap_and_carry(rules):
    crew = copy.deepcopy(SEVEN)
    report = make_report(crew, rules)
    report["characters"][0].update(
        attributes={"strength": 3, "toughness": 3, "agility": 1, "intellect": -2, "discipline": -2},
        armor=2,
        move=5,
        ap=4,
        carry={"used": 5.5, "max": 8},
    )
    context = pdf.roster_context(crew, report, rules)
    card = context["cards"][0]
    assert [a["value"] for a in card["attributes"]] == ["+3", "+3", "+1", "−2", "−2"]
    assert (card["armor"], card["move"], card["ap"]) == ("2", '5"', "4")
    assert (card["carry_used"], card["carry_max"]) == ("5½", "8")
    text = pdf_text(pdf.roster_pdf(crew, report, rules))
    assert "5½/8" in text


def test_an_artificial_character_s_card_has_no_dread_boxes(rules):
    """ARTIFICIAL: "It can never gain Dread": its card says so where the others have six boxes to tick."""
    crew = copy.deepcopy(SEVEN)
    crew["characters"][1]["traits"] = ["artificial"]
    context, html = roster_html(crew, make_report(crew, rules), rules, "A4")
    dreadless = [
        "artificial" in (t if isinstance(t, str) else t["slug"] for t in c["traits"]) for c in crew["characters"]
    ]
    assert [bool(c["dreadless"]) for c in context["cards"]] == dreadless and dreadless[:3] == [False, True, False]
    assert html.count('Dread <span class="boxes">☐☐☐☐☐☐</span>') == dreadless.count(False)
    assert 'Dread <span class="no-track">never (artificial)</span>' in html
    assert "DREAD NEVER (ARTIFICIAL)" in pdf_text(pdf.roster_pdf(crew, make_report(crew, rules), rules)).upper()


def test_glossary_lists_only_the_keywords_on_the_sheet(roster, rules):
    text = pdf_text(roster)
    assert "Keywords on this sheet" in text
    labels = {"Feeble"}  # fists
    for char in SEVEN["characters"]:
        for slug in char["gear"]:
            labels.update((rules.entry("weapons", slug) or {}).get("keywords", []))
    present = {rules.keyword(label)["slug"] for label in labels}
    assert {"parry", "piercing-x", "heavy-x", "auto-x", "reach", "fire", "splash", "unwieldy"} <= present
    for slug in present:
        assert rules.entry("keywords", slug)["text"] in text, slug
    absent = {entry["slug"] for entry in rules.entries("keywords")} - present
    assert absent >= {"energy", "unstable", "overkill", "short-ranged", "brutal", "electric"}
    for slug in absent:
        assert rules.entry("keywords", slug)["text"] not in text, slug
    context = pdf.roster_context(SEVEN, make_report(SEVEN, rules), rules)
    assert sorted(k["name"] for k in context["glossary"]) == sorted(rules.entry("keywords", s)["name"] for s in present)


def test_weapons_fall_back_to_the_catalogue(rules):
    report = make_report(SEVEN, rules, with_weapons=False)
    context = pdf.roster_context(SEVEN, report, rules)
    rows = {card["name"]: [w["name"] for w in card["weapons"]] for card in context["cards"]}
    assert rows["Gutter Kell"] == ["fists", "sword", "axe"]
    assert rows["Mother Pell"] == ["fists", "crossbow", "knife"]
    crossbow = context["cards"][4]["weapons"][1]
    assert (crossbow["damage"], crossbow["range"], crossbow["keywords"]) == (
        "2",
        '18"',
        ["Piercing 2", "Reliable", "Reload"],
    )


def test_sorceries_print_only_for_a_sorcerer(roster, rules):
    text = pdf_text(roster)
    for entry in rules.entries("sorceries"):
        assert entry["name"].lower() in text.lower()
    assert rules.entry("sorceries", "black-ink")["text"].split(".")[0] in text
    crew = copy.deepcopy(SEVEN)
    crew["characters"][1]["traits"] = ["inspiring"]
    text = pdf_text(pdf.roster_pdf(crew, make_report(crew, rules), rules))
    assert "techno-sorceries known" not in text.lower()
    assert "explode head" not in text.lower()
    assert "black ink" not in text.lower()


def test_seven_fully_geared_characters_fit_on_two_a4_pages(roster):
    sizes = page_sizes(roster)
    assert 1 <= len(sizes) <= 2
    assert all(size == pytest.approx(A4, abs=1) for size in sizes)


def roster_html(crew, report, rules, paper) -> tuple[dict, str]:
    from django.template.loader import render_to_string

    context = pdf.roster_context(crew, report, rules, paper)
    return context, render_to_string("pdf/roster.html", {**context, "paper": paper, "paper_class": paper.lower()})


def card_places(html, paper) -> list[tuple[str, int, float]]:
    """(heading, page, top) of each piece of a card, in the laid-out roster."""
    found = []

    def walk(box, number):
        element = getattr(box, "element", None)
        if getattr(box, "element_tag", None) == "article" and element is not None:
            found.append(("".join(element.find(".//h2").itertext()), number, round(box.position_y, 2)))
            return
        for child in getattr(box, "children", ()):
            walk(child, number)

    for number, page in enumerate(core_pdf.layout_document(html, paper).pages, start=1):
        walk(page._page_box, number)
    return found


def card_pages(crew, rules, paper) -> dict:
    """Each card's heading -> the pages (1, 2...) its boxes are laid out on, from the laid-out roster."""
    found: dict = {}
    for name, number, _ in card_places(roster_html(crew, make_report(crew, rules), rules, paper)[1], paper):
        found.setdefault(name, set()).add(number)
    return found


@pytest.mark.parametrize(("paper", "most_pages"), [("A4", 2), ("LETTER", 3)])
@pytest.mark.parametrize("characters", [3, 7])
def test_no_card_is_split_across_pages_and_the_crew_fits(rules, paper, most_pages, characters):
    crew = copy.deepcopy(SEVEN)
    crew["characters"] = crew["characters"][:characters]
    pages = card_pages(crew, rules, paper)
    names = [c["name"] for c in crew["characters"]]
    # Every character's card, and the keyword and sorcery cards (Sister Cathode is a sorcerer), once each.
    assert set(pages) == {*names, "Keywords on this sheet", "Techno-sorceries"}
    assert all(len(numbers) == 1 for numbers in pages.values()), pages
    assert max(max(numbers) for numbers in pages.values()) <= most_pages
    # Characters read in order: a card never comes on an earlier page than the one before it.
    firsts = [min(pages[name]) for name in names]
    assert firsts == sorted(firsts)


def test_cards_go_in_two_columns_in_order(rules):
    context = pdf.roster_context(SEVEN, make_report(SEVEN, rules), rules, "A4")
    left, right = context["columns"]
    placed = [card["name"] for _, card, _ in left + right if card]
    assert sorted(placed) == sorted(c["name"] for c in SEVEN["characters"])
    assert [kind for kind, _, _ in left + right].count("sorceries") == 1
    assert [kind for kind, _, _ in left + right].count("glossary") == 1
    for column in (left, right):  # each column reads down in the crew's order
        numbers = [card["index"] for kind, card, _ in column if kind == "character"]
        assert numbers == sorted(numbers)
    # every card fits a page: a break only where the plan sends a column on to its next page
    assert [(card["index"], new_page) for _, card, new_page in left + right if card and new_page] == [(5, True)]
    assert not context["summary_new_page"]


@pytest.mark.parametrize("paper", ["A4", "LETTER"])
@pytest.mark.parametrize("characters", [3, 7])
def test_the_planned_breaks_only_spare_layout(rules, paper, characters):
    """A card the plan sends to a later page than its column's last card ends on starts that page: WeasyPrint
    would have laid it out under that card to the page's foot and then moved it there."""
    crew = copy.deepcopy(SEVEN)
    crew["characters"] = crew["characters"][:characters]
    _, html = roster_html(crew, make_report(crew, rules), rules, paper)
    assert card_places(html, paper) == card_places(html.replace(" new-page", ""), paper)


@pytest.mark.parametrize("paper", ["A4", "LETTER"])
def test_a_card_or_summary_longer_than_a_page_starts_the_page_it_would_be_moved_to(rules, paper):
    crew = copy.deepcopy(SEVEN)
    crew["characters"] = crew["characters"][:4]
    for character in crew["characters"]:
        character["notes"] = "word " * 1600  # a card of about a page and a half
    errors = [
        {"code": "over-capacity", "character": c["name"], "message": "Carries too much. " * 12}
        for c in crew["characters"]
        for _ in range(12)
    ]  # printed on the cards
    errors += [{"code": "over-budget", "character": None, "message": "Costs too much. " * 12}] * 36  # the summary's
    context, html = roster_html(crew, make_report(crew, rules, errors=errors), rules, paper)
    starting = [card["name"] for column in context["columns"] for _, card, new_page in column if new_page]
    assert starting == [crew["characters"][2]["name"], crew["characters"][3]["name"]]  # the second of each column
    assert context["summary_new_page"]
    assert html.count(" new-page") == 3
    # Kept whole, they would have been moved to the same places: the breaks only spare the layout.
    assert card_places(html, paper) == card_places(html.replace(" new-page", ""), paper)


def test_page_numbers(roster):
    text = pdf_text(roster)
    pages = len(page_sizes(roster))
    for number in range(1, pages + 1):
        assert f"page {number} of {pages}" in text


def test_letter_paper_has_a_letter_mediabox(rules):
    data = pdf.roster_pdf(SEVEN, make_report(SEVEN, rules), rules, "LETTER")
    assert all(size == pytest.approx(LETTER, abs=1) for size in page_sizes(data))
    assert core_pdf.normalize_paper("letter") == "LETTER"
    assert core_pdf.normalize_paper("a4") == "A4"
    assert core_pdf.normalize_paper("tabloid") == "A4"


@needs_poppler
def test_all_fonts_are_embedded_and_ours(roster, rules):
    for data in (roster, pdf.quick_reference_pdf(rules)):
        out = subprocess.run(["pdffonts", "-"], input=data, capture_output=True, check=True).stdout.decode()
        rows = out.splitlines()[2:]
        assert rows, out
        for row in rows:
            assert "Crew-Sans" in row, row  # the shipped DejaVu Sans Condensed, not a system font
            assert re.search(r"\byes\s+yes\s+yes\b", row), row  # embedded, subset, unicode


def test_invalid_crew_prints_a_banner_and_the_reasons(rules):
    errors = [{"code": "over-budget", "character": None, "message": "The crew costs 162 points, 12 over its budget."}]
    data = pdf.roster_pdf(SEVEN, make_report(SEVEN, rules, errors=errors), rules)
    text = pdf_text(data)
    assert "not valid — this crew breaks the crew rules" in text.lower()
    assert "The crew costs 162 points, 12 over its budget." in text
    assert text.lower().count("not valid crew") == 7  # on every card, which may be cut out
    assert len(page_sizes(data)) <= 2


def test_each_finding_prints_once_the_crews_in_the_summary_a_characters_on_its_card(rules):
    second, fifth = SEVEN["characters"][1]["name"], SEVEN["characters"][4]["name"]
    errors = [
        {"code": "over-budget", "character": None, "message": "The crew costs 162 points, 12 over its budget."},
        {"code": "over-capacity", "character": second, "message": "Carries 9 items; the most is 7 (Quinzel)."},
        {"code": "too-many-armor", "character": second, "message": "Has 2 sets of armor (Quinzel)."},
        {"code": "odd-one", "character": "Nobody Here", "message": "About a character with no card."},
    ]
    warnings = [{"code": "duplicate-trait-in-crew", "character": fifth, "message": "BIG is already taken (Vex)."}]
    report = make_report(SEVEN, rules, errors=errors, warnings=warnings)
    context = pdf.roster_context(SEVEN, report, rules, "A4")
    summary = context["summary"]
    assert [f["code"] for f in summary["errors"]["crew"]] == ["over-budget", "odd-one"]
    assert [(card["name"], n) for card, n in summary["errors"]["cards"]] == [(second, 2)]
    assert [(card["name"], n) for card, n in summary["warnings"]["cards"]] == [(fifth, 1)]
    assert summary["warnings"]["crew"] == [] and summary["accepted"] == {"crew": [], "cards": []}

    text = pdf_text(pdf.roster_pdf(SEVEN, report, rules, "A4"))
    for finding in errors + warnings:
        assert text.count(finding["message"]) == 1, finding
    assert f"card 2 {second}: 2 problems, on its card" in text
    assert f"card 5 {fifth}: 1 piece of advice, on its card" in text
    assert "4 problems, listed below and on the cards of the characters concerned, must be fixed" in text


BESTIAL = "BESTIAL models can only fight, get up, move; {} is carried but cannot be used."


def test_a_cards_findings_alike_print_as_one_line_naming_each(rules):
    vox = SEVEN["characters"][0]["name"]
    items = ["auto pistol", "auto rifle", "chain gun", "crossbow"]
    warnings = [{"code": "bestial-unusable-item", "character": vox, "message": BESTIAL.format(i)} for i in items]
    text = pdf_text(pdf.roster_pdf(SEVEN, make_report(SEVEN, rules, warnings=warnings), rules, "A4"))
    assert text.count("BESTIAL models can only fight, get up, move;") == 1
    assert "bestial-unusable-item ×4: BESTIAL models can only fight, get up, move; auto pistol / auto rifle / " in text
    assert "chain gun / crossbow is carried but cannot be used." in text
    assert f"card 1 {vox}: 4 pieces of advice, on its card" in text  # the summary still counts each finding


def test_accepted_findings_print_as_valid_with_house_rules(rules):
    finding = {"code": "over-capacity", "character": "Vox the Hollow", "message": "Carries 8 items, can carry 7."}
    report = make_report(SEVEN, rules, errors=[finding], accepted=[dict(finding, note="our table allows it")])
    status = pdf.crew_status(report)
    assert status["state"] == "house-rules"
    assert status["errors"] == []
    text = pdf_text(pdf.roster_pdf(SEVEN, report, rules))
    assert "Valid with house rules" in text
    assert "our table allows it" in text
    assert "not valid" not in text.lower()


def test_crew_status():
    assert pdf.crew_status({"valid": True, "errors": []})["label"] == "Valid"
    bad = {"valid": False, "errors": [{"code": "over-budget", "character": None, "message": "m"}]}
    assert pdf.crew_status(bad)["label"] == "Not valid"
    flagged = {"valid": False, "errors": [{"code": "over-budget", "character": None, "message": "m", "accepted": True}]}
    assert pdf.crew_status(flagged)["label"] == "Valid with house rules"


# --- hostile input -----------------------------------------------------------

LONG_WORD = "Ossuary" + "X" * 240
HOSTILE = '<script>alert(1)</script><b>Bold</b><img src="http://127.0.0.1:9/x.png">'


def hostile_crew():
    crew = copy.deepcopy(SEVEN)
    crew["name"] = HOSTILE
    crew["characters"][0]["name"] = HOSTILE
    crew["characters"][1]["name"] = LONG_WORD
    crew["characters"][2]["notes"] = "<style>*{display:none}</style>" + "Y" * 300
    return crew


def test_hostile_names_are_escaped_in_the_html(rules):
    from django.template.loader import render_to_string

    crew = hostile_crew()
    context = pdf.roster_context(crew, make_report(crew, rules), rules)
    html = render_to_string("pdf/roster.html", {**context, "paper": "A4", "paper_class": "a4"})
    assert "<script>" not in html and "<img" not in html and "<style>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@needs_poppler
def test_hostile_names_print_as_text_and_long_words_wrap_inside_the_page(rules):
    crew = hostile_crew()
    data = pdf.roster_pdf(crew, make_report(crew, rules), rules)
    text = pdf_text(data)
    squashed = text.replace(" ", "")
    assert "<script>alert(1)</script><b>Bold</b>" in squashed
    assert LONG_WORD in squashed
    assert "Y" * 300 in squashed
    for name in ["Gutter Kell", "Ash-Eater"]:
        assert name in text
    # Every word lies inside its page: nothing ran off the edge.
    bbox = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()
    width = float(re.search(r'<page width="([\d.]+)"', bbox).group(1))
    xmax = [float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox)]
    assert xmax and max(xmax) <= width
    assert len(page_sizes(data)) <= 3


# --- shared fonts ------------------------------------------------------------


def test_fonts_and_stylesheet_load_once_per_thread(rules):
    core_pdf.html_to_pdf("<p>one</p>", cache=False)
    shared = core_pdf._shared_styles()
    pdf.roster_pdf(SEVEN, make_report(SEVEN, rules), rules, cache=False)
    assert core_pdf._shared_styles()[0] is shared[0]  # reused, not rebuilt
    other = {}

    def render():
        other["data"] = core_pdf.html_to_pdf("<p>from another thread</p>", cache=False)
        other["styles"] = core_pdf._shared_styles()

    thread = threading.Thread(target=render)
    thread.start()
    thread.join()
    assert other["data"].startswith(b"%PDF")
    assert other["styles"][0] is not shared[0]  # each thread has its own font configuration
    assert "from another thread" in pdf_text(other["data"])


# --- quick reference -----------------------------------------------------------


def test_quick_reference_sheet(rules):
    data = pdf.quick_reference_pdf(rules, "A4")
    assert data.startswith(b"%PDF")
    assert len(page_sizes(data)) == 1  # one sheet to keep beside the table
    text = pdf_text(data)
    for heading in [
        "Quick reference",
        "Damage",
        "Tough it Out",
        "Neural Overload",
        "Actions",
        "Hit modifiers",
        "Morale",
        "Fate cards",
    ]:
        assert heading.lower() in text.lower(), heading
    for row in rules.table("damage_table") + rules.table("neural_overload"):
        assert row["text"] in text
    for phrase in [
        "in cover or in melee",
        "Target Prone",
        "Sorcerer in melee",
        "Morale Test",
        "Flee move",
        "Queen",
        "Joker",
        "Get up",
        "Fix / Reload",
    ]:
        assert phrase in text, phrase
    # Rules text, DAMAGE: "If any 6s are scored roll one additional D6" (one die, not one per 6);
    # FALL DAMAGE: "per every 3" fallen (rounded up)"; SURROUNDED: the ally's conditions.
    for phrase in [
        "roll one more D6 (one, however many 6s)",
        '3" fallen (rounded up)',
        "not Prone or in melee",
        "in melee with the target",
    ]:
        assert phrase in text, phrase
    assert "each 6 adds" not in text
    letter = pdf.quick_reference_pdf(rules, "LETTER")
    assert len(page_sizes(letter)) == 1
    assert all(size == pytest.approx(LETTER, abs=1) for size in page_sizes(letter))


# --- rules and names -----------------------------------------------------------


def test_catalogue_lookups(rules):
    assert rules.entry("traits", "big")["cost"] == 5
    assert rules.item("trauma-kit")[0] == "equipment"
    assert rules.item("shield")[0] == "armor"
    assert rules.item("axe")[0] == "weapons"
    assert rules.item("nonsense") == (None, None)
    assert rules.keyword("Piercing 2")["slug"] == "piercing-x"
    assert rules.keyword("Heavy 1")["slug"] == "heavy-x"
    assert rules.keyword("Short-ranged")["slug"] == "short-ranged"
    assert rules.keyword("Nonsense") is None
    assert [row["number"] for row in rules.table("damage_table")] == [3, 6, 9, 12]


def test_unknown_slugs_print_without_crashing(rules):
    crew = copy.deepcopy(SEVEN)
    crew["characters"][0]["traits"].append("laser-eyes")
    crew["characters"][0]["gear"].append("moon-sword")
    text = pdf_text(pdf.roster_pdf(crew, make_report(crew, rules), rules))
    assert "laser-eyes" in text.lower() and "moon-sword" in text.lower()
    assert "not in the catalogue" in text


def test_identical_renders_come_from_the_pdf_cache(rules, settings, monkeypatch):
    report = make_report(SEVEN, rules)
    first = pdf.roster_pdf(SEVEN, report, rules, "LETTER")
    stored = sorted(settings.PDF_CACHE_DIR.glob("*.pdf"))
    assert len(stored) == 1 and stored[0].read_bytes() == first

    def no_layout(*args):
        raise AssertionError("laid out again")

    monkeypatch.setattr(core_pdf, "_layout", no_layout)
    assert pdf.roster_pdf(SEVEN, report, rules, "LETTER") == first  # any worker: the file is shared
    with pytest.raises(AssertionError, match="laid out again"):
        pdf.roster_pdf(SEVEN, report, rules, "LETTER", cache=False)
    changed = copy.deepcopy(SEVEN)
    changed["characters"][0]["notes"] = "a different note"
    with pytest.raises(AssertionError, match="laid out again"):
        pdf.roster_pdf(changed, make_report(changed, rules), rules, "LETTER")
    assert sorted(settings.PDF_CACHE_DIR.glob("*.pdf")) == stored
