"""A stored dice roll behind a short link: the roll's set-up (typed numbers and
the seed, never a user or a crew), so the link replays the same dice."""

from django.db import models


class StoredRoll(models.Model):
    token = models.CharField(max_length=16, unique=True)
    # The dice page and its query string, e.g. "/dice/attack/roll/?weapon=axe&...&seed=7".
    link = models.CharField(max_length=2000)
    digest = models.CharField(max_length=64, unique=True)  # sha256 of ``link``: one token per roll
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.token
