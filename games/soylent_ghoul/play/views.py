"""Soylent Ghoul game pages: the list (and a new game), a game's board, its actions.

One view serves the game page and, for htmx, its ``board`` partial (polled
every few seconds: answered 204 when the version the page shows is current).
Actions POST with the version the player saw; the rules are the engine's.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.htmx import vary_on_htmx
from games.soylent_ghoul.sets.models import DroneSet
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.board import board, key
from games.soylent_ghoul.play.models import Game, Player

BOARD = "soylentgames/game_detail.html#board"


def _get_game_for_user(request: HttpRequest, pk: int) -> Game:
    """The game, if the user has a seat (or an invitation) at it; anyone else gets a 404."""
    game = Game.objects.filter(pk=pk, players__user=request.user).first()
    if game is None:
        raise Http404("No such game.")
    return game


def _own_set(user, set_id) -> DroneSet:
    try:
        return DroneSet.objects.select_related("crew").get(pk=int(set_id), crew__owner=user)
    except (DroneSet.DoesNotExist, TypeError, ValueError):
        raise services.GameError("Choose one of your own drone sets.") from None


def _board_context(request: HttpRequest, game: Game) -> dict:
    players = list(game.players.select_related("user").order_by("seat"))
    pieces = list(game.pieces.all()) if game.status != Game.SETUP else []
    events = list(game.events.select_related("actor").order_by("-number"))
    context = board(game, players, pieces, events, request.user)
    if game.status == Game.SETUP:
        me = context["me"]
        if me is not None and not me.joined:
            context["my_sets"] = services.own_sets(request.user)
    return context


@login_required
@require_http_methods(["GET", "POST"])
def game_list(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        try:
            drone_set = _own_set(request.user, request.POST.get("drone_set"))
            names = request.POST.get("players", "").replace("\n", ",").split(",")
            game = services.create_game(request.user, drone_set, names)
        except services.GameError as exc:
            error = str(exc)
        else:
            messages.success(request, "Game set up. The invited players choose their drone sets on its page.")
            return redirect(game)
    seats = list(Player.objects.filter(user=request.user).select_related("game", "game__creator")
                 .order_by("-game__created_at", "-game_id"))
    return render(request, "soylentgames/game_list.html", {
        "seats": seats, "my_sets": services.own_sets(request.user), "error": error, "post": request.POST,
    }, status=422 if error else 200)


@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    if request.htmx:
        if request.GET.get("version") == str(game.version):
            return vary_on_htmx(HttpResponse(status=204))  # nothing changed: the poll keeps the page as it is
        return vary_on_htmx(render(request, BOARD, _board_context(request, game)))
    return vary_on_htmx(render(request, "soylentgames/game_detail.html", _board_context(request, game)))


@login_required
@require_GET
def game_key(request: HttpRequest, pk: int) -> HttpResponse:
    """The viewer's own true tokens, fetched only while they hold "Hold to see my key" (or opened as a
    page without JavaScript); never part of the board, so it is not on screen at the table."""
    game = _get_game_for_user(request, pk)
    rows = key(game, list(game.pieces.all()), request.user)
    if rows is None:
        raise Http404("No such game.")
    template = "soylentgames/game_key.html#key" if request.htmx else "soylentgames/game_key.html"
    response = vary_on_htmx(render(request, template, {"game": game, "key": rows}))
    response["Cache-Control"] = "private, no-store"
    return response


def _answer(request: HttpRequest, game: Game, error: str | None = None, status: int = 200) -> HttpResponse:
    if request.htmx:
        context = _board_context(request, Game.objects.get(pk=game.pk))
        context["error"] = error
        return vary_on_htmx(render(request, BOARD, context, status=status))
    if error:
        messages.error(request, error)
    return redirect(game)


@login_required
@require_POST
def game_join(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        services.join(game.pk, request.user, _own_set(request.user, request.POST.get("drone_set")))
    except services.GameError as exc:
        return _answer(request, game, str(exc), 422)
    return _answer(request, game)


@login_required
@require_POST
def game_decline(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        services.decline(game.pk, request.user)
    except services.GameError as exc:
        return _answer(request, game, str(exc), 422)
    messages.success(request, "The game is cancelled." if game.creator_id == request.user.pk else "You left the game.")
    return redirect("soylent-game-list")


@login_required
@require_POST
def game_start(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        services.start(game.pk, request.user, request.POST.get("first"))
    except services.GameError as exc:
        return _answer(request, game, str(exc), 422)
    return _answer(request, game)


@login_required
@require_POST
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_act(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    try:
        if request.POST.get("kind") == "undo":
            services.undo(game.pk, request.user, request.POST.get("version"))
        else:
            services.play(game.pk, request.user, request.POST.get("version"), request.POST.get("kind", ""), request.POST)
    except services.StaleVersion as exc:
        return _answer(request, game, str(exc), 409)
    except services.GameError as exc:
        return _answer(request, game, str(exc), 422)
    return _answer(request, game)
