# Crewbuilder: `make run` serves the app, `make test` runs every test.
# Both create .venv and install what they need on first use.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve table lint test test-fast test-e2e test-postgres bench setup runtime-deps system-deps migrate catalogue clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes, so a second `make run` is fast.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

setup: $(STAMP)
	@mkdir -p var

migrate: setup
	$(PY) manage.py migrate --noinput

catalogue: migrate
	$(PY) manage.py loadcatalogue

run: catalogue runtime-deps
	@echo "Crewbuilder is at http://$(HOST):$(PORT)/ (Ctrl-C to stop; data is kept in var/)."
	$(PY) manage.py runserver $(HOST):$(PORT)

# Production-like: DEBUG off, gunicorn, static files through whitenoise.
serve: catalogue runtime-deps
	$(PY) scripts/serve.py --bind $(HOST):$(PORT)

# The phones around the table: production-like on the local network, with a QR code to join.
table: catalogue runtime-deps
	$(PY) scripts/table.py --port $(PORT)

# Debian packages, installed only when missing: HarfBuzz's font subsetter
# for WeasyPrint (app and tests); Chromium for the browser tests and poppler
# for reading PDFs back (tests only).
runtime-deps:
	@scripts/system-deps.sh run

system-deps:
	@scripts/system-deps.sh test

# Lint, format and type checks first: they take seconds.
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: $(DEV_STAMP) system-deps lint
	$(PY) -m pytest

test-fast: $(DEV_STAMP) runtime-deps
	$(PY) -m pytest -m "not e2e"

test-e2e: $(DEV_STAMP) system-deps
	$(PY) -m pytest tests/e2e

# The same suite against a throwaway PostgreSQL cluster.
test-postgres: $(DEV_STAMP) system-deps
	scripts/with-postgres.sh $(PY) -m pytest

bench: $(DEV_STAMP) runtime-deps
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) var/staticfiles .pytest_cache
