"""Battles' permissions: each yes/no question agrees with its raising check; strangers get 404."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from battles import permissions
from battles.models import Battle

pytestmark = pytest.mark.django_db


def test_players_and_the_game_master_see_a_battle_and_nobody_else(started, user, other_user, make_user):
    battle = started()
    gm, stranger = make_user("gm"), make_user("stranger")
    Battle.objects.filter(pk=battle.pk).update(game_master=gm)
    for who, sees in ((user, True), (other_user, True), (gm, True), (stranger, False), (AnonymousUser(), False)):
        assert permissions.user_can_see_battle(who, battle) is sees
        if sees:
            permissions.check_user_can_see_battle(who, battle)
            assert permissions.get_battle_for_user(who, battle.pk) == battle
        else:
            with pytest.raises(Http404):
                permissions.check_user_can_see_battle(who, battle)
            with pytest.raises(Http404):
                permissions.get_battle_for_user(who, battle.pk)


def test_a_shared_battle_is_found_by_its_token(started, django_assert_num_queries):
    battle = started()
    Battle.objects.filter(pk=battle.pk).update(share_token="a" * 32)
    assert permissions.get_shared_battle("a" * 32) == battle
    for impossible in ("", "x" * 65):  # no link has such a token: refused without a query
        with django_assert_num_queries(0), pytest.raises(Http404):
            permissions.get_shared_battle(impossible)
    with pytest.raises(Http404):
        permissions.get_shared_battle("b" * 32)
