"""The drone set pages' forms: every POST is read here, the services take what they give.

The names, the group and the drone count are checked by the services (the same messages for a
crew file and a page); the forms turn the posted text into the values the services take.
"""

from __future__ import annotations

from django import forms

VERSION_ERRORS = {"invalid": "This page is out of date: reload it and make your change again."}
DRONE_ERRORS = {"invalid": "That drone is not in this set.", "required": "That drone is not in this set."}


class DroneSetForm(forms.Form):
    """A new drone set: its name, its Ghoul group and how many drones."""

    name = forms.CharField(required=False)
    group = forms.CharField(required=False)
    drones = forms.IntegerField(
        required=False,
        error_messages={"invalid": "Number of drones must be a whole number."},
    )

    def clean_drones(self) -> int:
        count = self.cleaned_data["drones"]
        if count is None:
            raise forms.ValidationError("Number of drones must be a whole number.")
        return count


class EditForm(forms.Form):
    """An editor form: each carries the version the page was drawn with (an older tab's form is refused)."""

    version = forms.IntegerField(required=False, error_messages=VERSION_ERRORS)


class RenameForm(EditForm):
    name = forms.CharField(required=False)


class GroupForm(EditForm):
    group = forms.CharField(required=False)


class AddDroneForm(EditForm):
    name = forms.CharField(required=False)


class RenameDroneForm(EditForm):
    drone = forms.IntegerField(error_messages=DRONE_ERRORS)
    name = forms.CharField(required=False)


class RemoveDroneForm(EditForm):
    drone = forms.IntegerField(error_messages=DRONE_ERRORS)


# the editor's actions (the URL's last part), each with its form and the service it calls
EDIT_FORMS: dict[str, type[EditForm]] = {
    "rename": RenameForm,
    "group": GroupForm,
    "add-drone": AddDroneForm,
    "rename-drone": RenameDroneForm,
    "remove-drone": RemoveDroneForm,
}


class ShareForm(forms.Form):
    """The share link: created, or revoked (``revoke``)."""

    revoke = forms.BooleanField(required=False)
