"""The trial's permissions: each yes/no question and its raising check agree; outsiders get 404."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from games.slasher_trial import permissions
from games.slasher_trial.errors import TrialError


def test_participants_see_the_trial_and_outsiders_get_404(open_trial, monster, survivors):
    stranger = survivors[2]  # not joined
    for user in (monster, *survivors[:2]):
        assert permissions.user_takes_part(user, open_trial)
        permissions.check_user_takes_part(user, open_trial)
        assert permissions.get_trial_for_user(user, open_trial.pk) == open_trial
    for user in (stranger, AnonymousUser()):
        assert not permissions.user_takes_part(user, open_trial)
        with pytest.raises(Http404):
            permissions.check_user_takes_part(user, open_trial)
        with pytest.raises(Http404):
            permissions.get_trial_for_user(user, open_trial.pk)


def test_only_participants_act_and_only_the_monster_places_the_generators(open_trial, monster, survivors, make_user):
    participants = list(open_trial.participants.all())
    me = permissions.check_user_is_participant(monster, participants)
    permissions.check_is_monster(me)
    with pytest.raises(TrialError, match="Only the Monster places the Generators."):
        permissions.check_is_monster(permissions.check_user_is_participant(survivors[0], participants))
    assert permissions.participant_of(make_user("stranger"), participants) is None
    with pytest.raises(TrialError, match="Only the trial's participants act in it."):
        permissions.check_user_is_participant(make_user("other"), participants)
