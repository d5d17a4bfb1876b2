"""Every POST to the campaign pages is read by one of these forms; views pass their
cleaned, typed values to the services as keyword arguments."""

import datetime

from django import forms

from campaigns.models import CAMPAIGN_TEXT_MAX, CampaignScenario, RollTable
from crewbuilder.crew_service import ATTRIBUTE_LABELS
from crewbuilder.limits import TREASURE_PER_GAME_MAX
from crewbuilder.models import Crew


def flag(label: str = "", *, no: str | None = None) -> forms.TypedChoiceField:
    """A button or checkbox sending "1" for yes (and ``no``, when given, for an explicit no).

    Not a BooleanField: its checkbox widget reads any other text, "0" included, as yes.
    """
    choices = [("1", label or "yes")] + ([("0", no)] if no else [])
    return forms.TypedChoiceField(choices=choices, coerce=lambda value: value == "1", required=False, empty_value=False)


class SubmissionForm(forms.Form):
    """A form carrying its submission token (campaigns/idempotency.py): a double click acts once."""

    # Hidden: shown as a text box it was sent after the token, empty, and the empty value won.
    submission = forms.CharField(required=False, widget=forms.HiddenInput)


class CampaignForm(SubmissionForm):
    name = forms.CharField(max_length=100)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=CAMPAIGN_TEXT_MAX
    )
    house_rules = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=CAMPAIGN_TEXT_MAX,
        help_text="Your group's house rules, shown to every player.",
    )
    starting_budget = forms.IntegerField(min_value=1, max_value=10000, initial=150)
    treasure_value = forms.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        label="Points per Treasure Token",
        help_text="The free rules do not price Treasure Tokens; set what one buys between games.",
    )


class TableForm(forms.Form):
    kind = forms.ChoiceField(choices=RollTable.Kind.choices)
    name = forms.CharField(max_length=100)
    die = forms.CharField(max_length=10, initial="D6", help_text="D3, D6, 2D6, D66, D8, D12, D20…")
    rows = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One row per line: “1-2 | Lost an eye | discipline -1” (the effect is optional).",
    )


class ScenarioForm(forms.Form):
    """An organiser's own scenario (reading C8)."""

    name = forms.CharField(max_length=100)
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=5000,
        help_text="Set-up, objectives, special rules: your group's text.",
    )
    draws_complication = forms.BooleanField(required=False, label="Draw a Complication before the game")
    card = forms.TypedChoiceField(
        choices=[("", "no card: only picked")] + CampaignScenario.CARD_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        label="Card on the scenario list",
        help_text="The free rules do not say which card gives which scenario: give yours a card and the "
        "random draw can land on it (a D12 never gives the King).",
    )


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, error_messages={"required": "Whose username?"})


class RespondForm(forms.Form):
    """Accept ("1") or decline ("0") an invitation."""

    accept = flag("Accept", no="Decline")


class EnrolForm(forms.Form):
    """One of the player's own crews; anyone else's crew is not a choice."""

    crew = forms.ModelChoiceField(
        queryset=None,
        error_messages={"required": "Choose one of your crews.", "invalid_choice": "Choose one of your crews."},
    )

    def __init__(self, *args, owner, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["crew"].queryset = Crew.objects.filter(owner=owner)


class EnrolmentDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("approve", "Approve"), ("refuse", "Refuse")],
        error_messages={"required": "Approve or refuse?", "invalid_choice": "Approve or refuse?"},
    )
    reason = forms.CharField(required=False)


class CrewEditForm(forms.Form):
    """A name and notes for the campaign crew, or (with ``character``) for one of its characters.

    A field left out of the form is left as it is (``None``), not emptied.
    """

    # A version no crew has: a form without a usable version counts as stale (issue 17, finding 6).
    STALE = -1

    character = forms.IntegerField(
        required=False, error_messages={"invalid": "That character is not in your campaign crew."}
    )
    name = forms.CharField(required=False, strip=False)
    notes = forms.CharField(required=False, strip=False)
    version = forms.CharField(required=False)

    def _sent(self, name):
        return self.cleaned_data[name] if name in self.data else None

    def clean_name(self):
        return self._sent("name")

    def clean_notes(self):
        return self._sent("notes")

    def clean_version(self) -> int:
        try:
            return int(self.cleaned_data["version"])
        except ValueError:
            return self.STALE


def _attribute_field(label: str) -> forms.IntegerField:
    between = f"{label} must be between -2 and 3."
    return forms.IntegerField(
        required=False,
        min_value=-2,
        max_value=3,
        error_messages={"invalid": f"{label} must be a whole number.", "min_value": between, "max_value": between},
    )


class ShopForm(SubmissionForm):
    """Buy an item for a character, or (``hire``) hire a new character."""

    hire = forms.BooleanField(required=False)
    character = forms.IntegerField(required=False, error_messages={"invalid": "Choose one of your characters."})
    item = forms.CharField(required=False)
    name = forms.CharField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, label in ATTRIBUTE_LABELS.items():
            self.fields[key] = _attribute_field(label)

    def attributes(self) -> dict[str, int]:
        return {key: self.cleaned_data[key] or 0 for key in ATTRIBUTE_LABELS}


