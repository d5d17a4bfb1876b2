from django.apps import AppConfig


class TrialsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games.slasher_trial"
    label = "trials"  # app label, tables and migrations kept from before the move
    verbose_name = "The Slasher trial"
