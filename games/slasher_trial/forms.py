from django import forms


class TrialForm(forms.Form):
    name = forms.CharField(max_length=100, label="Name of the trial")
    adjacency = forms.ChoiceField(
        label="Adjacent Squares",
        choices=[("diagonals", "The 8 surrounding Squares (diagonals included)"),
                 ("orthogonal", "Only the 4 Squares sharing a side")],
        initial="diagonals",
        help_text="The rules do not define adjacency: choose before the trial (shown on the trial page).",
    )
