"""Every POST to the crew pages is read by one of these forms; views pass the
cleaned, typed values to crew_edits and crew_service as keyword arguments.

Text and numbers are cleaned by crew_edits' own ``_clean_text`` and
``_parse_int``, so a message is the same whether it comes from the editor, a
crew file or a campaign. The editor has one form per edit (``EDIT_FORMS``,
keyed by the action in the URL).
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from crewbuilder import crew_edits, limits
from crewbuilder.models.catalogue import ATTRIBUTES

CATALOGUE_MISSING = "The rules catalogue is not loaded: run `python manage.py loadcatalogue`."
CREW_FILE_MAX_BYTES = 256 * 1024


def first_error(form: forms.Form) -> str:
    """The message a page shows for a refused form: the first field's (in the form's order), else the form's."""
    for name in form.fields:
        if name in form.errors:
            return form.errors[name][0]
    return form.non_field_errors()[0]


class TextField(forms.Field):
    """Text as crew_edits stores it (trimmed; length, control characters and one-line names checked).

    ``keep_when_absent``: a field the POST does not carry cleans to None (the edit leaves the value as it is),
    not to "" (which would empty it). ``blank_is_none``: an empty value means "the default" (None).
    """

    def __init__(self, label: str, max_length: int, *, required: bool, keep_when_absent=False, blank_is_none=False):
        super().__init__(required=False)
        self.text_label, self.text_max, self.text_required = label, max_length, required
        self.keep_when_absent, self.blank_is_none = keep_when_absent, blank_is_none

    def clean(self, value):
        if value is None and (self.keep_when_absent or self.blank_is_none):
            return None
        if value == "" and self.blank_is_none:
            return None
        try:
            return crew_edits._clean_text(value, self.text_label, self.text_max, required=self.text_required)
        except crew_edits.EditError as exc:
            raise ValidationError(str(exc)) from None


class NumberField(forms.Field):
    """A whole number, as crew_edits reads one: "<label> must be a whole number." / "... between low and high.";
    with ``message``, that one message for any number that cannot be read (an id from a hidden field)."""

    def __init__(
        self, label: str = "", low: int | None = None, high: int | None = None, *, message="", keep_when_absent=False
    ):
        super().__init__(required=False)
        self.number_label, self.low, self.high, self.message = label, low, high, message
        self.keep_when_absent = keep_when_absent

    def clean(self, value):
        if value is None and self.keep_when_absent:
            return None
        try:
            if self.low is not None:
                return crew_edits._parse_int(value, self.number_label, self.low, self.high)
            return int(str(value).strip())
        except crew_edits.EditError as exc:
            raise ValidationError(str(exc)) from None
        except (TypeError, ValueError):
            raise ValidationError(self.message or f"{self.number_label} must be a whole number.") from None


class RaisedAttributesField(forms.Field):
    """The attributes a trait's choice raises: every value sent under the name, empty ones left out."""

    widget = forms.SelectMultiple

    def clean(self, value):
        raised = [a for a in (value or []) if a]
        if any(a not in ATTRIBUTES for a in raised):
            raise ValidationError(crew_edits.UNKNOWN_RAISED)
        return raised


def character_field() -> NumberField:
    return NumberField(message=crew_edits.CHARACTER_GONE)


def row_field(message: str = "Which entry? The form did not say.") -> NumberField:
    return NumberField(message=message)


def slug_field() -> forms.CharField:
    """A catalogue slug: an unknown one is refused by the edit, naming it."""
    return forms.CharField(required=False)


# --- create, import, share -----------------------------------------------------------


