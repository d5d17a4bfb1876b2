from django.apps import AppConfig


class GhoulRoleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ghoulrole"
    verbose_name = "The Ghoul role"
