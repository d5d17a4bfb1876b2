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
from core.games.fields import first_error
from core.htmx import vary_on_htmx
from games.soylent_ghoul.play import services, shared_board
from games.soylent_ghoul.play.board import board, key
from games.soylent_ghoul.play.forms import InviteForm, JoinForm, MoveForm, NewGameForm, StartForm
from games.soylent_ghoul.play.models import Game, Player
from games.soylent_ghoul.play.permissions import get_game_for_user, user_set_up_game

BOARD = "soylentgames/game_detail.html#board"


def _get_game_for_user(request: HttpRequest, pk: int) -> Game:
    """The game, if the user has a seat (or an invitation) at it; anyone else gets a 404."""
    return get_game_for_user(request.user, pk)


def _board_context(request: HttpRequest, game: Game, shared: shared_board.Shared | None = None) -> dict:
    shared = shared or shared_board.for_game(game)
    context = board(game, shared.players, shared.pieces, shared.standing, request.user, others_drawn=True)
    context["newest_event"] = shared.newest
    context["older_events"] = shared.older_events
    context["log_html"] = shared.log()
    context["status_html"] = shared.status()
    for seat in context.get("seats", ()):
        if seat["is_me"]:
            shared.with_drones(seat)  # only the seat around them is the viewer's own
        else:
            seat["html"] = shared.seat(seat["player"].seat)  # as every other player sees it
    context["poll_params"] = kit.poll_params(request, services.LABEL, game.pk, game.version)
    if game.status == Game.SETUP:
        me = context["me"]
        if me is not None and not me.joined:
            context["my_sets"] = services.own_sets(request.user)
        context["max_players"] = services.MAX_PLAYERS
    return context


@login_required
@require_http_methods(["GET", "POST"])
def game_list(request: HttpRequest) -> HttpResponse:
    error = None
    form = NewGameForm(request.POST if request.method == "POST" else None, user=request.user)
    if form.is_bound:
        try:
            if not form.is_valid():
                raise services.GameError(first_error(form))
            game = services.create_game(
                request.user, drone_set=form.cleaned_data["drone_set"], usernames=form.cleaned_data["players"]
            )
        except services.GameError as exc:
            error = str(exc)
        else:
            messages.success(request, "Game set up. The invited players choose their drone sets on its page.")
            return redirect(game)
    seats = list(Player.objects.seats_of(request.user))
    return render(
        request,
        "soylentgames/game_list.html",
        {
            "seats": seats,
            "my_sets": services.own_sets(request.user),
            "error": error,
            "post": form.data,  # what was typed, shown again
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
    form = JoinForm(request.POST, user=request.user)

    def move():
        if not form.is_valid():
            raise services.GameError(first_error(form))
        return services.join(game.pk, request.user, drone_set=form.cleaned_data["drone_set"])

    return _act(request, game, move)


@login_required
@require_POST
def game_decline(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    outcome = kit.run_move(lambda: services.decline(game.pk, request.user))
    if outcome.error:
        if request.htmx:
            return vary_on_htmx(_redraw(request, game, outcome.error, outcome.status))
        return _back_to_game(request, game, outcome.error)
    messages.success(
        request, "The game is cancelled." if user_set_up_game(request.user, game) else "You left the game."
    )
    return redirect("soylent-game-list")


@login_required
@require_POST
def game_invite(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    form = InviteForm(request.POST)

    def move():
        if not form.is_valid():
            raise services.GameError(first_error(form))
        return services.invite(game.pk, request.user, form.cleaned_data["username"])

    return _act(request, game, move)


@login_required
@require_POST
def game_start(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    form = StartForm(request.POST)

    def move():
        if not form.is_valid():
            raise services.GameError(first_error(form))
        return services.start(game.pk, request.user, first_seat=form.cleaned_data["first"])

    return _act(request, game, move)


@login_required
@require_POST
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_act(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    form = MoveForm(request.POST)

    def move():
        if not form.is_valid():  # refused before the game's lock is taken: no die is rolled
            raise form.refusal()
        if form.cleaned_data["kind"] == "undo":
            return services.undo(game.pk, request.user, version=form.cleaned_data["version"])
        return services.play(game.pk, request.user, **form.choices())

    return _act(request, game, move)
