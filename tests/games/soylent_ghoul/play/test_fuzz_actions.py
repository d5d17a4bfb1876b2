"""Issue 17: every Soylent Ghoul game action endpoint answers anything a client can POST
without a 500 (a refusal is a 4xx with a message, a move a 2xx or 3xx).

Each example is one POST by one of the game's players (or a stranger), with an
action name from the game's own list (or not) and fields named as the services
read them, holding real ids, junk, huge numbers or NUL bytes. Examples run one
after another on the same game, so the fuzzer walks the game through its states.
"""

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz_posts import FUZZ, JUNK, check_no_500, fuzzed_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger(make_user):
    return make_user("stranger")


@FUZZ
@given(data=st.data())
def test_soylent_game_actions(client, soylent_game, stranger, data):
    from games.soylent_ghoul.play.models import Game, Piece
    from games.soylent_ghoul.play.services import ACTIONS

    game = Game.objects.get(pk=soylent_game.pk)
    client.force_login(data.draw(st.sampled_from([p.user for p in game.players.all()] + [stranger])))
    ids = [str(pk) for pk in Piece.objects.filter(game=game).values_list("pk", flat=True)]
    post = {
        "kind": data.draw(st.one_of(st.sampled_from([*ACTIONS, "undo"]), JUNK), label="kind"),
        "version": data.draw(st.one_of(st.just(str(game.version)), JUNK), label="version"),
        **fuzzed_fields(data, ids, ("piece", "effect", "action", "seer", "level", "reduction"), ("piece", "lit")),
    }
    check_no_500(
        client.post(
            reverse("soylent-game-act", args=[game.pk]),
            post,
            HTTP_HX_REQUEST=data.draw(st.sampled_from(["true", None]), label="htmx") or "",
        ),
        post,
    )
