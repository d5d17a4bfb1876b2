"""PDF rendering through WeasyPrint, shared by every app (rosters, campaign summaries, drone cards, deck lists).

Two layers, each usable on its own:

- ``html_to_pdf(html, paper)`` renders an HTML string with ``static/css/pdf.css``
  (its fonts loaded and the stylesheet parsed once per thread, then reused).
  Its resources resolve only from ``static/`` on disk (and ``data:`` URIs):
  ``StaticOnlyFetcher`` refuses http(s), ftp and every file outside
  ``static/``, so a render never touches the network whatever the HTML says.
- ``render_pdf(template_name, context, paper)`` renders a Django template
  (e.g. from ``templates/pdf/``) and then the HTML.

Every PDF is refused over its size and time budget (``PdfRefused``), kept in
the shared on-disk cache (core.pdf_store) and, during a web request, handed to
the task worker (core.pdf_tasks) instead of being laid out while a web worker
waits. The game-specific printables build their context and call these.
"""

from __future__ import annotations

import contextvars
import gc
import hashlib
import mimetypes
import re
import signal
import threading
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import weasyprint
from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from core import pdf_store
from core.paths import STATIC_DIR

# Our paper names (User.paper_size) -> CSS @page size keywords.
PAPER_SIZES = {"A4": "A4", "LETTER": "letter"}
DEFAULT_PAPER = "A4"

# The budget of one PDF (docs/limits.md). The HTML handed to WeasyPrint is
# refused over this size before any layout (the largest roster the crew limits
# allow is about 200 KB); a render running longer than the time budget is
# stopped where the platform allows it (the main thread: gunicorn's sync
# workers and the task worker).
PDF_HTML_MAX_BYTES = 320 * 1024
PDF_HTML_MAX_TAGS = 12_000  # layout time follows the boxes more than the bytes: the largest roster has ~7,000
PDF_TIME_LIMIT_SECONDS = 20


def normalize_paper(value, default: str = DEFAULT_PAPER) -> str:
    """ "a4", "Letter", "LETTER" -> "A4" / "LETTER"; anything else -> default."""
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
# Budget: what may be rendered, and for how long.


class PdfRefused(Exception):
    """A PDF over its size or time budget; ``message`` is for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class PdfPreparing(Exception):
    """The PDF is being rendered off the request path (core.pdf_tasks); ask again shortly."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


# Set for the length of a web request (core.pdf_tasks.PdfMiddleware) to the
# function that queues a render for the task worker (it raises PdfPreparing,
# or returns when tasks run immediately): a PDF not in the shared cache is then
# not laid out while a web worker waits. Scripts and the task worker render
# inline (None). A callable rather than a flag so this module need not import
# the task module, which imports it.
DEFER_RENDERING: contextvars.ContextVar[Callable[[str, str, str], None] | None] = contextvars.ContextVar(
    "defer_pdf_rendering", default=None
)


def check_budget(html: str) -> None:
    """PdfRefused, before any layout, when the HTML is beyond what the limits allow."""
    size, tags = len(html.encode("utf-8")), html.count("<")
    if size > PDF_HTML_MAX_BYTES or tags > PDF_HTML_MAX_TAGS:
        raise PdfRefused(
            f"This document is too long to print ({size // 1024} KB in {tags:,} elements; the most is "
            f"{PDF_HTML_MAX_BYTES // 1024} KB and {PDF_HTML_MAX_TAGS:,} elements). "
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
        raise PdfRefused(
            f"This document took longer than {seconds:g} s to lay out, the most allowed. "
            "Shorten it, or print it in parts."
        )

    previous = signal.signal(signal.SIGPROF, expired)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def pdf_key(html: str, paper: str) -> str:
    """The name of a rendered PDF in the shared cache: what it is rendered from, digested."""
    digest = hashlib.sha256()
    for part in (weasyprint.__version__, str(_stylesheet_version()), normalize_paper(paper), html):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def html_to_pdf(
    html: str, paper: str = DEFAULT_PAPER, fetcher: StaticOnlyFetcher | None = None, cache: bool = True
) -> bytes:
    """Render an HTML string to PDF bytes with static/css/pdf.css; relative URLs resolve under static/.

    Raises PdfRefused when the HTML is over its budget (checked first, before
    any layout) or the layout runs over its time. With the default fetcher the
    fonts and stylesheet are shared between renders and the result is kept in
    the shared on-disk cache (core.pdf_store; ``cache=False`` renders
    anew and keeps nothing). During a web request a PDF not in the cache is
    handed to the task worker (PdfPreparing) unless the task backend is the
    immediate one: then it is rendered here, in the request. A caller's own
    fetcher gets a fresh font configuration and stylesheet, fetched through it.
    """
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
        defer = DEFER_RENDERING.get()
        if defer is not None:
            defer(key, html, paper)  # raises PdfPreparing unless tasks run immediately
    try:
        with time_limit(PDF_TIME_LIMIT_SECONDS):
            data = _layout(html, paper, fetcher)
    except PdfRefused as refusal:
        if key is not None:
            pdf_store.refuse(key, refusal.message)
        raise
    if key is not None:
        pdf_store.put(key, data)
    return data


def layout_document(html: str, paper: str = DEFAULT_PAPER, fetcher: StaticOnlyFetcher | None = None):
    """The laid-out WeasyPrint Document of an HTML string, as html_to_pdf prints it (tests read its pages' boxes)."""
    paper = normalize_paper(paper)
    if fetcher is None:
        fetcher = StaticOnlyFetcher()
        font_config, stylesheet = _shared_styles()
        page_css = _shared_page_css(paper)
    else:
        font_config = FontConfiguration()
        stylesheet = CSS(filename=str(STYLESHEET), font_config=font_config, url_fetcher=fetcher)
        page_css = _page_css(paper)
    document = HTML(string=html, base_url=STATIC_DIR.as_uri() + "/", url_fetcher=fetcher)
    return document.render(stylesheets=[stylesheet, page_css], font_config=font_config)


def _layout(html: str, paper: str, fetcher: StaticOnlyFetcher | None) -> bytes:
    # A layout makes some 50,000 objects in reference cycles (boxes and their parents). With the
    # collector on, they set off a full collection of the whole process (Django, the fonts...) on
    # most renders, a fifth of a roster's time; off, one young-generation pass after the render
    # frees them, a third of the cost (issue 20). The switch is process-wide: a render in another
    # thread meanwhile (runserver) only loses the saving, and a caller's own choice is kept.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return layout_document(html, paper, fetcher).write_pdf()
    finally:
        if collecting:
            gc.enable()
            gc.collect(1)


def render_pdf(template_name: str, context: dict, paper: str = DEFAULT_PAPER, cache: bool = True) -> bytes:
    """Render a Django template (e.g. "pdf/roster.html") to PDF bytes."""
    paper = normalize_paper(paper)
    html = render_to_string(template_name, {**context, "paper": paper, "paper_class": paper.lower()})
    return html_to_pdf(html, paper, cache=cache)


def pdf_filename(name: str, suffix: str) -> str:
    """A safe download name: "Saints of <Rust>!" -> "saints-of-rust-roster.pdf"."""
    base = slugify(name)[:60].strip("-") or "crew"
    return f"{base}-{suffix}.pdf"
