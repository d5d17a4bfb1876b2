"""The panic token picker on a phone: a closed list shows only the start of an option, so each option starts
with the token it names and ends with its odds ("62.5% chance to Snap")."""

import re

from django.urls import reverse

from games.soylent_ghoul.play.models import Piece
from tests.games.soylent_ghoul.play import posted


def _act(game, user, kind, **data):
    game.refresh_from_db()
    return posted.play(game.pk, user, game.version, kind, {k: str(v) for k, v in data.items()})


def test_each_panic_option_starts_with_the_token_and_ends_with_its_odds(client, two_player_game, players):
    vox, mara = players
    game = two_player_game
    for user in (vox, mara):
        _act(game, user, "place", piece=Piece.objects.get(game=game, player__user=user, kind="drone").pk)
    _act(game, vox, "activate", piece=Piece.objects.get(game=game, code="P1K").pk)
    client.force_login(vox)
    page = client.get(reverse("soylent-game", args=[game.pk])).content.decode()
    picker = re.search(r'<select id="panic-target" name="piece">(.*?)</select>', page, re.S).group(1)
    options = re.findall(r"<option[^>]*>([^<]*)</option>", picker)
    assert options and all(o.startswith("token ") for o in options)
    # an Eyes token, Nerve 3, no panic: a D8 of 4 to 8 Snaps it
    assert "token W1K (mara&#x27;s Watchers 1), 0 panic: 62.5% chance to Snap" in options
    assert not any(o.startswith("snaps on") for o in options)
