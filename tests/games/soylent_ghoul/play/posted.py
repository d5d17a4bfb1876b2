"""A move as the game page posts it: read by the page's MoveForm, then played by the service.

Tests that post ids as text (a garbled id, a full-width digit) get the form's refusal, as the page does."""

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.forms import MoveForm


def play(game_pk: int, user, version, kind: str, data: dict):
    form = MoveForm({"kind": kind, "version": version, **data})
    if not form.is_valid():
        raise form.refusal()
    return services.play(game_pk, user, **form.choices())
