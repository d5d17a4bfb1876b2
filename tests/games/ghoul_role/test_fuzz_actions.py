"""Issue 17: every Ghoul Role sheet action endpoint answers anything a client can POST
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

from tests.fuzz_posts import FUZZ, JUNK, check_no_500, fuzzed_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(catalogue, make_user):
    from games.ghoul_role import services

    goals = services.goals_for(services.catalogue(), "cave", "ghoul", "4-players", 4, None)
    return services.create_sheet(make_user("ghoul"), goals)


@FUZZ
@given(data=st.data())
def test_ghoul_role_actions(client, sheet, data):
    from games.ghoul_role.models import GhoulSheet
    from games.ghoul_role.services import ACTIONS

    client.force_login(sheet.owner)
    action = data.draw(st.sampled_from([*ACTIONS, "undo", "name"]), label="action")
    version = GhoulSheet.objects.get(pk=sheet.pk).version
    post = {
        "v": data.draw(st.one_of(st.just(str(version)), JUNK), label="v"),
        **fuzzed_fields(
            data, [], ("card", "label", "pair", "source", "target", "use", "what", "why", "name", "kind"), ("keep",)
        ),
    }
    if action == "undo":
        url = reverse("ghoulrole-undo", args=[sheet.pk])
    elif action == "name":
        url = reverse("ghoulrole-card-name", args=[sheet.pk, data.draw(st.integers(0, 2**31), label="card id")])
    else:
        url = reverse("ghoulrole-action", args=[sheet.pk, action])
    check_no_500(client.post(url, post, HTTP_HX_REQUEST=data.draw(st.sampled_from(["true", ""]), label="htmx")), post)
