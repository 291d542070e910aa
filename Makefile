# The two commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
# The provider's official JavaScript SDK, pinned for tests/sdk/ (npm writes this file last).
NODE_SDK := tests/sdk/node_modules/.package-lock.json

.PHONY: run test install lint typecheck messages docs clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed $(NODE_SDK)

# Without npm the SDK test is skipped (it fails under REQUIRE_SERVICES=1, as on CI).
$(NODE_SDK): tests/sdk/package.json tests/sdk/package-lock.json
	@if command -v npm >/dev/null; then \
		cd tests/sdk && npm ci --no-audit --no-fund --loglevel=error; \
	else \
		echo "npm not found: tests/sdk/ will skip the JavaScript SDK (apt-get install nodejs npm)"; \
	fi

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

## mypy three times: the back-office (pyproject.toml) and the sandbox (sandbox/mypy.ini), both
## strict, and the tests (tests/mypy.ini, lighter: test functions need no annotations).
typecheck: install
	SECRET_KEY=$${SECRET_KEY:-mypy-only-secret-key} $(VENV)/bin/mypy
	$(VENV)/bin/mypy --config-file sandbox/mypy.ini
	SECRET_KEY=$${SECRET_KEY:-mypy-only-secret-key} $(VENV)/bin/mypy --config-file tests/mypy.ini

## Refresh and compile the Simplified Chinese catalogues (needs gettext).
messages: install
	$(PY) scripts/messages.py

## Build the documentation site (docs/, mkdocs.yml) into var/site/; a broken link fails it.
docs: install
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir var/site

clean:
	rm -rf var .pytest_cache
