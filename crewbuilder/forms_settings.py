from django import forms

from crewbuilder.models import User


class PaperForm(forms.ModelForm):
    """The paper every PDF prints on unless a print button asks for the other one."""

    class Meta:
        model = User
        fields = ("paper_size",)
        labels = {"paper_size": "Paper for printing"}
        widgets = {"paper_size": forms.RadioSelect}
        help_texts = {
            "paper_size": "Rosters, cards and sheets print on this paper. Each print button can "
            "also print once on the other paper without changing this setting."
        }
