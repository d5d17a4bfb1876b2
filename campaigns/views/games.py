"""Recording a game, confirming it, and spending treasure between games."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import idempotency, services
from campaigns.models import CampaignCrew, Game
from campaigns.views.campaigns import _get_campaign_for_user
from crewbuilder.crew_service import ATTRIBUTE_LABELS
from crewbuilder.models import Complication, Item

OUTCOMES = [("", "fine"), ("ooa", "out of action"), ("dead", "dead")]


def _crews(campaign):
    return list(CampaignCrew.objects.filter(campaign=campaign).select_related("crew", "player")
                .prefetch_related("crew__characters"))


def _participants_from_post(post, crews, tables) -> tuple[list, list]:
    chosen, problems = [], []
    table_by_id = {str(t.pk): t for t in tables}
    for entry in crews:
        if post.get(f"played-{entry.pk}") != "1":
            continue
        try:
            treasure = max(0, int(post.get(f"treasure-{entry.pk}") or 0))
        except ValueError:
            problems.append(f"Treasure for {entry.crew.name} must be a whole number.")
            treasure = 0
        casualties, effects = [], []
        for character in entry.crew.characters.all():
            outcome = post.get(f"outcome-{character.pk}", "")
            if outcome in {"ooa", "dead"}:
                casualties.append({"character": character.pk, "name": character.name, "outcome": outcome})
            table = table_by_id.get(post.get(f"table-{character.pk}", ""))
            if table is not None and outcome != "dead":
                roll = services.roll_on_table(table)
                effects.append({
                    "character": character.pk, "name": character.name, "table": table.pk, "table_name": table.name,
                    "text": roll.row["text"], "attributes": roll.row.get("attributes", {}),
                    "roll": {"seed": roll.seed, "die": table.die, "dice": list(roll.dice), "result": roll.result},
                })
        chosen.append({"crew": entry, "treasure": treasure, "casualties": casualties, "effects": effects})
    return chosen, problems


def _draw_for_chosen(campaign, post, scenarios, problems) -> dict | None:
    if (post.get("scenario_other") or "").strip():
        problems.append("Drawing a Complication works for the scenarios listed; for your own scenario, "
                        "choose its Complication (or none) below.")
        return None
    key = next((s["key"] for s in scenarios if s["name"] == post.get("scenario")), None)
    if key is None:
        problems.append("Choose one of the scenarios listed.")
        return None
    return services.generate_scenario(campaign, method=post.get("draw"), pick=key)


def _keep_posted(crews, post) -> None:
    """What the form showed, on the crews and characters: a form sent back keeps every choice."""
    for entry in crews:
        entry.form_played = post is None or post.get(f"played-{entry.pk}") == "1"
        entry.form_treasure = (post or {}).get(f"treasure-{entry.pk}", "0")
        for character in entry.crew.characters.all():
            character.form_outcome = (post or {}).get(f"outcome-{character.pk}", "")
            character.form_table = (post or {}).get(f"table-{character.pk}", "")


@login_required
@require_http_methods(["GET", "POST"])
def game_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    crews = _crews(campaign)
    tables = list(campaign.tables.all())
    scenarios = services.scenario_choices(campaign)
    complications = list(Complication.objects.filter(system=campaign.system))
    problems = []
    generated = None
    if request.GET.get("generate"):
        try:
            seed = int(request.GET["seed"]) if request.GET.get("seed") else None
            generated = services.generate_scenario(campaign, method=request.GET["generate"], seed=seed,
                                                   pick=request.GET.get("pick", ""))
        except (services.CampaignError, ValueError) as exc:
            problems.append(str(exc) if isinstance(exc, services.CampaignError) else "The seed must be a whole number.")
    if request.method == "POST" and request.POST.get("draw"):
        # The form's one scenario picker also draws the agreed scenario's Complication:
        # nothing is recorded, the form comes back as it was sent.
        generated = _draw_for_chosen(campaign, request.POST, scenarios, problems)
    elif request.method == "POST":
        participants, problems = _participants_from_post(request.POST, crews, tables)
        result = request.POST.get("result", "")
        winner = next((p["crew"] for p in participants if str(p["crew"].pk) == result), None)
        try:
            played_on = datetime.date.fromisoformat(request.POST.get("played_on", ""))
        except ValueError:
            problems.append("Give the date the game was played.")
            played_on = None
        scenario = (request.POST.get("scenario_other") or request.POST.get("scenario") or "").strip()[:100]
        if not scenario:
            problems.append("Which scenario was played?")
        if result != "draw" and winner is None:
            problems.append("Choose the winner (one of the crews that played) or a draw.")
        if not problems:
            try:
                game = services.record_game(
                    campaign, request.user, played_on=played_on, scenario=scenario,
                    complication=request.POST.get("complication", "")[:100], participants=participants,
                    winner=winner, is_draw=result == "draw",
                    submission_key=idempotency.submission_key(request.user.pk, request.POST),
                )
            except services.CampaignError as exc:
                problems.append(str(exc))
            else:
                if getattr(game, "repeated", False):
                    messages.info(request, "This game was already recorded (the form was sent twice): "
                                           "here it is, recorded once.")
                else:
                    messages.success(request, "Game recorded. It counts once every player in it has confirmed.")
                return redirect("game-detail", pk=campaign.pk, game_id=game.pk)
    _keep_posted(crews, request.POST if request.method == "POST" else None)
    return render(request, "campaigns/game_form.html", {
        "campaign": campaign, "crews": crews, "tables": tables, "scenarios": scenarios,
        "rules_scenarios": [c for c in scenarios if c["source"] == "rules"],
        "campaign_scenarios": [c for c in scenarios if c["source"] == "campaign"],
        "complications": complications, "outcomes": OUTCOMES, "problems": problems,
        "today": datetime.date.today().isoformat(), "post": request.POST, "generated": generated,
        "submission": idempotency.token_for_form(request.POST),
        "chosen_scenario": request.POST.get("scenario") or (generated["scenario"]["name"]
                                                            if generated and generated["scenario"] else ""),
    }, status=422 if problems else 200)


@login_required
@require_GET
def game_detail(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    game = get_object_or_404(Game.objects.select_related("winner__crew", "recorded_by"), pk=game_id, campaign=campaign)
    parts = list(game.participants.select_related("campaign_crew__crew", "campaign_crew__player", "confirmed_by"))
    return render(request, "campaigns/game_detail.html", {
        "campaign": campaign, "game": game, "parts": parts,
        "organiser": services.is_organiser(campaign, request.user),
        "can_confirm": any(p.campaign_crew.player_id == request.user.pk and p.confirmed_at is None for p in parts),
        "can_withdraw": game.status == Game.PENDING and (
            game.recorded_by_id == request.user.pk or services.is_organiser(campaign, request.user)),
    })


@login_required
@require_POST
def game_confirm(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    game = get_object_or_404(Game, pk=game_id, campaign=campaign)
    try:
        counted = services.confirm_game(game, request.user, for_everyone=request.POST.get("for_everyone") == "1")
    except services.CampaignError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Confirmed. The result now counts." if counted else "Confirmed. Waiting for the other players.")
    return redirect("game-detail", pk=campaign.pk, game_id=game.pk)


@login_required
@require_POST
def game_withdraw(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    game = get_object_or_404(Game, pk=game_id, campaign=campaign)
    try:
        services.withdraw_game(game, request.user, request.POST.get("reason", ""))
    except services.CampaignError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Game withdrawn. It will never count; the history keeps it.")
    return redirect("game-detail", pk=campaign.pk, game_id=game.pk)


@login_required
@require_http_methods(["GET", "POST"])
def crew_shop(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    entry = get_object_or_404(CampaignCrew.objects.select_related("crew"), campaign=campaign, player=request.user)
    if request.method == "POST":
        key = idempotency.token_key(request.user.pk, request.POST)
        try:
            if request.POST.get("hire"):
                hired = services.hire_character(entry, request.user, request.POST.get("name", ""), request.POST,
                                                submission_key=key)
                messages.success(request, f"{hired.name} joins the crew.")
            else:
                services.buy_gear(entry, request.user, request.POST.get("character"), request.POST.get("item", ""),
                                  submission_key=key)
                messages.success(request, "Bought.")
        except idempotency.AlreadySubmitted:
            messages.info(request, "Already done: the form was sent twice, and counted once.")
        except (services.CampaignError, ValueError) as exc:
            messages.error(request, str(exc))
        return redirect("campaign-shop", pk=campaign.pk)
    items = Item.objects.filter(system=campaign.system, purchasable=True).order_by("category", "position")
    return render(request, "campaigns/shop.html", {
        "campaign": campaign, "entry": entry, "characters": list(entry.crew.characters.all()), "items": items,
        "submission": idempotency.new_token(),
        "attributes": list(ATTRIBUTE_LABELS.items()),
    })
