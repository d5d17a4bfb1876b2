from django.apps import AppConfig


class GhoulashConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ghoulash"
    label = "ghoulash"  # app label, tables and migrations kept from before the move
    verbose_name = "Ghoulash"
