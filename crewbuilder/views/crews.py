"""Crew pages: list, create, editor (htmx and plain forms), read-only page,
export/import, duplicate, delete and share links.

Each view loads, checks access (crewbuilder/permissions.py: another user's
crew is a 404), reads its POST with a form (crewbuilder/forms_crews.py), calls
the edit service or validation with typed keyword arguments, and renders. No
rule is computed here.
"""

from __future__ import annotations

import secrets
from collections import Counter
from datetime import timedelta
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import retarget

from core.games import registry
from core.htmx import vary_on_htmx
from crewbuilder import crew_edits, crew_service, editor_cache, forms_crews, permissions
from crewbuilder.models import Crew, GameSystem

# --- access helpers ---------------------------------------------------------


class _OtherGame(Exception):
    """A crew of another game (a Soylent Ghoul drone set): its own pages show it."""

    def __init__(self, url: str):
        super().__init__(url)
        self.url = url


def _other_game_url(crew: Crew, token: str | None = None) -> str | None:
    game = registry.for_crew_system(crew.system.slug)
    if game is None or game.crew_url is None:
        return None
    return game.crew_url(crew, token)


def _redirect_other_games(view):
    """Send a request about another game's crew to that game's pages."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _OtherGame as other:
            return redirect(other.url)

    return wrapper


def _get_crew_for_user(request: HttpRequest, pk: int, *, full: bool = False) -> Crew:
    """The signed-in user's crew, or 404 (also for other users' crews)."""
    queryset = (
        Crew.objects.with_everything().select_related("campaign_entry__campaign")
        if full
        else Crew.objects.select_related("system", "campaign_entry")
    )
    crew = permissions.get_crew_for_user(request.user, pk, queryset)
    url = _other_game_url(crew)
    if url:
        raise _OtherGame(url)
    return crew


def _get_editor_crew(request: HttpRequest, pk: int) -> Crew:
    """As ``_get_crew_for_user(full=True)``, with the characters from the cache while the crew's version holds."""
    crew = permissions.get_crew_for_user(
        request.user, pk, Crew.objects.select_related("system", "owner", "campaign_entry__campaign")
    )
    url = _other_game_url(crew)
    if url:
        raise _OtherGame(url)
    return crew


def _get_shared_crew(token: str) -> Crew:
    crew = permissions.get_shared_crew(token, Crew.objects.with_everything())
    url = _other_game_url(crew, token)
    if url:
        raise _OtherGame(url)
    return crew


# --- list, create, import ----------------------------------------------------


@login_required
@require_GET
def crew_list(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:100]
    page = crew_service.list_page(request.user, search, request.GET.get("page") or 1)
    _tell_rows_apart(page)
    other_games = [
        {"title": g.crew_list.title, "template": g.crew_list.template, "rows": g.crew_list.rows(request.user)}
        for g in registry.games()
        if g.crew_list is not None
    ]
    return render(
        request,
        "crewbuilder/crew_list.html",
        {
            "rows": page.rows,
            "page": page,
            "search": search,
            "other_games": other_games,
        },
    )


def _tell_rows_apart(page) -> None:
    """What tells two rows apart when their crews are named alike (an imported file, a copy renamed): when each
    changed, to the minute, and the crew's number beside a name the page shows twice (the dice assistant's lists
    add the same number). From the rows' own crews: no query."""
    now = timezone.now()
    this_year = timezone.localtime(now).year
    names = Counter(crew.name.strip().casefold() for crew in page.object_list)
    for row, crew in zip(page.rows, page.object_list):
        changed = timezone.localtime(crew.updated_at)
        # timesince says "0 minutes" below a minute
        row["changed"] = "just now" if now - crew.updated_at < timedelta(minutes=1) else f"{row['changed_ago']} ago"
        row["changed_on"] = format_date(changed, "j M, H:i T" if changed.year == this_year else "j M Y, H:i T")
        row["number"] = crew.pk if names[crew.name.strip().casefold()] > 1 else None


