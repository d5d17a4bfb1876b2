"""PDF downloads: a crew's roster (owner or share link) and the rules quick reference.

Each view loads, checks access (crewbuilder/permissions.py: another user's
crew is a 404, like the crew page), picks the paper (core.pdf_views.paper_for) and calls crewbuilder.pdf.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from catalogue.loader import current_system
from core.pdf_views import paper_for, pdf_response
from crewbuilder import pdf, permissions
from crewbuilder.models import Crew
from crewbuilder.roster_tasks import roster_pdf_for


def _roster(request: HttpRequest, crew: Crew, *, shared: bool = False) -> HttpResponse:
    # From the shared PDF cache, or a "preparing" page while the task worker
    # renders it, or a refusal over budget (core.pdf_tasks.PdfMiddleware).
    data = roster_pdf_for(crew.pk, paper_for(request))
    return pdf_response(data, pdf.pdf_filename(crew.name, "roster"), shared=shared)


@login_required
@require_GET
def crew_roster(request: HttpRequest, pk: int) -> HttpResponse:
    # A Soylent Ghoul drone set has no roster (its printables are on its own page).
    crew = permissions.get_crew_for_user(request.user, pk, Crew.objects.without_drone_sets())
    permissions.check_user_can_print_crew(request.user, crew)
    return _roster(request, crew)


@require_GET
def crew_roster_shared(request: HttpRequest, token: str) -> HttpResponse:
    crew = permissions.get_shared_crew(token, Crew.objects.without_drone_sets())
    return _roster(request, crew, shared=True)


@require_GET
def quick_reference(request: HttpRequest, system: str) -> HttpResponse:
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
