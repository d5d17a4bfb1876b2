from django.apps import AppConfig


class SoylentGamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "soylentgames"
    verbose_name = "Soylent Ghoul games"
