from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from campaigns.models import Campaign, Membership
from campaigns.notices import awaiting_confirmation
from core.games import registry
from crewbuilder.models import Crew

GAMES_SHOWN = 10  # per game: the home page is a way back to the table, not an archive


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home_visitor.html")
    user = request.user
    return render(
        request,
        "home.html",
        {
            "just_signed_up": request.session.pop("just_signed_up", False),
            "crews": Crew.objects.filter(owner=user).select_related("system").order_by("-updated_at")[:20],
            "campaigns": Campaign.objects.for_member(user).order_by("-created_at")[:20],
            "awaiting": awaiting_confirmation(user),
            "invitations": Membership.objects.filter(user=user, status=Membership.INVITED).select_related("campaign"),
            "games": registry.in_progress(user, GAMES_SHOWN),
        },
    )


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico where a page names no icon (a PDF shown in the browser)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
