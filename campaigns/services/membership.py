"""Starting a campaign, inviting players, answering an invitation."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns import idempotency
from campaigns.models import CAMPAIGN_TEXT_MAX, Campaign, Membership
from campaigns.permissions import check_user_is_organiser
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from campaigns.services.base import people_errors as _people_errors
from crewbuilder import crew_edits


@_people_errors
@transaction.atomic
def create_campaign(
    organiser,
    *,
    name,
    system,
    description="",
    house_rules="",
    starting_budget=150,
    treasure_value=None,
    submission_key="",
):
    idempotency.claim(organiser, submission_key)  # a double click starts one campaign
    name = crew_edits._clean_text(name, "Campaign name", 100, required=True)
    description = crew_edits._clean_text(description, "Description", CAMPAIGN_TEXT_MAX, required=False)
    house_rules = crew_edits._clean_text(house_rules, "House rules", CAMPAIGN_TEXT_MAX, required=False)
    campaign = Campaign.objects.create(
        name=name,
        system=system,
        organiser=organiser,
        description=description,
        house_rules=house_rules,
        starting_budget=starting_budget,
        treasure_value=treasure_value,
    )
    _log(campaign, organiser, "campaign-created", f"{organiser.username} started the campaign “{name}”.")
    return campaign


@transaction.atomic
def invite(campaign, actor, username: str) -> Membership:
    check_user_is_organiser(actor, campaign)
    user = get_user_model().objects.named(username)
    if user is None:
        raise CampaignError(f"No player is called “{username}”.")
    if user.pk == campaign.organiser_id:
        raise CampaignError("The organiser is already in the campaign.")
    membership, created = Membership.objects.get_or_create(campaign=campaign, user=user)
    if not created and membership.status != Membership.DECLINED:
        raise CampaignError(f"{user.username} is already {membership.get_status_display().lower()}.")
    membership.status = Membership.INVITED
    membership.responded_at = None
    membership.save()
    _log(campaign, actor, "invited", f"{actor.username} invited {user.username}.")
    return membership


@transaction.atomic
def respond(campaign, user, accept: bool) -> Membership:
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if membership is None or membership.status != Membership.INVITED:
        raise CampaignError("There is no open invitation for you.")
    membership.status = Membership.ACCEPTED if accept else Membership.DECLINED
    membership.responded_at = timezone.now()
    membership.save()
    _log(
        campaign,
        user,
        "joined" if accept else "declined",
        f"{user.username} {'joined' if accept else 'declined the invitation'}.",
    )
    return membership
