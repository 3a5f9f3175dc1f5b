# The README's two commands: `make run` and `make test`. Both bootstrap .venv from nothing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The exact versions tested (pip-compile's output, docs/install.md): every install here is
# constrained to them, while pyproject.toml keeps ranges for everyone else.
LOCK := requirements/lock.txt
# --no-compile: pip byte-compiles every module of every package it installs (ray, scipy,
# matplotlib...), 24 s of the dev install's 58 s of CPU; Python compiles the few it imports.
INSTALL := $(BIN)/python -m pip install --no-compile --disable-pip-version-check --progress-bar on -c $(LOCK)
# Container images often set PYTHONDONTWRITEBYTECODE=1 (this machine's does). Then no Python
# process keeps the modules it compiles, and every server, command and test worker that
# `make test` starts compiled its few hundred modules from source again: 0.8 s of a test
# server's 1.2 s of CPU to start, 266 server starts a run. Every recipe lets Python write
# its __pycache__ (gitignored, and the sdist leaves it out).
unexport PYTHONDONTWRITEBYTECODE
# What serving and playing need (`make run`), and everything for development (`make test`).
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
PORT ?= 8000

.PHONY: run test testdeps pyodide lint typecheck jstest unit test-fast test-server test-browser test-cluster test-slow smoke dist lock bench mutation mutation-report clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The card engine (state.py) is compiled with mypyc at install time (pip's build environment
# brings mypy, so it is not installed here), and the batch engine's C kernel (_uniform.c) with
# it; a change to either rebuilds.
$(RUN_STAMP): pyproject.toml setup.py $(LOCK) src/cambio/cards/state.py src/cambio/cards/_uniform.c | $(BIN)/python
	$(INSTALL) -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml setup.py $(LOCK) src/cambio/cards/state.py src/cambio/cards/_uniform.c | $(BIN)/python
	$(INSTALL) -e '.[dev]'
	# The numba kernels (hard bot's rollouts, batch engine, dice search) compiled into
	# numba's cache once, side by side, so test workers do not each compile them again.
	$(BIN)/python scripts/warm_numba.py
	touch $(STAMP) $(RUN_STAMP)

# The web platform on http://127.0.0.1:$(PORT) (SQLite in ./data/cambio.sqlite3). The server
# itself compiles the hard bots' kernels into numba's cache in the background the first time
# (a minute or two of one core, at nice 19; stand-ins play meanwhile): docs/server.md.
run: $(RUN_STAMP)
	@# The offline engine (Pyodide, 13.5 MB from npm, once) for /solo, in the background too.
	@(nice -n 19 $(BIN)/cambio fetch-pyodide >/dev/null 2>&1 || true) &
	$(BIN)/cambio serve --port $(PORT)

# The wheel smoke test (tests/packaging, marked `wheel`) runs in `unit` with the rest.
# The install and chromium's side by side, then the checks and the suite side by side (the
# suite waits on servers and browsers much of its time: lint and mypy fill it); -k runs every
# check even when one fails, and make still fails. Output is not grouped (-O would hold
# back the suite's progress until it ends).
# Pyodide (the offline engine's browser tests) in between: the install must be done first.
test:
	$(MAKE) --no-print-directory -j 2 $(STAMP) testdeps
	$(MAKE) --no-print-directory pyodide
	$(MAKE) --no-print-directory -k -j 3 lint typecheck jstest unit

# What the tests need beyond Python packages (Debian's chromium, PostgreSQL, Redis, Node.js
# and npm), then the browser client's development tools from package-lock.json.
testdeps:
	bash scripts/install-test-deps.sh
	$(MAKE) --no-print-directory $(NODE_STAMP)

# The browser client's JavaScript (docs/web.md, "For developers"): npm installs only
# development tools (TypeScript, ESLint, a DOM for the unit tests), exactly as locked; the
# served files are the source files, nothing is built.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Types (tsc --checkJs --noEmit, strict: jsconfig.json; the service worker: jsconfig.sw.json),
# lint (ESLint: eslint.config.js) and the client's unit tests (node --test tests/js/); any
# failure fails the target (-k still runs the others, and make still fails).
jstest: $(NODE_STAMP)
	@status=0; \
	echo "tsc -p jsconfig.json"; node_modules/.bin/tsc -p jsconfig.json || status=1; \
	echo "tsc -p jsconfig.sw.json"; node_modules/.bin/tsc -p jsconfig.sw.json || status=1; \
	echo "eslint"; node_modules/.bin/eslint || status=1; \
	echo "node --test tests/js/"; node --test --test-reporter=dot tests/js/ || status=1; \
	exit $$status

# Pyodide for the offline solo page and its browser tests (npm pack, pinned and checked;
# cached in ~/.cache/cambio/pyodide, not in the package: docs/web.md).
pyodide: $(RUN_STAMP)
	$(BIN)/cambio fetch-pyodide

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples scripts
	# The layering contracts in pyproject.toml ([tool.importlinter]).
	$(BIN)/lint-imports
	# No function in src/ above cyclomatic complexity 20 (radon), but the ones listed there.
	$(BIN)/python scripts/complexity.py

typecheck: $(STAMP)
	$(BIN)/mypy

# In a random order (pytest-randomly); TEST_SEED=N repeats the order of an earlier run.
# Four workers on two cores (most server, browser and cluster tests wait), the tests handed
# out longest first (tests/support/schedule.py); docs/testing.md, "Tiers and times".
# WORKERS=2 SCHEDULE= is the old schedule.
WORKERS ?= 4
SCHEDULE ?= --longest-first
unit: $(STAMP)
	seed=$${TEST_SEED:-$$($(BIN)/python -c 'import random; print(random.randrange(1 << 32))')}; \
	echo "test order: TEST_SEED=$$seed (pytest -p randomly --randomly-seed=$$seed)"; \
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) --durations=20 --junitxml=.pytest-times.xml -p randomly --randomly-seed=$$seed
	# The rules again on the pure-Python engine: compiled and source must agree (a few
	# seconds in one process; xdist's start-up alone took longer).
	CAMBIO_PURE_PYTHON=1 $(BIN)/pytest -n 0 -q tests/cards/test_rules.py

