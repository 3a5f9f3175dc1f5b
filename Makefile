# The README's two commands: `make run` and `make test`. Both bootstrap .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test testdeps lint typecheck unit test-fast test-server test-browser test-cluster test-slow bench mutation mutation-report clean

# The card engine (state.py) is compiled with mypyc at install time; a change to it rebuilds.
$(STAMP): pyproject.toml setup.py src/cambio/cards/state.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	# The hard card bot's native rollouts, compiled into numba's cache once (about a minute).
	$(BIN)/python -c 'from cambio.bots.cards.rollouts import warm; warm()'
	touch $(STAMP)

# The web platform on http://127.0.0.1:8000 (SQLite in ./data/cambio.sqlite3).
run: $(STAMP)
	$(BIN)/cambio serve

test: $(STAMP) testdeps lint typecheck unit

# What the browser tests need beyond Python packages (Debian's chromium).
testdeps:
	bash scripts/install-test-deps.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples scripts
	# The layering contracts in pyproject.toml ([tool.importlinter]).
	$(BIN)/lint-imports
	# No function in src/ above cyclomatic complexity 20 (radon), but the ones listed there.
	$(BIN)/python scripts/complexity.py

typecheck: $(STAMP)
	$(BIN)/mypy

# In a random order (pytest-randomly); TEST_SEED=N repeats the order of an earlier run.
# WORKERS=4 SCHEDULE=--longest-first: more workers than cores (most server, browser and
# cluster tests wait), tests handed out longest first (tests/support/schedule.py); not the
# default yet: see docs/testing.md, "Tiers and times".
WORKERS ?= 2
SCHEDULE ?=
unit: $(STAMP)
	seed=$${TEST_SEED:-$$($(BIN)/python -c 'import random; print(random.randrange(1 << 32))')}; \
	echo "test order: TEST_SEED=$$seed (pytest -p randomly --randomly-seed=$$seed)"; \
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) -p randomly --randomly-seed=$$seed
	# The rules again on the pure-Python engine: compiled and source must agree.
	CAMBIO_PURE_PYTHON=1 $(BIN)/pytest -n 2 tests/cards/test_rules.py

# One tier at a time (markers in pyproject.toml, applied by tests/conftest.py).
# test-fast: the rules cores, records, bots, envs and simulations, without the slow tests.
test-fast: $(STAMP)
	$(BIN)/pytest -n 2 -m 'not slow' tests/cards tests/board tests/envs tests/sim tests/test_seeds.py
test-server: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) tests/server
test-browser: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) -m browser
test-cluster: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) -m cluster
test-slow: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) -m slow

# Mutation testing of the rules cores (docs/testing.md): slow, so not part of `make test`.
# MUTANTS narrows the run to some functions, e.g. MUTANTS='cambio.cards.actions*'; results
# are kept in mutants/ and a rerun only redoes what changed.
MUTANTS ?=
mutation: $(STAMP)
	CAMBIO_PURE_PYTHON=1 nice -n 10 $(BIN)/mutmut run --max-children 2 $(MUTANTS)
	$(BIN)/python scripts/mutation_report.py

mutation-report: $(STAMP)
	$(BIN)/python scripts/mutation_report.py

bench: $(STAMP)
	$(BIN)/python benchmarks/cards_random.py --players 2 --rules rulebook

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache mutants
