"""Every POST of the battle pages is read by one of these forms."""

from __future__ import annotations

from django import forms

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, catalogue
from rules.cybernekro.battle.state import Battle
from rules.cybernekro.battle.turns import ap_models

from . import services, steps

USERNAMES_MAX = 500


HOW_CHOICES = [
    ("choose", "Choose it"),
    ("deck", "Draw a card (52-card deck)"),
    ("d12", "Roll a D12 (1 = Ace, 11 = Jack, 12 = Queen)"),
]


def _hold_rolls_field() -> forms.BooleanField:
    """B65: on unless unticked; the players may switch it during the game."""
    return forms.BooleanField(
        required=False,
        initial=True,
        label="Each roll waits for every player",
        help_text="After a roll, every other player lets it stand (or plays a Jack, or forces a Dread re-roll) "
        "before it counts; the roller may say so first. Any player can switch it during the game.",
    )


class ScenarioChoiceMixin:
    """Choose the scenario, or draw it as the rules allow (a card or a D12, reading B30)."""

    def clean(self):
        data = super().clean()
        data["how"] = data.get("how") or "choose"  # a post without the radio chooses
        if data["how"] == "choose" and not data.get("scenario"):
            self.add_error("scenario", "Choose the scenario, or draw it.")
        return data

    def draw(self) -> str:
        return "" if self.cleaned_data["how"] == "choose" else self.cleaned_data["how"]


