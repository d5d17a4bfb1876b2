"""Every POST of the battle pages is read by one of these forms."""

from __future__ import annotations

from django import forms

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import catalogue
from rules.cybernekro.battle.rounds import ap_models
from rules.cybernekro.battle.state import Battle

from . import services, steps

USERNAMES_MAX = 500


class NewBattleForm(forms.Form):
    scenario = forms.ChoiceField(choices=())
    crew = forms.TypedChoiceField(coerce=int, choices=(), label="Your crew")
    players = forms.CharField(
        required=False,
        max_length=USERNAMES_MAX,
        help_text="Usernames of the other players, separated by commas; each chooses a crew.",
    )
    share_links = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Crews by share link",
        help_text="One crew share link per line.",
    )

    def __init__(self, *args, crews=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = services.scenario_choices()
        self.fields["crew"].choices = [(c.pk, c.name) for c in crews]

    def usernames(self) -> list[str]:
        return [n for n in self.cleaned_data["players"].replace("\n", ",").split(",") if n.strip()]

    def tokens(self) -> list[str]:
        return [t for t in self.cleaned_data["share_links"].splitlines() if t.strip()]


class CampaignBattleForm(forms.Form):
    scenario = forms.ChoiceField(choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = services.scenario_choices()


class JoinForm(forms.Form):
    crew = forms.TypedChoiceField(coerce=int, choices=())

    def __init__(self, *args, crews=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["crew"].choices = [(c.pk, c.name) for c in crews]


class InitiativeForm(forms.Form):
    model = forms.ChoiceField(choices=(), label="My character for Initiative Tests")

    def __init__(self, *args, state: Battle, seat: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["model"].choices = [
            (m.id, f"{m.name} (Intellect {m.intellect})") for m in state.crew(seat) if not m.imprisoned
        ]


class ConditionsForm(forms.Form):
    """The conditions the players tick for the odds table and the attack (theirs to judge, B24)."""

    cover = forms.BooleanField(required=False)
    long_range = forms.BooleanField(required=False)
    surrounded = forms.BooleanField(required=False)

    def situation(self):
        data = self.cleaned_data if self.is_valid() else {}
        return cn.Situation(
            cover=bool(data.get("cover")),
            long_range=bool(data.get("long_range")),
            surrounded=bool(data.get("surrounded")),
        )


class VersionForm(forms.Form):
    v = forms.IntegerField(min_value=0)


class StepForm(forms.Form):
    """One move: ``option`` is the key of one of the seat's legal options; the rest are its inputs."""

    v = forms.IntegerField(min_value=0)
    option = forms.CharField(max_length=300)
    cover = forms.BooleanField(required=False)
    long_range = forms.BooleanField(required=False)
    surrounded = forms.BooleanField(required=False)
    in_melee = forms.BooleanField(required=False)
    modifier = forms.IntegerField(required=False, min_value=-20, max_value=20)
    allies = forms.IntegerField(required=False, min_value=0, max_value=20, label="Allies in line of sight")
    sign = forms.TypedChoiceField(required=False, coerce=int, choices=[(1, "+"), (-1, "−")], empty_value=1)
    sorcery = forms.ChoiceField(required=False, choices=())
    target = forms.ChoiceField(required=False, choices=())
    test = forms.ChoiceField(
        required=False,
        choices=[("", "no test")]
        + [(a, a.capitalize()) for a in ("agility", "strength", "toughness", "intellect", "discipline")],
    )
    witnesses = forms.MultipleChoiceField(required=False, choices=())
    targets = forms.MultipleChoiceField(required=False, choices=())  # a sorcery's models in reach (the players')
    body_mod = forms.ChoiceField(required=False, choices=())
    weapon = forms.ChoiceField(required=False, choices=())

    def __init__(self, *args, state: Battle, seat: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.state, self.seat = state, seat
        self.legal = {steps.key(o): o for o in steps.options(state, seat) + steps.EXTRA}
        self.fields["sorcery"].choices = [("", "—")] + [
            (s["slug"], s["name"]) for s in catalogue.data().get("sorceries", [])
        ]
        self.fields["target"].choices = [("", "—")] + [(m.id, m.name) for m in state.models if m.in_play]
        self.fields["witnesses"].choices = [(m.id, m.name) for m in state.crew(seat)]
        self.fields["targets"].choices = [(m.id, m.name) for m in state.models if m.in_play]
        self.fields["body_mod"].choices = [("", "—")] + sorted({(b, b) for m in state.models for b in m.body_mods})
        self.fields["weapon"].choices = [("", "—")] + sorted(
            {(w.slug, w.name) for m in state.models for w in m.weapons}
        )
        self.ap_ids = [m.id for m in ap_models(state, seat)] if "assign_ap" in self.legal else []
        for mid in self.ap_ids:
            self.fields[f"ap_{mid}"] = forms.IntegerField(min_value=0, max_value=10, required=True)

    def clean(self):
        data = super().clean()
        option = self.legal.get(data.get("option", ""))
        if option is None and "option" in data:
            raise forms.ValidationError("That step is not open to you now (the battle may have moved on).")
        data["chosen"] = option
        data["split"] = {mid: data.get(f"ap_{mid}") for mid in self.ap_ids}
        return data

    def first_error(self) -> str:
        for field, errors in self.errors.items():
            label = "" if field == "__all__" else f"{self.fields[field].label or field.replace('_', ' ')}: "
            return f"{label}{errors[0]}"
        return "Not allowed now."
