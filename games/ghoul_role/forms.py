"""New sheet forms: their choices come from the catalogue rows (house rules included)."""

from __future__ import annotations

from django import forms

from games.ghoul_role import services
from games.ghoul_role.models import GhoulSheet, Kind


class CaveSheetForm(forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=100, required=False)
    difficulty = forms.ChoiceField(label="Difficulty")
    variant = forms.ChoiceField(label="Player variant")
    players = forms.IntegerField(
        label="Players (4+ players only)",
        required=False,
        min_value=1,
        max_value=services.MAX_PLAYERS,
        help_text="The 2-player, 3-player and solo variants fix the number themselves.",
    )

    kind = GhoulSheet.CAVE

    def __init__(self, *args, catalogue: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.catalogue = catalogue
        self.fields["difficulty"].choices = services.difficulty_choices(catalogue)
        self.fields["difficulty"].initial = "ghoul"
        self.fields["variant"].choices = services.variant_choices(catalogue)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["goals"] = services.goals_for(
                self.catalogue, self.kind, data["difficulty"], data["variant"], data.get("players")
            )
        except services.SheetError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


class VileSheetForm(forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=100, required=False)
    difficulty = forms.ChoiceField(label="Difficulty")
    variant = forms.ChoiceField(label="Opponents / variant")
    players = forms.IntegerField(
        label="Players",
        required=False,
        min_value=1,
        max_value=services.MAX_PLAYERS,
        help_text="For the 2+ player games and Vile Ghoul vs. Thief (vs. Cave).",
    )
    thief_stash = forms.IntegerField(label="Treasures the Thief must stash (vs. Thief only)", required=False)

    kind = GhoulSheet.VILE

    def __init__(self, *args, catalogue: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.catalogue = catalogue
        self.fields["difficulty"].choices = services.difficulty_choices(catalogue, vile=True)
        self.fields["difficulty"].initial = "ghoul"
        self.fields["variant"].choices = services.vile_variant_choices(catalogue)
        for face in range(1, 7):
            for stat in ("movement", "attack"):
                self.fields[f"{stat}_{face}"] = forms.IntegerField(
                    label=f"Row {face}: {stat.capitalize()}", min_value=0, max_value=12
                )

    def chart_fields(self):
        return [(face, self[f"movement_{face}"], self[f"attack_{face}"]) for face in range(1, 7)]

    def plain_fields(self):
        return [self[name] for name in ("name", "difficulty", "variant", "players", "thief_stash")]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["goals"] = services.goals_for(
                self.catalogue,
                self.kind,
                data["difficulty"],
                data["variant"],
                data.get("players"),
                data.get("thief_stash"),
            )
        except services.SheetError as exc:
            raise forms.ValidationError(str(exc)) from None
        data["chart"] = {face: (data[f"movement_{face}"], data[f"attack_{face}"]) for face in range(1, 7)}
        return data


class SheetKindForm(forms.Form):
    """Which of the two new-sheet forms was sent."""

    kind = forms.ChoiceField(choices=Kind.choices)
