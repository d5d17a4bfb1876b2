from django.apps import AppConfig


class CrewbuilderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "crewbuilder"
    verbose_name = "Crewbuilder"
