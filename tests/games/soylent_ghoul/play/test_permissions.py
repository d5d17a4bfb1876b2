"""Soylent Ghoul game permissions: each yes/no question and its raising check agree; outsiders get 404."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from games.soylent_ghoul.play import permissions
from games.soylent_ghoul.play.errors import GameError


def test_a_game_is_seen_by_its_seats_only(two_player_game, players, make_user):
    stranger = make_user("stranger")
    for user in players:
        assert permissions.user_has_seat(user, two_player_game)
        permissions.check_user_has_seat(user, two_player_game)
        assert permissions.get_game_for_user(user, two_player_game.pk) == two_player_game
    for user in (stranger, AnonymousUser()):
        assert not permissions.user_has_seat(user, two_player_game)
        with pytest.raises(Http404):
            permissions.check_user_has_seat(user, two_player_game)
        with pytest.raises(Http404):
            permissions.get_game_for_user(user, two_player_game.pk)


def test_who_set_up_the_game_and_whose_set_it_is(two_player_game, players, make_set):
    vox, mara = players
    assert permissions.user_set_up_game(vox, two_player_game) and not permissions.user_set_up_game(
        mara, two_player_game
    )
    permissions.check_user_set_up_game(vox, two_player_game)
    with pytest.raises(GameError, match="Only the player who set up the game starts it."):
        permissions.check_user_set_up_game(mara, two_player_game)
    theirs = make_set(mara, "Other")
    assert permissions.user_owns_drone_set(mara, theirs) and not permissions.user_owns_drone_set(vox, theirs)
    with pytest.raises(GameError, match="Choose one of your own drone sets."):
        permissions.check_user_owns_drone_set(vox, theirs)
