"""A player's crew and its characters' choices.

The crew points at a GameSystem; the system decides which validator and which
body the crew file has, so other games (Soylent Ghoul drone sets, Ghoulash
decks) can hang their own child tables off Crew without reshaping these.
"""

from django.conf import settings
from django.db import models
from django.db.models import Prefetch
from django.urls import NoReverseMatch, reverse

from .catalogue import BodyMod, GameSystem, Item, Trait

DEFAULT_BUDGET = 150  # mirrors the Cybernekr0 crew rules; the catalogue's value is used when importing


def character_prefetches() -> list:
    """Characters with every choice, in roster order: four queries whatever the size."""
    return [
        Prefetch(
            "characters",
            queryset=Character.objects.order_by("position", "id").prefetch_related(
                Prefetch("traits", queryset=CharacterTrait.objects.select_related("trait").order_by("position", "id")),
                Prefetch(
                    "body_mods",
                    queryset=CharacterBodyMod.objects.select_related("body_mod").order_by("position", "id"),
                ),
                Prefetch("gear", queryset=CharacterGear.objects.select_related("item").order_by("position", "id")),
            ),
        )
    ]


SHARE_TOKEN_MAX = 64


class CrewQuerySet(models.QuerySet):
    def with_everything(self):
        """Crews with every choice loaded: a constant number of queries whatever the size."""
        return self.select_related("system", "owner").prefetch_related(*character_prefetches())

    def owned_by(self, user):
        return self.filter(owner=user)

    def without_drone_sets(self):
        """Crews of the crew builder: a Soylent Ghoul drone set is a Crew too, with its own pages."""
        return self.exclude(system__slug="soylent-ghoul")

    def shared_by_token(self, token: str | None):
        """The crew a share link names; a token no link can have finds nothing, without a query."""
        if not token or len(token) > SHARE_TOKEN_MAX:
            return self.none()
        return self.filter(share_token=token)


class Crew(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="crews")
    system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="crews")
    name = models.CharField(max_length=100)
    budget = models.PositiveIntegerField(default=DEFAULT_BUDGET)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Optimistic locking: a save sends the version it read and fails if it moved.
    version = models.PositiveIntegerField(default=1)
    share_token = models.CharField(max_length=SHARE_TOKEN_MAX, null=True, blank=True, unique=True)
    # House-rule overrides: [{"code", "character", "note"}]; matching findings
    # are reported as accepted, the strict "valid" answer does not change.
    accepted_findings = models.JSONField(default=list, blank=True)
    # What the crew lists show, stored so a list never validates every crew
    # (crewbuilder/crew_summary.py). ``summary_stamp`` is "<version>:<catalogue
    # version>" of the state it was computed from: every edit bumps the crew's
    # version and every catalogue or house-rule change the catalogue's, so a
    # stamp that no longer matches means "recompute".
    summary_points = models.PositiveIntegerField(default=0)
    summary_status = models.CharField(max_length=16, blank=True)
    summary_errors = models.PositiveIntegerField(default=0)
    summary_stamp = models.CharField(max_length=32, blank=True)

    objects = CrewQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        # My crews reads a page of an owner's crews, newest first: walked in order from this index, a page
        # reads its 12 rows, not every crew the owner has.
        indexes = [models.Index(fields=["owner", "-updated_at", "-id"], name="crew_owner_recent")]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        try:
            return reverse("crew-detail", args=[self.pk])
        except NoReverseMatch:
            return f"/crews/{self.pk}/"


class Character(models.Model):
    crew = models.ForeignKey(Crew, on_delete=models.CASCADE, related_name="characters")
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=0)
    # Base attributes: after the creation modifiers, before traits.
    strength = models.SmallIntegerField(default=0)
    toughness = models.SmallIntegerField(default=0)
    agility = models.SmallIntegerField(default=0)
    intellect = models.SmallIntegerField(default=0)
    discipline = models.SmallIntegerField(default=0)
    # What a campaign changed since creation (injuries, advancement), e.g. {"toughness": -1}: kept apart from
    # the base attributes, so the creation check judges the placement as made and play reads base + changes
    # (reading C10). Only attributes with a change are keys.
    attribute_changes = models.JSONField(default=dict, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self):
        return self.name

    def gear_counts(self) -> list[dict]:
        """The items carried with their quantities, in gear order ("sword ×2"), from the prefetched gear."""
        counts: dict = {}
        for row in self.gear.all():
            entry = counts.setdefault(row.item_id, {"item": row.item, "name": row.item.name, "copies": 0})
            entry["copies"] += row.copies
        return list(counts.values())

    def gear_text(self) -> str:
        return ", ".join(g["name"] + (f" ×{g['copies']}" if g["copies"] > 1 else "") for g in self.gear_counts())


class CharacterTrait(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    trait = models.ForeignKey(Trait, on_delete=models.PROTECT, related_name="+")
    # The trait's choices as in the crew file, e.g. {"raise": ["strength", "agility"]}.
    choices = models.JSONField(default=dict, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]


class CharacterBodyMod(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="body_mods")
    body_mod = models.ForeignKey(BodyMod, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]


class CharacterGear(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="gear")
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="+")
    copies = models.PositiveSmallIntegerField(default=1)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
