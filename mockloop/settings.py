"""Mockloop settings: one module, configured by environment variables (see docs/operations.md)."""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import BASE_DIR, VAR_DIR, dev_secret_key, env, env_bool, env_int, env_list

# Django's DEBUG shows a traceback page, settings included, to whoever makes a request
# fail: it is on only when asked for by name. `make run` asks for development mode
# (MOCKLOOP_DEV: a generated secret, demo logins, plain logs, plain-HTTP cookies), not it.
DEBUG = env_bool("DEBUG", False)
DEV = env_bool("MOCKLOOP_DEV", False) or DEBUG
TESTING = env_bool("MOCKLOOP_TESTING", False)

SECRET_KEY = env("SECRET_KEY") or (dev_secret_key() if DEV or TESTING else None)
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "Set SECRET_KEY (or MOCKLOOP_DEV=1 for a generated development key)."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "channels",
    "interviews",
]

MIDDLEWARE = [
    "mockloop.observability.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the session user is known: ?lang=, their saved language, Accept-Language.
    "interviews.i18n.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "mockloop.urls"
ASGI_APPLICATION = "mockloop.asgi.application"
WSGI_APPLICATION = None

FRONTEND_DIST = BASE_DIR / "frontend" / "dist"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 0)
DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'mockloop.sqlite3'}",
        conn_max_age=0 if DB_POOL_MAX_SIZE else env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DB_POOL_MAX_SIZE and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Web processes on PostgreSQL: a new connection is a new server process (~5 ms and a
    # fork on the database host) per request. The pool keeps them open and checks each one
    # before lending it, so a connection PostgreSQL dropped is replaced, not handed out.
    # Only for web: a Celery prefork parent must not own a pool's threads across fork().
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "pool": {"min_size": 2, "max_size": DB_POOL_MAX_SIZE, "timeout": 10},
    }
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Several processes (web, worker) and threads (each ASGI request has its own) share the
    # file: wait for locks instead of failing. IMMEDIATE takes the write lock at BEGIN; a
    # deferred transaction that reads then writes fails at once with "database is locked"
    # when another writer holds the lock (SQLite refuses to wait, to avoid a deadlock).
    # WAL: readers never block the writer, and commits do not fsync a rollback journal.
    # Writers of one process queue for that lock in-process first (mockloop/sqlite3:
    # SQLite's busy handler polls with a growing sleep, which rounded a waiting write up
    # by as much as the wait itself).
    DATABASES["default"]["ENGINE"] = "mockloop.sqlite3"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Live rooms (interviews/realtime/roomdb.py, roomlog.py): database threads per web
# process, and how long a room's edits wait to be written to its event log as one batch
# (they are relayed to the room at once; a crash loses at most this window's edits, which
# their authors' clients send again on reconnect).
ROOM_DB_THREADS = env_int("ROOM_DB_THREADS", 4)
ROOM_LOG_FLUSH_MS = env_int("ROOM_LOG_FLUSH_MS", 150)

REDIS_URL = env("REDIS_URL")

