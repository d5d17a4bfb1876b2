from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username):
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player. Usernames are unique regardless of case ("Vox" == "vox")."""

    PAPER_CHOICES = [("A4", "A4"), ("LETTER", "US Letter")]
    paper_size = models.CharField(max_length=8, choices=PAPER_CHOICES, default="A4")

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_ci_unique"),
        ]
