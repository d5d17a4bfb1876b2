from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def _home_lists(user) -> dict:
    """The signed-in player's crews and campaigns, newest first.

    The models arrive with later issues; until they exist the lists are empty.
    """
    crews, campaigns = [], []
    try:
        from crewbuilder.models import Crew
    except ImportError:
        Crew = None
    if Crew is not None:
        crews = list(Crew.objects.filter(owner=user).select_related("system").order_by("-updated_at")[:20])
    try:
        from campaigns.models import Campaign
    except ImportError:
        Campaign = None
    if Campaign is not None:
        campaigns = list(Campaign.objects.for_member(user).order_by("-created_at")[:20])
    return {"crews": crews, "campaigns": campaigns}


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home_visitor.html")
    return render(request, "home.html", _home_lists(request.user))
