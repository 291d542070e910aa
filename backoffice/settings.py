"""Settings of the back-office, read from the environment (see the README's table).

Without DATABASE_URL and REDIS_URL it runs embedded: SQLite under var/, the database cache and
a file-system Celery broker, so that `make run` works on a bare laptop. Production and the test
suite set both variables and use PostgreSQL and Redis.
"""

import ipaddress
from datetime import timedelta
from pathlib import Path
from typing import Any

import django_stubs_ext
from django.utils.translation import gettext_lazy as _

from backoffice.env import StrictEnv

# Lets Django's generic classes be subscripted at run time as their stubs are for mypy
# (`admin.ModelAdmin[Order]`, `forms.ModelForm[Rule]`); adds nothing else.
django_stubs_ext.monkeypatch(include_builtins=False)

env = StrictEnv()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env.str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env.bool("DEBUG", default=False)
# The production profile: behind a TLS proxy (its settings are at the end of this file).
HTTPS = env.bool("HTTPS", default=False)
SECRET_KEY = env.str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("SECRET_KEY: required when DEBUG is off")
    SECRET_KEY = "insecure-development-key-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.forms",
    "rest_framework",
    "drf_spectacular",
    "django_celery_beat",
    "csp",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "backoffice",
    "console",
    "sms",
    "topup",
    "storage",
    "media",
    "delivery",
]

MIDDLEWARE = [
    "backoffice.operations.request_ids.RequestIdMiddleware",
    "backoffice.security.proxy.RealClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "backoffice.security.sessions.SessionLifetimeMiddleware",
    "backoffice.security.session_touch.SessionTouchMiddleware",
    "backoffice.security.sessions.SignedInMarkerMiddleware",
    "backoffice.security.sessions.PrivateAnswersMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "backoffice.security.otp.SecondFactorMiddleware",
    "backoffice.security.audit.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: turns a refused login into the lockout answer.
    "axes.middleware.AxesMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
]

ROOT_URLCONF = "backoffice.urls"
WSGI_APPLICATION = "backoffice.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "backoffice.ui.menus.menu_context",
            ],
        },
    },
]

# Widgets render through the project's templates: templates/django/forms/widgets/ makes every
# input with a maxlength say its limit (issue 29), in every form at once.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

DATABASES = {"default": env.database("DATABASE_URL", f"sqlite:///{VAR_DIR / 'backoffice.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share the file: wait for locks instead of failing at once, and let
    # readers run beside the one writer (WAL), as callbacks and pages do.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20, "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Seconds a web or worker thread keeps its database connection between requests. 0 (Django's
# default) opens one per request: about 3 ms each on PostgreSQL, which bench/topup_callbacks.py
# shows as a third of a one-query view's time. Behind a transaction-pooling PgBouncer keep 0.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The report's covering index (INCLUDE columns) is PostgreSQL's; the embedded SQLite mode simply
# builds it without them, which needs no warning at every start.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

REDIS_URL = env.url("REDIS_URL", ("redis", "rediss"))
# Seconds a cache call waits for Redis. A healthy Redis answers in a millisecond; an
# unreachable one (a host gone, packets dropped) would otherwise hold each request for the
# system's TCP timeout, minutes. Every cache use on a request path treats a failure as a miss.
REDIS_TIMEOUT_S = env.int("REDIS_TIMEOUT_MS", 500, minimum=50) / 1000
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT_S,
                                      "socket_timeout": REDIS_TIMEOUT_S}}}
else:
    # Shared by every process (web, worker, beat), unlike the local-memory cache.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                          "LOCATION": "backoffice_cache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Staff sessions end after this long without a request: requests push the expiry on, so the
