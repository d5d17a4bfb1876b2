"""The Soylent Ghoul game pages' forms: every POST is read here, and the services take what they give.

A move's form reads the ids as numbers (ASCII digits only: ``int()`` would read a full-width "１" as 1)
and nothing more: whether the move is allowed is the engine's to say, under the game's lock.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.errors import GameError, StaleVersion
from games.soylent_ghoul.sets.models import DroneSet

NO_SUCH_CHARACTER = "There is no such character in this game."
OWN_SET = "Choose one of your own drone sets."
STALE = "The game moved on since your page was drawn; here is the board as it is now."


def _id(value, message: str) -> int:
    text = str(value).strip()
    if not text.isascii():
        raise ValidationError(message)
    try:
        return int(text)
    except ValueError:
        raise ValidationError(message) from None


class IdField(forms.Field):
    """One id (a piece's), or None when left blank."""

    def __init__(self, *, message: str = NO_SUCH_CHARACTER, **kwargs):
        self.message = message
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> int | None:
        if value in self.empty_values:
            return None
        return _id(value, self.message)


class IdListField(forms.Field):
    """The ids of ticked boxes (blanks left out)."""

    widget = forms.SelectMultiple

    def __init__(self, *, message: str = NO_SUCH_CHARACTER, **kwargs):
        self.message = message
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> list[int]:
        if value in self.empty_values:
            return []
        values = value if isinstance(value, (list, tuple)) else [value]
        return [_id(v, self.message) for v in values if str(v).strip() != ""]


class OwnDroneSetField(forms.ModelChoiceField):
    """One of the user's own drone sets (another's answers as a set that is not there)."""

    def __init__(self, user, **kwargs):
        super().__init__(
            queryset=DroneSet.objects.owned_by(user).select_related("crew"),
            error_messages={"required": OWN_SET, "invalid_choice": OWN_SET},
            **kwargs,
        )


class NewGameForm(forms.Form):
    """A new game: the creator's drone set and the usernames of the players invited."""

    players = forms.CharField(required=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        # the set first: its refusal is the one shown when both are wrong
        self.fields = {"drone_set": OwnDroneSetField(user), **self.fields}

    def clean_players(self) -> list[str]:
        """One username a line or between commas, blanks left out (the service checks each)."""
        return [n.strip() for n in self.cleaned_data["players"].replace("\n", ",").split(",") if n.strip()]


class JoinForm(forms.Form):
    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["drone_set"] = OwnDroneSetField(user)


class StartForm(forms.Form):
    first = IdField(message="Choose who goes first (the most morally suspect player).")


class MoveForm(forms.Form):
    """One move on the board: its ``kind``, the version of the board it was made on, and its choices.

    ``piece`` is one id, or, for Darker's ticked Characters, several (``pieces``)."""

    kind = forms.ChoiceField(
        choices=[(k, k) for k in [*services.ACTIONS, "undo"]],
        error_messages={"required": "Unknown action.", "invalid_choice": "Unknown action."},
    )
    version = IdField(message=STALE)
    piece = IdListField()
    effect = forms.CharField(required=False)
    action = forms.CharField(required=False)
    answer = forms.CharField(required=False)
    seer = IdField()
    level = IdField(message="Lighter sets a light level from 1 to 7.")
    reduction = IdField(message="Reduce the lantern number by a whole number.")
    lit = IdListField()
    marker = IdListField(message="Select markers that are on the table.")
    section = IdListField(message="Only Characters on the table can be in a section.")

    def refusal(self) -> GameError:
        """What an invalid form answers: an unreadable version is a page out of date (409), else a 422."""
        if "version" in self.errors:
            return StaleVersion(STALE)
        return GameError(first_error(self))

    def choices(self) -> dict:
        """The move's choices as the service's keyword arguments."""
        data = dict(self.cleaned_data)
        pieces = data.pop("piece")
        data["markers"] = data.pop("marker")
        return {**data, "piece": pieces[-1] if pieces else None, "pieces": pieces}


def first_error(form: forms.Form) -> str:
    return next(e for errors in form.errors.values() for e in errors)