# One tier at a time (markers in pyproject.toml, applied by tests/conftest.py).
# test-fast: the rules cores, records, bots, envs and simulations, without the slow tests.
test-fast: $(STAMP)
	$(BIN)/pytest -n 2 -m 'not slow' tests/cards tests/board tests/envs tests/sim tests/test_seeds.py
test-server: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) $(SCHEDULE) tests/server
test-browser: $(STAMP) pyodide
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

# Only the packaging smoke test: build what `make dist` builds, install each distribution
# into a fresh venv (the sdist and the pure wheel with no C compiler), run, simulate, serve,
# and play a game of bots to the end over the WebSocket.
smoke: $(STAMP)
	$(BIN)/pytest -p no:randomly -m wheel tests/packaging

# The sdist, the compiled wheel (manylinux) and the pure py3-none-any wheel in dist/, checked
# by twine (scripts/build_dist.py). Only the build tools are installed, in a venv of their own
# (each distribution builds in an isolated environment with pyproject.toml's build
# requirements, as pip builds it): no dev install, no numba warm-up.
DIST_VENV := build/dist-venv
$(DIST_VENV)/.installed: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(DIST_VENV)
	$(DIST_VENV)/bin/python -m pip install -q --no-compile --disable-pip-version-check \
	    -c $(LOCK) build auditwheel twine
	touch $@

dist: $(DIST_VENV)/.installed
	rm -rf dist
	$(DIST_VENV)/bin/python scripts/build_dist.py dist

# Re-resolve requirements/lock.txt after a change of pyproject.toml's dependencies: the
# versions already locked stay unless pyproject.toml excludes them (`make lock UPGRADE=1`
# takes the newest versions the ranges allow); then run `make test`.
lock: $(STAMP)
	CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet $(if $(UPGRADE),--upgrade) \
	    --extra postgres --extra cluster --extra research --extra dev --strip-extras \
	    --no-emit-index-url --no-emit-find-links \
	    --unsafe-package cambio --unsafe-package pip --unsafe-package setuptools \
	    --output-file $(LOCK) pyproject.toml

bench: $(STAMP)
	$(BIN)/python benchmarks/cards_random.py --players 2 --rules rulebook

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache mutants build dist node_modules
