"""Rules content as rows: one game system (and edition) and its catalogue.

Every catalogue row keeps the columns programs filter or join on (slug, cost,
damage, ...) and an ``effects`` JSON object for everything whose shape varies
from entry to entry (a trait's attribute changes, heavy armor's move penalty).
``to_entry()`` turns a row back into the flat dict of the catalogue data file,
so the validator reads the database and the file through the same code.

Rows loaded from a data file have ``house_rule=False``; rows added by hand (the
admin) default to ``house_rule=True`` and are shown as "house rule".
"""

from django.core.cache import cache
from django.db import models, transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

ATTRIBUTES = ("strength", "toughness", "agility", "intellect", "discipline")

# (system pk, catalogue_version) -> catalogue snapshot; see catalogue/loader.py.
SNAPSHOT_CACHE: dict = {}

# game slug -> the current catalogue data read in this request (catalogue.loader.current_catalogue); emptied
# when a request starts and by every catalogue change made here.
CURRENT: dict = {}

# game slug -> (pk, catalogue_version) of its current system (the last loaded edition), in the shared cache
# so that every worker learns of a change without a query. A change deletes the entry (and again once it
# is committed); the next reader fills it. Kept a few minutes only: with the file cache, a reader's fill
# racing the deletion at commit could otherwise keep an old version for long.
CURRENT_VERSIONS_KEY = "catalogue:current-versions"
CURRENT_VERSIONS_TTL = 300


def forget_current_versions() -> None:
    """Every worker reads the current systems' versions again (and this one its current catalogues)."""
    CURRENT.clear()
    cache.delete(CURRENT_VERSIONS_KEY)
    transaction.on_commit(lambda: cache.delete(CURRENT_VERSIONS_KEY))


def forget_request_catalogues(**_kwargs) -> None:
    """A request_started receiver: each request reads the current versions (from the shared cache) once."""
    CURRENT.clear()


def current_system_version(slug: str) -> tuple[int, int] | None:
    """(pk, catalogue_version) of the current system of ``slug``, None when none is loaded: from the shared
    cache, or one query that fills it."""
    held = cache.get(CURRENT_VERSIONS_KEY) or {}
    if slug not in held:
        row = GameSystem.objects.filter(slug=slug).order_by("-id").values_list("pk", "catalogue_version").first()
        held = {**held, slug: row}
        cache.set(CURRENT_VERSIONS_KEY, held, timeout=CURRENT_VERSIONS_TTL)
    return held[slug]


class GameSystem(models.Model):
    """A game and the edition of its rules; a later edition lives beside this one."""

    slug = models.SlugField(max_length=50)
    name = models.CharField(max_length=100)
    edition = models.CharField(max_length=20)
    source = models.CharField(max_length=200, blank=True)
    # Crew-creation numbers (crew size, budget, base cost, capacity...) and the
    # rule sections findings cite: data, so no number is written in Python.
    rules = models.JSONField(default=dict, blank=True)
    rules_are_house_rules = models.BooleanField(
        default=False,
        help_text="Tick after editing the crew rules above: loading the catalogue then keeps your numbers instead of the data file's.",
    )
    # Bumped on every catalogue change; keys the in-process catalogue snapshot
    # cache, and lives in the database so every worker sees a change.
    catalogue_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["slug", "edition"]
        constraints = [
            models.UniqueConstraint(fields=["slug", "edition"], name="gamesystem_unique_slug_edition"),
        ]

    def __str__(self):
        return f"{self.name} {self.edition}"

    def save(self, *args, **kwargs):
        # The crew rules (budget, crew size...) live on this row: editing them
        # is a catalogue change like an entry's, so it bumps the version in the
        # same UPDATE and every worker drops its stale snapshot.
        if self._state.adding or kwargs.get("update_fields") is not None:
            return super().save(*args, **kwargs)
        self.catalogue_version = F("catalogue_version") + 1
        super().save(*args, **kwargs)
        self.refresh_from_db(fields=["catalogue_version"])
        SNAPSHOT_CACHE.clear()
        forget_current_versions()

    def bump_catalogue_version(self):
        """Mark the catalogue changed: other processes see the new version, this
        one also drops its snapshots at once."""
        GameSystem.objects.filter(pk=self.pk).update(catalogue_version=F("catalogue_version") + 1)
        SNAPSHOT_CACHE.clear()
        forget_current_versions()


