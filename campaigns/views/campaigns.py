"""Campaign pages. Each view loads, checks membership (non-members get 404,
campaigns/permissions.py), reads a POST with a form (campaigns/forms.py),
calls one service in campaigns/services/, and renders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import history_text, idempotency, services
from campaigns.forms import (
    CampaignForm,
    CrewEditForm,
    EnrolForm,
    EnrolmentDecisionForm,
    InviteForm,
    RespondForm,
    ScenarioForm,
    TableForm,
)
from campaigns.models import Campaign, CampaignCrew, EnrolmentRequest, Game, HistoryEntry, Membership, Memorial
from campaigns.notices import awaiting_confirmation
from campaigns.permissions import (
    check_user_is_organiser_or_404,
    get_campaign_for_user,
    user_is_member,
    user_is_organiser,
)
from catalogue.loader import snapshot_for_system
from core.pdf import render_pdf
from core.pdf_views import paper_for, pdf_response
from crewbuilder import crew_edits, crew_service
from crewbuilder.crewfile import ATTRIBUTES
from crewbuilder.models import CharacterGear, CharacterTrait, Crew, GameSystem
from crewbuilder.validation import with_changes
from rules.cybernekro.character import effective_attributes

HISTORY_PER_PAGE = 50


def _fail(request, exc, to):
    messages.error(request, str(exc))
    return redirect(to)


def _form_problems(form) -> str:
    return "; ".join(message for errors in form.errors.values() for message in errors)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None, initial={"submission": idempotency.new_token()})
    if request.method == "POST" and form.is_valid():
        system = GameSystem.objects.filter(slug="cybernekro").order_by("-edition").first()
        fields = dict(form.cleaned_data)
        token = fields.pop("submission")
        try:
            campaign = services.create_campaign(
                request.user, system=system, **fields, submission_key=idempotency.token_key(request.user.pk, token)
            )
        except idempotency.AlreadySubmitted:
            messages.info(request, "Already started: the form was sent twice, and one campaign was created.")
            return redirect("campaign-list")
        except services.CampaignError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Campaign created. Invite your players by username.")
            return redirect(campaign)
    campaigns = Campaign.objects.for_member(request.user).select_related("organiser")
    invitations = Membership.objects.invitations_for(request.user)
    return render(
        request,
        "campaigns/campaign_list.html",
        {
            "campaigns": campaigns,
            "invitations": invitations,
            "form": form,
        },
        status=422 if form.errors else 200,
    )


def _sheet_attributes(crews: list, system) -> None:
    """Each roster character's attributes as its sheet shows them, as ``sheet_attributes``: campaign changes
    (injuries, reading C10) and traits (Big, Gifted, Deformed...) applied; one query for every crew's traits."""
    characters = [ch for c in crews for ch in c.crew.characters.all()]
    chosen: dict = {}
    for row in CharacterTrait.objects.filter(character__in=characters).select_related("trait").order_by("position"):
        chosen.setdefault(row.character_id, {}).setdefault(row.trait.slug, row.choices)  # a trait works once
    snapshot = snapshot_for_system(system)
    names = snapshot.rules.get("attributes") or list(ATTRIBUTES)
    for ch in characters:
        traits = [(snapshot.traits[s], c) for s, c in chosen.get(ch.pk, {}).items() if s in snapshot.traits]
        played = with_changes({name: getattr(ch, name) for name in names}, ch.attribute_changes)  # injuries (C10)
        ch.sheet_attributes = effective_attributes(played, traits, names)


def standings(campaign: Campaign) -> list[dict]:
    crews = (
        CampaignCrew.objects.filter(campaign=campaign)
        .select_related("crew", "player")
        .prefetch_related(
            # The memorial lists the dead; a reversed death is back on the roster.
            Prefetch("memorial", queryset=Memorial.objects.filter(returned_at=None).order_by("died_at", "pk")),
            "crew__characters",
            Prefetch("crew__characters__gear", queryset=CharacterGear.objects.select_related("item")),
        )
        .annotate(
            played=Count("games", filter=Q(games__game__status=Game.APPLIED), distinct=True),
            won=Count("wins", filter=Q(wins__status=Game.APPLIED), distinct=True),
            drawn=Count("games", filter=Q(games__game__status=Game.APPLIED, games__game__is_draw=True), distinct=True),
            lost_characters=Count("memorial", filter=Q(memorial__returned_at=None), distinct=True),
        )
        .order_by("-won", "-drawn", "crew__name")
    )
    return list(crews)


@login_required
@require_GET
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail(request, get_campaign_for_user(request.user, pk, allow_invited=True))


