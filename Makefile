# `make run` serves the app on http://127.0.0.1:8000 as in production (PORT=... overrides);
# `make dev` serves it with DEBUG and autoreload; `make test` runs lint, type checks and the
# whole test suite. All need only Python 3.12+.
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The embedded PostgreSQL's data directory (another one: a restored copy, say).
DATA ?= var/pgdata

# The first Python >= 3.12 found: the versions by name, then plain python3, then pyenv's.
PYTHON ?= $(shell for c in python3.12 python3.13 python3.14 python3 python \
	$$HOME/.pyenv/versions/3.1[2-9]*/bin/python3; do \
	p=$$(command -v $$c 2>/dev/null) || continue; \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; break; }; \
	done)

.PHONY: help run dev password backup restore manage test lint format bench demo clean

help:
	@echo "make run    serve the app on http://127.0.0.1:$(PORT) (embedded PostgreSQL unless DATABASE_URL is set)"
	@echo "make dev    the same data, served with DEBUG and autoreload for development"
	@echo "make password [user=NAME]   a new password for admin (or NAME), printed once"
	@echo "make backup the embedded database into var/backup-<date>.dump (README: Backups)"
	@echo "make restore file=club.json DATA=var/restored   a club's export into a new data directory"
	@echo "make manage cmd=\"verify_ledger\"   a manage.py command on the embedded database (DATA=...)"
	@echo "make test   lint, type checks and the whole test suite"
	@echo "make lint   ruff and mypy only;  make format  reformat the code"
	@echo "make bench  the benchmarks in bench/ (needs wrk; BENCH_ARGS=\"--seconds 5 --games 6000\" for a quick run)"

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@if [ -z "$(PYTHON)" ]; then \
		echo "No Python 3.12 or newer found. Install one (e.g. 'apt-get install python3.12'," >&2; \
		echo "'pyenv install 3.12', or from python.org) or name it: make PYTHON=/path/to/python3.12" >&2; \
		exit 1; fi
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

# The secret key of `make run` and `make dev`, made once and kept: logins survive restarts.
var/secret_key: | $(VENV)/.installed
	@mkdir -p var
	@umask 077 && $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@

# The embedded PostgreSQL on $(DATA) (DATABASE_URL: that server instead), with the key.
LOCAL = SECRET_KEY=$${SECRET_KEY:-$$(cat var/secret_key)} PORT=$(PORT) \
	$(PY) -m config.localdb --data $(DATA) --

run: $(VENV)/.installed var/secret_key
	DEBUG=off STATIC_MANIFEST=on $(LOCAL) $(PY) manage.py serve

dev: $(VENV)/.installed var/secret_key
	DEBUG=on STATIC_MANIFEST=off $(LOCAL) $(PY) manage.py serve --dev

password: $(VENV)/.installed var/secret_key
	@$(LOCAL) $(PY) manage.py new_password $(user)

# The whole embedded database in pg_dump's custom format (README, "Backups").
PGBIN = $$($(PY) -c 'import pgserver._commands as c; print(c.POSTGRES_BIN_PATH)')
backup: $(VENV)/.installed var/secret_key
	@$(LOCAL) $(SHELL) -c 'f=var/backup-$$(date +%Y%m%d-%H%M%S).dump; \
		'"$(PGBIN)"'/pg_dump --format=custom --file=$$f "$$DATABASE_OWNER_URL" && echo "$$f"'

# A club's export (manage.py export_club, or "Sicherung herunterladen") into a data
# directory of its own, empty until now; then `make run DATA=...` serves it.
restore: $(VENV)/.installed var/secret_key
	@[ -n "$(file)" ] || { echo "usage: make restore file=club.json DATA=var/restored" >&2; exit 2; }
	@$(PY) -m clubs.export_file "$(file)"  # an unreadable file makes no data directory
	@$(LOCAL) $(SHELL) -c '$(PY) manage.py migrate --verbosity 0 && $(PY) manage.py import_club "$(file)"'

# Any manage.py command on the embedded database: make manage cmd="verify_ledger".
manage: $(VENV)/.installed var/secret_key
	@$(LOCAL) $(PY) manage.py $(cmd)

lint: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

format: $(VENV)/.installed
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# axe-core for the browser tests' accessibility checks (tests/browser/axe.py), from npm.
# Without npm those checks are skipped, except in CI, where they fail.
node_modules/axe-core/axe.min.js: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent && touch $@; \
	else echo "npm not found: the accessibility tests will be skipped (Debian/Ubuntu: apt-get install npm)" >&2; fi

test: lint node_modules/axe-core/axe.min.js
	SECRET_KEY=$${SECRET_KEY:-insecure-key-for-tests-only} STATIC_MANIFEST=0 \
	$(PY) -m config.localdb --throwaway -- $(SHELL) -c \
		'$(PY) manage.py makemigrations --check --dry-run && $(PY) -m pytest $(PYTEST_ARGS)'

# The engine's throughput, then the web app's one table (load with wrk, bytes, a club of
# ten years): needs Debian's wrk (apt-get install wrk).
bench: $(VENV)/.installed
	$(PY) bench/scoring_bench.py
	$(PY) -m config.localdb --throwaway -- $(PY) bench/web_bench.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
