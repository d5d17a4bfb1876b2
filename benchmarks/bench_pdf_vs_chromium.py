"""The cold roster, side by side: our WeasyPrint path against Chromium printing the same HTML (issue 20).

Builds the worst-case crew (benchmarks/worst_case.py: 7 characters at every
limit) in a throwaway database, renders its roster HTML once and prints, as
medians of BENCH_RUNS repeats (wall and CPU time):

- WeasyPrint warm process, cold PDF: core.pdf.html_to_pdf(cache=False) in
  this process, fonts and pdf.css already loaded (what the task worker does
  for every roster it has not rendered before);
- Chromium warm browser: Playwright's page.goto(file://) + page.pdf() on a
  browser already running (the same situation: the engine loaded, the
  document new). CPU time is summed over the browser's processes;
- whole processes: a fresh Python that imports WeasyPrint and renders the
  file, against `chromium --headless --print-to-pdf` started for each print
  (the command of the issue plus --no-pdf-header-footer, so that Chromium
  does not add its own header and footer lines).

The fair pair is the first two (both engines warm, both documents new), timed
in turns (one WeasyPrint render, one Chromium print, and again) so that a
shared machine busy for a while slows both alike; the whole-process pair is
printed beside it. Chromium gets the same HTML with pdf.css linked and the
same @page size (the cards' two floated columns are in that HTML, chosen for
the paper by crewbuilder.pdf.card_columns). Also prints the roster's element
and table counts. Skips the Chromium lines with a message if /usr/bin/chromium
is absent (scripts/system-deps.sh installs it).

Run through `make bench`, or: .venv/bin/python benchmarks/bench_pdf_vs_chromium.py
[--html DIR] writes the worst-case and typical roster HTML (A4 and Letter) to DIR and stops.
"""

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "benchmarks"))  # bench_pdf.py's typical crew
TMP = Path(tempfile.mkdtemp(prefix="crewbuilder-pdf-vs-chromium-"))
os.environ["DATABASE_URL"] = f"sqlite:///{TMP / 'bench.sqlite3'}"
os.environ["PDF_CACHE_DIR"] = str(TMP / "pdf-cache")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402

from core import pdf as core_pdf  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
CHARACTERS = 7  # the roster: 7 characters, each at every other limit
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-pdf-header-footer",
]
WEASYPRINT_PROCESS = """
import sys
from pathlib import Path
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
html, css, paper, out = sys.argv[1:]
fonts = FontConfiguration()
sheets = [CSS(filename=css, font_config=fonts), CSS(string="@page { size: %s; }" % paper)]
HTML(filename=html).write_pdf(out, stylesheets=sheets, font_config=fonts)
"""


_WORST: list = []  # the worst-case crew's id, once made


def worst_roster_html(paper: str) -> str:
    """The roster HTML of the worst-case crew, as crewbuilder.roster_tasks renders it."""
    from benchmarks.worst_case import worst_crew
    from crewbuilder import crew_service
    from crewbuilder import pdf as roster_printing
    from crewbuilder.models import Crew, GameSystem, User
    from crewbuilder.validation import crew_to_data

    if not _WORST:
        call_command("migrate", verbosity=0)
        with open(os.devnull, "w") as quiet:
            call_command("loadcatalogue", verbosity=0, stdout=quiet)
        system = GameSystem.objects.filter(slug="cybernekro").order_by("-edition").first()
        owner = User.objects.create_user("bench-owner", password="x" * 20)
        _WORST.append(worst_crew(owner, system, characters=CHARACTERS).pk)
    crew = Crew.objects.with_everything().get(pk=_WORST[0])
    catalogue = roster_printing.Catalogue.from_db(crew.system)
    paper = core_pdf.normalize_paper(paper)
    context = roster_printing.roster_context(crew_to_data(crew), crew_service.report_for(crew), catalogue, paper)
    return render_to_string("pdf/roster.html", {**context, "paper": paper, "paper_class": paper.lower()})


def for_chromium(html: str, paper: str) -> str:
    """The same document with pdf.css linked and the paper size, as WeasyPrint is given them."""
    size = core_pdf.PAPER_SIZES[core_pdf.normalize_paper(paper)]
    head = f'<link rel="stylesheet" href="{core_pdf.STYLESHEET.as_uri()}"><style>@page {{ size: {size}; }}</style>'
    return html.replace("</head>", head + "</head>", 1)


def timed(action):
    wall, cpu = time.perf_counter(), time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    action()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return time.perf_counter() - wall, time.process_time() - cpu + child_cpu


def medians(samples):
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def process_cpu(pids) -> float:
    """User + system CPU seconds of the given processes so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list:
    children: dict = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def command_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text()
    except OSError:  # ended meanwhile
        return ""


def chromium_warm(page_file: Path, out: Path, beside):
    """(Chromium's medians, beside's medians): each print follows one call of ``beside``, timed too.

    The two engines take turns, so that a machine busy for a while slows both alike: the ratio
    stays a same-moment comparison on a shared machine.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS[1:-1])
        page = browser.new_page()

        def print_once():
            page.goto(page_file.as_uri())
            out.write_bytes(page.pdf(prefer_css_page_size=True, print_background=True))

        print_once()  # warm-up
        samples, ours = [], []
        for _ in range(RUNS):
            ours.append(timed(beside))
            pids = [p for p in descendants(os.getpid()) if "chrom" in command_name(p)]
            before, wall = process_cpu(pids), time.perf_counter()
            print_once()
            samples.append((time.perf_counter() - wall, process_cpu(pids) - before))
        browser.close()
    return medians(samples), medians(ours)


