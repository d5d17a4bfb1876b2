"""Form fields for the ids a game page posts: a piece, a card, a token, a seat, or several ticked.

An id is ASCII digits (``int()`` would read a full-width "１" as 1); each field carries the message
for the player when it is not one. Whether the id names something in the game is the service's
(and the engine's) to say, under the game's lock.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def read_id(value, message: str) -> int:
    text = str(value).strip()
    if not text.isascii():
        raise ValidationError(message)
    try:
        return int(text)
    except ValueError:
        raise ValidationError(message) from None


class IdField(forms.Field):
    """One id, or None when left blank."""

    def __init__(self, *, message: str, **kwargs):
        self.message = message
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> int | None:
        if value in self.empty_values:
            return None
        return read_id(value, self.message)


class IdListField(forms.Field):
    """The ids of ticked boxes, in the order posted; a blank is left out, or with ``blank_is_error``
    refused (a list where every entry is a choice)."""

    widget = forms.SelectMultiple

    def __init__(self, *, message: str, blank_is_error: bool = False, **kwargs):
        self.message = message
        self.blank_is_error = blank_is_error
        super().__init__(required=False, **kwargs)

    def to_python(self, value) -> list[int]:
        if value in self.empty_values:
            return []
        values = value if isinstance(value, (list, tuple)) else [value]
        if self.blank_is_error and any(str(v).strip() == "" for v in values):
            raise ValidationError(self.message)
        return [read_id(v, self.message) for v in values if str(v).strip() != ""]


def first_error(form: forms.Form) -> str:
    """The form's first message, for a page that shows one refusal."""
    return next(e for errors in form.errors.values() for e in errors)
