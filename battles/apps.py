from django.apps import AppConfig

from core.games import registry


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
    label = "battles"
    verbose_name = "Cybernekr0 battles"

    def ready(self):
        from . import entry  # models are ready only now

        registry.register(entry.ENTRY)
