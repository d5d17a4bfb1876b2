"""Recording a game, confirming it, and spending treasure between games."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.record import campaign_prefill
from campaigns import idempotency, services
from campaigns.forms import (
    OUTCOMES,
    ConfirmGameForm,
    GameRecordForm,
    GenerateScenarioForm,
    ScenarioDrawForm,
    ShopForm,
    WithdrawGameForm,
)
from campaigns.models import CampaignCrew, Game, HistoryEntry
from campaigns.permissions import get_campaign_for_user, user_can_withdraw_game, user_is_organiser
from crewbuilder.crew_service import ATTRIBUTE_LABELS
from crewbuilder.limits import TREASURE_PER_GAME_MAX
from crewbuilder.models import Complication, Item


def _roll_effects(participants: list[dict]) -> list[dict]:
    """The participants as ``record_game`` takes them, each chosen table rolled on once.
    Called only with a valid form: nothing is rolled for a form sent back."""
    rolled = []
    for part in participants:
        effects = []
        for character, table in part["table_rolls"]:
            roll = services.roll_on_table(table)
            effects.append(
                {
                    "character": character.pk,
                    "name": character.name,
                    "table": table.pk,
                    "table_name": table.name,
                    "text": roll.row["text"],
                    "attributes": roll.row.get("attributes", {}),
                    "roll": {"seed": roll.seed, "die": table.die, "dice": list(roll.dice), "result": roll.result},
                }
            )
        rolled.append(
            {"crew": part["crew"], "treasure": part["treasure"], "casualties": part["casualties"], "effects": effects}
        )
    return rolled


def _draw_for_chosen(campaign, form: ScenarioDrawForm, scenarios, problems) -> dict | None:
    sent = form.cleaned_data
    if sent["scenario_other"].strip():
        problems.append(
            "Drawing a Complication works for the scenarios listed; for your own scenario, "
            "choose its Complication (or none) below."
        )
        return None
    key = next((s["key"] for s in scenarios if s["name"] == sent["scenario"]), None)
    if key is None:
        problems.append("Choose one of the scenarios listed.")
        return None
    return services.generate_scenario(campaign, method=sent["draw"], pick=key)


def _generated(campaign, request: HttpRequest, problems: list) -> dict | None:
    """The random scenario asked for by the page's links (?generate=deck|d12, &seed=, &pick=)."""
    form = GenerateScenarioForm(request.GET)
    valid = form.is_valid()
    if not form.cleaned_data.get("generate"):
        return None
    if not valid:
        problems.extend(form.errors["seed"])
        return None
    try:
        return services.generate_scenario(
            campaign,
            method=form.cleaned_data["generate"],
            seed=form.cleaned_data["seed"],
            pick=form.cleaned_data["pick"],
        )
    except services.CampaignError as exc:
        problems.append(str(exc))
        return None


def _keep_shown(crews, shown) -> None:
    """What the form shows, on the crews and characters: a form sent back keeps every choice."""
    for entry in crews:
        entry.form_played = shown.get(f"played-{entry.pk}") == "1"
        entry.form_treasure = shown.get(f"treasure-{entry.pk}", "0")
        for character in entry.crew.characters.all():
            character.form_outcome = shown.get(f"outcome-{character.pk}", "")
            character.form_table = shown.get(f"table-{character.pk}", "")


def battle_prefill(request: HttpRequest, campaign) -> dict | None:
    """A finished battle of this campaign (``?battle=<id>`` on a GET) that fills the form in; 404 unless
    the user played in it (battles.record.campaign_prefill)."""
    if request.method != "GET" or not request.GET.get("battle"):
        return None
    return campaign_prefill(campaign, request.user, request.GET["battle"])


def game_form_initial(request: HttpRequest, campaign, crews, prefill: dict | None = None) -> dict:
    """Initial values of a new game form, by field name (see GameRecordForm): the defaults, or what a
    finished battle says (only its crews played)."""
    if not prefill:
        return {}
    post = prefill["post"]
    return {f"played-{entry.pk}": post.get(f"played-{entry.pk}") == "1" for entry in crews} | post


