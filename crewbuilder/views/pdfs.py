"""PDF downloads: a crew's roster (owner or share link) and the rules quick reference.

Each view loads, checks access (another user's crew is a 404, like the crew
page), picks the paper and calls crewbuilder.pdf. The paper comes from
``?paper=A4|LETTER`` (for that one PDF) or else from the user's saved setting,
which only the account settings form (a POST) changes: a GET, which any site
can make a browser send, never writes.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from crewbuilder import pdf
from crewbuilder.models import Crew


def paper_for(request: HttpRequest) -> str:
    """The paper asked for in ?paper= for this response, else the user's saved one."""
    user = request.user
    saved = getattr(user, "paper_size", None) if user.is_authenticated else None
    asked = pdf.normalize_paper(request.GET.get("paper") or "", default="")
    return asked or pdf.normalize_paper(saved)


def pdf_response(data: bytes, filename: str, *, shared: bool = False) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Length"] = str(len(data))
    response["Cache-Control"] = "private, no-cache"
    if shared:
        response["X-Robots-Tag"] = "noindex"
        response["Referrer-Policy"] = "no-referrer"
    return response


def _roster(request: HttpRequest, crew: Crew, *, shared: bool = False) -> HttpResponse:
    # From the shared PDF cache, or a "preparing" page while the task worker
    # renders it, or a refusal over budget (crewbuilder.pdf_tasks.PdfMiddleware).
    from crewbuilder.pdf_tasks import roster_pdf_for

    data = roster_pdf_for(crew.pk, paper_for(request))
    return pdf_response(data, pdf.pdf_filename(crew.name, "roster"), shared=shared)


@login_required
@require_GET
def crew_roster(request: HttpRequest, pk: int) -> HttpResponse:
    # A Soylent Ghoul drone set has no roster (its printables are on its own page).
    crew = get_object_or_404(Crew.objects.exclude(system__slug="soylent-ghoul"), pk=pk, owner=request.user)
    return _roster(request, crew)


@require_GET
def crew_roster_shared(request: HttpRequest, token: str) -> HttpResponse:
    if not token or len(token) > 64:
        raise Http404
    crew = get_object_or_404(Crew.objects.exclude(system__slug="soylent-ghoul"), share_token=token)
    return _roster(request, crew, shared=True)


@require_GET
def quick_reference(request: HttpRequest, system: str) -> HttpResponse:
    from catalogue.loader import current_system

    game = current_system(system)
    try:
        catalogue = pdf.Catalogue.from_db(game) if game is not None else pdf.Catalogue.from_file(system)
    except FileNotFoundError:
        raise Http404("No such game system.") from None
    data = pdf.quick_reference_pdf(catalogue, paper_for(request))
    response = pdf_response(data, pdf.pdf_filename(catalogue.title or system, "quick-reference"))
    response["Cache-Control"] = "public, max-age=3600"
    if request.user.is_authenticated:
        response["Cache-Control"] = "private, max-age=3600"
    return response
