"""PDF rendering: a 7-character fully geared roster against a one-line "hello" page.

Prints the median wall and CPU time and the peak Python memory (tracemalloc)
of each, through the same WeasyPrint path (core.pdf.html_to_pdf:
static-only fetcher, pdf.css and the shipped fonts, loaded once per thread),
and the roster/hello ratios (target: at most 4). For reference it also prints
a bare WeasyPrint "hello" (no stylesheet, no fonts) and a floor: the roster's
own words as plain paragraphs in two columns, with no cards, tables or spans,
which is the least any WeasyPrint layout of that text can cost. Cold renders bypass the
PDF cache; the cached figure is printed separately. CPU time is printed
because wall time is noisy on a shared machine.
No database: the crew is validated against the catalogue data file.

Run through `make bench` (DEBUG=0), or directly: .venv/bin/python benchmarks/bench_pdf.py
"""

import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
os.environ.setdefault("ALLOWED_HOSTS", "localhost")

import django  # noqa: E402

django.setup()

from core import pdf as core_pdf  # noqa: E402
from crewbuilder import pdf  # noqa: E402
from crewbuilder.validation import CatalogueSnapshot, validate_crew  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
ATTRS = {"strength": 1, "toughness": 1, "agility": 0, "intellect": -1, "discipline": 0}
CREW = {
    "format": "crewbuilder.crew/1",
    "system": "cybernekro",
    "name": "Saints of Rust",
    "budget": 150,
    "characters": [
        {
            "name": "Vox the Hollow",
            "traits": ["big", {"slug": "deformed", "raise": ["strength", "agility"]}],
            "body_mods": ["neural-cabling"],
            "gear": ["heavy-weapon", "light-armor", "trauma-kit", "trauma-kit"],
            "notes": "found in the ossuary",
        },
        {
            "name": "Sister Cathode",
            "traits": ["sorcerer", "inspiring"],
            "body_mods": ["excessive-neural-cabling"],
            "gear": ["staff", "mind-concealer", "esoteric-concoction", "cyber-jack"],
        },
        {
            "name": "Gutter Kell",
            "traits": ["ambidextrous", "reckless-sprinter"],
            "body_mods": [],
            "gear": ["sword", "axe", "stealth-suit", "gas-grenade", "lockpicks"],
        },
        {
            "name": "Ossuary Unit 9",
            "traits": ["artificial"],
            "body_mods": ["reinforced-body", "augmented-arms", "mechanical-claw"],
            "gear": ["chain-gun", "medium-armor", "repair-kit"],
        },
        {
            "name": "Mother Pell",
            "traits": ["darkborn"],
            "body_mods": ["extra-organs"],
            "gear": ["crossbow", "knife", "light-armor", "extra-ammo", "night-vision-goggles"],
        },
        {
            "name": "The Brothers Quill",
            "traits": ["multi-headed", "long-arms"],
            "body_mods": ["stim-injectors"],
            "gear": ["polearm", "lantern", "gas-mask"],
        },
        {
            "name": "Ash-Eater",
            "traits": ["driven-by-madness"],
            "body_mods": [],
            "gear": ["flamethrower", "pistol", "hazard-suit", "rope-and-hook"],
        },
    ],
}
for character in CREW["characters"]:
    character["attributes"] = dict(ATTRS)

HELLO = "<!DOCTYPE html><html><body><p>hello</p></body></html>"


def measure(render):
    render()  # warm-up: fonts, templates, imports
    walls, cpus = [], []
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        render()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    tracemalloc.start()
    render()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return statistics.median(walls), statistics.median(cpus), peak


def main() -> int:
    from html import escape
    from io import BytesIO

    from pypdf import PdfReader
    from weasyprint import HTML

    from catalogue.loader import catalogue_file_for

    data = catalogue_file_for("cybernekro")
    catalogue = pdf.Catalogue.from_data(data)
    report = validate_crew(CREW, CatalogueSnapshot(data))

    roster_bytes = pdf.roster_pdf(CREW, report, catalogue, cache=False)
    pages = len(PdfReader(BytesIO(roster_bytes)).pages)

    words = " ".join(page.extract_text() for page in PdfReader(BytesIO(roster_bytes)).pages).split()
    paragraphs = (" ".join(words[i : i + 40]) for i in range(0, len(words), 40))
    plain = '<div class="cards">' + "".join(f"<p>{escape(p)}</p>" for p in paragraphs) + "</div>"

    roster = measure(lambda: pdf.roster_pdf(CREW, report, catalogue, cache=False))
    floor = measure(lambda: core_pdf.html_to_pdf(plain, cache=False))
    hello = measure(lambda: core_pdf.html_to_pdf(HELLO, cache=False))
    bare = measure(lambda: HTML(string=HELLO).write_pdf())
    cached = measure(lambda: pdf.roster_pdf(CREW, report, catalogue))

    def line(label, figures):
        wall, cpu, peak = figures
        print(f"{label:<44}{wall * 1000:8.1f} ms wall {cpu * 1000:8.1f} ms cpu   peak {peak / 2**20:6.2f} MiB")

    print(f"runs per figure: {RUNS} (median), peak = tracemalloc peak of one render")
    line(f"roster, 7 characters ({len(roster_bytes) // 1024} KiB, {pages} pages):", roster)
    line(f"floor: the same {len(words)} words as plain text:", floor)
    line("hello page (same path: pdf.css, fonts):", hello)
    line("hello page (bare WeasyPrint, no fonts):", bare)
    line("roster again, from the PDF cache:", cached)
    for name, index in (("wall", 0), ("cpu", 1)):
        ratio = roster[index] / hello[index]
        print(f"ratio roster / hello ({name}): {ratio:.1f}x (target <= 4x: {'met' if ratio <= 4 else 'NOT met'})")
    print(f"ratio floor / hello (wall): {floor[0] / hello[0]:.1f}x (no layout of this text can beat it)")
    print(f"ratio roster / floor (wall): {roster[0] / floor[0]:.1f}x (the cost of the cards' structure)")
    print(f"ratio roster / hello (peak memory): {roster[2] / hello[2]:.1f}x")
    print(f"ratio cached roster / hello (wall): {cached[0] / hello[0]:.2f}x")
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
