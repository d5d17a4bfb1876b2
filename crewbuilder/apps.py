from django.apps import AppConfig
from django.core.signals import request_started


class CrewbuilderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "crewbuilder"
    verbose_name = "Crewbuilder"

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save

        from .auth_backend import forget_user
        from .models.catalogue import forget_request_catalogues

        # the signed-in user is kept in the cache (auth_backend.py) until its row changes
        for name, signal in (("save", post_save), ("delete", post_delete)):
            signal.connect(forget_user, sender=settings.AUTH_USER_MODEL, dispatch_uid=f"crewbuilder.forget-user-{name}")

        # each request reads the current catalogue versions again (catalogue.loader.current_catalogue)
        request_started.connect(forget_request_catalogues, dispatch_uid="crewbuilder.current-catalogues")
