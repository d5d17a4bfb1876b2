"""Who may see and change what in a campaign, in one place.

Each rule comes as a yes/no question (``user_is_member``) and a raising check
(``check_user_is_member``). Services call the checks, which raise
``CampaignError`` with a message for people; views load through
``get_campaign_for_user``, which answers 404 to anyone outside the campaign,
so a private campaign's existence is not revealed.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.errors import CampaignError
from campaigns.models import Campaign, CampaignCrew, Game, Membership


def user_is_organiser(user, campaign: Campaign) -> bool:
    return campaign.organiser_id == user.pk


def check_user_is_organiser(user, campaign: Campaign) -> None:
    if not user_is_organiser(user, campaign):
        raise CampaignError("Only the organiser can do that.")


def user_is_member(user, campaign: Campaign) -> bool:
    """The organiser, or a player who accepted the invitation."""
    return (
        user_is_organiser(user, campaign) or Membership.objects.accepted().filter(campaign=campaign, user=user).exists()
    )


def check_user_is_member(user, campaign: Campaign, message: str = "Only members can do that.") -> None:
    if not user_is_member(user, campaign):
        raise CampaignError(message)


def user_is_invited(user, campaign: Campaign) -> bool:
    return Membership.objects.invited().filter(campaign=campaign, user=user).exists()


def user_can_see_campaign(user, campaign: Campaign, *, allow_invited: bool = False) -> bool:
    """Members see the campaign; with ``allow_invited``, so does a player invited to it (the invitation page)."""
    return user_is_member(user, campaign) or (allow_invited and user_is_invited(user, campaign))


def check_user_can_see_campaign(user, campaign: Campaign, *, allow_invited: bool = False) -> None:
    """404, not 403: another group's campaign is not even said to exist."""
    if not user_can_see_campaign(user, campaign, allow_invited=allow_invited):
        raise Http404


def get_campaign_for_user(user, pk: int, *, allow_invited: bool = False) -> Campaign:
    campaign = get_object_or_404(Campaign.objects.select_related("system", "organiser"), pk=pk)
    check_user_can_see_campaign(user, campaign, allow_invited=allow_invited)
    return campaign


def check_user_is_organiser_or_404(user, campaign: Campaign) -> None:
    """For organiser-only pages: everyone else gets 404, as for a page that is not there."""
    if not user_is_organiser(user, campaign):
        raise Http404


def user_can_edit_crew(user, entry: CampaignCrew) -> bool:
    """Only the crew's player edits it or spends its treasury."""
    return entry.player_id == user.pk


def check_user_can_edit_crew(user, entry: CampaignCrew, message: str = "Only the crew's player can edit it.") -> None:
    if not user_can_edit_crew(user, entry):
        raise CampaignError(message)


def user_can_withdraw_game(user, game: Game) -> bool:
    """Whoever recorded the game, or the organiser (the game's status is the service's to check)."""
    return game.recorded_by_id == user.pk or user_is_organiser(user, game.campaign)


def check_user_can_withdraw_game(user, game: Game) -> None:
    if not user_can_withdraw_game(user, game):
        raise CampaignError("Only whoever recorded the game, or the organiser, can withdraw it.")