class CrewCreateForm(forms.Form):
    """A new crew: a name and one of the loaded rules editions (the newest when the form names none)."""

    system = forms.CharField(required=False)
    name = TextField("Crew name", crew_edits.NAME_MAX, required=True)

    def __init__(self, *args, systems: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.systems = systems

    def clean_system(self):
        if not self.systems:
            raise ValidationError(CATALOGUE_MISSING)
        chosen = self.cleaned_data["system"]
        return next((s for s in self.systems if str(s.pk) == chosen), self.systems[0])


class CrewFileForm(forms.Form):
    file = forms.FileField(error_messages={"required": "Choose a crew file (.json) to import."})

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > CREW_FILE_MAX_BYTES:
            raise ValidationError(f"The file is {upload.size // 1024} KiB; crew files are at most 256 KiB.")
        return upload


class ShareForm(forms.Form):
    """Make a (new) share link, or ``revoke`` the link."""

    revoke = forms.BooleanField(required=False)


# --- the editor ----------------------------------------------------------------------


class EditForm(forms.Form):
    """What every edit carries: the crew version the page was drawn from, and the character shown open.

    htmx sends the editor's one current version (``current_version``); plain forms carry their own."""

    current_version = forms.CharField(required=False)
    version = forms.CharField(required=False)
    open = forms.CharField(required=False)

    COMMON = ("current_version", "version", "open")

    @property
    def expected_version(self) -> int | None:
        """The version the edit was made on; None (no version, or not a number) is stale."""
        sent = self.cleaned_data.get("current_version") or self.cleaned_data.get("version")
        try:
            return int(sent)
        except (TypeError, ValueError):
            return None

    def edit_arguments(self) -> dict:
        """The edit's own keyword arguments."""
        return {k: v for k, v in self.cleaned_data.items() if k not in self.COMMON}

    def open_after(self, made=None, action: str = "") -> str:
        """Which character to show expanded after an edit: a new one, the edited one, else the one open before.

        A drag (place-character) moves a collapsed card by its handle: what was open stays open."""
        if made is not None and getattr(made, "pk", None):
            return str(made.pk)
        opened = (self.cleaned_data.get("open") or "").strip()
        edited = str(self.cleaned_data.get("character") or "").strip()
        chosen = opened if action in ("place-character", "remove-character") else (edited or opened)
        return chosen if chosen.isdigit() else ""  # it goes into a redirect URL: an id or nothing


class CrewSettingsForm(EditForm):
    name = TextField("Crew name", crew_edits.NAME_MAX, required=True, keep_when_absent=True)
    budget = NumberField("Budget", 0, crew_edits.BUDGET_MAX, keep_when_absent=True)
    notes = TextField("Notes", crew_edits.NOTES_MAX, required=False, keep_when_absent=True)


class AcceptFindingForm(EditForm):
    code = TextField("Finding", 60, required=True)
    character = forms.CharField(required=False)  # the character's name in the report; none for the crew's
    note = TextField("House-rule note", 300, required=True)

    def clean_character(self):
        return self.cleaned_data["character"] or None


class UnacceptFindingForm(EditForm):
    code = forms.CharField(required=False)
    character = forms.CharField(required=False)

    def clean_character(self):
        return self.cleaned_data["character"] or None


class AddCharacterForm(EditForm):
    name = TextField("Character name", crew_edits.NAME_MAX, required=True, blank_is_none=True)


class CharacterForm(EditForm):
    """An edit of one character: which one."""

    character = character_field()


class UpdateCharacterForm(CharacterForm):
    name = TextField("Character name", crew_edits.NAME_MAX, required=True, keep_when_absent=True)
    notes = TextField("Notes", limits.CHARACTER_NOTES_MAX, required=False, keep_when_absent=True)


class MoveCharacterForm(CharacterForm):
    direction = forms.ChoiceField(
        choices=[(d, d) for d in crew_edits.MOVE_DIRECTIONS],
        error_messages={"required": "Move a character up or down.", "invalid_choice": "Move a character up or down."},
    )


class PlaceCharacterForm(CharacterForm):
    place = NumberField("Place")  # its range (0 to the roster's length) is the edit's to check


class AttributeForm(CharacterForm):
    """Set an attribute to ``value``, step it by ``delta``, or press a stepper button (``step``:
    "strength:1", "strength:-1"), which names both."""

    attribute = forms.CharField(required=False, strip=False)
    step = forms.CharField(required=False, strip=False)
    delta = forms.CharField(required=False, strip=False)
    value = forms.CharField(required=False, strip=False)

    def clean(self):
        data = super().clean()
        attribute, delta, value = data.get("attribute"), data.get("delta"), data.get("value")
        if data.get("step"):
            attribute, _, delta = data["step"].partition(":")
            value = None
        data.pop("step", None)
        data["attribute"], data["delta"], data["value"] = attribute, None, None
        try:
            if attribute not in ATTRIBUTES:
                raise crew_edits.EditError("Unknown attribute.")
            low, high = crew_edits.ATTRIBUTE_STORAGE_RANGE
            if delta not in (None, ""):
                data["delta"] = crew_edits._parse_int(delta, "Change", -1, 1)
            else:
                data["value"] = crew_edits._parse_int(value, attribute.capitalize(), low, high)
        except crew_edits.EditError as exc:
            raise ValidationError(str(exc)) from None
        return data


class RaisedForm(CharacterForm):
    """A form with a trait's choice, posted as "raise" and given to the edit as ``raised`` (``raise`` is a word
    Python keeps for itself)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["raise"] = RaisedAttributesField(required=False)

    def clean(self):
        data = super().clean()
        data["raised"] = data.pop("raise", [])
        return data


class AddTraitForm(RaisedForm):
    slug = slug_field()


class TraitChoiceForm(RaisedForm):
    row = row_field(crew_edits.TRAIT_GONE)


class RowForm(CharacterForm):
    """Remove a trait, body-mod or gear row (one copy of a gear row) from a character."""

    row = row_field()


class AddEntryForm(CharacterForm):
    """Give a character a body-mod or an item."""

    slug = slug_field()


EDIT_FORMS: dict[str, type[EditForm]] = {
    "crew": CrewSettingsForm,
    "accept": AcceptFindingForm,
    "unaccept": UnacceptFindingForm,
    "add-character": AddCharacterForm,
    "character": UpdateCharacterForm,
    "remove-character": CharacterForm,
    "move-character": MoveCharacterForm,
    "place-character": PlaceCharacterForm,
    "duplicate-character": CharacterForm,
    "attribute": AttributeForm,
    "clear-changes": CharacterForm,
    "add-trait": AddTraitForm,
    "trait-choice": TraitChoiceForm,
    "remove-trait": RowForm,
    "add-body-mod": AddEntryForm,
    "remove-body-mod": RowForm,
    "add-gear": AddEntryForm,
    "remove-gear": RowForm,
}
