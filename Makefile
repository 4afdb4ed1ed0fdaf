# Mockloop's two commands: `make run` and `make test`. The work is in scripts/*.sh;
# both are idempotent and skip whatever is already set up (stamps in var/stamps/).

SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTEST_ARGS ?=

.PHONY: help run test setup lint fmt frontend clean

help:
	@echo "make run     set up what is missing, then serve http://127.0.0.1:$${PORT:-8000}/ (Ctrl-C stops)"
	@echo "make test    the same set-up, then ruff, vitest and pytest (PYTEST_ARGS='-k smoke' to narrow)"
	@echo "make lint    ruff check + ruff format --check"
	@echo "make fmt     ruff format + ruff check --fix"
	@echo "make setup   only the set-up (packages, venv, frontend build, migrate, bank, demo users)"
	@echo "make clean   forget stamps and build output (keeps .venv, node_modules and the database)"

run:
	@scripts/run.sh

test:
	@scripts/test.sh $(PYTEST_ARGS)

setup:
	@scripts/setup.sh

frontend:
	@scripts/setup.sh frontend

lint:
	@scripts/setup.sh python >/dev/null
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

fmt:
	@scripts/setup.sh python >/dev/null
	.venv/bin/ruff format .
	.venv/bin/ruff check --fix .

clean:
	rm -rf var/stamps frontend/dist var/screenshots
