"""The trial pages: who sees what, acting through the page (with and without htmx), the grid, the budget."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.slasher_trial import services
from games.slasher_trial.models import Trial
from tests.games.slasher_trial.conftest import place, row, setp

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(trial, name="trial-detail"):
    return reverse(name, args=[trial.pk])


def test_trial_list_is_the_games_menu_entry(client, monster):
    assert reverse("trial-list") == "/games/trials/"
    client.force_login(monster)
    assert "/games/trials/" in client.get(reverse("games-home")).content.decode()


def test_open_a_trial(client, catalogue, monster):
    client.force_login(monster)
    response = client.post(reverse("trial-list"), {"name": "Night at the yard", "adjacency": "orthogonal"})
    trial = Trial.objects.get()
    assert response.status_code == 302 and response["Location"] == url(trial)
    assert trial.monster == monster and not trial.diagonals
    assert row(trial, monster).role == "monster"
    page = client.get(reverse("trial-list")).content.decode()
    assert "Night at the yard" in page
    bad = client.post(reverse("trial-list"), {"name": "", "adjacency": "diagonals"})
    assert bad.status_code == 422 and Trial.objects.count() == 1


def test_the_list_shows_only_my_trials(client, open_trial, make_user):
    client.force_login(make_user("eve"))
    assert "Night at the yard" not in client.get(reverse("trial-list")).content.decode()


def test_join_by_link(client, open_trial, survivors, monster):
    ivy = survivors[2]
    client.force_login(ivy)
    join = reverse("trial-join", args=[open_trial.join_token])
    page = client.get(join)
    assert page.status_code == 200 and "Join as a Survivor" in page.content.decode()
    response = client.post(join)
    assert response.status_code == 302 and row(open_trial, ivy).role == "survivor"
    assert client.get(join)["Location"] == url(open_trial)  # already in: to the trial
    assert client.get(reverse("trial-join", args=["not-a-token"])).status_code == 404


def test_join_after_the_start_is_refused(client, open_trial, survivors, monster):
    place(open_trial, monster)
    client.force_login(survivors[2])
    response = client.post(reverse("trial-join", args=[open_trial.join_token]))
    assert response.status_code == 409 and "takes no more Survivors" in response.content.decode()
    assert not open_trial.participants.filter(user=survivors[2]).exists()


def test_the_trial_page_is_for_participants_only(client, started, survivors, make_user):
    assert client.get(url(started)).status_code == 302  # log in first
    client.force_login(make_user("eve"))
    assert client.get(url(started)).status_code == 404
    assert client.post(url(started, "trial-act"), {"act": "location:H8"}).status_code == 404
    assert client.get(url(started), **HX).status_code == 404
    client.force_login(survivors[0])
    assert client.get(url(started)).status_code == 200


def test_the_page_shows_the_state_the_grid_and_the_readings(client, started, survivors):
    client.force_login(survivors[0])
    page = client.get(url(started)).content.decode()
    assert page.count("data-square=") == 400
    assert 'data-square="A1"' in page and 'data-square="T20"' in page
    assert re.search(r'class="sq sq-monster"[^>]*data-square="J10"', page)
    assert re.search(r'class="sq sq-generator"[^>]*data-square="A3"', page)
    assert re.search(r'class="sq sq-survivor sq-healthy"[^>]*data-square="C3"', page)
    assert re.search(r'title="zed on C5">S2<', page) and re.search(r'title="vox on J10">M<', page)
    # the readings chosen where the rules leave a gap
    assert "the 8 surrounding Squares, diagonals included" in page
    assert "60 / 2 Survivors = <strong>30</strong> each, rounded down" in page
    assert "Escaping</strong> (not defined by the rules)" in page
    assert "Survivors who took part (took at least one Survivor Action, or escaped)" in page  # ST9
    assert "the Monster sets a blank Location before Advancing, not during it" in page  # ST10
    assert "Move 1, Repair 1, Heal 5, Rescue 5" in page and "Move 1, Hit 3, Cage 3" in page
    assert "Waiting for mara, zed to be Ready" in page
    assert "style=" not in page and "<script>" not in page
    # the join link is only shown while Survivors may join
    assert started.join_token not in page


def test_orthogonal_trial_says_so(client, catalogue, monster, survivors):
    trial = services.create_trial(monster, "Square", diagonals=False)
    client.force_login(monster)
    page = client.get(url(trial)).content.decode()
    assert "only the 4 Squares sharing a side (no diagonals)" in page
    assert trial.join_token in page


def test_legal_targets_are_buttons(client, started, survivors, monster):
    mara = survivors[0]
    client.force_login(mara)
    assert 'value="move:' not in client.get(url(started)).content.decode()  # no Energy yet
    setp(started, mara, energy=5, location="B2")
    page = client.get(url(started)).content.decode()
    moves = sorted(re.findall(r'value="move:(\w+)"', page))
    assert moves == ["A2", "B1", "B3", "C1", "C2", "C3"]  # B2's neighbours but the Generators on A1, A3
    assert sorted(re.findall(r'value="repair:(\w+)"', page)) == ["A1", "A3"]
    assert 'aria-label="Move to B3"' in page and 'aria-label="Repair the Generator on A1"' in page


def test_set_location_buttons_cover_the_uninhabited_squares(client, open_trial, monster, survivors):
    trial = place(open_trial, monster)
    client.force_login(survivors[0])
    page = client.get(url(trial)).content.decode()
    assert len(re.findall(r'value="location:', page)) == 400 - 7
    assert 'value="location:A1"' not in page


def test_acting_without_htmx_redirects_or_says_why(client, started, survivors):
    mara = survivors[0]
    client.force_login(mara)
    response = client.post(url(started, "trial-act"), {"act": "move:C4"})
    assert response.status_code == 422
    assert "Move costs 1 Energy, mara has 0." in response.content.decode()
    setp(started, mara, energy=1)
    response = client.post(url(started, "trial-act"), {"action": "move", "target": "c4"})
    assert response.status_code == 302 and row(started, mara).location == "C4"


def test_acting_with_htmx_returns_the_board(client, started, survivors):
    mara = survivors[0]
    setp(started, mara, energy=1)
    client.force_login(mara)
    response = client.post(url(started, "trial-act"), {"act": "move:B2"}, **HX)
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="board"')
    assert "mara moved to B2. (-1 Energy)" in body and "HX-Request" in response["Vary"]
    bad = client.post(url(started, "trial-act"), {"act": "move:B3"}, **HX)
    assert bad.status_code == 422 and "Move costs 1 Energy, mara has 0." in bad.content.decode()


def test_bad_input_is_a_clear_message(client, started, survivors):
    client.force_login(survivors[0])
    for data, message in [
        ({"act": "location:Z99"}, "Not a Square of the Trial Grounds"),
        ({"act": "teleport:A2"}, "A Survivor has no action"),
        ({"action": "", "target": ""}, "A Survivor has no action"),
        ({"act": "heal:nobody"}, "Heal costs 5 Energy"),
    ]:
        response = client.post(url(started, "trial-act"), data, **HX)
        assert response.status_code == 422 and message in response.content.decode(), data
    assert client.get(url(started, "trial-act")).status_code == 405


def test_a_participant_acts_only_for_themselves(client, started, survivors, monster):
    """There is no way to name another actor: zed's request moves zed, never mara."""
    setp(started, survivors[0], energy=1)
    client.force_login(survivors[1])
    client.post(url(started, "trial-act"), {"act": "move:C4", "actor": "mara"})
    assert row(started, survivors[0]).location == "C3" and row(started, survivors[1]).location == "C5"
    response = client.post(url(started, "trial-act"), {"act": "generators:"}, **HX)
    assert response.status_code == 422 and "Only the Monster places" in response.content.decode()


