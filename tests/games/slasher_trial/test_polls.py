"""The board's poll through the game kit: unchanged, a 204 with no query; another user's token never a 204."""

import html
import re

import pytest

from games.slasher_trial import services
from tests.games.slasher_trial.test_views import HX, url

pytestmark = pytest.mark.django_db


def poll_url(page: str) -> str:
    return html.unescape(re.search(r'id="board"[^>]*hx-get="([^"]+)"', page).group(1))


def test_an_unchanged_poll_costs_no_query_and_a_move_is_seen(
    client, started, survivors, django_assert_num_queries, django_capture_on_commit_callbacks
):
    client.force_login(survivors[0])
    poll = poll_url(client.get(url(started)).content.decode())
    assert client.get(poll, **HX).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(poll, **HX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.act(started, survivors[1], "ready")
    changed = client.get(poll, **HX)
    assert changed.status_code == 200 and "is Ready." in changed.content.decode()
    with django_assert_num_queries(0):
        assert client.get(poll_url(changed.content.decode()), **HX).status_code == 204


def test_another_users_token_is_not_a_204(client, started, survivors, make_user):
    client.force_login(survivors[0])
    poll = poll_url(client.get(url(started)).content.decode())
    client.force_login(make_user("nobody"))
    assert client.get(poll, **HX).status_code == 404
