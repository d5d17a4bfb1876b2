"""Who may see and change a battle: each rule a yes/no question and a raising check, in one place.

A battle is seen by its players and its game master; anyone else gets 404, as if it did not exist.
A campaign battle is set up, and joined as game master, by the campaign's members.
"""

from __future__ import annotations

from django.http import Http404

from campaigns.models import Campaign
from campaigns.permissions import user_is_member
from core.games.kit import share_token_ok

from .models import Battle


def user_can_see_battle(user, battle: Battle) -> bool:
    return Battle.objects.for_user(user).filter(pk=battle.pk).exists()


def check_user_can_see_battle(user, battle: Battle) -> None:
    if not user_can_see_battle(user, battle):
        raise Http404("No such battle.")


def get_battle_for_user(user, pk: int) -> Battle:
    """A battle the user plays in or is the game master of (404 for anyone else)."""
    battle = Battle.objects.for_user(user).filter(pk=pk).first()
    if battle is None:
        raise Http404("No such battle.")
    return battle


def user_can_play_campaign_battles(user, campaign: Campaign) -> bool:
    return user_is_member(user, campaign)


def check_user_can_play_campaign_battles(user, campaign: Campaign) -> None:
    if not user_can_play_campaign_battles(user, campaign):
        raise Http404("No such campaign.")


def get_campaign_battle_for_member(user, pk: int) -> Battle:
    """A campaign battle whose campaign the user belongs to (joining it as game master); 404 otherwise."""
    battle = Battle.objects.filter(pk=pk, campaign__isnull=False).select_related("campaign").first()
    if battle is None or not user_can_play_campaign_battles(user, battle.campaign):
        raise Http404("No such battle.")
    return battle


def get_shared_battle(token: str) -> Battle:
    """A standalone battle by its read-only link; a token no link can have is refused without a query."""
    battle = Battle.objects.shared_by_token(token).first() if share_token_ok(token) else None
    if battle is None:
        raise Http404("No such battle.")
    return battle