class CatalogueEntry(models.Model):
    """Columns every catalogue entry shares."""

    # Columns (besides system/slug/...) that the data file spells the same way.
    ENTRY_COLUMNS: tuple = ()

    system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="+")
    slug = models.SlugField(max_length=100)
    name = models.CharField(max_length=100)
    cost = models.IntegerField(default=0)
    purchasable = models.BooleanField(default=True)
    number = models.IntegerField(null=True, blank=True, help_text="The number printed in the rules, if any.")
    text = models.TextField(blank=True)
    section = models.CharField(max_length=100, blank=True, help_text='Where the rule is, e.g. "Traits, p.7".')
    effects = models.JSONField(default=dict, blank=True, help_text="Structured effects whose shape varies.")
    house_rule = models.BooleanField(default=True, help_text="Not from the published rules.")
    position = models.PositiveIntegerField(default=0, help_text="Order in the rules text.")

    class Meta:
        abstract = True
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["system", "slug"], name="%(class)s_unique_system_slug"),
        ]

    def __str__(self):
        suffix = " (house rule)" if self.house_rule else ""
        return f"{self.name}{suffix}"

    @property
    def label(self):
        """The name as shown to players, marked when it is a house rule."""
        return f"{self.name} (house rule)" if self.house_rule else self.name

    def to_entry(self) -> dict:
        """The flat data-file dict of this row (effects merged in)."""
        entry = {"slug": self.slug, "name": self.name, "cost": self.cost}
        if not self.purchasable:
            entry["purchasable"] = False
        if self.number is not None:
            entry["number"] = self.number
        for column in self.entry_columns():
            entry[column] = getattr(self, column)
        for key, value in (self.effects or {}).items():
            entry.setdefault(key, value)
        entry.update(text=self.text, section=self.section)
        if self.house_rule:
            entry["house_rule"] = True
        return entry

    def entry_columns(self) -> tuple:
        return self.ENTRY_COLUMNS


class Trait(CatalogueEntry):
    class Meta(CatalogueEntry.Meta):
        pass


class BodyMod(CatalogueEntry):
    ENTRY_COLUMNS = ("artificial",)

    artificial = models.BooleanField(default=False, help_text="Marked // A: an Artificial model may take it.")

    class Meta(CatalogueEntry.Meta):
        verbose_name = "body-mod"


class Item(CatalogueEntry):
    """Anything carried: equipment, armor, shields, suits and weapons."""

    class Category(models.TextChoices):
        EQUIPMENT = "equipment", "equipment"
        ARMOR = "armor", "armor"
        WEAPON = "weapon", "weapon"

    class Kind(models.TextChoices):
        NONE = "", "-"
        MELEE = "melee", "melee weapon"
        RANGED = "ranged", "ranged weapon"
        ARMOR = "armor", "armor"
        SHIELD = "shield", "shield"
        SUIT = "suit", "suit"

    EQUIPMENT, ARMOR, WEAPON = Category.EQUIPMENT, Category.ARMOR, Category.WEAPON

    category = models.CharField(max_length=10, choices=Category.choices)
    kind = models.CharField(max_length=10, choices=Kind.choices, blank=True)
    small = models.BooleanField(default=False, help_text="[small]: counts as half an item.")
    single_use = models.BooleanField(default=False)
    hands = models.PositiveSmallIntegerField(null=True, blank=True)
    damage = models.PositiveSmallIntegerField(null=True, blank=True)
    range = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Inches; empty for melee.")
    keywords = models.JSONField(default=list, blank=True, help_text='e.g. ["Piercing 2", "Reach"]')
    armor = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Armor points granted.")
    items = models.PositiveSmallIntegerField(default=1, help_text="How many items it counts as when carried.")

    class Meta(CatalogueEntry.Meta):
        pass

    COLUMNS_BY_CATEGORY = {
        WEAPON: ("hands", "kind", "damage", "range", "keywords", "small"),
        ARMOR: ("kind", "armor", "items"),
        EQUIPMENT: ("small", "single_use"),
    }

    def entry_columns(self) -> tuple:
        return self.COLUMNS_BY_CATEGORY.get(self.category, ())


