from django.apps import AppConfig

from core.games import registry


class GhoulRoleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ghoul_role"
    label = "ghoulrole"  # app label, tables and migrations kept from before the move
    verbose_name = "The Ghoul role"

    def ready(self):
        from . import entry  # models are ready only now

        registry.register(entry.ENTRY)
