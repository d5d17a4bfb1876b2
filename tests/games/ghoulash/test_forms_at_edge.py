"""Every play is read by the action's own form before the game's lock: a garbled choice is refused on the
table with its message (422) and nothing is drawn or changed; choices the play does not read are ignored."""

import pytest
from django.urls import reverse

from games.ghoulash.forms import PlayForm
from games.ghoulash.models import Event, Game, Player
from games.ghoulash.moves import Move
from tests.clients import logged_in

from .conftest import act_url

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_play_form_reads_a_move_of_numbers():
    form = PlayForm({"action": "move-token", "token": "4", "to_tile": " 3 ", "my_tile": "1", "on_square": ["", "1"]})
    assert form.is_valid(), form.errors
    assert form.move() == Move(token=4, to_tile=3, my_tile=1, on_square=(1,))


def test_a_play_reads_only_its_own_choices():
    form = PlayForm({"action": "end-turn", "token": "abc", "cards": ["x"]})
    assert form.is_valid(), form.errors
    assert form.move() == Move()
    form = PlayForm({"action": "replenish", "cards": ["7", ""]})
    assert not form.is_valid()
    assert str(form.refusal()) == "Choose cards from your hand."


@pytest.mark.parametrize(
    "data, message",
    [
        ({"action": "reveal", "token": "abc"}, "Choose a token."),
        ({"action": "reveal", "token": "１"}, "Choose a token."),
        ({"action": "replenish", "cards": ["1.5"]}, "Choose cards from your hand."),
        ({"action": "cheat"}, "Unknown action."),
        ({}, "Unknown action."),
    ],
)
def test_a_garbled_play_is_refused_on_the_table_and_changes_nothing(lake_vs_gray, del_brian, data, message):
    game = lake_vs_gray
    hand = Player.objects.get(game=game, user=del_brian[0]).hand
    events = Event.objects.filter(game=game).count()
    r = logged_in(del_brian[0]).post(act_url(game), data, **HTMX)
    assert r.status_code == 422
    assert message in r.content.decode()
    assert Event.objects.filter(game=game).count() == events
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Player.objects.get(game=game, user=del_brian[0]).hand == hand


def test_a_play_from_its_form_is_made(lake_vs_gray, del_brian):
    game = lake_vs_gray
    r = logged_in(del_brian[0]).post(act_url(game), {"action": "replenish"}, **HTMX)
    assert r.status_code == 200
    assert Game.objects.get(pk=game.pk).phase == Game.TURN


def test_a_home_post_naming_no_form_shows_the_page(del_brian):
    r = logged_in(del_brian[0]).post(reverse("ghoulash-home"), {"form": "nonsense", "name": "Box"})
    assert r.status_code == 200
    assert not del_brian[0].ghoulash_boxes.exists()
