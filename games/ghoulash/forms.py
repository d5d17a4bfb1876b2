"""Forms of the Ghoulash pages: a box, the owner's numbers, a card, a new game, a play at the table."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxLengthValidator, MaxValueValidator

from core.games.fields import IdField, IdListField, first_error
from crewbuilder import limits
from games.ghoulash.errors import GameError
from games.ghoulash.models import CHARACTER_SLUGS, BoxCard, GhoulashBox
from games.ghoulash.moves import Move
from rules import ghoulash as gh

STAT_MIN = {"initial_combat_value": 0, "movement": 1, "health": 1}
COUNT_MAX = 99


def posted_with(form, changes: dict[str, str]):
    """What was posted to the form (or formset), with ``changes`` (full field names): a stale form is
    shown again with the newer version, to be saved over it on purpose."""
    data = form.data.copy()
    for name, value in changes.items():
        data[name] = value
    return data


class HomeForm(forms.Form):
    """Which of the home page's two forms was posted."""

    form = forms.ChoiceField(choices=[("box", "box"), ("game", "game")], required=False)

    def which(self) -> str:
        return self.cleaned_data["form"] if self.is_valid() else ""


class BoxForm(forms.Form):
    name = forms.CharField(label="Name of the game box", max_length=100)


class NumbersForm(forms.Form):
    """One field per number the rules text does not give (a character's stat, a Ghoul's Victory Points)."""

    seen_version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        error_messages={
            "required": "This form is older than the box page: reload the box and enter your numbers again."
        },
    )

    def __init__(self, *args, profiles: list[dict], ghouls: list[dict], version: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seen_version"].initial = version
        self.stat_fields = []
        for p in profiles:
            for s in p["stats"]:
                if s["source"] == "rules":
                    continue
                name = f"{p['slug']}__{s['stat']}"
                self.fields[name] = forms.IntegerField(
                    label=f"{p['name']}: {s['label']}",
                    required=False,
                    min_value=STAT_MIN[s["stat"]],
                    max_value=99,
                    initial=s["value"],
                    help_text="From your game's profile card (not in the rules text).",
                )
                self.stat_fields.append((p["slug"], s["stat"], name))
        self.vp_fields = []
        for g in ghouls:
            if g["source"] == "rules":
                continue
            name = f"ghoul_{g['strength']}"
            self.fields[name] = forms.IntegerField(
                label=f"Victory Points of a strength-{g['strength']} Ghoul",
                required=False,
                min_value=0,
                max_value=99,
                initial=g["victory_points"],
                help_text="The green dots on your tokens (not in the rules text).",
            )
            self.vp_fields.append((g["strength"], name))

    def numbers(self) -> tuple[dict, dict]:
        stats: dict[str, dict] = {}
        for slug, stat, name in self.stat_fields:
            stats.setdefault(slug, {})[stat] = self.cleaned_data.get(name)
        return stats, {strength: self.cleaned_data.get(name) for strength, name in self.vp_fields}


class CardForm(forms.ModelForm):
    # the card's version when the form was opened (an edit only): a newer save elsewhere makes it stale
    seen_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    class Meta:
        model = BoxCard
        fields = ["character", "card_type", "name", "value", "count", "text"]
        labels = {"card_type": "Type", "count": "How many in the deck"}
        widgets = {"text": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, names: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["seen_version"].required = True
            self.fields["seen_version"].initial = self.instance.version
            self.fields["seen_version"].error_messages["required"] = (
                "This form is older than the edit page: reload the card and enter your change again."
            )
        else:
            del self.fields["seen_version"]
        if names:
            self.fields["character"].choices = [(s, names.get(s, s.title())) for s in CHARACTER_SLUGS]
        self.fields["card_type"].required = True
        self.fields["card_type"].choices = [("", "— choose —")] + BoxCard.TYPES
        self.fields["count"].required = True
        self.fields["count"].min_value = 0
        # Bounds that keep the printed decks small (crewbuilder/limits.py); validators, as
        # setting max_value/max_length after the field is built adds none.
        self.fields["count"].max_value = limits.CARD_COUNT_MAX
        self.fields["count"].validators.append(MaxValueValidator(limits.CARD_COUNT_MAX))
        self.fields["text"].max_length = limits.CARD_TEXT_MAX
        self.fields["text"].validators.append(MaxLengthValidator(limits.CARD_TEXT_MAX))
        self.fields["value"].help_text = (
            f"Value cards {gh.MIN_CARD_VALUE}–{gh.VALUE_CARD_MAX}; Specialty Value cards up to "
            f"{gh.MAX_CARD_VALUE}; blank for every other type (only these two are put "
            "down as Values)."
        )

    def clean(self):
        data = super().clean()
        check_value(self, data)
        return data


def check_value(form: forms.ModelForm, data: dict) -> None:
    """The value a card of this type may have (GT2), as an error on the form's ``value`` field."""
    kind, value = data.get("card_type"), data.get("value")
    if kind in (BoxCard.VALUE, BoxCard.SPECIALTY_VALUE) and value is None:
        form.add_error("value", "A Value card needs its value.")
    elif kind == BoxCard.VALUE and value is not None and not gh.MIN_CARD_VALUE <= value <= gh.VALUE_CARD_MAX:
        form.add_error(
            "value", f"Value cards range from {gh.MIN_CARD_VALUE} to {gh.VALUE_CARD_MAX} (the rules: Cards)."
        )
    elif kind == BoxCard.SPECIALTY_VALUE and value is not None and not gh.MIN_CARD_VALUE <= value <= gh.MAX_CARD_VALUE:
        form.add_error("value", f"Specialty cards have a value of {gh.MIN_CARD_VALUE} to {gh.MAX_CARD_VALUE}.")
    elif kind in (BoxCard.ACTION, BoxCard.RESCUE) and value is not None:
        form.add_error("value", "Action and Rescue cards have no value: leave it blank.")
    elif (
        kind
        and kind not in BoxCard.VALUE_TYPES
        and value is not None
        and not (form.instance.pk and value == form.instance.value)
    ):
        # a Specialty card is played with the limitations of its second label: only SPECIALTY VALUE is a Value
        # (GT2); a value saved before is kept, unused
        form.add_error(
            "value",
            "Only Value and Specialty Value cards have a value (a double label is played "
            "as its second label): leave it blank.",
        )


class DeckRowForm(forms.ModelForm):
    """One row of the box's deck table: a card's type, value and count, the numbers only the printed decks
    hold. Blank stays "not entered"; every row is checked and every error shown at once."""

    seen_version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        error_messages={
            "required": "This table is older than the box page: reload the box and enter your change again."
        },
    )

    class Meta:
        model = BoxCard
        fields = ["card_type", "value", "count"]
        labels = {"card_type": "Type", "count": "How many"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card_type"].choices = [("", "— choose —")] + BoxCard.TYPES
        self.fields["card_type"].required = False
        # no printed deck holds 99 of one card: the bound keeps a typo from dealing a huge deck
        self.fields["count"].validators.append(MaxValueValidator(COUNT_MAX))
        self.fields["count"].widget.attrs.update({"min": 0, "max": COUNT_MAX, "inputmode": "numeric"})
        self.fields["value"].widget.attrs.update(
            {"min": gh.MIN_CARD_VALUE, "max": gh.MAX_CARD_VALUE, "inputmode": "numeric"}
        )
        self.fields["seen_version"].initial = self.instance.version

    def clean(self):
        data = super().clean()
        if data.get("count") and not data.get("card_type"):
            self.add_error("card_type", "Choose its type: the deck holds it (the rules text does not give it).")
        check_value(self, data)
        return data


DeckTable = forms.modelformset_factory(BoxCard, form=DeckRowForm, extra=0, can_delete=False)


class GameForm(forms.Form):
    name = forms.CharField(label="Name of the game", max_length=100, required=False)
    box = forms.ModelChoiceField(label="Game box", queryset=GhoulashBox.objects.none(), empty_label=None)
    lock_and_load = forms.BooleanField(label="Scenario Lock and Load (add the three Ghoo Gun tokens)", required=False)

    def __init__(self, *args, user, names: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["box"].queryset = GhoulashBox.objects.filter(owner=user)
        choices = [("", "—")] + [(s, names.get(s, s.title())) for s in CHARACTER_SLUGS]
        for i in range(1, len(CHARACTER_SLUGS) + 1):
            self.fields[f"player_{i}"] = forms.CharField(
                label=f"Seat {i}: player" + (" (plays first)" if i == 1 else ""),
                max_length=150,
                required=i <= 2,
                initial=user.username if i == 1 else "",
            )
            self.fields[f"character_{i}"] = forms.ChoiceField(
                label=f"Seat {i}: character", choices=choices, required=i <= 2
            )

    def seats(self) -> list[tuple[str, str]]:
        return [
            (self.cleaned_data.get(f"player_{i}") or "", self.cleaned_data.get(f"character_{i}") or "")
            for i in range(1, len(CHARACTER_SLUGS) + 1)
        ]


# the choices each play reads (games.ghoulash.actions); the form of a play checks only its own
PLAY_CHOICES: dict[str, tuple[str, ...]] = {
    "replenish": ("cards",),
    "reveal": ("token",),
    "enter": ("token",),
    "fight": ("token",),
    "first-aid": ("token",),
    "play": ("cards", "reveal"),
    "challenge": ("cards", "reveal"),
    "respond": ("cards", "parry", "reveal"),
    "card": ("card", "reveal"),
    "hole": ("card", "targets"),
    "debris": ("card", "targets", "value"),
    "debris-square": ("tokens",),
    "move-token": ("token", "to_tile", "my_tile", "on_square"),
    "steal": ("card", "targets", "reveal"),
}


class PlayForm(forms.Form):
    """One play at the table: the ``action`` and its choices (ids, counts and tiles), read into a ``Move``.
    The form is the action's: only the choices that play reads are read (and can be refused). Whether the
    cards are in the hand, the token on the board or the seats at the table is the play's to check, under
    the game's lock."""

    action = forms.ChoiceField(
        choices=[(a, a) for a in gh.ACTIONS],
        error_messages={"required": "Unknown action.", "invalid_choice": "Unknown action."},
    )
    token = IdField(message="Choose a token.")
    card = IdField(message="Choose cards from your hand.")
    cards = IdListField(message="Choose cards from your hand.", blank_is_error=True)
    parry = IdListField(message="Choose cards from your hand.", blank_is_error=True)
    reveal = IdListField(message="Choose a token.")
    value = IdListField(message="Choose cards from your hand.")
    targets = IdListField(message="Choose the opponents on the target square.")
    on_square = IdListField(message="Choose the players standing on the square the token is moved to.")
    tokens = IdField(message="Give the number of Debris tokens on the square as a whole number.")
    to_tile = IdField(message=f"Choose the tile the token is moved to (1 to {gh.TILES}).")
    my_tile = IdField(message=f"Give the tile your playing piece is on (1 to {gh.TILES}): the tracker has no squares.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        used = PLAY_CHOICES.get(self.data.get("action") or "", ())
        for name in [n for n in self.fields if n != "action" and n not in used]:
            del self.fields[name]

    def refusal(self) -> GameError:
        return GameError(first_error(self))

    def move(self) -> Move:
        data = {k: v for k, v in self.cleaned_data.items() if k != "action"}
        return Move(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})
