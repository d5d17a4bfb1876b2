"""The Ghoul role sheet pages: your sheets, a new sheet, the turn tracker, a read-only link.

Every POST is read by a form (``forms``, ``action_forms``) into a service's typed keyword arguments;
who may see what is ``permissions``; the page's context is ``presenter``'s. A move goes through the
game kit (``kit.act_and_redraw``): the redrawn sheet (200), with the refusal (422), or as it is now
when the page was older than the sheet (409).
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
from games.ghoul_role import permissions, services
from games.ghoul_role.action_forms import ACTION_FORMS, ActionForm, CardNameForm, ShareForm, UndoForm
from games.ghoul_role.forms import CaveSheetForm, SheetKindForm, VileSheetForm
from games.ghoul_role.models import GhoulSheet
from games.ghoul_role.presenter import sheet_context

SHEET = "ghoulrole/sheet.html"


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    catalogue = services.catalogue()
    kind_form = SheetKindForm(request.POST if request.method == "POST" else None)
    kind = kind_form.cleaned_data["kind"] if kind_form.is_valid() else None
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
                    request.user,
                    form.cleaned_data["goals"],
                    name=form.cleaned_data["name"],
                    chart=form.cleaned_data.get("chart"),
                )
            except services.SheetError as exc:
                form.add_error(None, str(exc))
                status = 422
            else:
                messages.success(request, f"Sheet ready. Goal: {services.describe_goal(sheet)}.")
                return redirect(sheet)
        else:
            status = 422
    sheets = list(GhoulSheet.objects.owned_by(request.user))
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


@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def sheet_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = permissions.get_sheet_for_user(request.user, pk)
    if request.htmx:
        return kit.page_or_poll(
            request, sheet.version, lambda: render(request, f"{SHEET}#sheet", sheet_context(sheet, editable=True))
        )
    return vary_on_htmx(render(request, SHEET, sheet_context(sheet, editable=True)))


def _act_and_redraw(request: HttpRequest, sheet_pk: int, form: ActionForm, move) -> HttpResponse:
    """One move through the kit: htmx gets the sheet partial (the refusal with 422, or 409 and the sheet as
    it is now); a plain form POST goes back to the page. A form's refusal is shown as a move's."""

    def checked_move():
        if not form.is_valid():
            raise services.SheetError(form.refusal())
        move(form)

    def redraw(error: str, status: int) -> HttpResponse:
        sheet = GhoulSheet.objects.get(pk=sheet_pk)
        return render(request, f"{SHEET}#sheet", sheet_context(sheet, True, error), status=status)

    def after_plain_post(error: str) -> HttpResponse:
        if error:
            messages.error(request, error)
        return redirect("ghoulrole-sheet", pk=sheet_pk)

    return kit.act_and_redraw(request, checked_move, redraw, after_plain_post)


@login_required
@require_POST
@cache_control(private=True, no_store=True)  # the redrawn sheet holds its read-only link
def sheet_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    sheet = permissions.get_sheet_for_user(request.user, pk)
    form_class = ACTION_FORMS.get(action)
    if form_class is None:
        raise Http404("No such action.")
    return _act_and_redraw(
        request,
        sheet.pk,
        form_class(request.POST),
        lambda form: services.act(sheet.pk, request.user, action, seen_version=form.seen_version, **form.choices()),
    )


@login_required
@require_POST
@cache_control(private=True, no_store=True)
def sheet_undo(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = permissions.get_sheet_for_user(request.user, pk)
    return _act_and_redraw(
        request,
        sheet.pk,
        UndoForm(request.POST),
        lambda form: services.undo(sheet.pk, request.user, seen_version=form.seen_version),
    )


@login_required
@require_POST
@cache_control(private=True, no_store=True)
def card_name(request: HttpRequest, pk: int, card_id: int) -> HttpResponse:
    sheet = permissions.get_sheet_for_user(request.user, pk)
    return _act_and_redraw(
        request,
        sheet.pk,
        CardNameForm(request.POST),
        lambda form: services.name_card(
            sheet.pk, request.user, card_id=card_id, name=form.cleaned_data["name"], seen_version=form.seen_version
        ),
    )


@login_required
@require_POST
def sheet_share(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = permissions.get_sheet_for_user(request.user, pk)
    form = ShareForm(request.POST)
    form.is_valid()  # a flag: anything but "1" stops sharing
    outcome = kit.run_move(lambda: services.set_sharing(sheet.pk, request.user, on=form.cleaned_data["share"]))
    if outcome.error:
        messages.error(request, outcome.error)
    else:
        messages.success(
            request,
            "Anyone with the link can now read this sheet."
            if form.cleaned_data["share"]
            else "The read-only link no longer works.",
        )
    return redirect(sheet)


@login_required
@require_POST
def sheet_delete(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = permissions.get_sheet_for_user(request.user, pk)
    title = sheet.title
    sheet.delete()
    messages.success(request, f"Deleted “{title}”.")
    return redirect("ghoulrole-home")


@require_GET
def shared_sheet(request: HttpRequest, token: str) -> HttpResponse:
    sheet = permissions.shared_sheet(token)
    if request.htmx:
        return kit.page_or_poll(
            request, sheet.version, lambda: render(request, f"{SHEET}#sheet", sheet_context(sheet, editable=False))
        )
    return vary_on_htmx(render(request, SHEET, sheet_context(sheet, editable=False)))
