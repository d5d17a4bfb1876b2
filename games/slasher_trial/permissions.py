"""Who may see and change what in a Slasher trial, in one place.

Each rule comes as a yes/no question (``user_takes_part``) and a raising check (``check_user_takes_part``).
Seeing a trial: only its participants (the Monster and the Survivors); anyone else gets 404, so another
group's trial is not even said to exist (the join link is the way in). Acting: each participant acts only
for themselves, and the checks raise ``TrialError`` with a message for the player.
"""

from __future__ import annotations

from django.http import Http404

from games.slasher_trial.errors import TrialError
from games.slasher_trial.models import Participant, Trial


def user_takes_part(user, trial: Trial) -> bool:
    return user.is_authenticated and trial.participants.filter(user=user).exists()


def check_user_takes_part(user, trial: Trial) -> None:
    if not user_takes_part(user, trial):
        raise Http404("No such trial.")


def get_trial_for_user(user, pk: int) -> Trial:
    """The trial if the user takes part in it (the Monster or a Survivor); else 404 (one query)."""
    trial = Trial.objects.for_participant(user).filter(pk=pk).select_related("monster").first()
    if trial is None:
        raise Http404("No such trial.")
    return trial


def participant_of(user, participants: list[Participant]) -> Participant | None:
    return next((p for p in participants if p.user_id == user.pk), None)


def check_user_is_participant(user, participants: list[Participant]) -> Participant:
    """The user's participation; a user without one is refused."""
    me = participant_of(user, participants)
    if me is None:
        raise TrialError("Only the trial's participants act in it.")
    return me


def check_is_monster(me: Participant) -> None:
    if not me.is_monster:
        raise TrialError("Only the Monster places the Generators.")
