"""Who may see and change a Ghoul role sheet, in one place.

A sheet is its owner's alone: only the owner sees it and acts on it; anyone else
gets 404 from the views (another player's sheet is not even said to exist) and
the refusal "No such sheet." from the services. A shared sheet is read by anyone
holding its read-only link (``shared_sheet``), never changed. The rule is a
yes/no question (``user_owns_sheet``) and its raising twin
(``check_user_owns_sheet``).
"""

from __future__ import annotations

from django.http import Http404

from core.games import kit
from games.ghoul_role.errors import SheetError
from games.ghoul_role.models import GhoulSheet


def user_owns_sheet(user, sheet: GhoulSheet) -> bool:
    return user.is_authenticated and sheet.owner_id == user.pk


def check_user_owns_sheet(user, sheet: GhoulSheet) -> None:
    """For services: the same words as for a sheet that does not exist."""
    if not user_owns_sheet(user, sheet):
        raise SheetError("No such sheet.")


def get_sheet_for_user(user, pk: int) -> GhoulSheet:
    """The sheet if it is the user's; anyone else gets 404 (one query)."""
    sheet = GhoulSheet.objects.owned_by(user).filter(pk=pk).first()
    if sheet is None:
        raise Http404("No such sheet.")
    return sheet


def shared_sheet(token: str) -> GhoulSheet:
    """The sheet behind a read-only link; 404 for a malformed or withdrawn link."""
    sheet = GhoulSheet.objects.select_related("owner").shared(token).first() if kit.share_token_ok(token) else None
    if sheet is None:
        raise Http404("No such sheet.")
    return sheet
