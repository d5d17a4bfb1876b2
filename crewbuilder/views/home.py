from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaigns.models import Campaign, Membership
from crewbuilder.models import Crew


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home_visitor.html")
    user = request.user
    return render(request, "home.html", {
        "crews": Crew.objects.filter(owner=user).select_related("system").order_by("-updated_at")[:20],
        "campaigns": Campaign.objects.for_member(user).order_by("-created_at")[:20],
        "invitations": Membership.objects.filter(user=user, status=Membership.INVITED).select_related("campaign"),
    })
