"""The board for issue 19: Drone-only actions shown but not offered to a token (SG19), Scene Shifters'
markers (SG20), a fatal area on another player's Character answered by its owner (SG21), and a Snapped
Drone offered as a panic target (SG9)."""

import pytest
from django.urls import reverse

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.models import Event, Piece
from tests.games.soylent_ghoul.play import posted

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(game, name="soylent-game"):
    return reverse(name, args=[game.pk])


def post_act(client, game, kind, **data):
    game.refresh_from_db()
    return client.post(url(game, "soylent-game-act"), {"kind": kind, "version": game.version, **data}, **HTMX)


def act(game, user, kind, **data):
    game.refresh_from_db()
    return posted.play(game.pk, user, game.version, kind, {k: str(v) for k, v in data.items()})


def piece(game, code):
    return Piece.objects.get(game=game, code=code)


def drone(game, user):
    return Piece.objects.get(game=game, player__user=user, kind="drone")


@pytest.fixture
def shifters_game(players, make_set):
    """vox's Scene Shifters against mara's Eyes, both placed; vox to play."""
    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "scene-shifters"), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes"))
    game = services.start(game.pk, vox, 0)
    act(game, vox, "place", piece=drone(game, vox).pk)
    act(game, mara, "place", piece=drone(game, mara).pk)
    return game


def to_action_step(game, players, mover, piece_id):
    act(game, mover, "activate", piece=piece_id)
    game.refresh_from_db()
    while game.phase == "panic":
        seat = game.panic_seat
        user = next(u for u in players if game.players.get(seat=seat).user_id == u.pk)
        act(game, user, "pass")
        game.refresh_from_db()


def test_a_token_sees_shift_but_is_offered_only_scene_and_places_a_marker(client, shifters_game, players):
    vox, mara = players
    game = shifters_game
    to_action_step(game, players, vox, piece(game, "P1K").pk)
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    assert "Perform Scene" in page and "Perform Shift" not in page
    assert "Only a Drone may perform Shift, not a token" in page
    r = post_act(client, game, "perform", action="shift")
    assert r.status_code == 422 and "Only a Drone may Shift" in r.content.decode()
    assert "token P1K (vox&#x27;s Pale Hands 1) may perform one action; then vox ends the turn." in page
    r = post_act(client, game, "perform", action="scene")
    assert r.status_code == 200 and "Markers on the table: 1" in r.content.decode()
    # the status line no longer offers the action just performed
    after = client.get(url(game)).content.decode()
    assert "may perform one action; then" not in after and "has performed its action; vox ends the turn." in after
    game.refresh_from_db()
    assert game.markers == [{"id": 1, "drone": drone(game, vox).pk}]


def test_the_drone_shifts_with_the_markers_it_selects(client, shifters_game, players):
    vox, mara = players
    game = shifters_game
    game.markers = [{"id": 1, "drone": drone(game, vox).pk}, {"id": 2, "drone": drone(game, vox).pk}]
    game.save(update_fields=["markers"])
    act(game, vox, "replace-drone", piece=drone(game, vox).pk)
    to_action_step(game, players, vox, drone(game, vox).pk)
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    assert 'name="marker" value="1"' in page and 'name="marker" value="2"' in page
    r = post_act(client, game, "perform", action="shift", marker=["1"])
    assert r.status_code == 200
    lines = " ".join(Event.objects.filter(game=game).order_by("-number").first().payload["lines"])
    assert "Shift with marker 1 of vox's drone Pale Hands 1" in lines
    assert "has 1 marker(s) of its Drone not selected: it gains 2 panic tokens" in lines
    assert 'name="section"' in page


def test_a_fatal_area_on_another_players_token_waits_for_its_owner(client, two_player_game, players):
    vox, mara = players
    game = two_player_game
    act(game, vox, "place", piece=drone(game, vox).pk)
    act(game, mara, "place", piece=drone(game, mara).pk)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    client.force_login(vox)
    r = post_act(client, game, "fatal", piece=piece(game, "W1K").pk)
    assert r.status_code == 200 and not piece(game, "W1K").removed
    assert "waiting for <strong>mara</strong> to confirm or dispute" in r.content.decode()
    assert "Yes: remove it" not in r.content.decode()
    # vox may take the claim back (nothing was revealed), and make it again
    assert post_act(client, game, "undo").status_code == 200
    game.refresh_from_db()
    assert game.fatal_claim is None
    post_act(client, game, "fatal", piece=piece(game, "W1K").pk)
    client.force_login(mara)
    page = client.get(url(game)).content.decode()
    assert "vox says your token W1K" in page and "Yes: remove it" in page and "No: it stays" in page
    assert "Nothing to do until your go" not in page
    r = post_act(client, game, "fatal-answer", answer="dispute")
    assert r.status_code == 200 and not piece(game, "W1K").removed
    client.force_login(vox)
    post_act(client, game, "fatal", piece=piece(game, "W1K").pk)
    assert post_act(client, game, "fatal-answer", answer="confirm").status_code == 422  # not vox's to answer
    client.force_login(mara)
    assert post_act(client, game, "fatal-answer", answer="confirm").status_code == 200
    assert piece(game, "W1K").removed


def test_a_snapped_drone_is_offered_as_a_panic_target(client, players, make_set):
    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners", drones=2), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes", drones=2))
    game = services.start(game.pk, vox, 0)
    first = Piece.objects.filter(game=game, player__user=mara, kind="drone").order_by("position").first()
    act(game, vox, "place", piece=Piece.objects.filter(game=game, player__user=vox, kind="drone").first().pk)
    act(game, mara, "place", piece=first.pk)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    # mara's first Drone stands on the table, Snapped (its tokens gone); her second is not placed
    Piece.objects.filter(pk=first.pk).update(revealed=True, snapped=True, panic=2)
    Piece.objects.filter(drone=first).update(removed=True, revealed=True)
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    assert "mara&#x27;s drone Watchers 1, 2 panic: already Snapped" in page
    r = post_act(client, game, "panic", piece=first.pk, effect="spin")
    assert r.status_code == 200 and Piece.objects.get(pk=first.pk).panic == 3


def test_a_game_that_started_before_the_catalogue_said_who_performs_reads_it_now(client, shifters_game, players):
    """Player.actions copied at joining without "by"/"panic_to" (games begun before SG19) still play by
    the text's words: Scene for a token, Shift for the Drone only."""
    vox, mara = players
    game = shifters_game
    for player in game.players.all():
        player.actions = [{"slug": a["slug"], "name": a["name"], "text": a["text"]} for a in player.actions]
        player.save(update_fields=["actions"])
    to_action_step(game, players, vox, piece(game, "P1K").pk)
    with pytest.raises(services.GameError, match="Only a Drone may Shift"):
        act(game, vox, "perform", action="shift")
    act(game, vox, "perform", action="scene")
    game.refresh_from_db()
    assert game.markers == [{"id": 1, "drone": drone(game, vox).pk}]
