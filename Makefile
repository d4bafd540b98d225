# Two commands do all set-up: `make lab` opens the rulebook, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test soak bench lint clean app e2e e2e-soak
GAME ?= meetjesland
# pytest-xdist on every core; tests/conftest.py keeps a notebook's cells, and the tests sharing a module's fixture, on
# one worker. `make test PARALLEL=` runs in one process.
PARALLEL ?= -n auto --dist loadgroup
# Python keeps the bytecode it compiles (a machine may set PYTHONDONTWRITEBYTECODE): pytest's collection of the rewritten
# test modules takes 3 s instead of 12 s from the second run on, and each kernel and command the tests start imports
# the package from it (0.5 s instead of 0.9 s). __pycache__ is git-ignored.
export PYTHONDONTWRITEBYTECODE :=

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# JupyterLab on a working copy of the notebooks in $(LAB_DIR) (git-ignored), never on notebooks/: autosave writes
# outputs and kernel metadata into what it opens, and notebooks/ is committed stripped (make test verifies it). Later
# runs keep your edits there (rulebook.working_copy); `make lab LAB_FLAGS=--fresh` replaces the edited ones.
LAB_DIR ?= my-notebooks
LAB_FLAGS ?=
lab: $(STAMP)
	$(BIN)/rulebook lab --dir $(LAB_DIR) $(LAB_FLAGS)

test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)
	$(BIN)/nbstripout --verify notebooks/*.ipynb
	$(BIN)/python -m compileall -q -j 0 rulebook
	$(BIN)/python -m pytest -q $(PARALLEL) --durations=15 --nbval-lax --nbval-current-env --nbval-cell-timeout=300 \
		tests notebooks

# The long run: every test and notebook of make test, the fuzzers, random play, strength studies and bench tests with
# their soak counts (RULEBOOK_SOAK=1, read by tests/soak.py). `make test` finds in minutes what it can; this is the
# same suite given the time (several times make test's).
soak: $(STAMP)
	RULEBOOK_SOAK=1 $(BIN)/python -m pytest -q $(PARALLEL) --durations=25 --nbval-lax --nbval-current-env \
		--nbval-cell-timeout=300 tests notebooks

app: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,browser]'
	$(BIN)/rulebook app $(GAME)

# Browser tests: Debian's chromium-headless-shell (installed when missing) driven by Playwright; no browser download. They mostly
# wait (for servers, kernels and pages: a third of a core each), so they run on four workers; the site is built first
# (test_site's own `make site` then finds it up to date; a failed build fails test_site, with its output, not the rest).
E2E_PARALLEL ?= -n 4 --dist loadgroup
e2e: $(BIN)/python
	command -v chromium-headless-shell >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; }
	$(BIN)/python -m pip install --quiet -e '.[test,browser]'
	-$(MAKE) --no-print-directory site
	RULEBOOK_E2E=1 $(BIN)/python -m pytest -q -p no:cacheprovider $(E2E_PARALLEL) --durations=25 tests/e2e

# The browser tests with the measurements make e2e leaves out (tests/e2e/conftest.py's SOAK_ONLY: the repeat visits in
# one browser profile, and the first visits in empty browsers, three rounds of them).
e2e-soak: $(BIN)/python
	command -v chromium-headless-shell >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; }
	$(BIN)/python -m pip install --quiet -e '.[test,browser]'
	-$(MAKE) --no-print-directory site
	RULEBOOK_SOAK=1 RULEBOOK_E2E=1 $(BIN)/python -m pytest -q -p no:cacheprovider $(E2E_PARALLEL) --durations=25 tests/e2e

# The bench's load test opens pages in Chromium (installed when missing), so it installs the browser extra as e2e does.
bench: $(STAMP)
	command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
	$(BIN)/python -m pip install --quiet -e '.[test,browser]'
	$(BIN)/python -m rulebook.bench

# ruff (with its complexity rule) on everything, mypy on the typed core (pyproject's [tool.mypy] names the files),
# and the check that no new function is over ruff's complexity limit (tests/test_lint.py).
lint: $(STAMP)
	$(BIN)/python -m pip install --quiet ruff mypy
	$(BIN)/ruff check rulebook tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_lint.py

clean:
	rm -rf $(VENV) .venv-site build dist .bench

# The rulebook as a static website in site/ (JupyterLite and Pyodide, every file local; README: "Publish the rulebook
# as a website"). Downloads are cached in .site-cache/; an unchanged checkout keeps the site it built.
# Its build tools live in a venv of their own: JupyterLite's lab extensions, installed beside JupyterLab, break the
# rulebook's own JupyterLab ("Shared module @jupyterlite/services doesn't exist in shared scope default").
SITE_VENV := .venv-site
SITE_STAMP := $(SITE_VENV)/.installed
.PHONY: site

$(SITE_VENV)/bin/python:
	$(PYTHON) -m venv $(SITE_VENV)
	$(SITE_VENV)/bin/python -m pip install --quiet --upgrade pip

$(SITE_STAMP): $(SITE_VENV)/bin/python pyproject.toml
	$(SITE_VENV)/bin/python -m pip install --quiet -e '.[site]'
	touch $(SITE_STAMP)

site: $(SITE_STAMP)
	$(SITE_VENV)/bin/python -m rulebook.site
