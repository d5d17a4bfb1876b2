"""The game-session kit: what every game at the table does the same way.

- ``Refused`` and ``Stale``: a move the rules or the state do not allow (nothing
  changed), and a move made from a page drawn before the last change.
- ``next_event_number`` and ``events_page``: the event log, appended in order and
  read a page at a time (a poll never sends the whole log).
- ``page_or_poll``: one poll endpoint with one version parameter (``v``). An htmx
  poll whose version is current gets 204, read from the cache when it can be.
- ``act_and_redraw``: run one move and answer with the redrawn board (200), the
  board with the refusal (422), or with the newer state (409).
- ``new_share_token`` and ``share_token_ok``: read-only links.

The lock is ``core.locking``. Every tracker's service takes it, asks the pure
engine in ``rules/`` whether the move is legal, applies it, appends to the log and
calls ``bump_version`` once the transaction commits.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Callable

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Max, QuerySet
from django.http import HttpRequest, HttpResponse

from core.htmx import vary_on_htmx

VERSION_PARAM = "v"
LEGACY_VERSION_PARAMS = ("version",)  # pages drawn before the kit polled with ?version=
EVENTS_PER_PAGE = 50
SHARE_TOKEN_BYTES = 16
SHARE_TOKEN_MAX = 64


class Refused(Exception):
    """A move the rules or the game's state do not allow; nothing changed."""

    status = 422


class Stale(Refused):
    """The move was made from a page drawn before the game's last change."""

    status = 409


# --- versions ----------------------------------------------------------------


def _version_key(label: str, pk: int) -> str:
    return f"game-version:{label}:{pk}"


def bump_version(label: str, pk: int, version: int) -> None:
    """Publish a game's new version to every worker once the change is committed."""
    transaction.on_commit(lambda: cache.set(_version_key(label, pk), version, timeout=None))


def cached_version(label: str, pk: int) -> int | None:
    return cache.get(_version_key(label, pk))


def version_seen(request: HttpRequest) -> str | None:
    """The version the polling page shows (``?v=``; the older ``?version=`` still read)."""
    for name in (VERSION_PARAM, *LEGACY_VERSION_PARAMS):
        if name in request.GET:
            return request.GET[name]
    return None


def page_or_poll(request: HttpRequest, version: int, render_page: Callable[[], HttpResponse]) -> HttpResponse:
    """An htmx poll whose version is current answers 204; anything else renders."""
    if request.htmx and version_seen(request) == str(version):
        return vary_on_htmx(HttpResponse(status=204))
    return vary_on_htmx(render_page())


# --- moves ---------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    error: str
    status: int


def run_move(move: Callable[[], object]) -> Outcome:
    """Run one move; a refusal becomes an outcome to show, never an exception."""
    try:
        move()
    except Refused as exc:
        return Outcome(str(exc), exc.status)
    return Outcome("", 200)


def act_and_redraw(request: HttpRequest, move: Callable[[], object],
                   redraw: Callable[[str, int], HttpResponse],
                   after_plain_post: Callable[[str], HttpResponse]) -> HttpResponse:
    """The act view of every tracker: an htmx POST gets the board redrawn (with the
    refusal and its status); a plain form POST gets ``after_plain_post(error)``."""
    outcome = run_move(move)
    if not request.htmx:
        return after_plain_post(outcome.error)
    return vary_on_htmx(redraw(outcome.error, outcome.status))


# --- the event log ------------------------------------------------------------


def next_event_number(events: QuerySet) -> int:
    """The number of the next entry of a game's log (called under the game's lock)."""
    return (events.aggregate(last=Max("number"))["last"] or 0) + 1


def events_page(events: QuerySet, page: int | str | None, per_page: int = EVENTS_PER_PAGE):
    """One page of a game's log, newest first."""
    return Paginator(events.order_by("-number"), per_page).get_page(page)


# --- share links -----------------------------------------------------------------


def new_share_token() -> str:
    return secrets.token_urlsafe(SHARE_TOKEN_BYTES)


def share_token_ok(token: str | None) -> bool:
    return bool(token) and len(token) <= SHARE_TOKEN_MAX
