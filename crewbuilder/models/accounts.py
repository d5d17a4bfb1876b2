from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Value
from django.db.models.functions import Lower


class UserQuerySet(models.QuerySet):
    def with_username(self, username: str):
        """The user called ``username``, whatever its case.

        Filters on ``lower(username) = lower(%s)``: the expression of the
        unique constraint below, so the database answers from that index.
        ``username__iexact`` compiles to UPPER(...) on PostgreSQL and scans
        the whole table on every login (issue 20). Both sides are lowered by
        the database, so Python's and SQL's case rules cannot disagree.
        """
        return self.alias(username_lower=Lower("username")).filter(username_lower=Lower(Value(username or "")))

    def named(self, username: str | None):
        """The user a form or command names (surrounding spaces ignored, any case), or None."""
        return self.with_username((username or "").strip()).first()


class CaseInsensitiveUserManager(UserManager.from_queryset(UserQuerySet)):
    def get_by_natural_key(self, username):
        return self.with_username(username).get()


class User(AbstractUser):
    """A player. Usernames are unique regardless of case ("Vox" == "vox")."""

    class PaperSize(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "LETTER", "US Letter"

    paper_size = models.CharField(max_length=8, choices=PaperSize.choices, default=PaperSize.A4)

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_ci_unique"),
        ]
