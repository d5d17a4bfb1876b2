from django.apps import AppConfig


class TrialsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "trials"
    verbose_name = "The Slasher trial"
