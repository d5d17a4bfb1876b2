from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def validate_password_for_user(self, user, **kwargs):
        # A weak password is a problem of the Password field, not of its confirmation (Django's default).
        super().validate_password_for_user(user, password_field_name="password1")

    def clean_username(self):
        username = self.cleaned_data["username"]
        if get_user_model().objects.named(username) is not None:
            raise ValidationError("That username is taken (usernames ignore upper and lower case).")
        return username


class LockedOutLoginForm(forms.Form):
    """A refused login's username and ``next``, put back in the login page that says why it was refused."""

    username = forms.CharField(required=False, strip=False)
    next = forms.CharField(required=False, strip=False)
