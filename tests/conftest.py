import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# refuses to run inside one unless told that this is deliberate (tests only).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, never a downloaded browser."""
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # PBKDF2's million rounds are the point in production and most of the
    # suite's time in tests, where hundreds of users are made.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _own_cache(settings, tmp_path_factory):
    # The cache as configured (files, shared by workers), but empty for each test: database rows
    # are rolled back between tests and their ids come again, so a cached game version must not.
    settings.CACHES = {
        "default": {
            "BACKEND": "core.file_cache.FileCache",
            "LOCATION": str(tmp_path_factory.mktemp("cache")),
        }
    }


@pytest.fixture(autouse=True)
def _current_catalogues_per_test():
    # What this process read as the current catalogues (catalogue.loader.current_catalogue) is emptied by
    # each request and each catalogue change; a test calling the engine directly starts with none as well.
    from crewbuilder.models.catalogue import CURRENT

    CURRENT.clear()


@pytest.fixture(autouse=True)
def _editor_memory_per_test():
    # The editor keeps views and drawn pieces in this process by crew id and version (editor_cache,
    # editor_fragments): ids come again after each test's rollback, so each test starts with none.
    from crewbuilder import editor_cache, editor_fragments

    editor_cache.forget_all()
    editor_fragments.forget_all()


@pytest.fixture(autouse=True)
def _pdf_cache_per_test(settings, tmp_path):
    # Rendered PDFs are kept on disk (core/pdf_store.py); each test starts with none.
    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"


@pytest.fixture
def password():
    return "correct-horse-battery-staple"


@pytest.fixture
def make_user(django_user_model, password):
    def make(username="vox", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def user(make_user):
    return make_user("vox")


@pytest.fixture
def other_user(make_user):
    return make_user("mara")
