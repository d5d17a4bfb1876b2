"""A play as the table page posts it: read by the page's PlayForm, then made by the service.

Tests that post ids as text (a garbled id, a blank) get the form's refusal, as the page does."""

from django.utils.datastructures import MultiValueDict

from games.ghoulash import services
from games.ghoulash.forms import PlayForm


def act(game_pk: int, user, action: str, data):
    posted = MultiValueDict(data.lists() if hasattr(data, "lists") else _as_lists(data))
    posted["action"] = action
    form = PlayForm(posted)
    if not form.is_valid():
        raise form.refusal()
    return services.act(game_pk, user, action=form.cleaned_data["action"], move=form.move())


def _as_lists(data: dict) -> dict:
    return {k: v if isinstance(v, list) else [v] for k, v in data.items()}
