"""Settings for the Schafkopf club app.

Everything that differs between a laptop, CI and production is read from the environment
(see README.md, "Settings"). Without DEBUG the app refuses to start on a missing secret key
rather than run with a guessable one.
"""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import database_from_url, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it (50+ random characters), or set DEBUG=1 for a "
            "throwaway development key; `make run` and `make test` do this for you."
        )
    SECRET_KEY = "django-insecure-development-only-never-use-this-key-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "config.admin.OperatorAdminConfig",  # django.contrib.admin, members get a 404 (config/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.forms",
    "django_htmx",
    "clubs",
    "evenings",
    "tournaments",
]

MIDDLEWARE = [
    # Pages and answers go out compressed (Brotli, else gzip): a sheet of 60 games is
    # ~6 KB instead of ~67. BREACH: the CSRF token is masked anew in every response, each
    # compressed answer is padded with random bytes, and no page echoes request input
    # beside a secret (README, "Speed").
    "config.compression.Compression",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with the user read in the session's own query (clubs/sessions.py).
    "clubs.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A German page for opening an address that only takes forms (Django's 405 is empty).
    "config.middleware.form_only_address",
    # The login page says that a form sent after the login expired was not saved.
    "config.middleware.expired_login_on_a_form",
    # Back shows a logged-in page as it is now (balances after the last booking).
    "config.middleware.fresh_pages",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
# Widgets render with the project templates too (the entry screen's chips).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# PostgreSQL only: the ledger relies on its constraints and triggers. `make run` and
# `make test` start an embedded server (pgserver) and set DATABASE_URL when it is unset.
DATABASE_URL = env_str("DATABASE_URL")
if not DATABASE_URL:
    raise ImproperlyConfigured(
        "DATABASE_URL is not set. Use `make run` / `make test`, which start an embedded "
        "PostgreSQL, or point DATABASE_URL at a server: postgresql://user:pass@host/db"
    )
DATABASES = {"default": database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "clubs.account_forms.SimilarityValidator"},
    {"NAME": "clubs.account_forms.SpaceAtTheEndsValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "start"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch"))]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production collects static files into STATIC_ROOT (the image at build time, `make run` as
# it starts), with hashed names that browsers may cache forever; tests and `make dev` serve
# them straight from the finders.
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", not DEBUG)
STATIC_ROOT = BASE_DIR / "staticfiles" if STATIC_MANIFEST else None
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "config.storage.StaticStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST

# Email: SMTP if a host is configured (password reset). Without one the app offers no
# reset by mail (clubs.account_forms.sends_mail); the console backend stands in for
# what would be sent anyway.
EMAIL_SMTP_HOST = env_str("EMAIL_HOST")
MAILERS = {
    "default": (
        {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_SMTP_HOST,
                "port": env_int("EMAIL_PORT", 587),
                "username": env_str("EMAIL_HOST_USER"),
                "password": env_str("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": 10,
            },
        }
        if EMAIL_SMTP_HOST
        else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    )
}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "schafkopf@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Security. HTTPS=on is for a deployment behind TLS; it turns on secure cookies, HSTS and
# the redirect. PROXY_SSL_HEADER=on trusts X-Forwarded-Proto from the reverse proxy.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
# How many reverse proxies stand in front of the app (nginx in compose.yaml: 1). The login
# and password-reset throttles then take the client's address from X-Forwarded-For,
# counted from the right.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
if env_bool("PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_HTTPONLY = True
# Database sessions that load their user in the same query (clubs/sessions.py).
SESSION_ENGINE = "clubs.sessions"
# static/js/site.js reads the CSRF cookie to send the current token from forms left open.
CSRF_COOKIE_HTTPONLY = False
CSRF_FAILURE_VIEW = "clubs.views.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Content Security Policy: only our own files; the one nonce is for htmx's script tag.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (DEBUG only) beside the root's printed every
        # warning twice under `make dev`: its records go to the root's handler alone.
        # Configuring "django" resets its children, so the development server's request
        # lines get their handler and format back here, as Django sets them.
        "django": {"handlers": [], "level": env_str("LOG_LEVEL", "INFO")},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        "django.db.backends": {"level": "INFO"},
    },
}
