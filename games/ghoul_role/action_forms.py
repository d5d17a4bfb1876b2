"""The sheet's forms: every POST of the turn tracker is read here, into the typed keyword
arguments of ``services.act`` / ``undo`` / ``name_card`` / ``set_sharing``.

The forms check what a field can hold (a whole number in range, one of the choices); what the
rules allow now is the service's and the engine's. Every action form carries the version of the
sheet its page shows (``v``): the service refuses a move made from an older page (409).
Refusals keep the words the sheet always showed ("Give the points gained.").
"""

from __future__ import annotations

from django import forms

from games.ghoul_role.actions import DISCARDS
from games.ghoul_role.goals import TARGET_NAMES

MISSING_VERSION = "The page's version is missing: reload the page."


def _capital(words: str) -> str:
    return words[0].upper() + words[1:]


def whole_number(raw, words: str, low: int, high: int, default: int | None = None) -> int:
    """``raw`` as a whole number from ``low`` to ``high`` (``default`` when left blank)."""
    if isinstance(raw, str):
        raw = raw.strip()
    if raw in ("", None):
        if default is not None:
            return default
        raise forms.ValidationError(f"Give {words}.", code="required")
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise forms.ValidationError(f"{_capital(words)} must be a whole number.", code="invalid") from None
    if not low <= value <= high:
        raise forms.ValidationError(f"{_capital(words)} must be {low} to {high}.", code="range")
    return value


class WholeNumberField(forms.Field):
    """A whole number from ``low`` to ``high``; blank gives ``default`` (or "Give ...")."""

    def __init__(self, words: str, low: int, high: int, default: int | None = None, **kwargs):
        self.words, self.low, self.high, self.default = words, low, high, default
        super().__init__(required=False, **kwargs)

    def clean(self, value):
        return whole_number(value, self.words, self.low, self.high, self.default)


class FlagField(forms.BooleanField):
    """A ticked box: on only for the values a checkbox or a button sends ("1", "on", "true")."""

    # a checkbox widget reads any non-empty value as ticked: this one hands on what was sent
    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        return value in ("1", "on", "true", True)


class ActionForm(forms.Form):
    """What every move of the tracker posts: the version of the sheet the page shows."""

    v = forms.IntegerField(
        min_value=1,
        widget=forms.HiddenInput,
        error_messages={"required": MISSING_VERSION, "invalid": MISSING_VERSION, "min_value": MISSING_VERSION},
    )

    def refusal(self) -> str:
        """The first thing wrong, in the sheet's words (the page shows one message): a page without its
        version first, then the action's choices."""
        names = ["v", "__all__", *(name for name in self.fields if name != "v")]
        for errors in (self.errors.get(name, []) for name in names):
            if errors:
                return str(errors[0])
        return ""

    @property
    def seen_version(self) -> int:
        return self.cleaned_data["v"]

    def choices(self) -> dict:
        """The action's own choices, as the service's keyword arguments."""
        return {name: value for name, value in self.cleaned_data.items() if name != "v"}


class BackstabForm(ActionForm):
    """Roll and Set Statistics (the Ghoul), Prepare Board (the Vile Ghoul)."""

    backstab = WholeNumberField("the Thief's Backstab Action cubes", 0, 20, default=0)


class ChooseForm(ActionForm):
    """The two dice kept: ``pair`` ("0-2", the page's radio) or two ``keep`` positions."""

    pair = forms.CharField(required=False)
    keep = forms.Field(required=False, widget=forms.MultipleHiddenInput)

    def clean(self):
        data = super().clean()
        pair, keep = data.pop("pair", ""), data.pop("keep", None)
        raw = pair.split("-") if pair else keep or []
        if isinstance(raw, str):
            raw = [raw]
        try:
            kept = tuple(int(k) for k in raw)
        except (TypeError, ValueError):
            raise forms.ValidationError("Choose two of the dice.") from None
        if len(kept) != 2:
            raise forms.ValidationError("Choose exactly two of the dice.")
        data["keep"] = kept
        return data


class MoveForm(ActionForm):
    wall = FlagField()
    occupied = FlagField()
    attacking = FlagField()
    entrance = FlagField()
    unattackable = FlagField()
    # the Vile Ghoul's entry into an occupied space only (the service asks for it then)
    defense = forms.CharField(required=False)

    def clean_defense(self) -> int | None:
        raw = self.cleaned_data["defense"]
        return whole_number(raw, "the piece's defense statistic", 0, 20) if raw.strip() else None


