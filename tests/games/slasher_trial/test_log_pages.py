"""The board shows the latest log entries; the log page pages the rest (a redraw never sends the whole log)."""

import re

from django.urls import reverse

from games.slasher_trial.models import LogEntry
from games.slasher_trial.shared_board import LOG_SHOWN


def _entries(trial, count):
    last = trial.log.count()
    LogEntry.objects.bulk_create(
        LogEntry(trial=trial, number=last + i + 1, action="note", text=f"entry number {last + i + 1}")
        for i in range(count)
    )


def test_the_board_holds_the_latest_entries_and_links_the_rest(client, open_trial, monster):
    _entries(open_trial, 60)
    total = open_trial.log.count()
    client.force_login(monster)
    board = client.get(reverse("trial-detail", args=[open_trial.pk]), HTTP_HX_REQUEST="true").content.decode()
    shown = [int(n) for n in re.findall(r"entry number (\d+)", board)]
    assert shown == list(range(total, total - LOG_SHOWN, -1))
    assert reverse("trial-log", args=[open_trial.pk]) + "?page=2" in board

    page2 = client.get(reverse("trial-log", args=[open_trial.pk]) + "?page=2").content.decode()
    assert total > 50 and f"entry number {total - 50}" in page2 and f"entry number {total - 49}" not in page2
    first = client.get(reverse("trial-log", args=[open_trial.pk])).content.decode()
    assert f"entry number {total}" in first and f"of {total}" in first


def test_the_board_of_a_short_log_has_no_older_link(client, open_trial, monster):
    client.force_login(monster)
    board = client.get(reverse("trial-detail", args=[open_trial.pk])).content.decode()
    assert reverse("trial-log", args=[open_trial.pk]) not in board


def test_the_log_page_is_for_the_trial_s_people_only(client, open_trial, make_user):
    client.force_login(make_user("eve"))
    assert client.get(reverse("trial-log", args=[open_trial.pk])).status_code == 404
