from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from campaigns.models import Campaign, Membership
from crewbuilder.models import Crew
from campaigns.notices import awaiting_confirmation

GAMES_SHOWN = 10  # per game: the home page is a way back to the table, not an archive


def _games_at_the_table(user) -> list[dict]:
    """Games the user plays that are not over, newest first: one query per game."""
    from ghoulash.models import Game as GhoulashGame
    from ghoulrole.models import GhoulSheet
    from soylentgames.models import Game as SoylentGame
    from trials.models import Trial

    games = []
    for game in SoylentGame.objects.filter(players__user=user).exclude(status=SoylentGame.FINISHED).distinct()[:GAMES_SHOWN]:
        games.append({"url": game.get_absolute_url(), "name": str(game), "game": "Soylent Ghoul",
                      "state": game.get_status_display(), "at": game.created_at})
    for game in GhoulashGame.objects.filter(players__user=user, status=GhoulashGame.PLAYING).distinct()[:GAMES_SHOWN]:
        games.append({"url": reverse("ghoulash-game", args=[game.pk]), "name": game.name, "game": "Ghoulash",
                      "state": game.get_status_display(), "at": game.created_at})
    for trial in Trial.objects.for_participant(user).exclude(state=Trial.OVER)[:GAMES_SHOWN]:
        games.append({"url": trial.get_absolute_url(), "name": trial.name, "game": "The Slasher trial",
                      "state": trial.get_state_display(), "at": trial.created_at})
    for sheet in GhoulSheet.objects.filter(owner=user, result="").order_by("-id")[:GAMES_SHOWN]:
        games.append({"url": reverse("ghoulrole-sheet", args=[sheet.pk]), "name": sheet.name or str(sheet),
                      "game": "The Ghoul role", "state": f"turn {sheet.turn}", "at": sheet.created_at})
    return sorted(games, key=lambda g: g["at"], reverse=True)


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home_visitor.html")
    user = request.user
    return render(request, "home.html", {
        "crews": Crew.objects.filter(owner=user).select_related("system").order_by("-updated_at")[:20],
        "campaigns": Campaign.objects.for_member(user).order_by("-created_at")[:20],
        "awaiting": awaiting_confirmation(user),
        "invitations": Membership.objects.filter(user=user, status=Membership.INVITED).select_related("campaign"),
        "games": _games_at_the_table(user),
    })
