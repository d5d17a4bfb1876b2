"""Throttling of the account pages (issue 17): who the client is, how many
tries each door allows, and the refusal the user sees.

- Login: django-axes counts failures in the database, per account and per
  client address (AXES_* in settings); ``login_locked_out`` is its answer.
- Signup and password-reset e-mails: ``allow`` counts ThrottleHit rows.

Every count lives in the database, so it holds across gunicorn workers.
"""

from __future__ import annotations

import hashlib
import ipaddress
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.utils import timezone

from crewbuilder.forms_accounts import LockedOutLoginForm
from crewbuilder.models import ThrottleHit


@dataclass(frozen=True)
class Limit:
    scope: str
    tries: int
    window: timedelta

    @property
    def wait(self) -> str:
        minutes = int(self.window.total_seconds() // 60)
        return f"{minutes // 60} hour{'s' if minutes >= 120 else ''}" if minutes >= 60 else f"{minutes} minutes"


# Far above what a real player needs (a LAN table signs up from several
# phones, each its own address), far below what a script tries.
RESET_PER_EMAIL = Limit("reset-email", 3, timedelta(hours=1))
RESET_PER_CLIENT = Limit("reset-ip", 10, timedelta(hours=1))
SIGNUP_PER_CLIENT = Limit("signup-ip", 10, timedelta(hours=1))

LOGIN_LOCKED_MESSAGE = (
    "Too many wrong passwords for this account or from this device. Logging in is paused for {minutes} minutes; "
    "if you forgot your password, reset it."
)


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or the address the trusted proxy saw
    (the last X-Forwarded-For entry, the one the proxy added) when BEHIND_PROXY is set.

    Only a real IP address is returned (django-axes stores it in an address
    column, which PostgreSQL checks), else None.
    """
    candidates = []
    if getattr(settings, "BEHIND_PROXY", False):
        candidates.append(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip())
    candidates.append(request.META.get("REMOTE_ADDR", ""))
    for candidate in candidates:
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return None


def login_username(request, credentials=None) -> str | None:
    """The account a login names, lower-cased: usernames ignore case, so "VOX"
    and "vox" are one account and share one count of failures."""
    data = credentials or getattr(request, "POST", {}) or {}
    username = data.get("username")
    return username.strip().lower() if isinstance(username, str) else username


def _digest(value: str | None) -> str:
    return hashlib.sha256((value or "unknown").strip().lower().encode()).hexdigest()


def allow(limit: Limit, value: str | None) -> bool:
    """Count one try of ``value`` (an address, an e-mail) and say whether it is within the limit.

    A refused try is not counted, so waiting out the window always works.
    """
    now = timezone.now()
    key = _digest(value)
    ThrottleHit.objects.filter(scope=limit.scope, at__lt=now - limit.window).delete()
    if ThrottleHit.objects.filter(scope=limit.scope, key=key).count() >= limit.tries:
        return False
    ThrottleHit.objects.create(scope=limit.scope, key=key, at=now)
    return True


def refusal(limit: Limit, what: str) -> str:
    return f"Too many {what} from here. Please wait {limit.wait} and try again."


def login_locked_out(request, original_response=None, credentials=None):
    """django-axes's lockout answer: the login page again, saying why (429)."""
    sent = LockedOutLoginForm(request.POST)
    sent.is_valid()  # two optional texts: always valid
    form = AuthenticationForm(request, initial={"username": sent.cleaned_data["username"]})
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {
        "form": form,
        "locked_out": LOGIN_LOCKED_MESSAGE.format(minutes=minutes),
        "next": sent.cleaned_data["next"] if "next" in sent.data else request.GET.get("next", ""),
    }
    return render(request, "registration/login.html", context, status=429)