class SpendForm(ActionForm):
    points = WholeNumberField("the movement points to spend", 1, 20)
    why = forms.CharField(required=False)

    def clean_why(self) -> str:
        return self.cleaned_data["why"].strip()[:60]


class GainForm(ActionForm):
    # movement or attack; the Vile Ghoul's refusal of attack points is the service's
    what = forms.CharField(required=False)
    points = WholeNumberField("the points gained", 1, 20)


class CollectForm(ActionForm):
    what = forms.ChoiceField(
        choices=[("treasure", "A Treasure token"), ("gem", "A Dragon Gem"), ("trap", "A Dragon Gem: a trap")],
        error_messages={
            "required": "Collect a Treasure token or a Dragon Gem.",
            "invalid_choice": "Collect a Treasure token or a Dragon Gem.",
        },
    )


class AttackForm(ActionForm):
    target = forms.ChoiceField(
        choices=list(TARGET_NAMES.items()),
        error_messages={
            "required": "Choose the player piece you attack.",
            "invalid_choice": "Choose the player piece you attack.",
        },
    )
    label = forms.CharField(required=False)  # which one (a Tribe's name)
    defense = forms.CharField(required=False)
    loot = forms.CharField(required=False)  # the Thief's Loot Drop Level

    def clean_label(self) -> str:
        return self.cleaned_data["label"].strip()[:30]

    def clean(self):
        data = super().clean()
        if "target" not in data:
            return data
        role, label = data["target"], data.get("label", "")
        name = TARGET_NAMES[role] + (f" ({label})" if label else "")
        try:
            data["defense"] = whole_number(data.get("defense"), f"the {name}'s defense statistic", 0, 20)
        except forms.ValidationError as exc:
            self.add_error("defense", exc)
        try:
            data["loot"] = (
                whole_number(data.get("loot"), "the Thief's Loot Drop Level", 0, 20, default=1)
                if role == "thief"
                else 0
            )
        except forms.ValidationError as exc:
            self.add_error("loot", exc)
        return data


class SelectForm(ActionForm):
    face = WholeNumberField("the die you select", 1, 6)


class BoostForm(ActionForm):
    # what the bonus is for and where it comes from: the engine's check (rules.check_boost)
    use = forms.CharField(required=False)
    source = forms.CharField(required=False)
    points = WholeNumberField("what it is worth", 1, 12)

    def clean(self):
        data = super().clean()
        for name in ("use", "source"):
            if name in data:
                data[name] = data[name] or None
        return data


class HealthForm(ActionForm):
    delta = WholeNumberField("the change", -20, 20)


class CardForm(ActionForm):
    """A Terror card of the hand (the service finds it on the sheet)."""

    card = forms.IntegerField(error_messages={"required": "Choose a Terror card.", "invalid": "Choose a Terror card."})


class PlayForm(CardForm):
    during = FlagField()  # the effect begins "During this turn"


class DiscardForm(ActionForm):
    why = forms.ChoiceField(
        choices=[(why, why) for why in DISCARDS],
        required=False,
        error_messages={"invalid_choice": "Choose why the card is discarded."},
    )
    card = forms.IntegerField(error_messages={"required": "Choose a Terror card.", "invalid": "Choose a Terror card."})

    def clean_why(self) -> str:
        return self.cleaned_data["why"] or "other"


# The form of each action (an action without choices posts only the version).
ACTION_FORMS: dict[str, type[ActionForm]] = {
    "roll": BackstabForm,
    "choose": ChooseForm,
    "move": MoveForm,
    "spend": SpendForm,
    "gain": GainForm,
    "collect": CollectForm,
    "attack": AttackForm,
    "crystal": ActionForm,
    "end": ActionForm,
    "prepare": BackstabForm,
    "select": SelectForm,
    "boost": BoostForm,
    "spores": ActionForm,
    "pickpocket": ActionForm,
    "health": HealthForm,
    "killed": ActionForm,
    "lost": ActionForm,
    "draw": ActionForm,
    "play": PlayForm,
    "use": CardForm,
    "discard": DiscardForm,
}


class UndoForm(ActionForm):
    pass


class CardNameForm(ActionForm):
    name = forms.CharField(
        max_length=60,
        error_messages={
            "required": "Type the card's name.",
            "max_length": "A card name is at most 60 characters.",
        },
    )


class ShareForm(forms.Form):
    share = FlagField()  # "1": share a read-only link; anything else stops sharing
