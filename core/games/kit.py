"""The game-session kit: what every game at the table does the same way.

- ``Refused`` and ``Stale``: a move the rules or the state do not allow (nothing
  changed), and a move made from a page drawn before the last change.
- ``next_event_number`` and ``events_page``: the event log, appended in order and
  read a page at a time (a poll never sends the whole log).
- ``page_or_poll``: one poll endpoint with one version parameter (``v``). An htmx
  poll whose version is current gets 204.
- ``answers_unchanged_polls``: the cheap path in front of a game view. A poll that
  carries the page's signed poll token (``poll_params``) and a current version gets
  204 with no database query at all: the version comes from the shared cache
  (``bump_version`` publishes it on commit) and the token stands for the session.
- ``core.games.shared_parts`` (``SharedPart``): what every seat's poll of one game version shares,
  built once per version and kept in the shared cache: the rows a board is drawn from (server-side
  only), and the parts of a board every seat sees alike (public HTML: the latest log entries), each
  build taking from the previous version the pieces a move did not change (a seat, a log entry). What
  only one seat sees (a hand, its own choices, a form's CSRF token) is drawn per request and never
  stored there.
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
from functools import wraps
from typing import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Max, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.crypto import constant_time_compare, salted_hmac

from core.htmx import vary_on_htmx

VERSION_PARAM = "v"
POLL_TOKEN_PARAM = "t"
LEGACY_VERSION_PARAMS = ("version",)  # pages drawn before the kit polled with ?version=
EVENTS_PER_PAGE = 50
BOARD_EVENTS = 20  # the log entries a board shows; older ones are paged on request
# A version published by a commit is kept a day (a crash between the commit and the publication
# then leaves a stale version for at most that long); one read from the database after a miss
# only briefly, since a commit racing that read could otherwise be hidden behind it.
VERSION_TTL = 24 * 3600
FILLED_VERSION_TTL = 30
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
    """Publish a game's new version to every worker once the change is committed. The old entry
    goes at once, so until then a poll reads the database (it never trusts the old version)."""
    key = _version_key(label, pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.set(key, version, timeout=VERSION_TTL))


def cached_version(label: str, pk: int) -> int | None:
    return cache.get(_version_key(label, pk))


def current_version(label: str, pk: int, load_version: Callable[[int], int | None]) -> int | None:
    """The game's version from the cache; on a miss read once from the database (``load_version``,
    None for no such game) and fill the cache. ``add``, not ``set``: a version a commit published
    meanwhile is never overwritten by the older one read here."""
    version = cached_version(label, pk)
    if version is None:
        version = load_version(pk)
        if version is not None:
            publish_read_version(label, pk, version)
    return version


def publish_read_version(label: str, pk: int, version: int) -> None:
    """Fill the cache with a version read from the database, briefly, unless a commit published one."""
    cache.add(_version_key(label, pk), version, timeout=FILLED_VERSION_TTL)


# --- poll tokens: the session, as far as a poll needs it, without a query ------------------------


def _poll_signature(label: str, pk: int, user_id: str, session_key: str) -> str:
    # Django's signing HMAC (SECRET_KEY, salted), in lowercase hex: no upper-case letters that could
    # read like a token code on the page
    return salted_hmac("core.games.kit.poll", f"{label}:{pk}:{user_id}:{session_key}", algorithm="sha256").hexdigest()


def poll_token(request: HttpRequest, label: str, pk: int) -> str:
    """A token for this page's polls, bound to the game, the user and the session cookie: only the
    browser that drew the page (after the view's own permission check) can use it, and only while
    it keeps that session (a logout or a new login changes the key). The session key is only
    signed, never shown. The same page gives the same token, so a page's bytes stay comparable."""
    user_id = str(request.user.pk)
    return f"{user_id}.{_poll_signature(label, pk, user_id, request.session.session_key or '')}"


def poll_token_ok(request: HttpRequest, label: str, pk: int, token: str) -> bool:
    """Checked without reading the session or the user: the cookie's session key must be the one
    the token was signed with."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    user_id, _, signature = token.partition(".")
    if not session_key or not user_id or not signature:
        return False
    return constant_time_compare(signature, _poll_signature(label, pk, user_id, session_key))


def poll_params(request: HttpRequest, label: str, pk: int, version: int) -> str:
    """The query string of a board's poll: ``v=<version>&t=<poll token>``."""
    return urlencode({VERSION_PARAM: version, POLL_TOKEN_PARAM: poll_token(request, label, pk)})


def unchanged_poll(request: HttpRequest, label: str, pk: int, load_version: Callable[[int], int | None]) -> bool:
    """A GET htmx poll with a valid poll token whose version is current: answer 204, touching
    neither the session nor (on a cache hit) the database. Anything else goes to the view."""
    if request.method != "GET" or not request.htmx:
        return False
    seen, token = request.GET.get(VERSION_PARAM), request.GET.get(POLL_TOKEN_PARAM)
    if not seen or not token or not poll_token_ok(request, label, pk, token):
        return False
    version = current_version(label, pk, load_version)
    return version is not None and str(version) == seen


def unchanged() -> HttpResponse:
    """The answer to a poll whose version is current: 204, nothing to swap."""
    response = vary_on_htmx(HttpResponse(status=204))
    # a 204 is cacheable by default, and the same URL answers differently after the next move
    patch_cache_control(response, private=True, no_cache=True)
    return response


def answers_unchanged_polls(label: str, load_version: Callable[[int], int | None]):
    """Put in front of a game view (outside ``login_required``): an unchanged poll is answered
    here; everything else, a poll without a valid token included, goes to the view and its checks."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, pk: int, *args, **kwargs):
            if unchanged_poll(request, label, pk, load_version):
                return unchanged()
            return view(request, pk, *args, **kwargs)

        return wrapper

    return decorate


def version_seen(request: HttpRequest) -> str | None:
    """The version the polling page shows (``?v=``; the older ``?version=`` still read)."""
    for name in (VERSION_PARAM, *LEGACY_VERSION_PARAMS):
        if name in request.GET:
            return request.GET[name]
    return None


def page_or_poll(request: HttpRequest, version: int, render_page: Callable[[], HttpResponse]) -> HttpResponse:
    """An htmx poll whose version is current answers 204; anything else renders."""
    if request.htmx and version_seen(request) == str(version):
        return unchanged()
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


def act_and_redraw(
    request: HttpRequest,
    move: Callable[[], object],
    redraw: Callable[[str, int], HttpResponse],
    after_plain_post: Callable[[str], HttpResponse],
) -> HttpResponse:
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


def events_page(events: QuerySet, page: int | str | None, per_page: int | None = None):
    """One page of a game's log, newest first (a page number out of range gives the last page)."""
    return Paginator(events.order_by("-number"), per_page or EVENTS_PER_PAGE).get_page(page)


def latest_events(events: QuerySet, count: int | None = None) -> tuple[list, bool]:
    """The newest ``count`` (``BOARD_EVENTS``) entries of a game's log, newest first, and whether there
    are older ones, in one query: a board never carries the whole log."""
    count = count or BOARD_EVENTS
    rows = list(events.order_by("-number")[: count + 1])
    return rows[:count], len(rows) > count


# --- share links -----------------------------------------------------------------


def new_share_token() -> str:
    return secrets.token_urlsafe(SHARE_TOKEN_BYTES)


def share_token_ok(token: str | None) -> bool:
    return bool(token) and len(token) <= SHARE_TOKEN_MAX
