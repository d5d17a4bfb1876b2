"""What every page that answers htmx with a partial shares."""

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """The same URL answers a full page or a partial by the HX-Request header,
    so caches must key on it (added to any Vary already there)."""
    patch_vary_headers(response, ("HX-Request",))
    return response


class LoginRedirectMiddleware:
    """An htmx request whose session has ended goes to the login page as a whole page. The browser
    follows a plain redirect inside htmx's request, and htmx would put the login form where the game
    board or the crew editor was (a game page polls, so this happens after a logout in another tab)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or response.status_code not in (301, 302, 303, 307, 308):
            return response
        login = resolve_url(settings.LOGIN_URL)
        if urlsplit(response["Location"]).path != login:
            return response
        back = request.htmx.current_url_abs_path or request.get_full_path()
        return vary_on_htmx(HttpResponseClientRedirect(f"{login}?{urlencode({REDIRECT_FIELD_NAME: back})}"))
