"""The Games menu: one entry per game app whose pages exist."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

# (url name, game, what the app does for it): an entry shows once its app
# defines the URL, so each game's issue lights up its own card.
GAMES = [
    ("soylent-home", "Soylent Ghoul", "Drone sets with secret true tokens, printable cards and token sheets, "
                                      "and a game tracker for the table."),
    ("ghoulrole-home", "The Ghoul role", "A role sheet for the Cave's Ghoul and the Vile Ghoul: goals, "
                                         "Ghoul dice, Fury and Terror cards."),
    ("ghoulash-home", "Ghoulash", "Character decks and a game tracker with hidden hands and encounter tokens."),
    ("trial-list", "The Slasher trial", "The app referees a trial: the Trial Grounds, Energy, actions "
                                        "and the weighted draw."),
]


def games_home(request: HttpRequest) -> HttpResponse:
    games = []
    for name, title, blurb in GAMES:
        try:
            games.append({"url": reverse(name), "title": title, "blurb": blurb})
        except NoReverseMatch:
            continue
    return render(request, "games_home.html", {"games": games})
