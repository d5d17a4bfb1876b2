"""The Ghoul role sheet pages: your sheets, a new sheet, the turn tracker, a read-only link."""

from __future__ import annotations

import itertools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.htmx import vary_on_htmx
from games.ghoul_role import services
from games.ghoul_role.forms import CaveSheetForm, VileSheetForm
from games.ghoul_role.models import GhoulSheet, TerrorCard
from rules import ghoul_role as rules

SHEET = "ghoulrole/sheet.html"


def _get_sheet_for_user(request: HttpRequest, pk: int) -> GhoulSheet:
    """The sheet if it is the user's; anyone else gets 404."""
    sheet = GhoulSheet.objects.filter(pk=pk, owner_id=request.user.pk).first()
    if sheet is None:
        raise Http404("No such sheet.")
    return sheet


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    catalogue = services.catalogue()
    kind = request.POST.get("kind") if request.method == "POST" else None
    cave = CaveSheetForm(request.POST if kind == GhoulSheet.CAVE else None, catalogue=catalogue, prefix="cave")
    vile = VileSheetForm(request.POST if kind == GhoulSheet.VILE else None, catalogue=catalogue, prefix="vile")
    status = 200
    if request.method == "POST":
        form = cave if kind == GhoulSheet.CAVE else vile if kind == GhoulSheet.VILE else None
        if form is None:
            messages.error(request, "Choose the Ghoul or the Vile Ghoul.")
            status = 422
        elif form.is_valid():
            try:
                sheet = services.create_sheet(
                    request.user, form.cleaned_data["goals"], form.cleaned_data["name"], form.cleaned_data.get("chart")
                )
            except services.SheetError as exc:
                form.add_error(None, str(exc))
                status = 422
            else:
                messages.success(request, f"Sheet ready. Goal: {services.describe_goal(sheet)}.")
                return redirect(sheet)
        else:
            status = 422
    sheets = list(GhoulSheet.objects.filter(owner=request.user))
    return render(
        request,
        "ghoulrole/home.html",
        {
            "sheets": [(s, services.describe_goal(s)) for s in sheets],
            "cave_form": cave,
            "vile_form": vile,
            "open_form": kind,
        },
        status=status,
    )


def _pct(value) -> str:
    return f"{100 * float(value):.1f}"


def _bars(dist: dict, label: str) -> list[dict]:
    return [
        {"key": k, "label": f"{label} {k}", "p": float(v), "pct": _pct(v), "exact": str(v)} for k, v in dist.items()
    ]


def odds_context(dice: int) -> dict:
    """What the engine's exact odds say about one Roll and Set Statistics phase with these dice."""
    odds = rules.ghoul_dice_odds(dice)
    plan = odds["max_movement"]  # keeping the two highest dice (the same as max_attack, reading G2)
    at_least, running = [], 0
    for face in reversed(range(1, 7)):
        running += plan["attack"][str(face)]
        at_least.append(
            {
                "key": f"attack-{face}",
                "label": f"{face}+ attack",
                "p": float(running),
                "pct": _pct(running),
                "exact": str(running),
            }
        )
    at_least.reverse()
    return {
        "terror": {
            "key": "terror",
            "label": "Terror card",
            "p": float(odds["terror"]["yes"]),
            "pct": _pct(odds["terror"]["yes"]),
            "exact": str(odds["terror"]["yes"]),
        },
        "threshold": rules.TERROR_AT_OR_BELOW[dice],
        "dice": dice,
        "movement": _bars(plan["movement"], "Movement"),
        "attack": _bars(plan["attack"], "Attack"),
        "at_least": at_least,
    }


def _fury_track(sheet: GhoulSheet) -> list[dict]:
    top = max(sheet.fury_goal or 0, sheet.fury)
    return (
        [
            {
                "n": n,
                "reached": n <= sheet.fury,
                "terror": rules.terror_cards_for_fury(n - 1, n) > 0,
                "goal": n == sheet.fury_goal,
            }
            for n in range(1, top + 1)
        ]
        if top
        else []
    )