# cookie age is an idle limit, not a total one. The session is written again only when its
# last write is SESSION_TOUCH_S old (backoffice/security/session_touch.py), not at every request
# (three queries a page), so the limit holds to within a minute.
SESSION_IDLE_S = env.int("SESSION_IDLE_S", 8 * 3600, minimum=60)
SESSION_COOKIE_AGE = SESSION_IDLE_S
SESSION_TOUCH_S = min(60, SESSION_IDLE_S // 10)
# ...and whatever the activity, a session ends this long after its sign-in
# (backoffice/security/sessions.py), so that a stolen cookie in use does not live for ever.
SESSION_MAX_S = env.int("SESSION_MAX_S", 7 * 24 * 3600, minimum=60)
SESSION_COOKIE_HTTPONLY = True

# Headers of every answer (SecurityMiddleware, XFrameOptionsMiddleware, django-csp).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Scripts and styles only from our own static files: no inline script, event handler, style
# attribute or <style> block anywhere (scripts change styles through the DOM's style
# properties, which the policy allows; DRF's browsable API templates are overridden under
# templates/rest_framework/). Images may come from the provider's edge (storage previews,
# processed images), whose address the settings only know at run time, hence any http(s)
# origin for images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:", "http:", "https:"],
        "media-src": ["'self'", "blob:", "http:", "https:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Login throttling (django-axes, backoffice/security/throttle.py): 5 failures for one user name
# from one address lock that pair, 20 from one address lock the address, for 15 minutes after
# the last failure; 50 failures for one user name within an hour (all addresses) hold the name
# until the oldest is an hour old. An administrator unlocks by deleting the access attempts
# (and, for the hourly limit, the name's access failures) in the admin.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "backoffice.security.throttle.StaffLoginHandler"
AXES_FAILURE_LIMIT = 5  # the (name, address) limit; the other two are scaled onto it
# The pair first, the address second: StaffLoginHandler.get_failures reads them in this order.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # the announced retry time holds
# Not on the password alone: someone holding the password could otherwise guess codes
# forever, 4 at a time. A full sign-in resets (backoffice.security.otp.reset_after_full_sign_in).
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "backoffice.security.throttle.lockout_response"
AXES_ENABLE_ACCESS_FAILURE_LOG = True

# Two-factor sign-in (django-otp, backoffice/security/otp.py). REQUIRE_2FA: comma-separated staff
# group names, or `all`, whose members must enrol at their next sign-in.
REQUIRE_2FA = env.list("REQUIRE_2FA", [])
_ROLE_NAMES = ("SMS operators", "Top-up operators", "Content managers", "Auditors")  # roles.py
if REQUIRE_2FA and REQUIRE_2FA != ["all"]:
    _unknown = [name for name in REQUIRE_2FA if name not in _ROLE_NAMES]
    if _unknown:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"REQUIRE_2FA: expected `all` or group names among {', '.join(_ROLE_NAMES)},"
            f" got {', '.join(repr(name) for name in _unknown)}")
OTP_TOTP_ISSUER = "Merchant back-office"
# Seeds are sealed and recovery codes hashed under keys derived from this (or from SECRET_KEY
# when empty: then rotating SECRET_KEY makes every second factor unreadable; set this first).
OTP_ENCRYPTION_KEY = env.str("OTP_ENCRYPTION_KEY", "")
# Fernet keys sealing the services' credentials, newest first (console.sealed).
CREDENTIALS_KEYS = env.fernet_keys("CREDENTIALS_KEYS")
# The admin would draw the QR code from the (sealed) key column: it shows neither.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
AXES_SENSITIVE_PARAMETERS = ["password", "code"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"
# An expired form: a page in the layout that says so and gives the typed values back.
CSRF_FAILURE_VIEW = "backoffice.ui.errors.csrf_failure"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "uploads/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# Files kept between requests (an SMS import's source file): `local` keeps them in MEDIA_ROOT
# (one machine); `bucket` in a private folder of the configured bucket, shared by every host.
FILE_STORAGE = env.choice("FILE_STORAGE", ("local", "bucket"), "local")
FILE_STORAGE_FOLDER = env.str("FILE_STORAGE_FOLDER", "/backoffice-private")
if FILE_STORAGE == "bucket":
    STORAGES["default"] = {"BACKEND": "storage.services.BucketStorage"}

REST_FRAMEWORK = {
    # One API credential: the merchant tokens (topup.api.authentication); DRF's Token scheme
    # and its app are gone (migration topup 0008 converted its keys).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON nested deeper than MAX_JSON_DEPTH is a 400 before the json module recurses into it.
    "DEFAULT_PARSER_CLASSES": [
        "backoffice.security.bounded_input.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only: DRF's browsable API (HTML pages of every endpoint, with forms) is a
    # developer's tool, on only with DEBUG outside the production profile (HTTPS).
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG and not HTTPS else []),
    ],
}
# Merchant API tokens (topup/services/apitokens.py): default and longest lifetime, and the
# requests each token may make per minute (429 with Retry-After beyond).
API_TOKEN_DAYS = env.int("API_TOKEN_DAYS", 90, minimum=1)
API_TOKEN_MAX_DAYS = max(API_TOKEN_DAYS, 365)
API_TOKEN_RATE_PER_MINUTE = env.int("API_TOKEN_RATE_PER_MINUTE", 60, minimum=1)
# Unknown API tokens one client address (an IPv6 /64) may send per minute before its requests
# are refused with 429 until the minute ends.
API_UNKNOWN_TOKENS_PER_MINUTE = env.int("API_UNKNOWN_TOKENS_PER_MINUTE", 20, minimum=1)
SPECTACULAR_SETTINGS = {
    "TITLE": "Merchant back-office API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Celery: Redis when configured, otherwise a broker kept in files under var/ (no server).
CELERY_BROKER_URL = REDIS_URL or "filesystem://"
if not REDIS_URL:
    _broker_dir = VAR_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
else:
    # Countdowns must stay below this, or Redis redelivers a task that is merely waiting.
    # A connection attempt gives up after REDIS_TIMEOUT_S: a page that queues a task while
    # Redis is away answers at once (backoffice.operations.queue logs it; the sweeps re-queue).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600,
                                       "socket_connect_timeout": REDIS_TIMEOUT_S}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
# django-celery-beat's database scheduler under a lease: one active beat across hosts.
CELERY_BEAT_SCHEDULER = "backoffice.operations.beat:LeasedDatabaseScheduler"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)

