"""Django settings for Crewbuilder.

Everything that differs between a laptop and a server comes from environment
variables (see README). Development defaults need no configuration; DEBUG=0
demands a real SECRET_KEY and ALLOWED_HOSTS.
"""

import hashlib
import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str
from core.paths import STATIC_DIR, TEMPLATES_DIR

BASE_DIR = Path(__file__).resolve().parent.parent
# Data (the SQLite file, collected static files, rendered PDFs) lives in var/:
# beside manage.py in a checkout, else in the working folder, unless VAR_DIR says.
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var" if (BASE_DIR / "manage.py").exists() else Path.cwd() / "var")))

DEBUG = env_bool("DEBUG", True)

_DEV_SECRET = "dev-only-insecure-secret-key-change-me-0123456789abcdefghijklmnopqrstuvwxyz"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else None)
if not DEBUG and (SECRET_KEY == _DEV_SECRET or len(SECRET_KEY) < 50):
    raise ImproperlyConfigured("SECRET_KEY must be a random string of 50+ characters when DEBUG=0.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the host names the app is served on when DEBUG=0.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS entry {_origin!r} needs a scheme, e.g. https://{_origin}")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "crewbuilder",
    "campaigns",
    "games.soylent_ghoul.sets",
    "games.soylent_ghoul.play",
    "games.ghoul_role",
    "games.ghoulash",
    "games.slasher_trial",
    "battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.htmx.LoginRedirectMiddleware",
    "csp.middleware.CSPMiddleware",
    "core.pdf_tasks.PdfMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into our refusal page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [TEMPLATES_DIR],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.navigation",
            ],
        },
    },
]

_DEFAULT_DB = f"sqlite:///{VAR_DIR / 'crewbuilder.sqlite3'}"
try:
    DATABASES = {"default": dj_database_url.parse(env_str("DATABASE_URL", _DEFAULT_DB), conn_max_age=60)}
except ValueError as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Connections are kept (conn_max_age above), as for PostgreSQL: opening one here costs more than a
    # whole page (the pragmas below, Django's SQL functions), and a gunicorn sync worker holds one.
    DATABASES["default"].setdefault("OPTIONS", {})
    # WAL lets the dice assistant read while a crew saves; a busy timeout
    # turns lock contention into a short wait instead of an error.
    # IMMEDIATE: a transaction takes the write lock when it begins, so two writers
    # queue (up to the timeout) instead of the later one failing with "database is
    # locked" when it upgrades a read to a write (select_for_update is a no-op here).
    DATABASES["default"]["OPTIONS"].update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests use a file too: an in-memory database shares one cache between
    # threads, where a lock is refused at once instead of waited for.
    # One file per test process, so two test runs never share one.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"crewbuilder-test-{os.getpid()}.sqlite3")
    }
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)

# PostgreSQL: the statements of core.prepared (the stepper click's) are planned once per connection.
# Django's own cursors bind on the client and are never prepared. Behind a pooler in transaction mode
# that cannot keep prepared statements (PgBouncer before 1.21), set DATABASE_PREPARED=0.
DATABASE_PREPARED = env_bool("DATABASE_PREPARED", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DATABASE_PREPARED:
    # psycopg prepares nothing while prepare_threshold is None (Django's default); 5 is psycopg's own
    # default, and applies only to server-binding cursors, which only core.prepared makes.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)

# The cache holds what every worker must agree on (a game's version, read by every poll without a
# query). By default it is files under var/cache: shared by all workers on this machine, no server to
# run. REDIS_URL (redis://host:6379/0) puts it in Redis instead, for servers beyond one machine
# (Django's RedisCache; `pip install ".[redis]"`).
# Cached entries name rows by id (a session's user, a game's version): two instances on other databases
# sharing one cache (a checkout's var/cache, one Redis) must not read each other's, so keys carry the database.
_DATABASE = DATABASES["default"]
CACHE_KEY_PREFIX = hashlib.blake2b(
    repr([_DATABASE["ENGINE"], _DATABASE.get("NAME"), _DATABASE.get("HOST"), _DATABASE.get("PORT")]).encode(),
    digest_size=6,
).hexdigest()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "core.file_cache.FileCache",  # Django's, counting its files twice a minute
            "LOCATION": env_str("CACHE_DIR", str(VAR_DIR / "cache")),
            "OPTIONS": {"MAX_ENTRIES": 20000},
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }

# A logged-in request reads its session from that cache, not from the database (issue 20: no query per
# request for the session); a miss, a new worker or a cleared cache reads the session table, which stays
# the record (a restart keeps everyone logged in).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "crewbuilder.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (issue 17): django-axes counts failed logins in the database
# (shared by every gunicorn worker), per account and, separately, per client
# address; crewbuilder/throttle.py holds the other limits and the refusal page.
# The signed-in user comes from the cache (crewbuilder/auth_backend.py). Django's ModelBackend stays
# listed only so that sessions signed in before the cached one came keep working (a session names
# its backend); new logins go through the cached one, which comes first.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "crewbuilder.auth_backend.CachedModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are counted; successful logins need no record
AXES_CLIENT_IP_CALLABLE = "crewbuilder.throttle.client_ip"
AXES_USERNAME_CALLABLE = "crewbuilder.throttle.login_username"
AXES_LOCKOUT_CALLABLE = "crewbuilder.throttle.login_locked_out"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [STATIC_DIR]
STATIC_ROOT = VAR_DIR / "staticfiles"
# whitenoise warns on every request when the directory is missing (before collectstatic).
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "crewbuilder@localhost")

# PDFs are rendered by a task worker off the request path (core/pdf_tasks.py):
# the database backend where a worker runs (`make serve` starts one), else the
# immediate backend, which renders in the request (`make run`, the tests).
_TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
}
_TASKS_BACKEND = env_str("TASKS_BACKEND", "immediate" if DEBUG else "database")
if _TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be one of {', '.join(_TASK_BACKENDS)}, not {_TASKS_BACKEND!r}.")
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[_TASKS_BACKEND]}}
# Rendered PDFs, shared by every worker and kept across restarts (core/pdf_store.py).
PDF_CACHE_DIR = Path(env_str("PDF_CACHE_DIR", str(VAR_DIR / "pdf-cache")))

# Uploaded crew files are capped at 256 KiB by crew-format.md; leave room
# for the multipart envelope.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# X-Forwarded-Proto and X-Forwarded-For are anyone's to send: believe them only
# when a proxy that sets them stands in front (BEHIND_PROXY=1).
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Off only for plain HTTP on a home network (make table): browsers drop Secure cookies there.
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# Everything is served from our own origin (htmx is vendored), so the policy
# can be strict: no inline scripts, no third-party hosts.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
