from django.apps import AppConfig


class SoylentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "soylent"
    verbose_name = "Soylent Ghoul"