# The provider. Every secret comes from the environment; `make run` fills these from the
# sandbox's info file.
PROVIDER: dict[str, Any] = {  # each service's settings, and the sandbox's control URL
    "sms": {
        "api_url": env.url("SMS_API_URL", ("http", "https")),
        "token": env.str("SMS_TOKEN"),
    },
    "topup": {
        "traffic_url": env.url("TRAFFIC_URL", ("http", "https")),
        "appkey": env.str("TOPUP_APPKEY"),
        "appsecret": env.str("TOPUP_APPSECRET"),
    },
    "storage": {
        "url": env.url("STORAGE_URL", ("http", "https")),
        "bucket": env.str("STORAGE_BUCKET"),
        "operator": env.str("STORAGE_OPERATOR"),
        "password": env.str("STORAGE_PASSWORD"),
        "signature": env.choice("STORAGE_SIGNATURE", ("current", "legacy"), "current"),
        # The four entry addresses (console.services.access has the provider's own).
        "lines": env.mapping("STORAGE_LINE_URLS", ("auto", "telecom", "unicom", "cmcc")),
    },
    "media": {"process_url": env.url("PROCESS_URL", ("http", "https"))},
    "delivery": {
        "delivery_url": env.url("DELIVERY_URL", ("http", "https")),
        "purge_url": env.url("PURGE_URL", ("http", "https")),
        "token_secret": env.str("DELIVERY_TOKEN_SECRET"),
    },
    # The provider's console API (services, domains, every delivery setting): a Bearer token
    # from these credentials, shared by every process (console.services.token).
    "console": {
        "console_url": env.url("CONSOLE_URL", ("http", "https")),
        "username": env.str("CONSOLE_USERNAME"),
        "password": env.str("CONSOLE_PASSWORD"),
    },
    "sandbox_control_url": env.url("SANDBOX_CONTROL_URL", ("http", "https")),
    # `make run`'s own web server standing for a merchant's site (scripts/demo_origin.py): the
    # origin of the demo's CDN service (console/demo.py). Demo data only, like the line above.
    "demo_origin_url": env.url("DEMO_ORIGIN_URL", ("http", "https")),
}
PROVIDER_TIMEOUT_S = env.int("PROVIDER_TIMEOUT_S", 15, minimum=1)
# A MaxMind-format Country (or City) database, for the country of a client address: the rule
# tester's $_GEOIP_COUNTRY_CODE (delivery.geo). Unset: the tester knows no country.
GEOIP_DATABASE = env.str("GEOIP_DATABASE", "")

# Marketing messages go out only inside this window of the provider's wall-clock time; the SMS
# app parses it when Django starts (SmsConfig.ready), so that a malformed value stops start-up,
# not a campaign. The default is sms.window.DEFAULT_WINDOW (a test keeps them equal).
SMS_MARKETING_WINDOW = env.str("SMS_MARKETING_WINDOW", "08:00-21:00")
# Months of messages kept in the table, this one included; older months are archived as the
# report's CSV in the private file storage, then removed (sms.services.retention).
SMS_MESSAGE_RETENTION_MONTHS = env.int("SMS_MESSAGE_RETENTION_MONTHS", 24, minimum=1)
# Provider calls a campaign run keeps in flight at once (personalised campaigns make one call
# per set of values); a 429 halves it for a while (sms.services.calls_in_flight).
SMS_SEND_CONCURRENCY = env.int("SMS_SEND_CONCURRENCY", 4, minimum=1, maximum=32)

if FILE_STORAGE == "bucket" and not PROVIDER["storage"]["url"]:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("FILE_STORAGE: `bucket` needs STORAGE_URL and the bucket settings")
# Files larger than this go to storage by resumable upload, in 1 MiB parts.
STORAGE_RESUMABLE_THRESHOLD = env.int("STORAGE_RESUMABLE_THRESHOLD", 10 * 1024 * 1024,
                                      minimum=1)
# Parts of one resumable upload on the wire at once (the provider's parallel mode); 1 sends
# them one after the other, in order.
STORAGE_UPLOAD_PARTS_IN_FLIGHT = env.int("STORAGE_UPLOAD_PARTS_IN_FLIGHT", 4, minimum=1,
                                         maximum=32)
