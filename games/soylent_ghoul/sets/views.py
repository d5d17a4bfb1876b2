"""Drone set pages: list and create, the set page (owner), its edits, re-deal,
share link, delete, export and the three PDFs.

Each view loads through ``_get_set_for_user`` (another user's set is a 404),
calls one function of soylent/services.py, and renders. Only owner views read
the true tokens (``services.owner_key``); the shared page and the public PDFs
are built from ``services.public_view``, which has no truth in it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.games.fields import first_error
from core.htmx import vary_on_htmx
from core.pdf import pdf_filename
from core.pdf_views import paper_for, pdf_response

from . import crewfile, printing, services
from .forms import EDIT_FORMS, DroneSetForm, ShareForm
from .models import DroneSet
from .permissions import get_drone_set_for_user, get_shared_drone_set, user_owns_drone_set


def _get_set_for_user(request: HttpRequest, pk: int) -> DroneSet:
    """The signed-in user's drone set, or 404 (also for other users' sets)."""
    return get_drone_set_for_user(request.user, pk)


def _get_shared_set(token: str) -> DroneSet:
    return get_shared_drone_set(token)


def _private(response: HttpResponse) -> HttpResponse:
    """Owner pages may hold the secret: never stored by a shared cache."""
    response["Cache-Control"] = "private, no-store"
    return response


def _shared_headers(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


# --- list and create ---------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def soylent_home(request: HttpRequest) -> HttpResponse:
    error = None
    rules = services.rules_data()
    values = {"name": "", "group": "", "drones": rules.suggested_drones}
    if request.method == "POST":
        form = DroneSetForm(request.POST)
        values = {name: form.data.get(name, "") for name in form.fields}  # shown again as typed
        try:
            if not form.is_valid():
                raise services.DroneSetError(first_error(form))
            drone_set = services.create_drone_set(
                request.user, form.cleaned_data["name"], form.cleaned_data["group"], count=form.cleaned_data["drones"]
            )
        except services.DroneSetError as exc:
            error = str(exc)
        else:
            messages.success(request, f"Drone set “{drone_set.crew.name}” created with secret true tokens dealt.")
            return redirect("soylent-set-detail", pk=drone_set.pk)
    context = {
        "sets": services.sets_for(request.user),
        "groups": [services.group_card(g) for g in rules.groups.values()],
        "error": error,
        "values": values,
        "suggested": rules.suggested_drones,
        "max_drones": services.MAX_DRONES,
        "tokens_per_drone": rules.tokens_per_drone,
    }
    return render(request, "soylent/home.html", context, status=422 if error else 200)


# --- the set page (owner) ------------------------------------------------------


def _detail_context(request: HttpRequest, drone_set: DroneSet, *, show_key: bool, **extra) -> dict:
    rules = services.rules_data()
    view = services.public_view(drone_set, rules)
    context = {
        "drone_set": drone_set,
        "view": view,
        "report": crewfile.report_for(drone_set, view, rules),
        "groups": [services.group_card(g) for g in rules.groups.values()],
        "show_key": show_key,
        "max_drones": services.MAX_DRONES,
        **extra,
    }
    if show_key:
        context["key"] = services.owner_key(drone_set, view)
    return context


@login_required
@require_GET
def set_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner's page. The key is not in the page until asked for (``?key=1``),
    so it is not on screen at the table by default."""
    drone_set = _get_set_for_user(request, pk)
    show_key = request.GET.get("key") == "1"
    template = (
        "soylent/set_detail.html#key"
        if request.htmx and request.GET.get("part") == "key"
        else "soylent/set_detail.html"
    )
    return _private(vary_on_htmx(render(request, template, _detail_context(request, drone_set, show_key=show_key))))


