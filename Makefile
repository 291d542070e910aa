# The two commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python

.PHONY: run test install lint typecheck messages clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

## Run the back-office with the provider sandbox and demo data (one Ctrl-C stops all).
run: install
	$(PY) scripts/devrun.py

## Run the whole test suite (PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set).
test: install
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key} $(VENV)/bin/pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(MAKE) --no-print-directory typecheck

## mypy twice: the back-office (pyproject.toml) and the sandbox (sandbox/mypy.ini).
typecheck: install
	SECRET_KEY=$${SECRET_KEY:-mypy-only-secret-key} $(VENV)/bin/mypy
	$(VENV)/bin/mypy --config-file sandbox/mypy.ini

## Refresh and compile the Simplified Chinese catalogues (needs gettext).
messages: install
	$(PY) scripts/messages.py

clean:
	rm -rf var .pytest_cache
