"""Counted requests for throttling signups and password-reset e-mails.

In the database, not process memory or the default (per-process) cache, so
every gunicorn worker sees the same counts. Login attempts are django-axes's.
"""

from django.db import models


class ThrottleHit(models.Model):
    scope = models.CharField(max_length=40)  # e.g. "reset-email", "signup-ip"
    key = models.CharField(max_length=64)  # a SHA-256 of the address or e-mail: no personal data kept
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["scope", "key", "at"])]
