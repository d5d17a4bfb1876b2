from django import forms

from crewbuilder.models import User


class PaperForm(forms.ModelForm):
    """The paper PDFs print on unless a print link asks for another."""

    class Meta:
        model = User
        fields = ("paper_size",)
        labels = {"paper_size": "Paper for PDFs"}
        widgets = {"paper_size": forms.RadioSelect}
