"""PDFs rendered off the request path, so a print never holds a web worker.

The design (docs/limits.md, "PDFs and the web workers"):

- Every rendered PDF lands in a cache on disk shared by all workers and kept
  across restarts (core.pdf_store). A reprint is a template render and a file
  read, from any worker.
- During a web request (``PdfMiddleware`` sets ``pdf.DEFER_RENDERING``) a PDF
  not yet in the cache is queued as a task (the ``django-tasks`` backport,
  its database backend where a worker runs: ``make serve`` starts one) and
  the request answers at once with a "preparing" page that reloads itself.
  One marker file per PDF stops a reload from queueing it again.
- With the immediate backend (``make run``, the tests) nothing is queued: the
  PDF is rendered in the request and served straight away.
- Over its budget (core.pdf) a PDF is refused with a page saying why
  (``PdfMiddleware``), never a 500; the refusal is remembered for a while so
  asking again costs nothing.

Apps with PDFs of their own to queue (crewbuilder.roster_tasks: a roster
rendered ahead after each save) define their tasks beside their models and use
``task`` (Django's or the backport's), ``runs_immediately`` and the store's pending
markers as ``render_later`` does.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string

from core import pdf, pdf_store

try:  # Django 6 has the Tasks framework built in; 5.2 takes the backport
    from django.tasks import task, task_backends
    from django.tasks.backends.immediate import ImmediateBackend
except ImportError:  # pragma: no cover - depends on the Django version
    from django_tasks import task, task_backends
    from django_tasks.backends.immediate import ImmediateBackend

PREPARING_RELOAD_SECONDS = 2


def runs_immediately() -> bool:
    return isinstance(task_backends["default"], ImmediateBackend)


@task()
def render_html(key: str, html: str, paper: str) -> None:
    """Render queued HTML into the shared cache (a refusal is stored there too)."""
    if pdf_store.get(key) is not None:
        return
    token = pdf.DEFER_RENDERING.set(None)
    try:
        pdf.html_to_pdf(html, paper)
    except pdf.PdfRefused:
        pass  # html_to_pdf stored the refusal; the preparing page shows it
    finally:
        pdf_store.release_pending(key)
        pdf.DEFER_RENDERING.reset(token)


def render_later(key: str, html: str, paper: str) -> None:
    """Queue the render for the task worker once (a marker stops reloads queueing it again); raise PdfPreparing.

    Returns without queueing when tasks run immediately: the caller renders in the request.
    """
    if runs_immediately():
        return
    if pdf_store.claim_pending(key):
        try:
            render_html.enqueue(key, html, paper)
        except Exception:
            pdf_store.release_pending(key)
            raise
    raise pdf.PdfPreparing(key)


# --------------------------------------------------------------------------
# The pages a PDF request may get instead of a PDF.


class PdfMiddleware:
    """Defers PDF rendering during requests; turns PdfPreparing and PdfRefused into pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = pdf.DEFER_RENDERING.set(render_later)
        try:
            return self.get_response(request)
        finally:
            pdf.DEFER_RENDERING.reset(token)

    def process_exception(self, request, exception):
        if isinstance(exception, pdf.PdfPreparing):
            return status_page(request, "preparing", 202, reload=PREPARING_RELOAD_SECONDS)
        if isinstance(exception, pdf.PdfRefused):
            return status_page(request, "refused", 422, message=exception.message)
        return None


def status_page(request, state: str, status: int, *, message: str = "", reload: int | None = None) -> HttpResponse:
    html = render_to_string("pdf_status.html", {"state": state, "message": message, "reload": reload}, request=request)
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = "no-store"
    if reload:
        response["Retry-After"] = str(reload)
    return response
