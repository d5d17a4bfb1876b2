"""Who may see and change what in the crew builder, in one place.

Each rule comes as a yes/no question (``user_can_edit_crew``) and a raising
check (``check_user_can_edit_crew``). A crew is its owner's: anyone else gets
404 (``Http404``), so another player's private crew is not even said to exist.
A crew enrolled in a campaign is still its owner's to see, share, copy and
print, but it changes only through the campaign (so every change is in the
campaign's history): editing or deleting it raises ``CampaignCopy``, whose
message says where to go.

A share link shows a crew and its roster to anyone holding the link
(``get_shared_crew``); the dice assistant offers the characters of the user's
own crews and of the crews whose share link they opened
(``dice_assistant_crews``). A stored roll (``/dice/r/<token>/``) holds only
the typed numbers and the seed of a roll, no user and no crew: anyone with its
link sees it, by design.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from crewbuilder.crew_edits import CampaignCopy
from crewbuilder.models import Crew


def campaign_entry_of(crew: Crew):
    """The crew's enrolment when it is a campaign copy, else None."""
    try:
        return crew.campaign_entry
    except ObjectDoesNotExist:
        return None


# --- seeing (the crew page, its export and its characters in the editor's pickers) -------------------------


def user_can_see_crew(user, crew: Crew) -> bool:
    return user.is_authenticated and crew.owner_id == user.pk


def check_user_can_see_crew(user, crew: Crew) -> None:
    """404, not 403: another player's crew is not even said to exist."""
    if not user_can_see_crew(user, crew):
        raise Http404


def get_crew_for_user(user, pk: int, queryset=None) -> Crew:
    """The user's crew ``pk`` (from ``queryset``, for what to load with it), or 404."""
    crew = get_object_or_404(Crew.objects.all() if queryset is None else queryset, pk=pk)
    check_user_can_see_crew(user, crew)
    return crew


def get_shared_crew(token: str | None, queryset=None) -> Crew:
    """The crew a share link names, for anyone holding the link; 404 once the link is revoked."""
    return get_object_or_404((Crew.objects.all() if queryset is None else queryset).shared_by_token(token))


# --- changing ------------------------------------------------------------------------------------


def user_can_edit_crew(user, crew: Crew) -> bool:
    """The owner, unless the crew is a campaign copy."""
    return user_can_see_crew(user, crew) and campaign_entry_of(crew) is None


def check_user_can_edit_crew(user, crew: Crew) -> None:
    """404 for anyone but the owner; ``CampaignCopy`` for a campaign's copy."""
    check_user_can_see_crew(user, crew)
    if campaign_entry_of(crew) is not None:
        raise CampaignCopy()


def user_can_delete_crew(user, crew: Crew) -> bool:
    """As editing: the campaign's history points at its copy, which stays while enrolled."""
    return user_can_edit_crew(user, crew)


def check_user_can_delete_crew(user, crew: Crew) -> None:
    check_user_can_edit_crew(user, crew)


def user_can_share_crew(user, crew: Crew) -> bool:
    """The owner makes and revokes the share link (a campaign copy too: the link only shows it)."""
    return user_can_see_crew(user, crew)


def check_user_can_share_crew(user, crew: Crew) -> None:
    if not user_can_share_crew(user, crew):
        raise Http404


def user_can_copy_crew(user, crew: Crew) -> bool:
    """Duplicating and exporting a crew file: the owner's (a share link shows, it does not give)."""
    return user_can_see_crew(user, crew)


def check_user_can_copy_crew(user, crew: Crew) -> None:
    if not user_can_copy_crew(user, crew):
        raise Http404


def user_can_print_crew(user, crew: Crew) -> bool:
    """The owner prints the roster from the crew page; others through the share link (``get_shared_crew``)."""
    return user_can_see_crew(user, crew)


def check_user_can_print_crew(user, crew: Crew) -> None:
    if not user_can_print_crew(user, crew):
        raise Http404


# --- the dice assistant --------------------------------------------------------------------------


def dice_assistant_crews(user, share_tokens=()) -> Q:
    """Which crews' characters the dice assistant may offer (a filter on Character): the user's own and those
    whose share link the user opened in this session."""
    shared = Q(crew__share_token__in=[t for t in share_tokens if t])
    if not user.is_authenticated:
        return shared
    return Q(crew__owner=user) | shared
