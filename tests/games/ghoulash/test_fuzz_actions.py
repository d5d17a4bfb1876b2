"""Issue 17: every Ghoulash game action endpoint answers anything a client can POST
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


@FUZZ
@given(data=st.data())
def test_ghoulash_game_actions(client, ghoulash_game, data):
    from games.ghoulash.models import Game
    from games.ghoulash.services import HANDLERS

    game = Game.objects.get(pk=ghoulash_game.pk)
    client.force_login(data.draw(st.sampled_from([p.user for p in game.players.all()])))
    ids = [str(pk) for pk in game.tokens.values_list("pk", flat=True)]
    for p in game.players.all():  # hands hold card ids (or {"id": ...})
        ids += [str(c.get("id") if isinstance(c, dict) else c) for c in p.hand + p.wounds]
    post = {
        "action": data.draw(st.one_of(st.sampled_from(list(HANDLERS)), JUNK), label="action"),
        **fuzzed_fields(
            data,
            ids,
            ("card", "token", "tokens", "to_tile", "my_tile"),
            ("cards", "parry", "reveal", "targets", "value", "on_square"),
        ),
    }
    check_no_500(client.post(reverse("ghoulash-game-act", args=[game.pk]), post, HTTP_HX_REQUEST="true"), post)