def test_polling_answers_204_until_something_changes(client, started, survivors):
    client.force_login(survivors[0])
    version = Trial.objects.get(pk=started.pk).version
    same = client.get(url(started), {"v": version}, **HX)
    assert same.status_code == 204 and "HX-Request" in same["Vary"]
    services.act(started, survivors[1], "ready")
    changed = client.get(url(started), {"v": version}, **HX)
    assert changed.status_code == 200 and "zed is Ready." in changed.content.decode()
    assert f"?v={version + 1}&amp;t=" in changed.content.decode()  # the poll carries the new version and its token


def test_monster_buttons_through_an_advance(client, started, monster, survivors):
    client.force_login(monster)
    assert 'value="advance:"' not in client.get(url(started)).content.decode()
    for user in survivors[:2]:
        services.act(started, user, "ready")
    setp(started, survivors[0], location="J11")
    page = client.get(url(started)).content.decode()
    assert 'value="advance:"' in page and "each Living Survivor +30" in page
    client.post(url(started, "trial-act"), {"act": "advance:"})
    page = client.get(url(started)).content.decode()
    assert 'value="hit:mara"' in page and 'value="end:"' in page and 'value="cage:mara"' not in page
    client.post(url(started, "trial-act"), {"act": "hit:mara"})
    page = client.get(url(started)).content.decode()
    assert 'value="hit:mara"' not in page  # once per Advance
    client.post(url(started, "trial-act"), {"act": "end:"})
    page = client.get(url(started)).content.decode()
    assert "Cycle 2" in page and "vox hit mara (Healthy → Injured, Health 100 → 99). (-3 Energy)" in page


