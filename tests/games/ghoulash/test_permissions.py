"""Ghoulash permissions: each yes/no question and its raising check agree; others' boxes and games are 404."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from games.ghoulash import permissions
from games.ghoulash.errors import GameError


def test_a_box_is_its_owners(lake_vs_gray, del_brian):
    del_, brian = del_brian
    box = lake_vs_gray.box
    assert permissions.user_owns_box(del_, box) and not permissions.user_owns_box(brian, box)
    permissions.check_user_owns_box(del_, box)
    assert permissions.get_box_for_user(del_, box.pk) == box
    card = box.cards.first()
    assert permissions.get_card_for_user(del_, box.pk, card.pk) == card
    with pytest.raises(Http404):
        permissions.check_user_owns_box(brian, box)
    with pytest.raises(Http404):
        permissions.get_box_for_user(brian, box.pk)
    with pytest.raises(Http404):
        permissions.get_card_for_user(brian, box.pk, card.pk)
    with pytest.raises(GameError, match="Choose one of your own game boxes."):
        permissions.check_user_can_play_box(brian, box)


def test_a_game_is_its_players(lake_vs_gray, del_brian, make_user):
    del_, brian = del_brian
    game = lake_vs_gray
    stranger = make_user("stranger")
    for user in (del_, brian):
        assert permissions.user_has_seat(user, game)
        assert permissions.get_game_for_user(user, game.pk) == game
    for user in (stranger, AnonymousUser()):
        assert not permissions.user_has_seat(user, game)
        with pytest.raises(Http404):
            permissions.check_user_has_seat(user, game)
        with pytest.raises(Http404):
            permissions.get_game_for_user(user, game.pk)
    players = list(game.players.all())
    assert permissions.check_user_is_playing(brian, players).user == brian
    with pytest.raises(GameError, match="You are not playing in this game."):
        permissions.check_user_is_playing(stranger, players)
