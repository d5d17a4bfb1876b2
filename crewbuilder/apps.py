from django.apps import AppConfig
from django.core.signals import request_started


class CrewbuilderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "crewbuilder"
    verbose_name = "Crewbuilder"

    def ready(self):
        from .models.catalogue import forget_request_catalogues

        # each request reads the current catalogue versions again (catalogue.loader.current_catalogue)
        request_started.connect(forget_request_catalogues, dispatch_uid="crewbuilder.current-catalogues")
