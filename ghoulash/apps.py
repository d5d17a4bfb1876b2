from django.apps import AppConfig


class GhoulashConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ghoulash"
    verbose_name = "Ghoulash"
