"""Battle pages: the list (and a new battle), a campaign's new battle, a battle's board and its moves.

One view serves the battle page and, for htmx, its ``board`` partial, polled
every few seconds with the version it shows and the kit's poll token
(``?v=&t=``: 204 while nothing changed, with no database query, from
core.games.kit.answers_unchanged_polls; without a token, core.games.kit.page_or_poll). Moves POST with that version; the rules
are the engine's (battles.steps). Only seated players see a battle, others get
404; a standalone battle's share link shows it read-only (no hand at all).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.models import Campaign
from core.games import kit
from core.games.kit import Refused, Stale, act_and_redraw, events_page, page_or_poll
from crewbuilder.models import Crew
from rules.cybernekro.battle import codec, scenario_steps
from rules.cybernekro.battle.legal import view_for

from . import permissions, roster, services, shared_board
from .board import board
from .forms import (
    CampaignBattleForm,
    ConditionsForm,
    InitiativeForm,
    JoinForm,
    NewBattleForm,
    ScenarioForm,
    StepForm,
    VersionForm,
)
from .models import Battle, BattleSeat

BOARD = "battles/battle_detail.html#board"


def _own_crews(user):
    return list(
        Crew.objects.filter(owner=user, system__slug=roster.SYSTEM, campaign_entry__isnull=True).order_by("name", "pk")
    )


def _battle_for(request: HttpRequest, pk: int) -> Battle:
    return permissions.get_battle_for_user(request.user, pk)


def _current_version(pk: int) -> int | None:
    """The battle's version from the database (the polls' fallback when the cache has none)."""
    return Battle.objects.filter(pk=pk).values_list("version", flat=True).first()


def _log(request: HttpRequest, shared: shared_board.Shared, context: dict) -> None:
    """The log's first page from the shared part; an older page (``?page=``) read for this request."""
    page = request.GET.get("page")
    if page:
        context["events"] = events_page(shared.battle.events.all(), page)
    else:
        context["log_html"] = shared.log()


def _context(request: HttpRequest, shared: shared_board.Shared, error: str = "") -> dict:
    battle = shared.battle
    # a refused move redraws the board with what its player had ticked (the conditions, "in melee"), to try
    # again; a move made clears them (they were that move's)
    chosen = request.POST if error and request.method == "POST" else request.GET
    conditions = ConditionsForm(chosen)
    context = board(
        battle,
        shared.seats,
        request.user,
        None,
        conditions.situation(),
        state=shared.state,
        allies=conditions.allies_in_los(),
    )
    context["crews"] = shared.crews(context)
    _log(request, shared, context)
    context["error"] = error
    context["in_melee"] = chosen.get("in_melee") == "1"  # kept by the polls and a refusal, cleared by a move made
    # what the polls (and the moves) carry of the player's choices: only the boxes this board draws
    morale = any(o["step"] == "roll_morale" for o in context.get("options", ()))
    drawn = (("#conditions", context.get("odds")), ("#acting", context.get("acting")), ("#morale-allies", morale))
    context["board_include"] = ", ".join(selector for selector, shown in drawn if shown)
    context["poll_params"] = kit.poll_params(request, services.LABEL, battle.pk, battle.version)
    me = context["me"]
    if battle.status == Battle.SETUP and me is not None and not me.joined and not battle.campaign_id:
        context["join_form"] = JoinForm(crews=_own_crews(request.user))
    if battle.status == Battle.SETUP:
        own = battle.campaign_scenario
        context["scenario_name"] = own.name if own else dict(services.scenario_choices()).get(battle.scenario, "")
        if not battle.scenario and battle.creator_id == request.user.pk:
            context["scenario_form"] = ScenarioForm(campaign=battle.campaign)
    return context