class NewBattleForm(ScenarioChoiceMixin, forms.Form):
    how = forms.ChoiceField(
        choices=HOW_CHOICES, initial="choose", required=False, widget=forms.RadioSelect, label="Choose or draw"
    )
    scenario = forms.ChoiceField(choices=(), required=False, label="Scenario", help_text="When you choose it.")
    crew = forms.TypedChoiceField(
        coerce=int,
        choices=(),
        required=False,
        empty_value=None,
        label="Your crew",
        help_text="Leave empty only if you are the game master.",
    )
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
    game_master = forms.CharField(
        required=False,
        max_length=150,
        label="Game master (optional)",
        help_text="A username (yours if you run the game and play no crew): decides the NPCs' actions.",
    )
    hold_rolls = _hold_rolls_field()

    def __init__(self, *args, crews=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = [("", "—")] + services.scenario_choices()
        self.fields["scenario"].initial = services.scenario_choices()[0][0]
        self.fields["crew"].choices = [("", "—")] + [(c.pk, c.name) for c in crews]
        self.fields["crew"].initial = crews[0].pk if crews else None

    def usernames(self) -> list[str]:
        return [n for n in self.cleaned_data["players"].replace("\n", ",").split(",") if n.strip()]

    def tokens(self) -> list[str]:
        return [t for t in self.cleaned_data["share_links"].splitlines() if t.strip()]


class CampaignBattleForm(ScenarioChoiceMixin, forms.Form):
    how = forms.ChoiceField(
        choices=HOW_CHOICES, initial="choose", required=False, widget=forms.RadioSelect, label="Choose or draw"
    )
    scenario = forms.ChoiceField(choices=(), required=False, label="Scenario", help_text="When you choose it.")
    game_master = forms.TypedChoiceField(
        coerce=int,
        choices=(),
        required=False,
        empty_value=None,
        label="Game master (optional)",
        help_text="A member with no crew enrolled: decides the NPCs' actions.",
    )
    hold_rolls = _hold_rolls_field()

    def __init__(self, *args, campaign, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = [("", "—")] + services.scenario_choices(campaign)
        self.members = {u.pk: u for u in members}
        self.fields["game_master"].choices = [("", "none")] + [(u.pk, u.username) for u in members]

    def game_master_user(self):
        return self.members.get(self.cleaned_data["game_master"])


class ScenarioForm(forms.Form):
    """The scenario the group agreed on after a card whose scenario the free rules lack."""

    scenario = forms.ChoiceField(choices=(), label="The scenario you agreed on")

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = services.scenario_choices(campaign)


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
    # "When shooting a model that is in melee": the same -4 as cover (not added twice)
    target_in_melee = forms.BooleanField(required=False)
    # Stagger: "pushed back 1" stopping and dropping Prone if pushed into an obstacle and falling down if
    # pushed over a ledge" (the drop, B54)
    stagger_into_obstacle = forms.BooleanField(required=False)
    stagger_over_ledge = forms.DecimalField(
        required=False, min_value=0, max_value=actions.MAX_FALL, max_digits=4, decimal_places=1, label="Ledge"
    )
    # Lantern and spot light within 3" (E12b): distances are the players'
    target_near_lantern = forms.BooleanField(required=False)
    shooter_near_allied_spot_light = forms.BooleanField(required=False)
    # Auto X: "Can choose to roll X dice": ticked, an Auto weapon rolls its one die, without the -2
    one_die = forms.BooleanField(required=False)
    # the allies in LoS typed for the next Morale Tests: their odds count them (the roll does, from the step's form)
    allies = forms.IntegerField(required=False, min_value=0, max_value=20)

    def allies_in_los(self) -> int:
        return (self.cleaned_data.get("allies") or 0) if self.is_valid() else 0

    def situation(self):
        data = self.cleaned_data if self.is_valid() else {}
        return cn.Situation(
            cover=bool(data.get("cover")),
            long_range=bool(data.get("long_range")),
            surrounded=bool(data.get("surrounded")),
            in_melee=bool(data.get("target_in_melee")),
            auto=not data.get("one_die"),
            stagger_into_obstacle=bool(data.get("stagger_into_obstacle")),
            stagger_over_ledge=0.0 if data.get("stagger_into_obstacle") else float(data.get("stagger_over_ledge") or 0),
            **{name: bool(data.get(name)) for name in cn.LIGHT_TICKS},
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
    stagger_into_obstacle = forms.BooleanField(required=False)
    stagger_over_ledge = forms.DecimalField(
        required=False, min_value=0, max_value=actions.MAX_FALL, max_digits=4, decimal_places=1, label="Ledge"
    )
    target_near_lantern = forms.BooleanField(required=False)
    shooter_near_allied_spot_light = forms.BooleanField(required=False)
    in_melee = forms.BooleanField(required=False)  # the acting model (a sorcerer: -4; no Shoot, Interact...)
    target_in_melee = forms.BooleanField(required=False)  # a Shoot at a model in melee: -4, as cover
    one_die = forms.BooleanField(required=False)  # an Auto weapon rolls one die (ConditionsForm)
    # a Move's or a Jump's choices; a Push's "what is right behind the target" (B53, B54)
    prone_after = forms.BooleanField(required=False)
    sprint = forms.BooleanField(required=False)
    height = forms.DecimalField(
        required=False, min_value=0, max_value=actions.MAX_FALL, max_digits=4, decimal_places=1, label="Drop"
    )
    pushed_into = forms.ChoiceField(
        required=False, choices=[("", "nothing in the way"), ("obstacle", "an obstacle"), ("ledge", "a ledge")]
    )
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
        splitting = ap_models(state, seat) if "assign_ap" in self.legal else ()
        self.ap_ids = [m.id for m in splitting]
        for m in splitting:
            # Not required: the other steps open meanwhile (End the game, Undo) send no split.
            self.fields[f"ap_{m.id}"] = forms.IntegerField(
                label=f"AP for {m.name}", min_value=0, max_value=10, required=False
            )

    def clean(self):
        data = super().clean()
        option = self.legal.get(data.get("option", ""))
        if option is None and "option" in data:
            raise forms.ValidationError("That step is not open to you now (the battle may have moved on).")
        data["chosen"] = option
        if data.get("stagger_into_obstacle") and data.get("stagger_over_ledge"):
            raise forms.ValidationError("Behind the target: an obstacle or a ledge, not both.")
        data["split"] = {mid: data.get(f"ap_{mid}") for mid in self.ap_ids}
        if option is not None and option.step == "assign_ap":
            missing = [self.state.model(mid).name for mid, ap in data["split"].items() if ap is None]
            if missing:
                raise forms.ValidationError(f"Give every model its AP (none given to {', '.join(missing)}).")
        return data

    def inputs(self) -> dict:
        """The checked inputs of the move, for ``services.act`` (the option and the version apart)."""
        return {k: v for k, v in self.cleaned_data.items() if k not in ("v", "option", "chosen")}

    def first_error(self) -> str:
        for field, errors in self.errors.items():
            label = "" if field == "__all__" else f"{self.fields[field].label or field.replace('_', ' ')}: "
            return f"{label}{errors[0]}"
        return "Not allowed now."
