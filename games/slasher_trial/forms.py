from django import forms
from django.db import models

from rules import slasher_trial as sl


class Adjacency(models.TextChoices):
    DIAGONALS = "diagonals", "The 8 surrounding Squares (diagonals included)"
    ORTHOGONAL = "orthogonal", "Only the 4 Squares sharing a side"


class TrialForm(forms.Form):
    name = forms.CharField(max_length=100, label="Name of the trial")
    adjacency = forms.ChoiceField(
        label="Adjacent Squares",
        choices=Adjacency.choices,
        initial=Adjacency.DIAGONALS,
        help_text="The rules do not define adjacency: choose before the trial (shown on the trial page).",
    )


class ActForm(forms.Form):
    """One action posted from the trial page: a button's ``act`` ("repair:B3"), or ``action`` and ``target``
    typed in; ``times`` repeats a Repair (each one checked by the rules)."""

    act = forms.CharField(required=False)
    action = forms.CharField(required=False)
    target = forms.CharField(required=False)
    # the most Repairs one Generator can take (its Repair Progress "may not exceed 100")
    times = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=sl.REPAIR_MAX,
        label="How many times",
        error_messages={
            "min_value": "Repeat an action at least once.",
            "max_value": "Repeat an action at most %(limit_value)s times in one go.",
            "invalid": "Give how many times as a whole number.",
        },
    )

    def action_target_times(self) -> tuple[str, str, int]:
        data = self.cleaned_data
        action, target = data["action"], data["target"]
        if data["act"]:  # a grid or target button: "move:B3", "hit:mara", "ready:"
            action, _, target = data["act"].partition(":")
        return action, target, data["times"] or 1
