"""Campaign pages. Each view loads, checks membership (non-members get 404),
calls one service in campaigns/services.py, and renders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import history_text, idempotency, services
from campaigns.notices import awaiting_confirmation
from campaigns.forms import CampaignForm, ScenarioForm, TableForm
from campaigns.models import Campaign, CampaignCrew, EnrolmentRequest, Game, HistoryEntry, Membership, Memorial
from crewbuilder import crew_edits
from crewbuilder.models import Crew, GameSystem


HISTORY_PER_PAGE = 50


def _get_campaign_for_user(request: HttpRequest, pk: int, *, allow_invited: bool = False) -> Campaign:
    campaign = get_object_or_404(Campaign.objects.select_related("system", "organiser"), pk=pk)
    if services.is_member(campaign, request.user):
        return campaign
    if allow_invited and campaign.memberships.filter(user=request.user, status=Membership.INVITED).exists():
        return campaign
    raise Http404


def _fail(request, exc, to):
    messages.error(request, str(exc))
    return redirect(to)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        system = GameSystem.objects.filter(slug="cybernekro").order_by("-edition").first()
        try:
            campaign = services.create_campaign(request.user, system=system, **form.cleaned_data,
                                                submission_key=idempotency.token_key(request.user.pk, request.POST))
        except idempotency.AlreadySubmitted:
            messages.info(request, "Already started: the form was sent twice, and one campaign was created.")
            return redirect("campaign-list")
        except services.CampaignError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Campaign created. Invite your players by username.")
            return redirect(campaign)
    campaigns = Campaign.objects.for_member(request.user).select_related("organiser")
    invitations = Membership.objects.filter(user=request.user, status=Membership.INVITED).select_related(
        "campaign__organiser")
    return render(request, "campaigns/campaign_list.html",
                  {"campaigns": campaigns, "invitations": invitations, "form": form,
                   "submission": idempotency.token_for_form(request.POST)},
                  status=422 if form.errors else 200)


def standings(campaign: Campaign) -> list[dict]:
    crews = (
        CampaignCrew.objects.filter(campaign=campaign)
        .select_related("crew", "player")
        .prefetch_related(
            # The memorial lists the dead; a reversed death is back on the roster.
            Prefetch("memorial", queryset=Memorial.objects.filter(returned_at=None).order_by("died_at", "pk")),
            "crew__characters",
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
    campaign = _get_campaign_for_user(request, pk, allow_invited=True)
    member = services.is_member(campaign, request.user)
    context = {
        "campaign": campaign,
        "member": member,
        "organiser": services.is_organiser(campaign, request.user),
        "invited": not member,
    }
    if member:
        organiser = context["organiser"]
        crews = standings(campaign)
        mine = next((c for c in crews if c.player_id == request.user.pk), None)
        # The organiser decides every pending request; a player sees their own latest one.
        requests = EnrolmentRequest.objects.filter(campaign=campaign).select_related("crew", "player", "decided_by")
        requests = list(requests.filter(status=EnrolmentRequest.PENDING) if organiser
                        else requests.filter(player=request.user).order_by("-created_at", "-pk")[:1])
        my_request = next((r for r in requests if r.player_id == request.user.pk), None)
        waiting = my_request is not None and my_request.status == EnrolmentRequest.PENDING
        context.update(
            standings=crews,
            my_entry=mine,
            my_crews=Crew.objects.filter(owner=request.user, system=campaign.system).exclude(campaign_entry__isnull=False)
            if mine is None and not waiting else [],
            enrolment_requests=[r for r in requests if r.status == EnrolmentRequest.PENDING] if organiser else [],
            my_request=my_request,
            games=list(campaign.games.select_related("winner__crew")[:10]),
            tables=list(campaign.tables.all()),
            table_form=TableForm(),
            scenarios=list(campaign.scenarios.all()),
            scenario_form=ScenarioForm(),
            memberships=list(campaign.memberships.select_related("user")),
            memorial=[m for c in crews for m in c.memorial.all()],
            awaiting=awaiting_confirmation(request.user, campaign),
        )
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
@require_POST
def campaign_invite(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    try:
        membership = services.invite(campaign, request.user, request.POST.get("username", ""))
    except services.CampaignError as exc:
        return _fail(request, exc, campaign)
    messages.success(request, f"Invited {membership.user.username}.")
    return redirect(campaign)


@login_required
@require_POST
def campaign_respond(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk, allow_invited=True)
    try:
        services.respond(campaign, request.user, accept=request.POST.get("accept") == "1")
    except services.CampaignError as exc:
        return _fail(request, exc, "campaign-list")
    return redirect(campaign) if request.POST.get("accept") == "1" else redirect("campaign-list")


@login_required
@require_POST
def campaign_enrol(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    crew = Crew.objects.filter(pk=request.POST.get("crew") or 0, owner=request.user).first()
    if crew is None:
        return _fail(request, "Choose one of your crews.", campaign)
    try:
        result = services.enrol(campaign, request.user, crew)
    except services.CampaignError as exc:
        return _fail(request, exc, campaign)
    if isinstance(result, EnrolmentRequest):
        messages.info(request, f"“{crew.name}” is legal only with house rules: it joins once the organiser "
                               "accepts them.")
    else:
        messages.success(request, f"“{crew.name}” is enrolled (as a campaign copy: your original stays as it is).")
    return redirect(campaign)


@login_required
@require_POST
def enrolment_decide(request: HttpRequest, pk: int, request_id: int) -> HttpResponse:
    """The organiser approves or refuses a crew that is legal only with house rules."""
    campaign = _get_campaign_for_user(request, pk)
    if not services.is_organiser(campaign, request.user):
        raise Http404
    enrolment = get_object_or_404(EnrolmentRequest.objects.select_related("crew", "player"), pk=request_id,
                                  campaign=campaign)
    try:
        if request.POST.get("decision") == "approve":
            services.approve_enrolment(enrolment, request.user)
            messages.success(request, f"“{enrolment.crew.name}” joins the campaign with its house rules.")
        elif request.POST.get("decision") == "refuse":
            services.refuse_enrolment(enrolment, request.user, request.POST.get("reason", ""))
            messages.success(request, f"“{enrolment.crew.name}” was refused.")
        else:
            raise services.CampaignError("Approve or refuse?")
    except (services.CampaignError, ValueError) as exc:
        return _fail(request, exc, campaign)
    return redirect(campaign)


@login_required
@require_POST
def scenario_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    form = ScenarioForm(request.POST)
    if not form.is_valid():
        return _fail(request, "; ".join(f"{k}: {v[0]}" for k, v in form.errors.items()), campaign)
    try:
        services.create_scenario(campaign, request.user, **form.cleaned_data)
    except (services.CampaignError, ValueError) as exc:
        return _fail(request, exc, campaign)
    messages.success(request, "Scenario saved.")
    return redirect(campaign)


@login_required
@require_POST
def table_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    form = TableForm(request.POST)
    if not form.is_valid():
        return _fail(request, "; ".join(f"{k}: {v[0]}" for k, v in form.errors.items()), campaign)
    try:
        services.create_table(campaign, request.user, kind=form.cleaned_data["kind"], name=form.cleaned_data["name"],
                              die=form.cleaned_data["die"], rows_text=form.cleaned_data["rows"])
    except services.CampaignError as exc:
        return _fail(request, exc, campaign)
    messages.success(request, "Table saved.")
    return redirect(campaign)


@login_required
@require_GET
def campaign_history(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
    entries = (
        HistoryEntry.objects.filter(campaign=campaign)
        .select_related("actor", "campaign_crew__crew", "undone_by")
    )
    # A page at a time, newest first: a long campaign's history stays a light page (issue 17, finding 8).
    page = Paginator(entries, HISTORY_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "campaigns/history.html", {
        "campaign": campaign, "page": page,
        "entries": history_text.describe(page.object_list, services.catalogue_for(campaign)),
        "organiser": services.is_organiser(campaign, request.user), "reversible": services.REVERSIBLE,
    })


@login_required
@require_POST
def crew_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The player renames their campaign crew or a character, or changes notes (logged in the history)."""
    campaign = _get_campaign_for_user(request, pk)
    entry = get_object_or_404(CampaignCrew.objects.select_related("campaign"), campaign=campaign, player=request.user)
    # The version the form was rendered with; a form without one is treated as stale.
    version = request.POST.get("version", "")
    try:
        if request.POST.get("character"):
            done = services.edit_character(entry, request.user, request.POST["character"],
                                           name=request.POST.get("name"), notes=request.POST.get("notes"),
                                           expected_version=version)
        else:
            done = services.edit_crew(entry, request.user, name=request.POST.get("name"),
                                      notes=request.POST.get("notes"), expected_version=version)
    except crew_edits.StaleCrew:
        return render(request, "campaigns/crew_conflict.html", {
            "campaign": campaign, "submitted": {"name": request.POST.get("name", ""),
                                                "notes": request.POST.get("notes", "")},
        }, status=409)
    except (services.CampaignError, ValueError) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Saved (see the history)." if done else "Nothing changed.")
    return redirect("campaign-shop", pk=campaign.pk)


@login_required
@require_POST
def history_reverse(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    campaign = _get_campaign_for_user(request, pk)
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
    from django.utils.text import slugify

    from crewbuilder import crew_service, pdf
    from crewbuilder.views.pdfs import paper_for, pdf_response

    campaign = _get_campaign_for_user(request, pk)
    crews = standings(campaign)
    rosters = []
    for entry in crews:
        crew = Crew.objects.with_everything().get(pk=entry.crew_id)
        report = crew_service.report_for(crew)
        rosters.append({"crew": crew, "report": report, "characters": [
            {**ch, "notes": model.notes} for model, ch in zip(crew.characters.all(), report["characters"])
        ]})
    context = {
        "campaign": campaign, "standings": crews, "rosters": rosters,
        "games": list(campaign.games.select_related("winner__crew")),
        "memorial": [m for c in crews for m in c.memorial.all()],
    }
    data = pdf.render_pdf("pdf/campaign_summary.html", context, paper_for(request))
    return pdf_response(data, f"{slugify(campaign.name) or 'campaign'}-summary.pdf")
