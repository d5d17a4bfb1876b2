from django import forms

from campaigns.models import CAMPAIGN_TEXT_MAX, CampaignScenario, RollTable


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=100)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False,
                                  max_length=CAMPAIGN_TEXT_MAX)
    house_rules = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False,
                                  max_length=CAMPAIGN_TEXT_MAX,
                                  help_text="Your group's house rules, shown to every player.")
    starting_budget = forms.IntegerField(min_value=1, max_value=10000, initial=150)
    treasure_value = forms.IntegerField(
        min_value=1, max_value=1000, required=False, label="Points per Treasure Token",
        help_text="The free rules do not price Treasure Tokens; set what one buys between games.",
    )


class TableForm(forms.Form):
    kind = forms.ChoiceField(choices=RollTable.KIND_CHOICES)
    name = forms.CharField(max_length=100)
    die = forms.CharField(max_length=10, initial="D6", help_text="D3, D6, 2D6, D66, D8, D12, D20…")
    rows = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One row per line: “1-2 | Lost an eye | discipline -1” (the effect is optional).",
    )


class ScenarioForm(forms.Form):
    """An organiser's own scenario (reading C8)."""

    name = forms.CharField(max_length=100)
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False, max_length=5000,
                           help_text="Set-up, objectives, special rules: your group's text.")
    draws_complication = forms.BooleanField(required=False, label="Draw a Complication before the game")
    card = forms.TypedChoiceField(
        choices=[("", "no card: only picked")] + CampaignScenario.CARD_CHOICES, coerce=int, empty_value=None,
        required=False, label="Card on the scenario list",
        help_text="The free rules do not say which card gives which scenario: give yours a card and the "
                  "random draw can land on it (a D12 never gives the King).",
    )
