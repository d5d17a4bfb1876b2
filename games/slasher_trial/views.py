"""The Slasher trial's pages: the list, the join link, the trial page and its actions.

Only participants see a trial (others get 404); each acts only for themselves.
Every change is a call into trials/services.py (which calls the engine).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.games import kit
from core.htmx import vary_on_htmx
from games.slasher_trial import services
from games.slasher_trial.forms import ActForm, Adjacency, TrialForm
from games.slasher_trial.models import Participant, Trial
from games.slasher_trial.permissions import get_trial_for_user, participant_of, user_takes_part
from rules import slasher_trial as sl

LOG_SHOWN = 20  # log entries on the board; the log page has the rest


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


def _context(request: HttpRequest, trial: Trial, error: str = "") -> dict:
    participants = list(trial.participants.select_related("user"))
    generators = list(trial.generators.all())
    sections = services.rules_sections()
    rules = services.numbers(sections)
    state = services.engine_trial(trial, participants, generators, rules)
    me = participant_of(request.user, participants)
    legal = (
        services.legal_moves(state, me, request.user.username)
        if trial.state == Trial.PLAYING
        else services.legal_moves(state, None, "")
    )
    survivors = [p for p in participants if not p.is_monster]
    counted = sum(1 for s in state.survivors if s.status is not None)
    costs = {
        "survivor": [
            (a["name"], a["slug"], rules.cost("survivor", a["slug"]))
            for a in sections.get("survivor_actions", [])
            if a["slug"] in dict(rules.survivor_costs)
        ],
        "monster": [
            (a["name"], a["slug"], rules.cost("monster", a["slug"]))
            for a in sections.get("monster_actions", [])
            if a["slug"] in dict(rules.monster_costs)
        ],
    }
    waiting = [s.name for s in state.survivors if s.living and s.readiness != sl.Readiness.READY]
    odds = []
    if trial.state == Trial.OVER and sl.is_over(state):
        odds = [
            (n, f"{o.numerator}/{o.denominator}", f"{100 * float(o):.0f}") for n, o in sl.winner_odds(state).items()
        ]
    latest = list(trial.log.all()[: LOG_SHOWN + 1])
    return {
        "trial": trial,
        "participants": participants,
        "survivors": survivors,
        "me": me,
        "state": state,
        "rules": rules,
        "legal": legal,
        "grid": services.grid(state, legal),
        "columns": range(1, sl.COLUMNS + 1),
        # the latest entries only: a poll that redraws the board never sends the whole log
        "log": latest[:LOG_SHOWN],
        "older_log": len(latest) > LOG_SHOWN,
        "error": error,
        "energy_each": sl.survivor_energy_per_advance(counted, rules.survivor_energy_pool) if counted else None,
        "counted": counted,
        "costs": costs,
        "waiting": waiting,
        "odds": odds,
        "escape_cost": services.ESCAPE_COST,
        "repaired": state.repaired(),
        "my_name": request.user.username,
        "poll_params": kit.poll_params(request, services.LABEL, trial.pk, trial.version),
    }


@kit.answers_unchanged_polls(services.LABEL, services.current_version)  # 204 with no query (the kit)
@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def trial_detail(request: HttpRequest, pk: int) -> HttpResponse:
    trial = _get_trial_for_user(request, pk)
    if request.htmx:
        return kit.page_or_poll(
            request, trial.version, lambda: render(request, "trials/trial_detail.html#board", _context(request, trial))
        )
    return vary_on_htmx(render(request, "trials/trial_detail.html", _context(request, trial)))


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
        trial.refresh_from_db()
        return render(request, "trials/trial_detail.html#board", _context(request, trial, error), status=status)

    def after_plain_post(error: str) -> HttpResponse:
        if not error:
            return redirect(trial)
        trial.refresh_from_db()
        return vary_on_htmx(render(request, "trials/trial_detail.html", _context(request, trial, error), status=422))

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
