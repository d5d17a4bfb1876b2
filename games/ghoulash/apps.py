from django.apps import AppConfig

from core.games import registry


class GhoulashConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ghoulash"
    label = "ghoulash"  # app label, tables and migrations kept from before the move
    verbose_name = "Ghoulash"

    def ready(self):
        from . import entry  # models are ready only now

        registry.register(entry.ENTRY)
