# Production image: gunicorn serving the app, whitenoise serving the static files collected
# at build time, running as a non-root user. The database comes from DATABASE_URL.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN useradd --system --create-home --uid 10001 schafkopf

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY manage.py ./
COPY config config
COPY clubs clubs
COPY evenings evenings
COPY scoring scoring
COPY templates templates
COPY static static

# Settings refuse to load without these; the values only serve the build step.
RUN DEBUG=0 SECRET_KEY=collectstatic-only DATABASE_URL=postgresql:///unused \
    python manage.py collectstatic --noinput --verbosity 0

USER schafkopf
EXPOSE 8000
# Asks as the first allowed host, so ALLOWED_HOSTS need not list localhost.
HEALTHCHECK --interval=30s --timeout=3s \
    CMD python -c "import os, urllib.request as r; \
host = os.environ.get('ALLOWED_HOSTS', 'localhost').split(',')[0].strip(); \
r.urlopen(r.Request('http://127.0.0.1:8000/healthz', headers={'Host': host}), timeout=2)"
CMD ["gunicorn", "config.wsgi", "--bind=0.0.0.0:8000", "--workers=3", "--access-logfile=-", "--forwarded-allow-ips=*"]