class ConfirmGameForm(forms.Form):
    for_everyone = flag("Confirm for every player")


class WithdrawGameForm(forms.Form):
    reason = forms.CharField(required=False)


class ScenarioDrawForm(forms.Form):
    """Draw the Complication of the scenario chosen in the game form (nothing is recorded)."""

    draw = forms.CharField(required=False)
    scenario = forms.CharField(required=False)
    scenario_other = forms.CharField(required=False)


class GenerateScenarioForm(forms.Form):
    """The seeded random scenario of the game form's page (a GET: a link replays it)."""

    generate = forms.CharField(required=False)
    seed = forms.IntegerField(required=False, error_messages={"invalid": "The seed must be a whole number."})
    pick = forms.CharField(required=False)


OUTCOMES = [("", "fine"), ("ooa", "out of action"), ("dead", "dead")]


class GameRecordForm(SubmissionForm):
    """The record-a-game form: which crews played, the result, treasure and each character's fate.

    Its fields are named per crew (``played-<id>``, ``treasure-<id>``) and per
    character (``outcome-<id>``, ``table-<id>``). ``clean`` checks everything
    and gives ``participants`` without any dice rolled: the view rolls on the
    chosen tables only once the whole form is valid. ``initial`` (same field
    names) fills a new form: every crew played, today's date, unless told
    otherwise (e.g. pre-filled from a tracked battle).
    """

    played_on = forms.DateField(
        error_messages={
            "required": "Give the date the game was played.",
            "invalid": "Give the date the game was played.",
        }
    )
    scenario = forms.CharField(required=False)
    scenario_other = forms.CharField(required=False)
    complication = forms.CharField(required=False)
    result = forms.CharField(required=False)

    def __init__(self, *args, crews, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.crews, self.tables = crews, {t.pk: t for t in tables}
        table_choices = [("", "no roll")] + [(str(t.pk), t.name) for t in tables]
        for entry in crews:
            self.fields[f"played-{entry.pk}"] = flag("Took part")
            self.fields[f"treasure-{entry.pk}"] = forms.IntegerField(
                required=False,
                min_value=0,
                max_value=TREASURE_PER_GAME_MAX,
                error_messages={
                    "invalid": f"Treasure for {entry.crew.name} must be a whole number.",
                    "min_value": f"Treasure for {entry.crew.name} cannot be negative.",
                    "max_value": f"Treasure for {entry.crew.name} is at most {TREASURE_PER_GAME_MAX} tokens.",
                },
            )
            for character in entry.crew.characters.all():
                self.fields[f"outcome-{character.pk}"] = forms.ChoiceField(
                    choices=OUTCOMES,
                    required=False,
                    error_messages={"invalid_choice": f"Choose an outcome for {character.name}."},
                )
                self.fields[f"table-{character.pk}"] = forms.ChoiceField(
                    choices=table_choices,
                    required=False,
                    error_messages={"invalid_choice": f"Choose one of the tables for {character.name}."},
                )

    def default_initial(self) -> dict:
        return {"played_on": datetime.date.today().isoformat()} | {f"played-{e.pk}": True for e in self.crews}

    def shown(self) -> dict:
        """What the form shows, as text: what was sent, or the initial values."""
        if self.is_bound:
            return self.data
        values = self.default_initial() | self.initial
        return {k: ("1" if v is True else "" if v is False else str(v)) for k, v in values.items()}

    def clean(self):
        data = super().clean()
        participants = []
        for entry in self.crews:
            if not data.get(f"played-{entry.pk}"):
                continue
            casualties, rolls = [], []
            for character in entry.crew.characters.all():
                outcome = data.get(f"outcome-{character.pk}") or ""
                if outcome in {"ooa", "dead"}:
                    casualties.append({"character": character.pk, "name": character.name, "outcome": outcome})
                table = data.get(f"table-{character.pk}")
                if table and outcome != "dead":
                    rolls.append((character, self.tables[int(table)]))
            participants.append(
                {
                    "crew": entry,
                    "treasure": data.get(f"treasure-{entry.pk}") or 0,
                    "casualties": casualties,
                    "table_rolls": rolls,
                }
            )
        data["participants"] = participants
        if len(participants) < 2:
            self.add_error(None, "A game needs at least two crews.")
        data["scenario"] = ((data.get("scenario_other") or data.get("scenario") or "").strip())[:100]
        if not data["scenario"]:
            self.add_error(None, "Which scenario was played?")
        data["complication"] = (data.get("complication") or "")[:100]
        result = data.get("result") or ""
        data["is_draw"] = result == "draw"
        data["winner"] = next((p["crew"] for p in participants if str(p["crew"].pk) == result), None)
        if not data["is_draw"] and data["winner"] is None:
            self.add_error(None, "Choose the winner (one of the crews that played) or a draw.")
        return data

    def content(self) -> dict:
        """The cleaned answers, field by field: what makes two submissions the same game."""
        return {name: self.cleaned_data.get(name) for name in self.fields if name != "submission"}

    def problems(self) -> list[str]:
        """Every error, for the list at the top of the form."""
        return [message for errors in self.errors.values() for message in errors]