if REDIS_URL:
    CACHES = {"default": {"BACKEND": "mockloop.cache.SharedRedisCache", "LOCATION": REDIS_URL}}
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis that rides out a Redis restart (see the module's docstring)
            "BACKEND": "interviews.realtime.layers.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The server's own strings (API errors, validation, mails, the printable report) in the
# request's language (interviews/i18n.py picks it; catalogues in locale/, compiled by the
# set-up). Django's codes here; the API says zh-Hans / zh-Hant.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("zh-hant", "繁體中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env("STATIC_ROOT", str(VAR_DIR / "static")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing root
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []
# Uploaded files (call recordings, spoken answers) through Django's storage API: files
# here by default; docs/operations.md shows an S3-compatible bucket via django-storages.
MEDIA_ROOT = Path(env("MEDIA_ROOT", str(VAR_DIR / ("test-media" if TESTING else "media"))))
MEDIA_URL = "/media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# Vite names every built asset `/static/assets/<name>-<hash>.<ext>`: its content never
# changes under that name, so browsers may keep it for a year without asking again.
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/static/assets/.+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$"

# Bodies are capped well above the 64 KiB code limit so the API can answer 413 itself.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2 * 1024 * 1024)
# Any request body, before Django reads it (mockloop/limits.py): the bank import's 64 MiB
# plus room for multipart framing.
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", 65 * 1024 * 1024)

AUTHENTICATION_BACKENDS = [
    "interviews.auth.RoleModelBackend",
    # Sessions made before it was added name this one; it serves them until they end.
    "django.contrib.auth.backends.ModelBackend",
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first so an anonymous request gets 401 (with WWW-Authenticate), not 403.
        "interviews.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["interviews.api.parsers.LimitedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "interviews.api.errors.exception_handler",
    # Anonymous throttles key on the client address. 0: REMOTE_ADDR only, never a client's
    # own X-Forwarded-For (DRF's default, None, takes that header as it comes, so a new
    # value per request dodged every limit). The ASGI server has already put the real
    # client there when the peer is a proxy it trusts (uvicorn's FORWARDED_ALLOW_IPS).
    "NUM_PROXIES": 0,
    "DEFAULT_THROTTLE_RATES": {
        "submissions": env("THROTTLE_SUBMISSIONS", "30/min"),
        # submits of one part of one question per user: each shows a verdict per hidden
        # test, so rapid repeats are how hidden inputs get probed
        "submit_part": env("THROTTLE_SUBMIT_PART", "5/min"),
        "login": env("THROTTLE_LOGIN", "20/min"),
        # new accounts per client address: each is a fresh identity for every per-user cap
        "signup": env("THROTTLE_SIGNUP", "20/hour"),
        # each reset request sends a mail: per client address, so nobody floods an inbox
        "password_reset": env("THROTTLE_PASSWORD_RESET", "10/hour"),
        # wrong current passwords are guesses, like logins
        "password": env("THROTTLE_PASSWORD", "20/hour"),
        "follow_ups": env("THROTTLE_FOLLOW_UPS", "60/min"),
        "chat": env("THROTTLE_CHAT", "120/min"),
        # one MediaRecorder chunk every few seconds, and its retries
        "recording_chunk": env("THROTTLE_RECORDING_CHUNK", "120/min"),
    },
}

# API tokens (django-rest-knox): one per login, stored as a digest, good for this long;
# logout revokes the caller's token (docs/decisions.md, "Sessions and tokens").
REST_KNOX = {
    "TOKEN_TTL": timedelta(seconds=env_int("AUTH_TOKEN_TTL_SECONDS", 7 * 24 * 3600)),
    "AUTH_HEADER_PREFIX": "Token",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Mockloop API",
    "DESCRIPTION": "Practice AI-infrastructure interview loops.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger/Redoc assets served from the sidecar package: no CDN, no inline scripts (CSP).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "QuestionKindEnum": "interviews.models.bank.QuestionKind",
        "StageKindEnum": "interviews.models.bank.StageKind",
        "StageStatusEnum": "interviews.models.practice.Stage.Status",
        "SubmissionStatusEnum": "interviews.models.practice.Submission.Status",
        "AccountLanguageEnum": "interviews.models.accounts.AccountProfile.Language",
        "LanguageEnum": "interviews.models.bank.Language",
    },
}

CELERY_BROKER_URL = REDIS_URL or "memory://"
# Results are kept only for the tasks that return one (a bank import's reference jobs,
# which the importing process waits for); everything else reports through the database.
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The queue tasks go to and a worker started without -Q consumes (e.g. a test's own)
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", "celery")
# Every task has a soft time limit (SoftTimeLimitExceeded: the task ends its job cleanly,
# e.g. a submission as internal_error) and a hard one (the child process is killed).
# The judging tasks set their own (interviews.judging.tasks): a job may run many tests.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 120)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", CELERY_TASK_SOFT_TIME_LIMIT + 30)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# A job whose worker died unacked is handed out again after the visibility timeout; sweep
# for such jobs every few seconds (kombu's default sweep runs only every ~100 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 5),
    "unacked_restore_throttle": 1,
}

# A judge claims a submission for this long; a crashed worker's job is re-judged after it.
JUDGE_LEASE_SECONDS = env_int("JUDGE_LEASE_SECONDS", 120)
# Judging one submission (compile + every test) may take this long before it is ended
# as internal_error; the hard limit kills the worker's child 30 s later.
JUDGE_SOFT_TIME_LIMIT_SECONDS = env_int("JUDGE_SOFT_TIME_LIMIT_SECONDS", 600)
# A candidate's submissions queued or running at once (more: 429); the deadline's
# auto-submit is never refused.
JUDGE_MAX_IN_FLIGHT_PER_USER = env_int("JUDGE_MAX_IN_FLIGHT_PER_USER", 2)

SANDBOX = {
    "IMAGE_PREFIX": env("SANDBOX_IMAGE_PREFIX", "mockloop-runner"),
    "DOCKER_URL": env("DOCKER_HOST"),
}