@login_required
@require_http_methods(["GET", "POST"])
def game_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    crews = list(CampaignCrew.objects.for_game_form(campaign))
    tables = list(campaign.tables.all())
    scenarios = services.scenario_choices(campaign)
    complications = list(Complication.objects.filter(system=campaign.system))
    problems = []
    generated = _generated(campaign, request, problems)
    draw = ScenarioDrawForm(request.POST or None)
    prefill = battle_prefill(request, campaign)
    form = GameRecordForm(
        request.POST or None, crews=crews, tables=tables, initial=game_form_initial(request, campaign, crews, prefill)
    )
    if request.method == "POST" and draw.is_valid() and draw.cleaned_data["draw"]:
        # The form's one scenario picker also draws the agreed scenario's Complication:
        # nothing is recorded, the form comes back as it was sent.
        generated = _draw_for_chosen(campaign, draw, scenarios, problems)
    elif request.method == "POST" and not form.is_valid():
        problems.extend(form.problems())
    elif request.method == "POST":
        sent = form.cleaned_data
        try:
            game = services.record_game(
                campaign,
                request.user,
                played_on=sent["played_on"],
                scenario=sent["scenario"],
                complication=sent["complication"],
                participants=_roll_effects(sent["participants"]),
                winner=sent["winner"],
                is_draw=sent["is_draw"],
                submission_key=idempotency.submission_key(request.user.pk, sent["submission"], form.content()),
            )
        except services.CampaignError as exc:
            problems.append(str(exc))
        else:
            if getattr(game, "repeated", False):
                messages.info(
                    request, "This game was already recorded (the form was sent twice): here it is, recorded once."
                )
            else:
                messages.success(request, "Game recorded. It counts once every player in it has confirmed.")
            return redirect("game-detail", pk=campaign.pk, game_id=game.pk)
    shown = form.shown()
    _keep_shown(crews, shown)
    return render(
        request,
        "campaigns/game_form.html",
        {
            "campaign": campaign,
            "crews": crews,
            "tables": tables,
            "scenarios": scenarios,
            "rules_scenarios": [c for c in scenarios if c["source"] == "rules"],
            "campaign_scenarios": [c for c in scenarios if c["source"] == "campaign"],
            "complications": complications,
            "outcomes": OUTCOMES,
            "treasure_max": TREASURE_PER_GAME_MAX,
            "problems": problems,
            "today": form.default_initial()["played_on"],
            "post": shown,
            "generated": generated,
            "submission": idempotency.token_for_form(form["submission"].value()),
            "chosen_scenario": shown.get("scenario")
            or (generated["scenario"]["name"] if generated and generated["scenario"] else ""),
            "prefill": prefill,
        },
        status=422 if problems else 200,
    )


def _mark_reversed(game: Game, parts: list) -> None:
    """Put on each casualty, table effect and treasure of the game the date its step was reversed since (by
    the organiser, one by one or with the whole game), so the page does not show it as still standing: a death
    reversed in the history has the character back on the roster. One query."""
    applied = HistoryEntry.objects.filter(game=game, kind__in=("death", "effect", "treasure")).select_related(
        "undone_by"
    )
    steps = {}  # (kind, crew, character): the dates each step was reversed on (None: it stands), in order
    for step in applied.order_by("pk"):
        character = step.before.get("character")
        reversed_on = step.undone_by.created_at if step.undone_by else None
        steps.setdefault((step.kind, step.campaign_crew_id, character), []).append(reversed_on)
    for part in parts:
        crew = part.campaign_crew_id
        part.treasure_reversed_on = (steps.get(("treasure", crew, None)) or [None])[0]
        for casualty in part.casualties:
            if casualty.get("outcome") == "dead":
                casualty["reversed_on"] = (steps.get(("death", crew, casualty.get("character"))) or [None])[0]
        for effect in part.effects:  # a character's effects were applied, and logged, in the form's order
            dates = steps.get(("effect", crew, effect.get("character")))
            effect["reversed_on"] = dates.pop(0) if dates else None


