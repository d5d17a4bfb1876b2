"""The tracker's rows as the engine's state: the words for what the game waits for are the engine's, and the
page offers exactly what the engine's ``legal`` allows."""

from django.utils.datastructures import MultiValueDict

from games.ghoulash import presenter, state
from games.ghoulash.models import Game
from rules import ghoulash as gh
from tests.games.ghoulash import posted

# the page's buttons and the plays they post
BUTTONS = {
    "replenish": "replenish",
    "turn": "end-turn",
    "here": "fight",
    "move": "reveal",
    "give_up_movement": "give-up-movement",
    "play": "play",
    "challenge": "challenge",
    "respond": "respond",
    "first_aid": "leave-first-aid",
    "move_token": "move-token",
    "debris_square": "debris-square",
    "hole_square": "hole-square",
}


def test_the_game_waits_for_the_engines_phases():
    assert (Game.TURN_START, Game.TURN, Game.BATTLE, Game.CHALLENGE, Game.RESPONSE, Game.FIRST_AID) == (
        gh.TURN_START,
        gh.TURN,
        gh.BATTLE,
        gh.CHALLENGE,
        gh.RESPONSE,
        gh.FIRST_AID,
    )


def _offers(game: Game) -> dict[str, set[str]]:
    game = Game.objects.get(pk=game.pk)
    players = list(game.players.select_related("user").order_by("seat"))
    tokens = list(game.tokens.all())
    out = {}
    for p in players:
        can = presenter.table(game, players, tokens, [], p.user)["can"]
        legal = gh.legal(state.table_state(game, players), p.seat)
        assert {k for k, on in can.items() if on} == {k for k, play in BUTTONS.items() if play in legal}
        out[p.user.username] = {k for k, on in can.items() if on}
    return out


def test_the_page_offers_what_the_engine_allows(lake_vs_gray, del_brian):
    del_, _brian = del_brian
    assert _offers(lake_vs_gray) == {"del": {"replenish"}, "brian": set()}
    posted.act(lake_vs_gray.pk, del_, "replenish", MultiValueDict())
    offers = _offers(lake_vs_gray)
    assert {"turn", "here", "move", "move_token"} <= offers["del"] and offers["brian"] == set()
    posted.act(lake_vs_gray.pk, del_, "end-turn", MultiValueDict())
    assert _offers(lake_vs_gray) == {"del": set(), "brian": {"replenish"}}