class Keyword(CatalogueEntry):
    ENTRY_COLUMNS = ("has_x",)

    has_x = models.BooleanField(default=False, help_text="Takes a number, as in Heavy X.")

    class Meta(CatalogueEntry.Meta):
        pass


class Sorcery(CatalogueEntry):
    ENTRY_COLUMNS = ("range",)

    range = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Inches; empty when none.")

    class Meta(CatalogueEntry.Meta):
        verbose_name_plural = "sorceries"


class Scenario(CatalogueEntry):
    ENTRY_COLUMNS = ("draws_complication",)

    draws_complication = models.BooleanField(default=False)

    class Meta(CatalogueEntry.Meta):
        pass


class Complication(CatalogueEntry):
    class Meta(CatalogueEntry.Meta):
        pass


class EnvironmentEffect(CatalogueEntry):
    """A quick-start environmental effect; ``number`` is its D6 roll."""

    class Meta(CatalogueEntry.Meta):
        pass


class TableRow(CatalogueEntry):
    """A row of a results table; ``number`` is the lowest roll that reaches it."""

    class Table(models.TextChoices):
        NEURAL_OVERLOAD = "neural_overload", "Neural Overload"
        DAMAGE_TABLE = "damage_table", "Damage table"

    NEURAL_OVERLOAD, DAMAGE_TABLE = Table.NEURAL_OVERLOAD, Table.DAMAGE_TABLE

    table = models.CharField(max_length=20, choices=Table.choices)

    class Meta(CatalogueEntry.Meta):
        ordering = ["table", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["system", "table", "slug"], name="tablerow_unique_system_table_slug"),
        ]


class Npc(CatalogueEntry):
    ENTRY_COLUMNS = ("armor", "attributes", "attacks", "abilities")

    armor = models.PositiveSmallIntegerField(default=0)
    attributes = models.JSONField(default=dict, blank=True)
    attacks = models.JSONField(default=list, blank=True)
    abilities = models.JSONField(default=list, blank=True)

    class Meta(CatalogueEntry.Meta):
        verbose_name = "NPC"
        verbose_name_plural = "NPCs"


class RulesEntry(CatalogueEntry):
    """A row of another game's catalogue (Soylent Ghoul's groups, Ghoulash's
    cards, the Slasher trial's actions...): the data file's section is ``part``
    and the row's numbers live in ``effects``, so each game keeps its rules as
    data, editable here as house rules, without a table per section."""

    SLUG_UNIQUE_PER_SYSTEM = False  # the same slug may appear in two parts (difficulties, vile_difficulties)

    part = models.SlugField(max_length=50, help_text="The data file's section, e.g. ghoul_groups.")

    class Meta(CatalogueEntry.Meta):
        verbose_name_plural = "rules entries"
        ordering = ["part", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["system", "part", "slug"], name="rulesentry_unique_system_part_slug"),
        ]


@receiver(post_save)
@receiver(post_delete)
def catalogue_entry_changed(sender, instance, **kwargs):
    """Any saved or deleted entry (admin, shell, bulk delete) bumps its system's version."""
    if isinstance(instance, CatalogueEntry) and instance.system_id:
        GameSystem(pk=instance.system_id).bump_catalogue_version()
    elif isinstance(instance, GameSystem):  # a new edition is its game's current system; a deleted one is not
        forget_current_versions()