@login_required
@require_GET
def game_detail(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    game = get_object_or_404(Game.objects.select_related("winner__crew", "recorded_by"), pk=game_id, campaign=campaign)
    parts = list(game.participants.select_related("campaign_crew__crew", "campaign_crew__player", "confirmed_by"))
    if game.status in (Game.APPLIED, Game.REVERSED):  # only a counted game's steps were applied, and reversed
        _mark_reversed(game, parts)
    return render(
        request,
        "campaigns/game_detail.html",
        {
            "campaign": campaign,
            "game": game,
            "parts": parts,
            "organiser": user_is_organiser(request.user, campaign),
            "can_confirm": any(p.campaign_crew.player_id == request.user.pk and p.confirmed_at is None for p in parts),
            "can_withdraw": game.status == Game.PENDING and user_can_withdraw_game(request.user, game),
        },
    )


@login_required
@require_POST
def game_confirm(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    game = get_object_or_404(Game, pk=game_id, campaign=campaign)
    form = ConfirmGameForm(request.POST)
    for_everyone = form.is_valid() and form.cleaned_data["for_everyone"]  # anything but "1": for your own crew
    try:
        counted = services.confirm_game(game, request.user, for_everyone=for_everyone)
    except services.CampaignError as exc:
        messages.error(request, str(exc))
    else:
        game.refresh_from_db(fields=["status"])
        if counted or game.status == Game.PENDING:
            messages.success(
                request, "Confirmed. The result now counts." if counted else "Confirmed. Waiting for the other players."
            )
        else:  # it moved on while the page was open: the confirmation changed nothing
            messages.error(request, NOT_CONFIRMED[game.status])
    return redirect("game-detail", pk=campaign.pk, game_id=game.pk)


NOT_CONFIRMED = {
    Game.WITHDRAWN: "This game was withdrawn: there is nothing to confirm.",
    Game.APPLIED: "This game's result already counts: nothing more to confirm.",
    Game.REVERSED: "This game was reversed: it cannot be confirmed again.",
}


@login_required
@require_POST
def game_withdraw(request: HttpRequest, pk: int, game_id: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    game = get_object_or_404(Game, pk=game_id, campaign=campaign)
    form = WithdrawGameForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""  # a free text: always valid
    try:
        services.withdraw_game(game, request.user, reason)
    except services.CampaignError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Game withdrawn. It will never count; the history keeps it.")
    return redirect("game-detail", pk=campaign.pk, game_id=game.pk)


@login_required
@require_http_methods(["GET", "POST"])
def crew_shop(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    entry = get_object_or_404(CampaignCrew.objects.select_related("crew"), campaign=campaign, player=request.user)
    if request.method == "POST":
        form = ShopForm(request.POST)
        if not form.is_valid():
            messages.error(request, "; ".join(m for errors in form.errors.values() for m in errors))
            return redirect("campaign-shop", pk=campaign.pk)
        sent = form.cleaned_data
        key = idempotency.token_key(request.user.pk, sent["submission"])
        try:
            if sent["hire"]:
                hired = services.hire_character(
                    entry, request.user, sent["name"], form.attributes(), submission_key=key
                )
                messages.success(request, f"{hired.name} joins the crew.")
            else:
                bought = services.buy_gear(entry, request.user, sent["character"], sent["item"], submission_key=key)
                messages.success(request, bought.summary)
        except idempotency.AlreadySubmitted:
            messages.info(request, "Already done: the form was sent twice, and counted once.")
        except (services.CampaignError, ValueError) as exc:
            messages.error(request, str(exc))
        return redirect("campaign-shop", pk=campaign.pk)
    items = Item.objects.filter(system=campaign.system, purchasable=True).order_by("category", "position")
    return render(
        request,
        "campaigns/shop.html",
        {
            "campaign": campaign,
            "entry": entry,
            "characters": list(entry.crew.characters.all()),
            "items": items,
            "submission": idempotency.new_token(),
            "attributes": list(ATTRIBUTE_LABELS.items()),
        },
    )