@login_required
@require_POST
def set_edit(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    if action not in EDIT_FORMS:
        raise Http404
    form = EDIT_FORMS[action](request.POST)
    try:
        if not form.is_valid():
            raise services.DroneSetError(first_error(form))
        _edit(drone_set, action, form.cleaned_data)
    except services.DroneSetError as exc:
        fresh = _get_set_for_user(request, pk)
        stale = isinstance(exc, services.StaleDroneSet)
        rejected = {
            "action": action,
            "message": str(exc),
            "stale": stale,
            "typed": form.data.get("name", "") if stale else "",
        }
        context = _detail_context(request, fresh, show_key=False, rejected=rejected)
        template = "soylent/set_detail.html#editor" if request.htmx else "soylent/set_detail.html"
        return _private(vary_on_htmx(render(request, template, context, status=409 if stale else 422)))
    if not request.htmx:
        return redirect("soylent-set-detail", pk=pk)
    fresh = _get_set_for_user(request, pk)
    return _private(
        vary_on_htmx(render(request, "soylent/set_detail.html#editor", _detail_context(request, fresh, show_key=False)))
    )


def _edit(drone_set: DroneSet, action: str, data: dict) -> None:
    """One editor change; every editor form carries the version it was drawn with, so a form from an
    older tab is refused (409) and never overwrites."""
    version = data["version"]
    if action == "rename":
        services.rename(drone_set, name=data["name"], expected_version=version)
    elif action == "group":
        services.set_group(drone_set, group=data["group"], expected_version=version)
    elif action == "add-drone":
        services.add_drone(drone_set, name=data["name"], expected_version=version)
    elif action == "rename-drone":
        services.rename_drone(drone_set, drone_id=data["drone"], name=data["name"], expected_version=version)
    elif action == "remove-drone":
        services.remove_drone(drone_set, drone_id=data["drone"], expected_version=version)


@login_required
@require_http_methods(["GET", "POST"])
def set_redeal(request: HttpRequest, pk: int) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    running = _games_playing_with(drone_set)
    if request.method == "POST":
        try:
            services.redeal(drone_set)
        except services.DroneSetError as exc:
            messages.error(request, str(exc))
            return redirect("soylent-set-detail", pk=pk)
        messages.success(request, "True tokens re-dealt. Print a new key sheet: the old one is out of date.")
        for game in running:
            messages.warning(request, _KEEPS_ITS_DEAL.format(name=game))
        return redirect("soylent-set-detail", pk=pk)
    return _private(render(request, "soylent/set_redeal.html", {"drone_set": drone_set, "running": running}))


_KEEPS_ITS_DEAL = (
    "{name} is still being played with this set: it keeps the deal it started with. Until it ends, play it "
    "with its own key (“Hold to see my key” on the game page), not a key sheet printed now."
)


def _games_playing_with(drone_set: DroneSet) -> list:
    """The games not finished in which the set's owner joined with this set: each copied the set's deal when
    it was joined, so a re-deal does not reach them, and a key sheet printed after it is not theirs."""
    from games.soylent_ghoul.play.models import Game

    games = Game.objects.filter(players__drone_set=drone_set, players__joined=True).exclude(status=Game.FINISHED)
    return list(games.distinct().order_by("pk"))


@login_required
@require_POST
def set_share(request: HttpRequest, pk: int) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    form = ShareForm(request.POST)
    form.is_valid()  # one optional checkbox: never invalid
    if form.cleaned_data["revoke"]:
        services.set_sharing(drone_set, on=False)
        messages.success(request, "Share link revoked: the old link no longer works.")
    else:
        services.set_sharing(drone_set, on=True)
        messages.success(
            request, "Share link created. Anyone with the link sees the drones and token codes, never the true tokens."
        )
    return redirect("soylent-set-detail", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def set_delete(request: HttpRequest, pk: int) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    if request.method == "POST":
        name = drone_set.crew.name
        try:
            services.delete(drone_set)
        except services.DroneSetError as exc:
            messages.error(request, str(exc))
            return redirect("soylent-set-detail", pk=pk)
        messages.success(request, f"Deleted “{name}”.")
        return redirect("soylent-home")
    return render(request, "soylent/set_delete.html", {"drone_set": drone_set})


@login_required
@require_GET
def set_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The crew file; the true tokens only with ``?true_tokens=1`` (the owner's explicit choice)."""
    drone_set = _get_set_for_user(request, pk)
    with_truth = request.GET.get("true_tokens") == "1"
    text = crewfile.export_text(drone_set, include_truth=with_truth)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    suffix = "-with-key" if with_truth else ""
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(drone_set.crew.name) or "drone-set"}{suffix}.json"'
    )
    return _private(response)


# --- PDFs ----------------------------------------------------------------------


@login_required
@require_GET
def cards_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    data = printing.cards_pdf(services.public_view(drone_set), paper_for(request))
    return pdf_response(data, pdf_filename(drone_set.crew.name, "drone-cards"))


@login_required
@require_GET
def tokens_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    data = printing.tokens_pdf(services.public_view(drone_set), paper_for(request))
    return pdf_response(data, pdf_filename(drone_set.crew.name, "tokens"))


@login_required
@require_GET
def key_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    drone_set = _get_set_for_user(request, pk)
    data = printing.key_pdf(drone_set, paper_for(request))
    return _private(pdf_response(data, pdf_filename(drone_set.crew.name, "secret-key")))


# --- share link ------------------------------------------------------------------


@require_GET
def set_shared(request: HttpRequest, token: str) -> HttpResponse:
    drone_set = _get_shared_set(token)
    context = {
        "view": services.public_view(drone_set),
        "token": token,
        "is_owner": user_owns_drone_set(request.user, drone_set),
        "drone_set_pk": drone_set.pk,
    }
    return _shared_headers(render(request, "soylent/set_shared.html", context))


@require_GET
def shared_cards_pdf(request: HttpRequest, token: str) -> HttpResponse:
    drone_set = _get_shared_set(token)
    data = printing.cards_pdf(services.public_view(drone_set), paper_for(request))
    return pdf_response(data, pdf_filename(drone_set.crew.name, "drone-cards"), shared=True)


@require_GET
def shared_tokens_pdf(request: HttpRequest, token: str) -> HttpResponse:
    drone_set = _get_shared_set(token)
    data = printing.tokens_pdf(services.public_view(drone_set), paper_for(request))
    return pdf_response(data, pdf_filename(drone_set.crew.name, "tokens"), shared=True)


def set_url_for_crew(crew) -> str:
    """Where crewbuilder's crew pages send a soylent-ghoul crew."""
    drone_set = DroneSet.objects.filter(crew=crew).only("pk").first()
    if drone_set is None:
        return reverse("soylent-home")
    return reverse("soylent-set-detail", args=[drone_set.pk])
