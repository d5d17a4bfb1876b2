from django.apps import AppConfig

from core.games import registry


class SoylentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.soylent_ghoul.sets"
    label = "soylent"  # app label, tables and migrations kept from before the move
    verbose_name = "Soylent Ghoul"

    def ready(self):
        from . import entry
        from .crewfile import register

        register()  # soylent-ghoul crew files: validate, import, export
        registry.register(entry.ENTRY)
