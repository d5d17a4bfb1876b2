from django.apps import AppConfig


class SoylentGamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.soylent_ghoul.play"
    label = "soylentgames"  # app label, tables and migrations kept from before the move
    verbose_name = "Soylent Ghoul games"