def test_the_end_page(client, started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, zed, status="Dead", health=0)
    setp(started, mara, points=2, participated=True)
    started.generators.filter(square__in=["A1", "A3", "A5", "A7", "A9"]).update(progress=100)
    client.force_login(mara)
    assert 'value="escape:"' in client.get(url(started)).content.decode()
    client.post(url(started, "trial-act"), {"act": "escape:"})
    page = client.get(url(started)).content.decode()
    assert "Winner (drawn by Points): <strong>mara</strong>" in page and "mara: 1/1 (100%)" in page
    assert "hx-trigger" not in page  # no more polling
    assert re.search(r"Winner drawn by Points.*\(seed \d+\)", page)


def _trial_with(n, catalogue, monster, make_user):
    trial = services.create_trial(monster, f"Budget {n}")
    users = [make_user(f"p{n}-{i}") for i in range(n)]
    for user in users:
        services.join(trial, user)
    trial = place(trial, monster)
    for i, user in enumerate(users):
        services.act(trial, user, "location", f"E{2 * i + 2}")
    setp(trial, users[0], energy=5)
    return trial, users[0]


@pytest.mark.parametrize("n", [2, 4])
def test_query_budget_of_the_trial_page(client, catalogue, monster, make_user, django_assert_num_queries, n):
    """The first participant to draw a version: user (the first page after signing in; the session from the cache),
    trial, participants+users, generators, rules entries, log: 6 at any size. Every other draw of it: none (the user
    from the cache, the rest from the shared board), or the user on another player's first page after signing in."""
    trial, user = _trial_with(n, catalogue, monster, make_user)
    client.force_login(user)
    with django_assert_num_queries(6):
        response = client.get(url(trial))
    assert response.status_code == 200
    with django_assert_num_queries(0):
        assert client.get(url(trial), {"v": "0"}, **HX).status_code == 200
    other = Client()
    other.force_login(monster)
    with django_assert_num_queries(1):
        assert other.get(url(trial), {"v": "0"}, **HX).status_code == 200
    version = str(Trial.objects.get(pk=trial.pk).version)
    with django_assert_num_queries(0):  # a poll without its token: the version from the cache
        assert client.get(url(trial), {"v": version}, **HX).status_code == 204
