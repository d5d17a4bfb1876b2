"""Enrolling a crew (a campaign copy), and the organiser's decision on one legal only with house rules."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaigns.models import CampaignCrew, EnrolmentRequest
from campaigns.permissions import check_user_is_organiser, user_is_member, user_is_organiser
from campaigns.services.base import CampaignError, catalogue_for
from campaigns.services.base import log as _log
from campaigns.services.base import people_errors as _people_errors
from crewbuilder import crew_edits, crew_service
from crewbuilder.models import Crew
from crewbuilder.validation import crew_to_data, validate_crew
from crewbuilder.wording import count_noun


def _enrolment_report(campaign, crew: Crew) -> tuple[Crew, dict]:
    """The crew loaded whole, and its report judged by the campaign's starting budget.

    The crew's own budget is the builder's business: in the campaign the copy plays at the campaign's
    budget, so a crew built for 1,000 points is judged by (say) 150, and one built for 100 that costs 120
    is not over budget here.
    """
    full = Crew.objects.with_everything().get(pk=crew.pk)
    data = crew_to_data(full)
    data["budget"] = campaign.starting_budget
    return full, validate_crew(data, catalogue_for(campaign), full.accepted_findings)


def needs_approval(report: dict) -> bool:
    """A crew legal only with house rules (accepted findings, house-rule entries) waits for the organiser."""
    return bool(report.get("accepted") or report.get("house_rules"))


def _check_can_enrol(campaign, user, crew: Crew) -> None:
    if not user_is_member(user, campaign):
        raise CampaignError("Join the campaign before enrolling a crew.")
    if crew.owner_id != user.pk:
        raise CampaignError("You can only enrol your own crew.")
    if crew.system_id != campaign.system_id:
        raise CampaignError(f"This campaign plays {campaign.system}; that crew is for {crew.system}.")
    if CampaignCrew.objects.filter(campaign=campaign, player=user).exists():
        raise CampaignError("You already have a crew in this campaign.")
    if hasattr(crew, "campaign_entry"):
        raise CampaignError("That crew is itself a campaign copy; enrol your original crew.")


def _check_within_budget(campaign, crew: Crew, report: dict) -> None:
    # Checked before legality, and even when the crew accepted "over-budget" as a house rule: the
    # campaign's budget is the organiser's rule, not the player's to waive.
    if report["points"] > campaign.starting_budget:
        raise CampaignError(
            f"This campaign starts crews at {count_noun(campaign.starting_budget, 'point')}; "
            f"“{crew.name}” costs {count_noun(report['points'], 'point')}. Trim it (or ask the organiser) first."
        )


def _check_legal(report: dict) -> None:
    if not report["valid"] and not report.get("valid_with_house_rules"):
        problems = "; ".join(e["message"] for e in report["errors"][:3])
        raise CampaignError(f"Only a valid crew can be enrolled. Fix it first: {problems}")


@transaction.atomic
def enrol(campaign, user, crew: Crew) -> CampaignCrew | EnrolmentRequest:
    """Enrol a copy of the player's crew; the original stays untouched.

    A valid crew joins at once. A crew legal only with house rules (reading C6)
    joins only when the organiser approves: this returns the pending
    ``EnrolmentRequest`` instead. The organiser's own crew joins at once, its
    house rules being the organiser's to accept.
    """
    _check_can_enrol(campaign, user, crew)
    if EnrolmentRequest.objects.filter(campaign=campaign, player=user, status=EnrolmentRequest.PENDING).exists():
        raise CampaignError("Your crew is already waiting for the organiser's approval.")
    full, report = _enrolment_report(campaign, crew)
    _check_within_budget(campaign, full, report)
    _check_legal(report)
    if needs_approval(report) and not user_is_organiser(user, campaign):
        findings = [
            {
                "code": a["code"],
                "character": a.get("character"),
                "message": a.get("message", ""),
                "note": a.get("note", ""),
            }
            for a in report.get("accepted", [])
        ]
        request = EnrolmentRequest.objects.create(
            campaign=campaign,
            player=user,
            crew=crew,
            crew_version=crew.version,
            points=report["points"],
            findings=findings,
        )
        _log(
            campaign,
            user,
            "enrol-requested",
            f"{user.username} asked to enrol “{crew.name}”, legal with house rules: waiting for the organiser.",
            after={"crew": crew.name, "points": report["points"], "house_rules": findings},
        )
        return request
    return _enrol_copy(campaign, user, full, report, actor=user)


def _enrol_copy(campaign, player, full: Crew, report: dict, *, actor) -> CampaignCrew:
    copy = crew_service.duplicate(full, player)
    # The copy keeps the original's name, and plays at the campaign's budget (it was judged by it):
    # treasure spent later grows it from there.
    copy.name, copy.budget = full.name, campaign.starting_budget
    copy.save(update_fields=["name", "budget"])
    entry = CampaignCrew.objects.create(campaign=campaign, player=player, crew=copy, source_crew=full)
    after = {"points": report["points"], "characters": len(report["characters"])}
    if report.get("accepted"):
        after["house_rules"] = [f"{a['code']}: {a.get('note', '')}" for a in report["accepted"]]
    _log(
        campaign,
        actor,
        "enrolled",
        f"“{full.name}” of {player.username} enrolled ({report['points']} points).",
        crew=entry,
        after=after,
    )
    return entry


def _locked_request(request: EnrolmentRequest, actor) -> EnrolmentRequest:
    check_user_is_organiser(actor, request.campaign)
    request = EnrolmentRequest.objects.select_for_update().select_related("campaign", "player").get(pk=request.pk)
    if request.status != EnrolmentRequest.PENDING:
        raise CampaignError(f"That request was already {request.get_status_display().lower()}.")
    return request


@transaction.atomic
def approve_enrolment(request: EnrolmentRequest, actor) -> CampaignCrew:
    """The organiser accepts the crew's house rules: the campaign copy joins now."""
    request = _locked_request(request, actor)
    campaign, player = request.campaign, request.player
    crew = Crew.objects.select_for_update().get(pk=request.crew_id)
    if crew.version != request.crew_version:
        raise CampaignError(
            "The crew changed since it was submitted: refuse this request and let the player enrol it again."
        )
    _check_can_enrol(campaign, player, crew)
    # Judged again, not trusted from the request: the copy is made from the crew (and its prices) as they are now.
    full, report = _enrolment_report(campaign, crew)
    _check_within_budget(campaign, full, report)
    _check_legal(report)
    entry = _enrol_copy(campaign, player, full, report, actor=actor)
    request.status, request.decided_by, request.decided_at, request.entry = (
        EnrolmentRequest.APPROVED,
        actor,
        timezone.now(),
        entry,
    )
    request.save(update_fields=["status", "decided_by", "decided_at", "entry"])
    _log(
        campaign,
        actor,
        "enrol-approved",
        f"{actor.username} accepted the house rules of “{crew.name}” ({player.username}).",
        crew=entry,
        before={"request": EnrolmentRequest.PENDING},
        after={"request": EnrolmentRequest.APPROVED, "house_rules": request.findings},
    )
    return entry


@_people_errors
@transaction.atomic
def refuse_enrolment(request: EnrolmentRequest, actor, reason: str = "") -> EnrolmentRequest:
    request = _locked_request(request, actor)
    reason = crew_edits._clean_text(reason, "Reason", 300, required=False)
    request.status, request.decided_by, request.decided_at, request.reason = (
        EnrolmentRequest.REFUSED,
        actor,
        timezone.now(),
        reason,
    )
    request.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    _log(
        request.campaign,
        actor,
        "enrol-refused",
        f"{actor.username} refused “{request.crew.name}” ({request.player.username})"
        + (f": {reason}" if reason else "."),
        before={"request": EnrolmentRequest.PENDING},
        after={"request": EnrolmentRequest.REFUSED, "reason": reason},
    )
    return request
