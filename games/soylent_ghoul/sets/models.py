"""Soylent Ghoul drone sets: a Crew of the ``soylent-ghoul`` system with its
Ghoul group, its drones and each drone's five tokens.

Which token of a drone is the true one is the owner's secret: only
``Token.is_true`` holds it, and only code that has checked the viewer is the
owner (or that the token was revealed in play) may read it. Token codes are
random and the true token's place among the five is random, so neither the
order nor the code of a token tells anything.
"""

import secrets

from django.db import models

from crewbuilder.models import Crew

# No 0/O, 1/I/L, 5/S or 2/Z: codes are read off cardboard at the table.
CODE_ALPHABET = "346789ABCDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 4


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


# the longest share token looked up (``secrets.token_urlsafe(24)`` gives 32 characters)
SHARE_TOKEN_MAX = 64


class DroneSetQuerySet(models.QuerySet):
    def owned_by(self, user):
        return self.filter(crew__owner=user)

    def shared_by_token(self, token: str):
        """The set shared under this link; none for an empty or overlong token (not looked up)."""
        if not token or len(token) > SHARE_TOKEN_MAX:
            return self.none()
        return self.filter(crew__share_token=token)

    def for_page(self):
        return self.select_related("crew", "crew__owner")


class DroneSet(models.Model):
    crew = models.OneToOneField(Crew, on_delete=models.CASCADE, related_name="drone_set")
    # slug of a RulesEntry of part "ghoul_groups" (scene-shifters, eyes, mannikins, gardeners)
    group = models.SlugField(max_length=100)
    # when the true tokens were last dealt; the key sheet prints it so an old sheet is recognisable
    dealt_at = models.DateTimeField(auto_now_add=True)

    objects = DroneSetQuerySet.as_manager()

    def __str__(self):
        return f"{self.crew.name} ({self.group})"


class Drone(models.Model):
    drone_set = models.ForeignKey(DroneSet, on_delete=models.CASCADE, related_name="drones")
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self):
        return self.name


class Token(models.Model):
    drone = models.ForeignKey(Drone, on_delete=models.CASCADE, related_name="tokens")
    # printed on the token; unique within its drone set
    code = models.CharField(max_length=8)
    position = models.PositiveSmallIntegerField(default=0)
    is_true = models.BooleanField(default=False)  # the owner's secret

    class Meta:
        ordering = ["position", "id"]

    def __str__(self):
        return self.code