def _detail(request: HttpRequest, campaign: Campaign, refused: dict | None = None) -> HttpResponse:
    """The campaign page; ``refused`` holds an organiser's form sent back with its problems (open, as typed)."""
    refused = refused or {}
    member = user_is_member(request.user, campaign)
    context = {
        "campaign": campaign,
        "member": member,
        "organiser": user_is_organiser(request.user, campaign),
        "invited": not member,
    }
    if member:
        organiser = context["organiser"]
        crews = standings(campaign)
        _sheet_attributes(crews, campaign.system)
        mine = next((c for c in crews if c.player_id == request.user.pk), None)
        # The organiser decides every pending request; a player sees their own latest one.
        requests = EnrolmentRequest.objects.filter(campaign=campaign).select_related("crew", "player", "decided_by")
        requests = list(
            requests.pending() if organiser else requests.filter(player=request.user).order_by("-created_at", "-pk")[:1]
        )
        my_request = next((r for r in requests if r.player_id == request.user.pk), None)
        waiting = my_request is not None and my_request.status == EnrolmentRequest.PENDING
        context.update(
            standings=crews,
            my_entry=mine,
            my_crews=Crew.objects.filter(owner=request.user, system=campaign.system).exclude(
                campaign_entry__isnull=False
            )
            if mine is None and not waiting
            else [],
            enrolment_requests=[r for r in requests if r.status == EnrolmentRequest.PENDING] if organiser else [],
            my_request=my_request,
            games=list(campaign.games.select_related("winner__crew")[:10]),
            tables=list(campaign.tables.all()),
            table_form=refused.get("table_form", TableForm()),
            scenarios=list(campaign.scenarios.all()),
            scenario_form=refused.get("scenario_form", ScenarioForm()),
            memberships=list(campaign.memberships.select_related("user")),
            memorial=[m for c in crews for m in c.memorial.all()],
            awaiting=awaiting_confirmation(request.user, campaign),
        )
    return render(request, "campaigns/campaign_detail.html", context, status=422 if refused else 200)


def _refused(request: HttpRequest, campaign: Campaign, name: str, form, problem=None) -> HttpResponse:
    """The page again with ``form`` open as typed: a long table or scenario is not lost to one mistake."""
    if not user_is_organiser(request.user, campaign):  # no form on their page to keep the text in
        return _fail(request, problem if problem is not None else _form_problems(form), campaign)
    if problem is not None:
        form.add_error(None, str(problem))
    messages.error(request, f"Not saved: {_form_problems(form)} Your text is kept below.")
    return _detail(request, campaign, {name: form})


