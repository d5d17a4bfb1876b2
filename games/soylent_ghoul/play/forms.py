"""The Soylent Ghoul game pages' forms: every POST is read here, and the services take what they give.

A move's form reads the ids as numbers (ASCII digits only: ``int()`` would read a full-width "１" as 1)
and nothing more: whether the move is allowed is the engine's to say, under the game's lock.
"""

from __future__ import annotations

from django import forms

from core.games.fields import IdField, IdListField, first_error
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.errors import GameError, StaleVersion
from games.soylent_ghoul.sets.models import DroneSet

NO_SUCH_CHARACTER = "There is no such character in this game."
OWN_SET = "Choose one of your own drone sets."
STALE = "The game moved on since your page was drawn; here is the board as it is now."


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


class InviteForm(forms.Form):
    username = forms.CharField(
        max_length=150, error_messages={"required": "Invite another player by username.", "max_length": "No such user."}
    )


class StartForm(forms.Form):
    first = IdField(message="Choose who goes first (the most morally suspect player).")


# the choices each move reads (the services' ACTIONS, and perform's own); undo reads none
MOVE_CHOICES: dict[str, tuple[str, ...]] = {
    kind: tuple("piece" if f == "pieces" else f for f in fields) for kind, (_, fields, _) in services.ACTIONS.items()
}
MOVE_CHOICES["perform"] += ("level", "reduction", "lit", "marker", "section")


class MoveForm(forms.Form):
    """One move on the board: its ``kind``, the version of the board it was made on, and its choices.

    ``piece`` is one id, or, for Darker's ticked Characters, several (``pieces``)."""

    kind = forms.ChoiceField(
        choices=[(k, k) for k in [*services.ACTIONS, "undo"]],
        error_messages={"required": "Unknown action.", "invalid_choice": "Unknown action."},
    )
    version = IdField(message=STALE)
    piece = IdListField(message=NO_SUCH_CHARACTER)
    effect = forms.CharField(required=False)
    action = forms.CharField(required=False)
    answer = forms.CharField(required=False)
    seer = IdField(message=NO_SUCH_CHARACTER)
    level = IdField(message="Lighter sets a light level from 1 to 7.")
    reduction = IdField(message="Reduce the lantern number by a whole number.")
    lit = IdListField(message=NO_SUCH_CHARACTER)
    marker = IdListField(message="Select markers that are on the table.")
    section = IdListField(message="Only Characters on the table can be in a section.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the form is the move's: only the choices that move reads are read (and can be refused)
        used = MOVE_CHOICES.get(self.data.get("kind") or "", ())
        for name in [n for n in self.fields if n not in ("kind", "version") and n not in used]:
            del self.fields[name]

    def refusal(self) -> GameError:
        """What an invalid form answers: an unreadable version is a page out of date (409), else a 422."""
        if "version" in self.errors:
            return StaleVersion(STALE)
        return GameError(first_error(self))

    def choices(self) -> dict:
        """The move's choices as the service's keyword arguments."""
        data = dict(self.cleaned_data)
        pieces = data.pop("piece", [])
        if "marker" in data:
            data["markers"] = data.pop("marker")
        return {**data, "piece": pieces[-1] if pieces else None, "pieces": pieces}
