from django.apps import AppConfig

from core.games import registry


class TrialsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.slasher_trial"
    label = "trials"  # app label, tables and migrations kept from before the move
    verbose_name = "The Slasher trial"

    def ready(self):
        from . import entry  # models are ready only now

        registry.register(entry.ENTRY)
