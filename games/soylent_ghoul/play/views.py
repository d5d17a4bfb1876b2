"""Soylent Ghoul game pages: the list (and a new game), a game's board, its actions.

One view serves the game page and, for htmx, its ``board`` partial (polled
every few seconds through the game kit, ``core.games.kit``: answered 204 when the
version the page shows is current, with no database query when the poll carries
the page's poll token). The board shows the latest log entries; ``game_log``
pages through the rest. Actions POST with the version the player saw and are
answered by the kit's ``act_and_redraw``; the rules are the engine's.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.games import kit
from core.htmx import vary_on_htmx
from games.soylent_ghoul.play import services, shared_board
from games.soylent_ghoul.play.board import board, key
from games.soylent_ghoul.play.models import Game, Player
from games.soylent_ghoul.sets.models import DroneSet

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


def _board_context(request: HttpRequest, game: Game, shared: shared_board.Shared | None = None) -> dict:
    shared = shared or shared_board.for_game(game)
    context = board(game, shared.players, shared.pieces, shared.events, request.user)
    context["older_events"] = shared.older_events
    context["log_html"] = shared.log()
    for seat in context.get("seats", ()):
        if not seat["is_me"]:
            seat["html"] = shared.seat(seat["player"].seat)  # as every other player sees it
    context["poll_params"] = kit.poll_params(request, services.LABEL, game.pk, game.version)
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
    seats = list(
        Player.objects.filter(user=request.user)
        .select_related("game", "game__creator")
        .order_by("-game__created_at", "-game_id")
    )
    return render(
        request,
        "soylentgames/game_list.html",
        {
            "seats": seats,
            "my_sets": services.own_sets(request.user),
            "error": error,
            "post": request.POST,
        },
        status=422 if error else 200,
    )


@kit.answers_unchanged_polls(services.LABEL, services.current_version)
@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    shared = shared_board.current(pk)
    if shared is None or not any(p.user_id == request.user.pk for p in shared.players):
        raise Http404("No such game.")  # a seat (or an invitation) at the game, as _get_game_for_user
    game = shared.game
    if request.htmx:
        return kit.page_or_poll(
            request, game.version, lambda: render(request, BOARD, _board_context(request, game, shared))
        )
    return vary_on_htmx(render(request, "soylentgames/game_detail.html", _board_context(request, game, shared)))


@login_required
@require_GET
def game_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole game log, a page at a time (the board shows only the latest entries)."""
    game = _get_game_for_user(request, pk)
    page = kit.events_page(game.events.select_related("actor").defer("before"), request.GET.get("page"))
    return render(request, "soylentgames/game_log.html", {"game": game, "page": page})


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


def _redraw(request: HttpRequest, game: Game, error: str, status: int) -> HttpResponse:
    context = _board_context(request, Game.objects.get(pk=game.pk))
    context["error"] = error
    return render(request, BOARD, context, status=status)


def _back_to_game(request: HttpRequest, game: Game, error: str) -> HttpResponse:
    if error:
        messages.error(request, error)
    return redirect(game)


def _act(request: HttpRequest, game: Game, move) -> HttpResponse:
    """Run one move through the kit: htmx gets the board redrawn (with a refusal: 422, or 409 when the
    page was out of date); a plain form post goes back to the game page, the refusal as a message."""
    return kit.act_and_redraw(
        request,
        move,
        lambda error, status: _redraw(request, game, error, status),
        lambda error: _back_to_game(request, game, error),
    )


@login_required
@require_POST
def game_join(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    return _act(
        request,
        game,
        lambda: services.join(game.pk, request.user, _own_set(request.user, request.POST.get("drone_set"))),
    )


@login_required
@require_POST
def game_decline(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    outcome = kit.run_move(lambda: services.decline(game.pk, request.user))
    if outcome.error:
        if request.htmx:
            return vary_on_htmx(_redraw(request, game, outcome.error, outcome.status))
        return _back_to_game(request, game, outcome.error)
    messages.success(request, "The game is cancelled." if game.creator_id == request.user.pk else "You left the game.")
    return redirect("soylent-game-list")


@login_required
@require_POST
def game_start(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    return _act(request, game, lambda: services.start(game.pk, request.user, request.POST.get("first")))


@login_required
@require_POST
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_act(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)

    def move():
        if request.POST.get("kind") == "undo":
            return services.undo(game.pk, request.user, request.POST.get("version"))
        return services.play(
            game.pk, request.user, request.POST.get("version"), request.POST.get("kind", ""), request.POST
        )

    return _act(request, game, move)
