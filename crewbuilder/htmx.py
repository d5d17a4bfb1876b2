"""What every page that answers htmx with a partial shares."""

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """The same URL answers a full page or a partial by the HX-Request header,
    so caches must key on it (added to any Vary already there)."""
    patch_vary_headers(response, ("HX-Request",))
    return response