@login_required
@require_POST
def campaign_invite(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _fail(request, _form_problems(form), campaign)
    try:
        membership = services.invite(campaign, request.user, form.cleaned_data["username"])
    except services.CampaignError as exc:
        return _fail(request, exc, campaign)
    messages.success(request, f"Invited {membership.user.username}.")
    return redirect(campaign)


@login_required
@require_POST
def campaign_respond(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk, allow_invited=True)
    form = RespondForm(request.POST)
    if not form.is_valid():
        return _fail(request, "Accept or decline?", "campaign-list")
    accept = form.cleaned_data["accept"]
    try:
        services.respond(campaign, request.user, accept=accept)
    except services.CampaignError as exc:
        return _fail(request, exc, "campaign-list")
    return redirect(campaign) if accept else redirect("campaign-list")


@login_required
@require_POST
def campaign_enrol(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    form = EnrolForm(request.POST, owner=request.user)
    if not form.is_valid():
        return _fail(request, _form_problems(form), campaign)
    crew = form.cleaned_data["crew"]
    try:
        result = services.enrol(campaign, request.user, crew)
    except services.CampaignError as exc:
        return _fail(request, exc, campaign)
    if isinstance(result, EnrolmentRequest):
        messages.info(
            request, f"“{crew.name}” is legal only with house rules: it joins once the organiser accepts them."
        )
    else:
        messages.success(request, f"“{crew.name}” is enrolled (as a campaign copy: your original stays as it is).")
    return redirect(campaign)


@login_required
@require_POST
def enrolment_decide(request: HttpRequest, pk: int, request_id: int) -> HttpResponse:
    """The organiser approves or refuses a crew that is legal only with house rules."""
    campaign = get_campaign_for_user(request.user, pk)
    check_user_is_organiser_or_404(request.user, campaign)
    enrolment = get_object_or_404(
        EnrolmentRequest.objects.select_related("crew", "player"), pk=request_id, campaign=campaign
    )
    form = EnrolmentDecisionForm(request.POST)
    if not form.is_valid():
        return _fail(request, _form_problems(form), campaign)
    try:
        if form.cleaned_data["decision"] == "approve":
            services.approve_enrolment(enrolment, request.user)
            messages.success(request, f"“{enrolment.crew.name}” joins the campaign with its house rules.")
        else:
            services.refuse_enrolment(enrolment, request.user, form.cleaned_data["reason"])
            messages.success(request, f"“{enrolment.crew.name}” was refused.")
    except (services.CampaignError, ValueError) as exc:
        return _fail(request, exc, campaign)
    return redirect(campaign)


@login_required
@require_POST
def scenario_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    form = ScenarioForm(request.POST)
    if not form.is_valid():
        return _refused(request, campaign, "scenario_form", form)
    try:
        services.create_scenario(campaign, request.user, **form.cleaned_data)
    except (services.CampaignError, ValueError) as exc:
        return _refused(request, campaign, "scenario_form", form, exc)
    messages.success(request, "Scenario saved.")
    return redirect(campaign)


@login_required
@require_POST
def table_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    form = TableForm(request.POST)
    if not form.is_valid():
        return _refused(request, campaign, "table_form", form)
    try:
        services.create_table(
            campaign,
            request.user,
            kind=form.cleaned_data["kind"],
            name=form.cleaned_data["name"],
            die=form.cleaned_data["die"],
            rows_text=form.cleaned_data["rows"],
        )
    except services.CampaignError as exc:
        return _refused(request, campaign, "table_form", form, exc)
    messages.success(request, "Table saved.")
    return redirect(campaign)


@login_required
@require_GET
def campaign_history(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    entries = HistoryEntry.objects.filter(campaign=campaign).select_related("actor", "campaign_crew__crew", "undone_by")
    # A page at a time, newest first: a long campaign's history stays a light page (issue 17, finding 8).
    page = Paginator(entries, HISTORY_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "campaigns/history.html",
        {
            "campaign": campaign,
            "page": page,
            "entries": history_text.describe(page.object_list, services.catalogue_for(campaign)),
            "organiser": user_is_organiser(request.user, campaign),
            "reversible": services.REVERSIBLE,
        },
    )


@login_required
@require_POST
def crew_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The player renames their campaign crew or a character, or changes notes (logged in the history)."""
    campaign = get_campaign_for_user(request.user, pk)
    entry = get_object_or_404(CampaignCrew.objects.select_related("campaign"), campaign=campaign, player=request.user)
    form = CrewEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_problems(form))
        return redirect("campaign-shop", pk=campaign.pk)
    # The version the form was rendered with; a form without one is treated as stale.
    sent = form.cleaned_data
    try:
        if sent["character"]:
            done = services.edit_character(
                entry,
                request.user,
                sent["character"],
                name=sent["name"],
                notes=sent["notes"],
                expected_version=sent["version"],
            )
        else:
            done = services.edit_crew(
                entry, request.user, name=sent["name"], notes=sent["notes"], expected_version=sent["version"]
            )
    except crew_edits.StaleCrew:
        return render(
            request,
            "campaigns/crew_conflict.html",
            {
                "campaign": campaign,
                "submitted": {"name": sent["name"] or "", "notes": sent["notes"] or ""},
            },
            status=409,
        )
    except (services.CampaignError, ValueError) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Saved (see the history)." if done else "Nothing changed.")
    return redirect("campaign-shop", pk=campaign.pk)


@login_required
@require_POST
def history_reverse(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    entry = get_object_or_404(HistoryEntry, pk=entry_id, campaign=campaign)
    try:
        services.reverse_entry(entry, request.user)
    except services.CampaignError as exc:
        return _fail_history(request, exc, campaign)
    messages.success(request, "Entry reversed.")
    return redirect("campaign-history", pk=campaign.pk)


def _fail_history(request, exc, campaign):
    messages.error(request, str(exc))
    return redirect("campaign-history", pk=campaign.pk)


@login_required
@require_GET
def summary_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request.user, pk)
    crews = standings(campaign)
    rosters = []
    for entry in crews:
        crew = Crew.objects.with_everything().get(pk=entry.crew_id)
        report = crew_service.report_for(crew)
        rosters.append(
            {
                "crew": crew,
                "report": report,
                "characters": [
                    {**ch, "notes": model.notes, "gear": model.gear_text()}
                    for model, ch in zip(crew.characters.all(), report["characters"])
                ],
            }
        )
    context = {
        "campaign": campaign,
        "standings": crews,
        "rosters": rosters,
        "games": list(campaign.games.select_related("winner__crew")),
        "memorial": [m for c in crews for m in c.memorial.all()],
    }
    data = render_pdf("pdf/campaign_summary.html", context, paper_for(request))
    return pdf_response(data, f"{slugify(campaign.name) or 'campaign'}-summary.pdf")
