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


class DroneSet(models.Model):
    crew = models.OneToOneField(Crew, on_delete=models.CASCADE, related_name="drone_set")
    # slug of a RulesEntry of part "ghoul_groups" (scene-shifters, eyes, mannikins, gardeners)
    group = models.SlugField(max_length=100)
    # when the true tokens were last dealt; the key sheet prints it so an old sheet is recognisable
    dealt_at = models.DateTimeField(auto_now_add=True)

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