# A browser upload whose parts keep failing retries this long, then says "paused" with the
# reason; a part request without an answer this long counts as failed (static/storage).
STORAGE_UPLOAD_PAUSE_S = env.int("STORAGE_UPLOAD_PAUSE_S", 120, minimum=1)
STORAGE_UPLOAD_PART_TIMEOUT_S = env.int("STORAGE_UPLOAD_PART_TIMEOUT_S", 60, minimum=1)
# Browser uploads: `direct` sends the file from the browser straight to the storage service
# with requests the back-office signs (FORM API up to the resumable threshold, signed REST
# parts above it); `through-backoffice` keeps the path through the web nodes, for networks
# where browsers cannot reach the provider (docs/decisions.md, "Direct browser uploads").
STORAGE_BROWSER_UPLOAD_ROUTE = env.choice("STORAGE_BROWSER_UPLOAD_ROUTE",
                                          ("direct", "through-backoffice"), "direct")
# Part size of direct uploads (a multiple of 1 MiB up to 50 MiB, the provider's rule).
STORAGE_DIRECT_PART_SIZE = env.int("STORAGE_DIRECT_PART_SIZE", 4 * 1024 * 1024,
                                   minimum=1024 * 1024, maximum=50 * 1024 * 1024)
# How long a signature handed to the browser is taken by the provider, in seconds.
STORAGE_DIRECT_SIGNATURE_LIFETIME_S = env.int("STORAGE_DIRECT_SIGNATURE_LIFETIME_S", 900,
                                              minimum=5, maximum=1800)
# A direct upload neither reported nor found complete at the provider this long after its
# last sign of life is shown as abandoned, and its unfinished provider task is cancelled.
STORAGE_DIRECT_UPLOAD_ABANDON_S = env.int("STORAGE_DIRECT_UPLOAD_ABANDON_S", 6 * 3600,
                                          minimum=60)
# A folder deletion, copy or move still waiting for a worker this long lost its message (the
# broker was down): the sweep sends it again (storage.services.job_lease).
STORAGE_FOLDER_JOB_STALE_S = env.int("STORAGE_FOLDER_JOB_STALE_S", 60, minimum=1)

# /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset, it does not exist.
METRICS_TOKEN = env.str("METRICS_TOKEN")
# prometheus-client's own variable: where the processes of one host keep their metrics.
_metrics_dir = env.str("PROMETHEUS_MULTIPROC_DIR")
if _metrics_dir and not Path(_metrics_dir).is_dir():
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"PROMETHEUS_MULTIPROC_DIR: {_metrics_dir!r} is not a directory")

LOG_LEVEL = env.choice("LOG_LEVEL", ("DEBUG", "INFO", "WARNING", "ERROR"), "INFO")
LOG_FORMAT = env.choice("LOG_FORMAT", ("plain", "json"), "plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "backoffice.operations.request_ids.RequestIdFilter"},
                "refusal": {"()": "backoffice.operations.logs.RefusalWithoutTraceback"},
                "bad_host": {"()": "backoffice.operations.logs.BadHostWithoutTraceback"}},
    "formatters": {
        "plain": {"()": "backoffice.operations.logs.UtcFormatter"},
        "json": {"()": "backoffice.operations.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT,
                             "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # A 403 is one line without a traceback (backoffice.operations.logs.RefusalWithoutTraceback).
    "loggers": {
        "django.request": {"filters": ["refusal"]},
        # A foreign Host header: one line naming it, no traceback (BadHostWithoutTraceback).
        "django.security.DisallowedHost": {"filters": ["bad_host"]},
        # runserver's request lines: the same format and zone as every other line.
        "django.server": {"handlers": ["console"], "propagate": False},
    },
}
# Workers log through the configuration above (JSON included), not Celery's own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Behind nginx: the client's address comes from X-Real-IP when the peer is one of these.
TRUSTED_PROXY_IPS = env.list("TRUSTED_PROXY_IPS", [])
for _address in TRUSTED_PROXY_IPS:
    try:
        ipaddress.ip_address(_address)
    except ValueError:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"TRUSTED_PROXY_IPS: {_address!r} is not an IP address") from None

# Provider callbacks only from these addresses or networks (unset: from anywhere; the sign
# is checked either way). A refused address is stored as a receipt and answered 403.
TOPUP_CALLBACK_ALLOWED_IPS = env.list("TOPUP_CALLBACK_ALLOWED_IPS", [])
for _network in TOPUP_CALLBACK_ALLOWED_IPS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"TOPUP_CALLBACK_ALLOWED_IPS: {_network!r} is not an IP address or network"
        ) from None

# Production profile (HTTPS=true, read at the top) behind a TLS-terminating proxy that sets
# X-Forwarded-Proto.
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # Probes and scrapers talk to gunicorn directly, over plain HTTP on the host.
    SECURE_REDIRECT_EXEMPT = [r"^health$", r"^ready$", r"^metrics$"]
elif not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=False)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
