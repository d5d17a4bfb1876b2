from functools import partial

from django.conf import settings
from django.urls import NoReverseMatch, reverse

# (url name, label): sections appear in the menu once their URL exists, so
# each feature lights up its own link without touching the base template.
_SECTIONS = [
    ("crew-list", "Crews"),
    ("campaign-list", "Campaigns"),
    ("battle-list", "Battles"),
    ("dice-home", "Dice"),
    ("games-home", "Games"),
]


def _maybe_reverse(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def _links(request) -> list[dict]:
    links = []
    for name, label in _SECTIONS:
        url = _maybe_reverse(name)
        if url:
            links.append({"url": url, "label": label, "current": request.path.startswith(url)})
    return links


def navigation(request):
    # Callables, which a template calls when it uses them: a partial (a game's poll) never reverses
    # the menu's URLs.
    return {
        "nav_links": partial(_links, request),
        "crew_create_url": partial(_maybe_reverse, "crew-create"),
        # `make run` keeps DEBUG on: its error pages show code and settings, so every page says so.
        "development_mode": settings.DEBUG,
    }