def chromium_process(page_file: Path, out: Path):
    def print_once():
        profile = tempfile.mkdtemp(dir=TMP)
        subprocess.run(
            [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={out}", page_file.as_uri()],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(profile, ignore_errors=True)

    print_once()
    return medians([timed(print_once) for _ in range(RUNS)])


def pdf_pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


def main() -> int:
    if "--html" in sys.argv:
        folder = Path(sys.argv[sys.argv.index("--html") + 1])
        folder.mkdir(parents=True, exist_ok=True)
        for paper in core_pdf.PAPER_SIZES:
            html = worst_roster_html(paper)
            (folder / f"roster-{paper.lower()}.html").write_text(html)
            (folder / f"roster-{paper.lower()}-chromium.html").write_text(for_chromium(html, paper))
            (folder / f"typical-{paper.lower()}.html").write_text(typical_roster_html(paper))
        print(f"wrote the worst-case and typical roster HTML to {folder}")
        return 0

    paper = "A4"
    compare("worst-case roster, 7 characters at every limit", worst_roster_html(paper), paper)
    compare("typical roster, 7 characters (bench_pdf.py's crew)", typical_roster_html(paper), paper)
    shutil.rmtree(TMP, ignore_errors=True)
    return 0


def typical_roster_html(paper: str) -> str:
    """bench_pdf.py's fully geared 7-character crew: the roster most players print."""
    from bench_pdf import CREW

    from catalogue.loader import catalogue_file_for
    from crewbuilder import pdf as roster_printing
    from crewbuilder.validation import CatalogueSnapshot, validate_crew

    data = catalogue_file_for("cybernekro")
    paper = core_pdf.normalize_paper(paper)
    context = roster_printing.roster_context(
        CREW, validate_crew(CREW, CatalogueSnapshot(data)), roster_printing.Catalogue.from_data(data), paper
    )
    return render_to_string("pdf/roster.html", {**context, "paper": paper, "paper_class": paper.lower()})


def compare(label: str, html: str, paper: str) -> None:
    source = TMP / "roster.html"
    source.write_text(html)
    page_file = TMP / "roster-chromium.html"
    page_file.write_text(for_chromium(html, paper))
    ours = TMP / "weasyprint.pdf"
    theirs = TMP / "chromium.pdf"

    ours.write_bytes(core_pdf.html_to_pdf(html, paper, cache=False))  # warm-up: fonts, pdf.css

    def weasyprint_warm():
        core_pdf.html_to_pdf(html, paper, cache=False)

    browser, skipped = None, ""
    if CHROMIUM.exists():
        try:  # the fair pair, in turns
            browser, warm = chromium_warm(page_file, theirs, weasyprint_warm)
        except Exception as error:  # Playwright missing or the browser would not start: the process line still runs
            skipped = f"Chromium warm-browser line skipped: {error.__class__.__name__}: {error}"
    if browser is None:
        warm = medians([timed(weasyprint_warm) for _ in range(RUNS)])

    def weasyprint_once():
        subprocess.run(
            [sys.executable, "-c", WEASYPRINT_PROCESS, str(source), str(core_pdf.STYLESHEET), paper, str(ours)],
            check=True,
        )

    weasyprint_once()
    whole = medians([timed(weasyprint_once) for _ in range(RUNS)])

    elements = len(re.findall(r"<[a-zA-Z]", html))
    tables = len(re.findall(r"<table\b", html))
    print(
        f"\n{label} ({paper}): {len(html.encode()) // 1024} KB of HTML, {elements} elements, "
        f"{tables} <table>s, {pdf_pages(ours)} pages from WeasyPrint; medians of {RUNS}"
    )

    def line(label, figures):
        print(f"{label:<58}{figures[0] * 1000:8.1f} ms wall {figures[1] * 1000:8.1f} ms cpu")

    line("WeasyPrint, warm process, cold PDF (html_to_pdf):", warm)
    if not CHROMIUM.exists():
        line("WeasyPrint, whole process (python -c):", whole)
        print(f"Chromium lines skipped: {CHROMIUM} is not installed (scripts/system-deps.sh test installs it).")
        return
    if skipped:
        print(skipped)
    if browser:
        line(f"Chromium, warm browser, page.pdf() ({pdf_pages(theirs)} pages):", browser)
    line("WeasyPrint, whole process (python -c):", whole)
    process = chromium_process(page_file, theirs)
    line(f"Chromium, whole process (--print-to-pdf, {pdf_pages(theirs)} pages):", process)
    if browser:
        for name, index in (("wall", 0), ("cpu", 1)):
            ratio = warm[index] / browser[index]
            verdict = "met" if ratio <= 1 else "NOT met"
            print(f"ratio WeasyPrint / Chromium, both warm ({name}): {ratio:.2f}x (target <= 1: {verdict})")
    for name, index in (("wall", 0), ("cpu", 1)):
        print(f"ratio WeasyPrint / Chromium, whole processes ({name}): {whole[index] / process[index]:.2f}x")
    # The figure (1.45x before): our cold roster as the task worker renders it, against a
    # Chromium started to print it, as the command does.
    for name, index in (("wall", 0), ("cpu", 1)):
        ratio = warm[index] / process[index]
        verdict = "met" if ratio <= 1 else "NOT met"
        print(f"ratio WeasyPrint warm / Chromium whole process ({name}): {ratio:.2f}x (the issue's; <= 1: {verdict})")


if __name__ == "__main__":
    sys.exit(main())
