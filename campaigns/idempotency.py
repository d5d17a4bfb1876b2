"""One game per submitted game form (issue 17, finding 7).

The form carries a random token, made when the form is rendered; a double
click, a retried request or ten identical submissions all carry the same one,
and the database's unique constraint on (campaign, submission_key) lets only
one game in. A submission without a usable token (an old tab, a script) is
keyed by its content instead, so identical repeats still record one game.
The key is bound to the recording user, so nobody can aim at another's game.

Spending forms (buy, hire) carry a token too. Their key is claimed in the
spending transaction (``claim``); a repeat raises ``AlreadySubmitted`` and
spends nothing. Two identical purchases are legitimate, so a spending form
without a token is not keyed by its content: it is simply acted on.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets

from django.db import IntegrityError, transaction

from campaigns.models import SubmittedForm

TOKEN_FIELD = "submission"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_token() -> str:
    return secrets.token_urlsafe(18)


def token_for_form(token: str | None) -> str:
    """The token to render: the one sent (a form sent back with problems recorded nothing), else a new one."""
    return token if token and _TOKEN.fullmatch(token) else new_token()


def submission_key(user_id: int, token: str, content) -> str:
    """The game form's key: its token, or without a usable one its ``content``
    (the cleaned form, as JSON), so identical repeats share a key."""
    if token and _TOKEN.fullmatch(token):
        material = f"token:{token}"
    else:
        material = "form:" + json.dumps(content, sort_keys=True, default=str)
    return hashlib.sha256(f"{user_id}:{material}".encode()).hexdigest()


def token_key(user_id: int, token: str) -> str:
    """The key of a form's token, or "" when it carries none (nothing to deduplicate)."""
    return hashlib.sha256(f"{user_id}:token:{token}".encode()).hexdigest() if token and _TOKEN.fullmatch(token) else ""


class AlreadySubmitted(Exception):
    """This form was acted on already (a double click or a retried request)."""


def claim(user, key: str) -> None:
    """Inside the caller's transaction: record ``key`` once, or raise AlreadySubmitted.
    A racing twin waits on the unique index until the first commits, then raises."""
    if not key:
        return
    try:
        with transaction.atomic():
            SubmittedForm.objects.create(key=key, user=user)
    except IntegrityError:
        raise AlreadySubmitted() from None