@login_required
@require_http_methods(["GET", "POST"])
def crew_create(request: HttpRequest) -> HttpResponse:
    systems = list(GameSystem.objects.filter(slug="cybernekro").order_by("-edition"))
    form = forms_crews.CrewCreateForm(request.POST or None, systems=systems)
    error = None
    if request.method == "POST":
        if form.is_valid():
            crew = crew_service.create_crew(
                owner=request.user, system=form.cleaned_data["system"], name=form.cleaned_data["name"]
            )
            messages.success(request, f"Crew “{crew.name}” created. Add 3 to 7 characters.")
            return redirect("crew-edit", pk=crew.pk)
        error = forms_crews.first_error(form)
    name = form.data.get("name", "")  # as typed, to put back in the form
    return render(
        request,
        "crewbuilder/crew_create.html",
        {"systems": systems, "error": error, "name": name},
        status=422 if error else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def crew_import(request: HttpRequest) -> HttpResponse:
    problems: list[str] = []
    if request.method == "POST":
        form = forms_crews.CrewFileForm(request.POST, request.FILES)
        if not form.is_valid():
            problems = [forms_crews.first_error(form)]
        else:
            crew, problems = crew_service.import_file(request.user, form.cleaned_data["file"].read())
            if crew is not None:
                messages.success(request, f"Imported “{crew.name}”.")
                for ignored in problems:
                    messages.warning(request, ignored)
                return redirect("crew-edit", pk=crew.pk)
    # the Soylent Ghoul page sends its players here for drone set files: the page speaks of those
    drone_sets = request.GET.get("game") == "soylent-ghoul"
    context = {"problems": problems, "drone_sets": drone_sets}
    return render(request, "crewbuilder/crew_import.html", context, status=422 if problems else 200)


# --- the editor --------------------------------------------------------------


def _editor_context(request: HttpRequest, crew: Crew, open_character=None, **extra) -> dict:
    # The one character shown expanded; the others show a one-line summary. The view is worked out once per version.
    return {"crew": crew, "view": editor_cache.view_for(crew), "open_character": str(open_character or ""), **extra}


@login_required
@require_GET
@_redirect_other_games
# The page changes in place (htmx): Back or Forward must load it again, not show the browser's copy of the crew
# before the edits, whose next edit would send a stale version.
@cache_control(private=True, no_store=True)
def crew_edit(request: HttpRequest, pk: int) -> HttpResponse:
    crew = _get_editor_crew(request, pk)
    if not permissions.user_can_edit_crew(request.user, crew):
        # A campaign copy is read-only here: its page says how to change it through the campaign.
        if request.htmx:
            response = HttpResponse()
            response["HX-Redirect"] = reverse("crew-detail", args=[pk])
            return vary_on_htmx(response)
        return redirect("crew-detail", pk=pk)
    open_character = request.GET.get("open") or ""
    if not open_character.isdigit():
        open_character = ""

    def draw(csrf_token):
        editor_cache.load_characters(crew)
        return render_to_string(
            "crewbuilder/crew_edit.html#editor",
            _editor_context(request, crew, open_character, csrf_token=csrf_token),
            request,
        )

    editor_html = mark_safe(editor_cache.rendered(request, crew, f"editor:{open_character}", draw))
    if request.htmx:
        return vary_on_htmx(HttpResponse(editor_html))
    return vary_on_htmx(render(request, "crewbuilder/crew_edit.html", {"crew": crew, "editor_html": editor_html}))


@login_required
@require_POST
@_redirect_other_games
def crew_edit_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    if action not in forms_crews.EDIT_FORMS:
        _get_crew_for_user(request, pk)  # another player's crew is a 404 whatever the action
        raise Http404
    form = forms_crews.EDIT_FORMS[action](request.POST)
    if action == "attribute" and request.htmx and form.is_valid():
        kept = _attribute_on_kept_crew(request, pk, form)
        if kept is not None:
            return _edited(request, kept, form, action, made=None)
    crew = _get_crew_for_user(request, pk)
    try:
        # In the order the edit itself checks: a campaign's crew, then a stale page, then the input.
        permissions.check_user_can_edit_crew(request.user, crew)
        if not form.is_valid():
            if form.expected_version != crew.version:
                raise crew_edits.StaleCrew()
            raise crew_edits.EditError(forms_crews.first_error(form))
        made = crew_edits.apply_edit(crew, action, expected_version=form.expected_version, **form.edit_arguments())
    except crew_edits.StaleCrew:
        return _conflict(request, crew, form)
    except crew_edits.EditError as exc:
        fresh = _get_crew_for_user(request, pk, full=True)
        if permissions.campaign_entry_of(fresh) is not None:
            # An editor left open before the crew was enrolled: say why on the read-only page.
            messages.error(request, str(exc))
            if request.htmx:
                response = HttpResponse(str(exc), status=422, content_type="text/plain; charset=utf-8")
                response["HX-Redirect"] = reverse("crew-detail", args=[pk])
                return vary_on_htmx(response)
            return redirect("crew-detail", pk=pk)
        rejected = {
            "action": action,
            "message": str(exc),
            # What the player sent, put back in the refused form.
            "values": form.data.dict(),
            "character": form.data.get("character", ""),
        }
        template = "crewbuilder/crew_edit.html#editor" if request.htmx else "crewbuilder/crew_edit.html"
        context = _editor_context(request, fresh, form.open_after(action=action), rejected=rejected)
        return vary_on_htmx(render(request, template, context, status=422))
    return _edited(request, crew, form, action, made)


def _attribute_on_kept_crew(request: HttpRequest, pk: int, form: forms_crews.EditForm) -> Crew | None:
    """A stepper click, the editor's commonest edit, on the crew as this process kept it at the page's version:
    no read of the crew or the character (crew_edits.set_kept_attribute checks the stored rows as it writes).
    None when that is not so; the usual path then reads everything and answers as it always does."""
    kept = editor_cache.kept_crew(pk, form.expected_version, request.user.pk)
    if kept is None:
        return None
    crew, characters = kept
    arguments = form.edit_arguments()
    wanted = arguments.pop("character")
    character = next((c for c in characters if c.pk == wanted), None)
    if character is None:
        return None
    if not crew_edits.set_kept_attribute(crew, character, request.user.pk, form.expected_version, **arguments):
        return None
    return crew


def _edited(request: HttpRequest, crew: Crew, form: forms_crews.EditForm, action: str, made) -> HttpResponse:
    """The answer to an edit made: the editor (a redirect to it without htmx), or only the edited character."""
    open_character = form.open_after(made, action)
    if not request.htmx:
        anchor = f"?open={open_character}#character-{open_character}" if open_character else ""
        return redirect(reverse("crew-edit", args=[crew.pk]) + anchor)
    # The edit updated ``crew`` in memory; only its characters need reloading (kept for the version it claimed).
    editor_cache.load_after_edit(crew, action, request.POST.get("character"))
    context = _editor_context(request, crew, open_character)
    if action in crew_edits.CHARACTER_EDITS:
        return _character_update(request, context, form.cleaned_data["character"], action)
    return vary_on_htmx(render(request, "crewbuilder/crew_edit.html#editor", context))


@login_required
@require_GET
@_redirect_other_games
def crew_card(request: HttpRequest, pk: int, character_id: int) -> HttpResponse:
    """A folded character's controls, fetched when the player opens it (the editor draws only the open one)."""
    crew = _get_editor_crew(request, pk)
    editor = reverse("crew-edit", args=[pk])
    if not request.htmx or permissions.campaign_entry_of(crew) is not None:
        # Not a piece of a page: the editor with this character open (a campaign copy's editor says where to go).
        url = f"{editor}?open={character_id}#character-{character_id}"
        if request.htmx:
            response = HttpResponse()
            response["HX-Redirect"] = reverse("crew-detail", args=[pk])
            return vary_on_htmx(response)
        return vary_on_htmx(redirect(url))

    def draw(csrf_token):
        editor_cache.load_characters(crew)
        context = _editor_context(request, crew, character_id, csrf_token=csrf_token)
        ch = next((ch for ch in context["view"]["characters"] if ch["model"].pk == character_id), None)
        if ch is None:
            raise Http404
        return render_to_string(
            "crewbuilder/_character_body.html",
            {**context, "ch": ch, "c": ch["model"], "version": crew.version},
            request,
        )

    return vary_on_htmx(HttpResponse(editor_cache.rendered(request, crew, f"card:{character_id}", draw)))


def _character_update(request: HttpRequest, context: dict, character_id, action: str) -> HttpResponse:
    """Only the edited character's card (for a stepper click, its attributes), with out-of-band updates: constant
    size whatever the crew."""
    edited = next((ch for ch in context["view"]["characters"] if str(ch["model"].pk) == str(character_id)), None)
    if edited is None:
        return vary_on_htmx(render(request, "crewbuilder/crew_edit.html#editor", context))
    attribute = action == "attribute"
    response = render(
        request,
        "crewbuilder/_attribute_update.html" if attribute else "crewbuilder/_character_update.html",
        {
            **context,
            "ch": edited,
            "edited": edited["model"].pk,
            "open_character": str(edited["model"].pk),
            "findings_changed": editor_cache.findings_changed(context["crew"], context["view"], edited["model"].pk),
            # an open list in the card stays open unless the click changed it
            "choices_changed": attribute and editor_cache.changed(context["crew"], edited, "choices_key"),
            "weapons_changed": attribute and editor_cache.changed(context["crew"], edited, "weapons_key"),
        },
    )
    response["HX-Retarget"] = f"#{'attributes' if attribute else 'character'}-{edited['model'].pk}"
    response["HX-Reswap"] = "outerHTML"
    return vary_on_htmx(response)


def _conflict(request: HttpRequest, crew: Crew, form: forms_crews.EditForm) -> HttpResponse:
    context = {"crew": crew, "submitted": form.data.dict()}
    if request.htmx:
        response = render(request, "crewbuilder/_conflict.html", context, status=409)
        # into the slot, not over it (the editor's forms swap outerHTML): the slot stays for the next
        # conflict, and app.js scrolls a notice drawn off-screen (a phone's tap far below it) into view
        response["HX-Reswap"] = "innerHTML"
        return vary_on_htmx(retarget(response, "#conflict"))
    return vary_on_htmx(render(request, "crewbuilder/crew_conflict.html", context, status=409))


@login_required
@require_GET
@_redirect_other_games
def crew_picker(request: HttpRequest, pk: int, character_id: int, kind: str) -> HttpResponse:
    crew = _get_editor_crew(request, pk)
    editor_cache.load_characters(crew)
    picker = crew_service.picker(crew, character_id, kind, request.GET.get("q", "")[:100])
    if picker is None:
        raise Http404
    context = {"crew": crew, "picker": picker, "version": crew.version}
    template = "crewbuilder/crew_picker.html#picker" if request.htmx else "crewbuilder/crew_picker.html"
    return vary_on_htmx(render(request, template, context))


# --- read-only pages ---------------------------------------------------------


@login_required
@require_GET
@_redirect_other_games
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def crew_detail(request: HttpRequest, pk: int) -> HttpResponse:
    crew = _get_crew_for_user(request, pk, full=True)
    return render(
        request,
        "crewbuilder/crew_detail.html",
        {
            "crew": crew,
            "view": crew_service.crew_view(crew, glossary=True),
            "owner_view": True,
            "campaign_entry": permissions.campaign_entry_of(crew),
            **_pdf_links(crew),
        },
    )


@require_GET
@_redirect_other_games
def crew_shared(request: HttpRequest, token: str) -> HttpResponse:
    crew = _get_shared_crew(token)
    # Remember the link so the dice assistant can offer this crew's characters as targets.
    seen = [t for t in request.session.get("seen_shares", []) if t != token]
    request.session["seen_shares"] = ([token] + seen)[:20]
    response = render(
        request,
        "crewbuilder/crew_detail.html",
        {"crew": crew, "view": crew_service.crew_view(crew, glossary=True), "shared": True, **_pdf_links(crew, token)},
    )
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _pdf_links(crew: Crew, token: str | None = None) -> dict:
    """The roster PDF link, once the PDF views are installed."""
    try:
        url = reverse("crew-roster-shared", args=[token]) if token else reverse("crew-roster", args=[crew.pk])
    except NoReverseMatch:
        return {"roster_pdf_available": False}
    return {"roster_pdf_available": True, "roster_pdf_url": url}


# --- export, duplicate, delete, share -----------------------------------------


@login_required
@require_GET
@_redirect_other_games
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def crew_export(request: HttpRequest, pk: int) -> HttpResponse:
    crew = _get_crew_for_user(request, pk, full=True)
    permissions.check_user_can_copy_crew(request.user, crew)
    response = HttpResponse(crew_service.export_file(crew), content_type="application/json; charset=utf-8")
    filename = (slugify(crew.name) or "crew") + ".json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
@_redirect_other_games
def crew_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    crew = _get_crew_for_user(request, pk, full=True)
    permissions.check_user_can_copy_crew(request.user, crew)
    copy = crew_service.duplicate(crew, owner=request.user)
    messages.success(request, f"Duplicated as “{copy.name}”.")
    return redirect("crew-edit", pk=copy.pk)


@login_required
@require_http_methods(["GET", "POST"])
@_redirect_other_games
def crew_delete(request: HttpRequest, pk: int) -> HttpResponse:
    crew = _get_crew_for_user(request, pk)
    if not permissions.user_can_delete_crew(request.user, crew):
        entry = permissions.campaign_entry_of(crew)
        # The campaign's record of the crew (its history points at it): it stays while enrolled.
        status = 422 if request.method == "POST" else 200
        return render(request, "crewbuilder/crew_delete.html", {"crew": crew, "campaign_entry": entry}, status=status)
    if request.method == "POST":
        name = crew.name
        crew_service.delete(crew)
        messages.success(request, f"Deleted “{name}”.")
        return redirect("crew-list")
    return render(request, "crewbuilder/crew_delete.html", {"crew": crew})


@login_required
@require_POST
@_redirect_other_games
def crew_share(request: HttpRequest, pk: int) -> HttpResponse:
    crew = _get_crew_for_user(request, pk)
    permissions.check_user_can_share_crew(request.user, crew)
    form = forms_crews.ShareForm(request.POST)
    form.is_valid()  # one flag, always valid: a "revoke" sent (not empty, not "false") revokes
    with transaction.atomic():
        if form.cleaned_data["revoke"]:
            crew.share_token = None
            messages.success(request, "Share link revoked: the old link no longer works.")
        else:
            crew.share_token = secrets.token_urlsafe(24)
            messages.success(request, "Share link created. Anyone with the link can view (not edit) this crew.")
        crew.save(update_fields=["share_token"])
    return redirect("crew-detail", pk=pk)