def sheet_context(sheet: GhoulSheet, editable: bool, error: str = "") -> dict:
    cards = list(sheet.terror_cards.all())
    events = list(sheet.events.all()[: services.LONG])
    last = services.last_standing(events)
    final = services.why_final(last, any(c.event_id == last.pk for c in cards)) if last else None
    context = {
        "sheet": sheet,
        "editable": editable,
        "error": error,
        "goal": services.describe_goal(sheet),
        "hand": [c for c in cards if c.status == TerrorCard.HAND],
        "in_play": [c for c in cards if c.status == TerrorCard.ACTIVE],
        "gone": [c for c in cards if c.status not in (TerrorCard.HAND, TerrorCard.ACTIVE)],
        "events": events,
        "can_undo": last is not None and not final,
        "undo_final": final,
        "targets": services.TARGETS,
        "fury_track": _fury_track(sheet),
        "attack_cost_base": rules.attack_cost(0),
        "crystal_cost": rules.CRYSTAL_COST,
        "collect_cost": rules.COLLECT_COST,
        "deck_size": services.deck_size(sheet),
        "deck_left": services.deck_left(sheet, cards),
        "discard_choices": services.DISCARD_CHOICES,
    }
    if sheet.is_vile:
        right = sheet.right
        context["chart_rows"] = [
            {
                "face": face,
                "movement": m,
                "attack": a,
                "left": sheet.left == face,
                "right_dice": [face] * right.count(face),
                "in_supply": sheet.supply.count(face),
            }
            for face, (m, a) in sorted(services.chart(sheet).items())
        ]
        context["supply_faces"] = sorted(set(sheet.supply))
        context["boost_left"] = sheet.boost_dice - sheet.boost_spent
        context["vile_crystal_attack"] = rules.VILE_CRYSTAL_ATTACK
    else:
        context["odds"] = odds_context(sheet.dice)
        if sheet.phase == GhoulSheet.CHOOSE and len(sheet.roll) == 3:
            context["pairs"] = []
            best = rules.best_keep(sheet.roll)  # preselected: the most movement and attack at once (G2)
            for pair in itertools.combinations(range(len(sheet.roll)), 2):
                state = rules.start_turn(rules.GhoulState(), sheet.roll, pair, backstab=sheet.backstab)
                context["pairs"].append(
                    {
                        "keep": pair,
                        "value": f"{pair[0]}-{pair[1]}",
                        "dice": (sheet.roll[pair[0]], sheet.roll[pair[1]]),
                        "movement": state.movement,
                        "attack": state.attack_discs,
                        "best": pair == best,
                    }
                )
    return context


@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def sheet_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = _get_sheet_for_user(request, pk)
    template = f"{SHEET}#sheet" if request.htmx else SHEET
    return vary_on_htmx(render(request, template, sheet_context(sheet, editable=True)))


def _after(request: HttpRequest, sheet_pk: int, error: str = "", done: str = "") -> HttpResponse:
    """htmx: the sheet partial (422 with the message on bad input); otherwise back to the page."""
    if request.htmx:
        sheet = GhoulSheet.objects.get(pk=sheet_pk)
        response = render(request, f"{SHEET}#sheet", sheet_context(sheet, True, error), status=422 if error else 200)
        return vary_on_htmx(response)
    if error:
        messages.error(request, error)
    return redirect("ghoulrole-sheet", pk=sheet_pk)


@login_required
@require_POST
def sheet_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    sheet = _get_sheet_for_user(request, pk)
    if action not in services.ACTIONS:
        raise Http404("No such action.")
    try:
        services.act(sheet.pk, request.user, action, request.POST)
    except services.SheetError as exc:
        return _after(request, sheet.pk, error=str(exc))
    return _after(request, sheet.pk)


@login_required
@require_POST
def sheet_undo(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = _get_sheet_for_user(request, pk)
    try:
        services.undo(sheet.pk, request.user)
    except services.SheetError as exc:
        return _after(request, sheet.pk, error=str(exc))
    return _after(request, sheet.pk)


@login_required
@require_POST
def card_name(request: HttpRequest, pk: int, card_id: int) -> HttpResponse:
    sheet = _get_sheet_for_user(request, pk)
    try:
        services.name_card(sheet.pk, request.user, card_id, request.POST.get("name", ""))
    except services.SheetError as exc:
        return _after(request, sheet.pk, error=str(exc))
    return _after(request, sheet.pk)


@login_required
@require_POST
def sheet_share(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = _get_sheet_for_user(request, pk)
    sheet = services.set_sharing(sheet.pk, request.user, request.POST.get("share") == "1")
    messages.success(
        request,
        "Anyone with the link can now read this sheet." if sheet.share_token else "The read-only link no longer works.",
    )
    return redirect(sheet)


@login_required
@require_POST
def sheet_delete(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = _get_sheet_for_user(request, pk)
    title = sheet.title
    sheet.delete()
    messages.success(request, f"Deleted “{title}”.")
    return redirect("ghoulrole-home")


@require_GET
def shared_sheet(request: HttpRequest, token: str) -> HttpResponse:
    sheet = (
        GhoulSheet.objects.select_related("owner").filter(share_token=token).exclude(share_token="").first()
        if token
        else None
    )
    if sheet is None:
        raise Http404("No such sheet.")
    template = f"{SHEET}#sheet" if request.htmx else SHEET
    return vary_on_htmx(render(request, template, sheet_context(sheet, editable=False)))
