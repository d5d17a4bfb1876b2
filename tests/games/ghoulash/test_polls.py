"""The table's poll through the game kit: unchanged, a 204 with no query; another user's token never a 204;
the table shows the latest log entries and the log page the rest."""

import html
import re

from django.urls import reverse

from core.games import kit
from games.ghoulash.models import Event
from tests.clients import logged_in

from .conftest import act_url, page_url

HTMX = {"HTTP_HX_REQUEST": "true"}


def poll_url(page: str) -> str:
    return html.unescape(re.search(r'id="table"[^>]*hx-get="([^"]+)"', page).group(1))


def test_an_unchanged_poll_costs_no_query_and_a_move_is_seen(
    lake_vs_gray, del_brian, django_assert_num_queries, django_capture_on_commit_callbacks
):
    game = lake_vs_gray
    b = logged_in(del_brian[1])
    url = poll_url(b.get(page_url(game)).content.decode())
    assert url.startswith(page_url(game) + f"?v={game.version}&t=")
    assert b.get(url, **HTMX).status_code == 204
    with django_assert_num_queries(0):
        assert b.get(url, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        logged_in(del_brian[0]).post(act_url(game), {"action": "replenish"}, **HTMX)
    r = b.get(url, **HTMX)
    assert r.status_code == 200 and 'id="table"' in r.content.decode()
    with django_assert_num_queries(0):
        assert b.get(poll_url(r.content.decode()), **HTMX).status_code == 204


def test_another_users_token_is_not_a_204(lake_vs_gray, del_brian, make_user):
    game = lake_vs_gray
    url = poll_url(logged_in(del_brian[1]).get(page_url(game)).content.decode())
    assert logged_in(make_user("zed")).get(url, **HTMX).status_code == 404


def test_the_table_shows_the_latest_entries_and_the_log_page_the_rest(lake_vs_gray, del_brian):
    game = lake_vs_gray
    first = kit.next_event_number(Event.objects.filter(game=game))
    Event.objects.bulk_create(
        [
            Event(game=game, number=n, turn=1, actor=del_brian[0], kind="note", text=f"entry number {n}.")
            for n in range(first, first + kit.BOARD_EVENTS + 3)
        ]
    )
    b = logged_in(del_brian[1])
    table = b.get(page_url(game) + "?v=0", **HTMX).content.decode()
    shown = [int(n) for n in re.findall(r"entry number (\d+)\.", table)]
    assert len(shown) == kit.BOARD_EVENTS and shown[0] == first + kit.BOARD_EVENTS + 2
    log = reverse("ghoulash-game-log", args=[game.pk])
    assert f'href="{log}?page=2"' in table
    everything = b.get(log).content.decode()
    assert len(re.findall(r"entry number (\d+)\.", everything)) == kit.BOARD_EVENTS + 3
