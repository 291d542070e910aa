"""Settings of the provider sandbox: a separate Django project with its own database.

All state lives under the data directory (`--data-dir`, default var/sandbox/): a new directory
is a new provider account.
"""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("SANDBOX_DATA_DIR") or BASE_DIR / "var" / "sandbox")
DATA_DIR.mkdir(parents=True, exist_ok=True)
FILES_DIR = DATA_DIR / "files"

SECRET_KEY = "sandbox-only-not-a-secret"  # the sandbox signs nothing with Django's key
DEBUG = False
ALLOWED_HOSTS = ["*"]  # the edge answers any Host, as a CDN does
USE_TZ = True
TIME_ZONE = "UTC"
USE_I18N = False

INSTALLED_APPS = [
    "sandbox.core",
    "sandbox.console",
    "sandbox.sms",
    "sandbox.topup",
    "sandbox.storage",
    "sandbox.media",
    "sandbox.delivery",
    "sandbox.purge",
]
MIDDLEWARE = [
    "sandbox.core.middleware.ServiceRoutingMiddleware",
    # Injected faults answer with CORS headers too (a page must see them, not a blocked call).
    "sandbox.storage.cors.FaultAnswerCors",
    "sandbox.core.middleware.FaultInjectionMiddleware",
]
ROOT_URLCONF = "sandbox.core.control_urls"
WSGI_APPLICATION = "sandbox.wsgi.application"
TEMPLATES: list[dict[str, object]] = []

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": DATA_DIR / "sandbox.sqlite3",
        # One connection per server thread for the life of the process: opening a SQLite
        # connection (and its PRAGMAs) costs more than the queries of a typical request.
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Storage uploads stream their bodies; never buffer them whole.
DATA_UPLOAD_MAX_MEMORY_SIZE = None
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 100_000

SANDBOX_BASE_PORT = int(os.environ.get("SANDBOX_BASE_PORT", "8100"))
SANDBOX_HOST = os.environ.get("SANDBOX_HOST", "127.0.0.1")
SANDBOX_TICK_INTERVAL_S = 0.5
# The edge's country lookup (sandbox/delivery/geo.py): a MaxMind-format Country database;
# unset, the sandbox writes its own of test networks (127.0.0.2 CN, 127.0.0.3 US...).
SANDBOX_GEOIP_DATABASE = os.environ.get("SANDBOX_GEOIP_DATABASE", "")

# The edge's requests to a merchant's own origin (sandbox/delivery/upstream.py): short, so a
# dead primary fails over to the next address quickly; answers are read whole, up to a bound.
SANDBOX_ORIGIN_CONNECT_TIMEOUT_S = float(os.environ.get("SANDBOX_ORIGIN_CONNECT_TIMEOUT_S", "3"))
SANDBOX_ORIGIN_READ_TIMEOUT_S = float(os.environ.get("SANDBOX_ORIGIN_READ_TIMEOUT_S", "15"))
SANDBOX_ORIGIN_MAX_BYTES = int(os.environ.get("SANDBOX_ORIGIN_MAX_BYTES", str(64 * 1024 * 1024)))

# Origins whose pages may call the storage port from a browser (CORS): comma-separated
# origins such as http://127.0.0.1:8000, or * (any). The control API can change it at run time.
SANDBOX_STORAGE_CORS_ORIGINS = os.environ.get("SANDBOX_STORAGE_CORS_ORIGINS", "*")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"()": "sandbox.core.logs.UtcFormatter",
                             "fmt": "%(asctime)s sandbox %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("SANDBOX_LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"level": "ERROR"}},
}
