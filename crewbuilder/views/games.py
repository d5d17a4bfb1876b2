"""The Games menu: one entry per game registered in the game registry."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from core.games import registry


def games_home(request: HttpRequest) -> HttpResponse:
    games = [{"url": reverse(g.home_url_name), "title": g.title, "blurb": g.blurb} for g in registry.games()]
    return render(request, "games_home.html", {"games": games})