MAX_CODE_BYTES = 64 * 1024

# Scheduling (interviews/services/scheduling.py): invites and reminders by Django's mail,
# the console backend unless EMAIL_BACKEND / EMAIL_HOST say otherwise (docs/operations.md).
# Links in the mails are absolute, from MOCKLOOP_PUBLIC_URL.
EMAIL_BACKEND = env(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if env("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Mockloop <noreply@mockloop.local>")
#: Email verification: "none" (default), "optional" (a link is mailed on signup and on an
#: email change), "mandatory" (and no sign-in until it is opened).
ACCOUNT_EMAIL_VERIFICATION = env("ACCOUNT_EMAIL_VERIFICATION", "none")
if ACCOUNT_EMAIL_VERIFICATION not in ("none", "optional", "mandatory"):
    raise ImproperlyConfigured("ACCOUNT_EMAIL_VERIFICATION is none, optional or mandatory")
ACCOUNT_EMAIL_VERIFICATION_MAX_AGE = env_int("ACCOUNT_EMAIL_VERIFICATION_MAX_AGE", 3 * 24 * 3600)
#: Seconds a mailed password-reset link works (Django's token generator checks it).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 24 * 60 * 60)
MOCKLOOP_PUBLIC_URL = env("MOCKLOOP_PUBLIC_URL", "http://localhost:8000").rstrip("/")
#: A booked stage whose coach has not started it this long after the booked time may be
#: continued solo by its candidate (the scripted interviewer takes over).
BOOKING_NO_SHOW_MINUTES = env_int("BOOKING_NO_SHOW_MINUTES", 10)
#: The reminder mail goes out this long before a booked session.
BOOKING_REMINDER_MINUTES = env_int("BOOKING_REMINDER_MINUTES", 30)

# The live rooms' calls (WebRTC): the STUN/TURN servers browsers get from
# /api/v1/rtc/ice-servers/, with TURN credentials in coturn's shared-secret REST scheme
# (`static-auth-secret` = RTC_TURN_SECRET) that expire after RTC_TURN_TTL seconds.
RTC_STUN_URLS = env_list("RTC_STUN_URLS", [])
RTC_TURN_URLS = env_list("RTC_TURN_URLS", [])
RTC_TURN_SECRET = env("RTC_TURN_SECRET", "")
RTC_TURN_TTL = env_int("RTC_TURN_TTL", 4 * 3600)
if RTC_TURN_URLS and not RTC_TURN_SECRET:
    raise ImproperlyConfigured("RTC_TURN_URLS needs RTC_TURN_SECRET (coturn's static-auth-secret).")

LOG_FORMAT = env("LOG_FORMAT", "plain" if DEV or TESTING else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "mockloop.logs.ContextFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "mockloop.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["context"],
        }
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # uvicorn's own lines (start-up, errors, one per request) in the same format, so
        # production logs stay one JSON object per line
        "uvicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "uvicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}

# Content-Security-Policy (django-csp). Styles allow 'unsafe-inline' because CodeMirror,
# Excalidraw and mermaid set style attributes; scripts come only from our own origin.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        # recordings play from Blob URLs of our own audio (a MediaRecorder WebM seeks there)
        "media-src": ["'self'", "blob:"],
        "connect-src": ["'self'", "ws:", "wss:"] if DEV or TESTING else ["'self'", "wss:"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
READY_MAX_QUEUE_DEPTH = env_int("READY_MAX_QUEUE_DEPTH", 500)
# Off where web has no Docker socket (compose): only the workers judge there.
READY_CHECK_DOCKER = env_bool("READY_CHECK_DOCKER", True)
METRICS_ALLOWED_IPS = env_list("METRICS_ALLOWED_IPS", [])
# /metrics wants `Authorization: Bearer <this>`; unset in production, it is served to nobody
# (unless METRICS_ALLOWED_IPS names the scrapers).
METRICS_TOKEN = env("MOCKLOOP_METRICS_TOKEN", "")

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEV and not TESTING:
    # Production: cookies only over HTTPS, HSTS, and trust the proxy's scheme header.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

CELERY_BEAT_SCHEDULE = {
    "stages-tick": {"task": "interviews.stages_tick", "schedule": 1.0, "options": {"expires": 5}},
    "requeue-submissions": {
        "task": "judging.requeue_submissions",
        "schedule": 5.0,
        "options": {"expires": 10},
    },
    "booking-reminders": {
        "task": "interviews.bookings_remind",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
}
