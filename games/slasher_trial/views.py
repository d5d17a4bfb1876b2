"""The Slasher trial's pages: the list, the join link, the trial page and its actions.

Only participants see a trial (others get 404); each acts only for themselves.
Every change is a call into trials/services.py (which calls the engine).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.games import kit
from core.htmx import vary_on_htmx
from games.slasher_trial import services, shared_board
from games.slasher_trial.forms import ActForm, Adjacency, TrialForm
from games.slasher_trial.models import Participant, Trial
from games.slasher_trial.permissions import get_trial_for_user, participant_of, user_takes_part


def _get_trial_for_user(request: HttpRequest, pk: int) -> Trial:
    """The trial if the user takes part in it (the Monster or a Survivor); else 404."""
    return get_trial_for_user(request.user, pk)


@login_required
@require_http_methods(["GET", "POST"])
def trial_list(request: HttpRequest) -> HttpResponse:
    form = TrialForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        trial = services.create_trial(
            request.user,
            name=form.cleaned_data["name"],
            diagonals=form.cleaned_data["adjacency"] == Adjacency.DIAGONALS,
        )
        messages.success(request, "Trial opened. Send the join link to your Survivors.")
        return redirect(trial)
    mine = list(Trial.objects.for_participant(request.user).select_related("monster"))
    return render(request, "trials/trial_list.html", {"trials": mine, "form": form}, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def trial_join(request: HttpRequest, token: str) -> HttpResponse:
    trial = get_object_or_404(Trial.objects.select_related("monster"), join_token=token)
    if user_takes_part(request.user, trial):
        return redirect(trial)
    error = ""
    if request.method == "POST":
        try:
            services.join(trial, request.user)
        except services.TrialError as exc:
            error = str(exc)
        else:
            messages.success(request, f"You joined {trial.name} as a Survivor.")
            return redirect(trial)
    survivors = trial.participants.filter(role=Participant.SURVIVOR).count()
    return render(
        request,
        "trials/trial_join.html",
        {"trial": trial, "survivors": survivors, "error": error},
        status=409 if error else 200,
    )


def _context(request: HttpRequest, shared: shared_board.Shared, error: str = "") -> dict:
    """The shared part from the cache, and what this participant may do drawn now."""
    trial, state = shared.trial, shared.state
    me = participant_of(request.user, shared.participants)
    legal = services.legal_moves(state, me if trial.state == Trial.PLAYING else None, request.user.username)
    context = {**shared.public, "me": me, "legal": legal, "error": error, "log_html": shared.html("log")}
    context.update(shared.own_grid(legal))  # this participant's own Squares highlighted
    context["my_name"] = request.user.username
    context["poll_params"] = kit.poll_params(request, services.LABEL, trial.pk, trial.version)
    return context


@kit.answers_unchanged_polls(services.LABEL, services.current_version)  # 204 with no query (the kit)
@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def trial_detail(request: HttpRequest, pk: int) -> HttpResponse:
    shared = shared_board.current(pk)
    if shared is None or participant_of(request.user, shared.participants) is None:
        raise Http404("No such trial.")  # the Monster or a Survivor, as get_trial_for_user
    trial = shared.trial
    if request.htmx:
        return kit.page_or_poll(
            request, trial.version, lambda: render(request, "trials/trial_detail.html#board", _context(request, shared))
        )
    return vary_on_htmx(render(request, "trials/trial_detail.html", _context(request, shared)))


@login_required
@require_POST
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def trial_act(request: HttpRequest, pk: int) -> HttpResponse:
    trial = _get_trial_for_user(request, pk)
    form = ActForm(request.POST)

    def move():
        if not form.is_valid():
            raise services.TrialError(" ".join(e for errors in form.errors.values() for e in errors))
        action, target, times = form.action_target_times()
        services.act(trial, request.user, action=action, target=target, times=times)

    def redraw(error: str, status: int) -> HttpResponse:
        shared = shared_board.for_game(shared_board.trials().get(pk=trial.pk))
        return render(request, "trials/trial_detail.html#board", _context(request, shared, error), status=status)

    def after_plain_post(error: str) -> HttpResponse:
        if not error:
            return redirect(trial)
        shared = shared_board.for_game(shared_board.trials().get(pk=trial.pk))
        return vary_on_htmx(render(request, "trials/trial_detail.html", _context(request, shared, error), status=422))

    return kit.act_and_redraw(request, move, redraw, after_plain_post)


@login_required
@require_GET
def trial_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole log, a page at a time (the board shows only the latest entries)."""
    trial = _get_trial_for_user(request, pk)
    return render(
        request,
        "trials/trial_log.html",
        {"trial": trial, "page": kit.events_page(trial.log.all(), request.GET.get("page"))},
    )
