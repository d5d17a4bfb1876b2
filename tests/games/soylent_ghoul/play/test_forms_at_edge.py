"""Every POST of the game pages is read by a form before the game's lock: a refusal is shown on the
board with its message (422), an unreadable version is a page out of date (409), and nothing is played."""

import pytest
from django.urls import reverse

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.forms import MoveForm
from games.soylent_ghoul.play.models import Event, Game, Piece

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client, game, name, data):
    return client.post(reverse(name, args=[game.pk]), data, **HTMX)


def test_the_move_form_reads_ids_as_numbers_and_darker_ticks_as_a_list():
    form = MoveForm({"kind": "dark", "version": "7", "piece": ["3", "", "5"]})
    assert form.is_valid(), form.errors
    choices = form.choices()
    assert (choices["version"], choices["piece"], choices["pieces"]) == (7, 5, [3, 5])
    form = MoveForm({"kind": "perform", "version": "7", "action": "lighter", "level": "3", "lit": ["2"], "marker": "4"})
    assert form.is_valid(), form.errors
    choices = form.choices()
    assert (choices["lit"], choices["markers"], choices["section"], choices["level"]) == ([2], [4], [], 3)


def test_a_move_reads_only_its_own_choices(client):
    """Ending the turn reads no piece: a garbled one left on the page does not refuse it."""
    assert MoveForm({"kind": "end-turn", "version": "7", "piece": "abc", "level": "x"}).is_valid()
    form = MoveForm({"kind": "place", "version": "7", "piece": "abc"})
    assert not form.is_valid()
    assert str(form.refusal()) == "There is no such character in this game."


@pytest.mark.parametrize("piece", ["abc", "1.5", "１"])
def test_a_garbled_piece_is_refused_on_the_board_and_nothing_is_played(client, two_player_game, players, piece):
    vox, _ = players
    client.force_login(vox)
    events = Event.objects.count()
    r = post(
        client,
        two_player_game,
        "soylent-game-act",
        {"kind": "activate", "version": two_player_game.version, "piece": piece},
    )
    assert r.status_code == 422
    assert "There is no such character in this game." in r.content.decode()
    assert Event.objects.count() == events
    assert Game.objects.get(pk=two_player_game.pk).version == two_player_game.version


@pytest.mark.parametrize("version", ["x", "1.5", ""])
def test_an_unreadable_version_is_a_page_out_of_date(client, two_player_game, players, version):
    vox, _ = players
    client.force_login(vox)
    drone = Piece.objects.get(game=two_player_game, player__user=vox, kind="drone")
    r = post(client, two_player_game, "soylent-game-act", {"kind": "place", "version": version, "piece": drone.pk})
    assert r.status_code == 409
    assert "The game moved on since your page was drawn" in r.content.decode()
    assert not Piece.objects.get(pk=drone.pk).placed


def test_an_unknown_action_is_refused_with_its_message(client, two_player_game, players):
    client.force_login(players[0])
    r = post(client, two_player_game, "soylent-game-act", {"kind": "cheat", "version": two_player_game.version})
    assert r.status_code == 422
    assert "Unknown action." in r.content.decode()


def test_a_valid_move_from_the_form_is_played(client, two_player_game, players):
    vox, _ = players
    client.force_login(vox)
    drone = Piece.objects.get(game=two_player_game, player__user=vox, kind="drone")
    r = post(
        client,
        two_player_game,
        "soylent-game-act",
        {"kind": "place", "version": two_player_game.version, "piece": drone.pk},
    )
    assert r.status_code == 200
    assert Piece.objects.get(pk=drone.pk).placed


def test_start_with_a_garbled_first_player_is_refused_with_its_message(client, players, make_set):
    vox, mara = players
    game = services.create_game(vox, make_set(vox), ["mara"])
    services.join(game.pk, mara, drone_set=make_set(mara, "Watchers", "eyes"))
    client.force_login(vox)
    r = post(client, game, "soylent-game-start", {"first": "first!"})
    assert r.status_code == 422
    assert "Choose who goes first" in r.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.SETUP
    assert post(client, game, "soylent-game-start", {"first": "1"}).status_code == 200
    assert Game.objects.get(pk=game.pk).current_seat == 1


def test_joining_with_another_players_set_is_refused_as_a_set_that_is_not_yours(client, players, make_set):
    vox, mara = players
    game = services.create_game(vox, make_set(vox), ["mara"])
    client.force_login(mara)
    r = post(client, game, "soylent-game-join", {"drone_set": make_set(vox, "Vox's other").pk})
    assert r.status_code == 422
    assert "Choose one of your own drone sets." in r.content.decode()
    assert not game.players.get(user=mara).joined


def test_a_new_game_keeps_what_was_typed_when_refused(client, players, make_set):
    vox, _ = players
    mine = make_set(vox)
    client.force_login(vox)
    r = client.post(reverse("soylent-game-list"), {"drone_set": mine.pk, "players": "mara, nobody"})
    assert r.status_code == 422
    assert "There is no user called &#x27;nobody&#x27;." in r.content.decode()
    assert "mara, nobody" in r.content.decode()
    assert not Game.objects.exists()
    r = client.post(reverse("soylent-game-list"), {"drone_set": mine.pk, "players": "mara\n"})
    assert r.status_code == 302
    assert [p.user.username for p in Game.objects.get().players.order_by("seat")] == ["vox", "mara"]
