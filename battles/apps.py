from django.apps import AppConfig

from core.games import registry


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
    label = "battles"
    verbose_name = "Cybernekr0 battles"

    def ready(self):
        from . import entry, roster  # models are ready only now

        registry.register(entry.ENTRY)
        # battles read the database's catalogue (house rules included), not the engine's bundled file
        roster.install_catalogue()
