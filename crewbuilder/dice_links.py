"""Short links to stored rolls: ``/dice/r/<token>/`` replays a seeded roll.

A roll's page is a GET whose query string holds the whole set-up as typed
numbers plus the seed (no user, no crew), so storing that link is enough to
show the same dice to everyone. Only the roll pages of the dice assistant can
be stored, and only with a seed.
"""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import parse_qs, urlsplit

from django import forms
from django.db import IntegrityError, transaction
from django.urls import Resolver404, resolve

from crewbuilder.models import StoredRoll

ROLL_VIEWS = {"dice-attack-roll", "dice-quick"}
TOKEN_BYTES = 6  # 8 URL-safe characters: 2**48 tokens


class ShortLinkForm(forms.Form):
    link = forms.CharField(max_length=2000)

    def clean_link(self) -> str:
        link = self.cleaned_data["link"].strip()
        parts = urlsplit(link)
        if parts.scheme or parts.netloc:
            raise forms.ValidationError("Only a roll of this dice assistant can get a short link.")
        try:
            match = resolve(parts.path)
        except Resolver404:
            match = None
        if match is None or match.url_name not in ROLL_VIEWS:
            raise forms.ValidationError("Only a roll of this dice assistant can get a short link.")
        if "seed" not in parse_qs(parts.query):
            raise forms.ValidationError("Roll the dice first: a short link keeps a roll with its seed.")
        return f"{parts.path}?{parts.query}"


def store(link: str) -> StoredRoll:
    """The stored roll of ``link`` (the same token when it was stored before)."""
    digest = hashlib.sha256(link.encode("utf-8")).hexdigest()
    found = StoredRoll.objects.filter(digest=digest).first()
    if found:
        return found
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return StoredRoll.objects.create(token=secrets.token_urlsafe(TOKEN_BYTES), link=link, digest=digest)
        except IntegrityError:
            found = StoredRoll.objects.filter(digest=digest).first()
            if found:  # stored by a concurrent request
                return found
    raise RuntimeError("Could not find a free short-link token.")
