"""Issue 17: every Slasher Trial action endpoint answers anything a client can POST
without a 500 (a refusal is a 4xx with a message, a move a 2xx or 3xx).

Each example is one POST by one of the game's players (or a stranger), with an
action name from the game's own list (or not) and fields named as the services
read them, holding real ids, junk, huge numbers or NUL bytes. Examples run one
after another on the same game, so the fuzzer walks the game through its states.
"""

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz_posts import FUZZ, JUNK, check_no_500

pytestmark = pytest.mark.django_db


@pytest.fixture
def trial(catalogue, make_user):
    from games.slasher_trial import services

    monster = make_user("vox")
    trial = services.create_trial(monster, "Night at the yard")
    for name in ("mara", "zed"):
        services.join(trial, make_user(name))
    return trial


@FUZZ
@given(data=st.data())
def test_trial_actions(client, trial, data):
    from games.slasher_trial.models import Trial
    from games.slasher_trial.services import MONSTER_ACTIONS, SURVIVOR_ACTIONS

    trial = Trial.objects.get(pk=trial.pk)
    users = [p.user for p in trial.participants.all()] if hasattr(trial, "participants") else [trial.creator]
    client.force_login(data.draw(st.sampled_from(users)))
    actions = [*SURVIVOR_ACTIONS, *MONSTER_ACTIONS, "generators", "location", "ready", "start", "advance"]
    post = {
        "action": data.draw(st.one_of(st.sampled_from(actions), JUNK), label="action"),
        "target": data.draw(JUNK, label="target"),
    }
    if data.draw(st.booleans(), label="act button"):
        post = {"act": f"{post['action']}:{post['target']}"}
    check_no_500(
        client.post(
            reverse("trial-act", args=[trial.pk]),
            post,
            HTTP_HX_REQUEST=data.draw(st.sampled_from(["true", ""]), label="htmx"),
        ),
        post,
    )