@login_required
@require_http_methods(["GET", "POST"])
def battle_list(request: HttpRequest) -> HttpResponse:
    crews = _own_crews(request.user)
    form = NewBattleForm(request.POST or None, crews=crews)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            battle = services.create_battle(
                request.user,
                form.cleaned_data["scenario"],
                form.cleaned_data["crew"],
                form.usernames(),
                form.tokens(),
                draw=form.draw(),
                game_master=form.cleaned_data["game_master"],
                hold_rolls=form.cleaned_data["hold_rolls"],
            )
        except Refused as exc:
            error = str(exc)
        else:
            return redirect(battle)
    seats = list(
        BattleSeat.objects.filter(user=request.user)
        .select_related("battle__campaign_scenario")
        .order_by("-battle__updated_at")
    )
    mastered = list(
        Battle.objects.filter(game_master=request.user).select_related("campaign_scenario").order_by("-updated_at")
    )
    bad = request.method == "POST" and (error or form.errors)
    return render(
        request,
        "battles/battle_list.html",
        {"form": form, "seats": seats, "mastered": mastered, "error": error, "crews": crews},
        status=422 if bad else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_battle(request: HttpRequest, campaign_pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=campaign_pk)
    permissions.check_user_can_play_campaign_battles(request.user, campaign)
    form = CampaignBattleForm(
        request.POST or None, campaign=campaign, members=services.game_master_candidates(campaign)
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            battle = services.create_from_campaign(
                request.user,
                campaign,
                form.cleaned_data["scenario"],
                draw=form.draw(),
                game_master=form.game_master_user(),
                hold_rolls=form.cleaned_data["hold_rolls"],
            )
        except Refused as exc:
            error = str(exc)
        else:
            return redirect(battle)
    waiting = list(
        campaign.battles.filter(status=Battle.SETUP, game_master__isnull=True)
        .select_related("creator")
        .exclude(seats__user=request.user)
        .order_by("-created_at")
    )
    return render(
        request,
        "battles/campaign_battle.html",
        {"form": form, "campaign": campaign, "error": error, "waiting": waiting},
        status=422 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def battle_game_master(request: HttpRequest, pk: int) -> HttpResponse:
    """Join a campaign battle that has not started as its game master (reading B33)."""
    battle = permissions.get_campaign_battle_for_member(request.user, pk)
    try:
        services.join_as_game_master(battle.pk, request.user)
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("battle-campaign", battle.campaign_id)
    messages.success(request, "You are the battle's game master: you decide the NPCs' actions.")
    return redirect(battle)


@kit.answers_unchanged_polls(services.LABEL, _current_version)  # 204 with no query (the kit)
@login_required
@require_GET
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    shared = shared_board.current(pk)
    if shared is None or not shared_board.may_see(shared, request.user):
        raise Http404("No such battle.")  # a seat or the game master's chair, as permissions.get_battle_for_user
    return page_or_poll(
        request,
        shared.battle.version,
        lambda: render(request, BOARD if request.htmx else "battles/battle_detail.html", _context(request, shared)),
    )


def _redraw(request: HttpRequest, pk: int):
    def redraw(error: str, status: int) -> HttpResponse:
        shared = shared_board.for_game(shared_board.games().get(pk=pk))
        return render(request, BOARD, _context(request, shared, error), status=status)

    return redraw


def _after_plain(request: HttpRequest, battle: Battle):
    def after(error: str) -> HttpResponse:
        if error:
            messages.error(request, error)
        return redirect(battle)

    return after


def _move_form(request: HttpRequest, battle: Battle, form_class, **kwargs):
    """The POST read against the battle as the player saw it: a page drawn before the battle moved on is
    answered Stale (its options may be gone) before its inputs are checked."""
    seat = services.seat_of(battle, request.user)
    if battle.status != Battle.PLAYING or seat is None:
        raise Refused("The battle is not being played.")
    seen = VersionForm(request.POST)
    if form_class is StepForm:
        if not seen.is_valid():
            raise Refused("The page's version is missing: reload the page.")
        if seen.cleaned_data["v"] != battle.version:
            raise Stale("The battle moved on since your page was drawn: here it is now.")
    form = form_class(request.POST, state=codec.loads(battle.state), seat=seat, **kwargs)
    if not form.is_valid():
        raise Refused(form.first_error() if form_class is StepForm else "Choose one of your characters on the board.")
    return form


@login_required
@require_POST
def battle_act(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle_for(request, pk)

    def move():
        form = _move_form(request, battle, StepForm)
        services.act(
            battle.pk,
            request.user,
            seen_version=form.cleaned_data["v"],
            option=form.cleaned_data["option"],
            inputs=form.inputs(),
        )

    return act_and_redraw(request, move, _redraw(request, pk), _after_plain(request, battle))


@login_required
@require_POST
def battle_initiative(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle_for(request, pk)

    def choose():
        form = _move_form(request, battle, InitiativeForm)
        services.choose_initiative(battle.pk, request.user, model=form.cleaned_data["model"])

    return act_and_redraw(request, choose, _redraw(request, pk), _after_plain(request, battle))


@login_required
@require_POST
def battle_scenario(request: HttpRequest, pk: int) -> HttpResponse:
    """The scenario the group agreed on, after a card the free rules do not name (B30)."""
    battle = _battle_for(request, pk)
    form = ScenarioForm(request.POST, campaign=battle.campaign)

    def pick():
        if not form.is_valid():
            raise Refused("Choose one of the scenarios listed.")
        services.pick_scenario(battle.pk, request.user, scenario=form.cleaned_data["scenario"])

    return act_and_redraw(request, pick, _redraw(request, pk), _after_plain(request, battle))


@login_required
@require_POST
def battle_join(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle_for(request, pk)
    form = JoinForm(request.POST, crews=_own_crews(request.user))

    def move():
        if not form.is_valid():
            raise Refused("Choose one of your own Cybernekr0 crews.")
        services.join(battle.pk, request.user, form.cleaned_data["crew"])

    return act_and_redraw(request, move, _redraw(request, pk), _after_plain(request, battle))


@login_required
@require_POST
def battle_start(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle_for(request, pk)
    return act_and_redraw(
        request, lambda: services.start(battle.pk, request.user), _redraw(request, pk), _after_plain(request, battle)
    )


@login_required
@require_POST
def battle_share(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle_for(request, pk)
    try:
        services.share(battle.pk, request.user)
    except Refused as exc:
        messages.error(request, str(exc))
    return redirect(battle)


def _public(view) -> dict:
    """The battle as anyone may see it: no hand, no deck order (view_for a spectator)."""
    return json.loads(codec.dumps(view))


@login_required
@require_GET
def battle_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The battle as a JSON file: the exporter's own view (the others' hands face down), its log and summary."""
    battle = _battle_for(request, pk)
    if not battle.state:
        raise Http404("The battle has not started.")
    seat = services.seat_of(battle, request.user)
    view = view_for(codec.loads(battle.state), seat)
    summary = scenario_steps.summary(view)
    doc = {
        "format": "crewbuilder-battle",
        "version": 1,
        "battle": battle.pk,
        "scenario": battle.scenario,
        "scenario_name": battle.scenario_name,  # the rules' name, or the campaign scenario's own
        "status": battle.status,
        "summary": json.loads(json.dumps(summary.__dict__, default=lambda o: o.__dict__)),
        "log": [
            {
                "seq": e.seq,
                "seat": e.seat,
                "text": e.text,
                "seed": e.seed,
                "rolls": json.loads(json.dumps(list(e.rolls), default=str)),
            }
            for e in view.log
        ],
        "state": _public(view),
    }
    response = HttpResponse(json.dumps(doc, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="battle-{battle.pk}.json"'
    return response


@require_GET
def battle_shared(request: HttpRequest, token: str) -> HttpResponse:
    """A standalone battle, read-only, by its share link (no seat: no hand shown)."""
    shared = shared_board.for_game(permissions.get_shared_battle(token))
    battle = shared.battle

    def page() -> HttpResponse:
        context = board(battle, shared.seats, None, None, state=shared.state)
        context.update(read_only=True, me=None, token=token, crews=shared.crews(context))
        _log(request, shared, context)
        return render(request, BOARD if request.htmx else "battles/battle_detail.html", context)

    return page_or_poll(request, battle.version, page)
