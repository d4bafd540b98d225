# Two commands do all set-up: `make lab` opens the rulebook, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: lab test soak bench lint clean app class e2e e2e-soak lock
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

# The versions the team tested: each command installs a lock of requirements/ (compiled by make lock, below), every
# package pinned with the sha256 of its files, so a fresh clone (and CI) gets exactly those. Hash-checking mode takes
# no editable or unhashed requirement, so the rulebook itself goes in after, without dependencies (hatchling, its
# build backend, comes by build isolation). The locks agree on every version they share, so installing one never
# changes another's packages: app.txt (the rulebook's dependencies: make lab, make app) < test.txt (the test extra:
# make test, make soak) < e2e.txt (test and browser: make e2e, make bench), lint.txt (test, ruff, mypy), and
# site.txt in .venv-site. uv installs them, itself installed by pip from uv.txt: a fresh install of test.txt takes
# 7.6 s with uv (bytecode compiled, as pip does) where pip takes 25 s (its own resolve of '.[test]' took 23 s).
LOCKS := requirements
# $(call install_lock,VENV,LOCK)
install_lock = $(1)/bin/uv pip install --quiet --compile-bytecode --python $(1)/bin/python --require-hashes \
		-r $(LOCKS)/$(2).txt \
	&& $(1)/bin/uv pip install --quiet --python $(1)/bin/python --no-deps -e .
%/bin/uv: $(LOCKS)/uv.txt | %/bin/python
	$*/bin/python -m pip install --quiet --require-hashes -r $(LOCKS)/uv.txt
	touch $@
# A stamp per lock: a lock or pyproject.toml newer than its stamp installs again.
$(VENV)/.installed-%: $(LOCKS)/%.txt pyproject.toml | $(BIN)/uv
	$(call install_lock,$(VENV),$*)
	touch $@

# `make lock` compiles the locks again from pyproject.toml (and requirements/lint.in, uv.in): run it after changing a
# dependency there, and commit requirements/. A pin that still fits stays put (uv reads the lock it rewrites);
# `make lock LOCK_FLAGS=--upgrade` moves every package to its newest allowed version, and
# `make lock LOCK_FLAGS='--upgrade-package voila'` one package. uv, not pip-tools: both are maintained (uv by Astral,
# a release every week or two; pip-tools by Jazzband, a few a year), but uv resolves and hashes all six locks in
# 4 s and installs one in a third of pip's time, and its resolver is its own, where pip-tools drives pip's internals
# and has broken with new pip releases. The locks are for CI's Linux x86_64 and CPython 3.11.7 (the newest soupsieve
# needs 3.11.5); each pin lists the hashes of all its files, so another Linux on CPython 3.11.5+ installs them too.
UV_COMPILE = $(BIN)/uv pip compile --quiet --generate-hashes --python-version 3.11.7 \
	--python-platform x86_64-unknown-linux-gnu --custom-compile-command 'make lock' $(LOCK_FLAGS)
LOCK_FLAGS ?=
# e2e.txt first: the smaller locks take its versions as constraints (-c), so every lock pins a package the same way.
lock: | $(BIN)/uv
	$(UV_COMPILE) $(LOCKS)/uv.in -o $(LOCKS)/uv.txt
	$(UV_COMPILE) pyproject.toml --extra test --extra browser -o $(LOCKS)/e2e.txt
	$(UV_COMPILE) pyproject.toml --extra test -c $(LOCKS)/e2e.txt -o $(LOCKS)/test.txt
	$(UV_COMPILE) pyproject.toml -c $(LOCKS)/e2e.txt -o $(LOCKS)/app.txt
	$(UV_COMPILE) pyproject.toml $(LOCKS)/lint.in --extra test -c $(LOCKS)/e2e.txt -o $(LOCKS)/lint.txt
	$(UV_COMPILE) pyproject.toml --extra site -c $(LOCKS)/e2e.txt -o $(LOCKS)/site.txt

# JupyterLab on a working copy of the notebooks in $(LAB_DIR) (git-ignored), never on notebooks/: autosave writes
# outputs and kernel metadata into what it opens, and notebooks/ is committed stripped (make test verifies it). Later
# runs keep your edits there (rulebook.working_copy); `make lab LAB_FLAGS=--fresh` replaces the edited ones.
LAB_DIR ?= my-notebooks
LAB_FLAGS ?=
lab: $(VENV)/.installed-app
	$(BIN)/rulebook lab --dir $(LAB_DIR) $(LAB_FLAGS)

test: $(VENV)/.installed-test
	$(BIN)/nbstripout --verify notebooks/*.ipynb
	$(BIN)/python -m compileall -q -j 0 rulebook
	$(BIN)/python -m pytest -q $(PARALLEL) --durations=15 --nbval-lax --nbval-current-env --nbval-cell-timeout=300 \
		tests notebooks

# The long run: every test and notebook of make test, the fuzzers, random play, strength studies and bench tests with
# their soak counts (RULEBOOK_SOAK=1, read by tests/soak.py). `make test` finds in minutes what it can; this is the
# same suite given the time (several times make test's).
soak: $(VENV)/.installed-test
	RULEBOOK_SOAK=1 $(BIN)/python -m pytest -q $(PARALLEL) --durations=25 --nbval-lax --nbval-current-env \
		--nbval-cell-timeout=300 tests notebooks

# The app needs the rulebook and its dependencies only: no test or browser packages.
app: $(VENV)/.installed-app
	$(BIN)/rulebook app $(GAME)

# The class server (docs/class.md): `make class CLASS_FLAGS='--ip 192.168.1.20 --db class.db'`.
CLASS_FLAGS ?=
class: $(VENV)/.installed-app
	$(BIN)/rulebook class $(CLASS_FLAGS)

# Browser tests: Debian's chromium-headless-shell (installed when missing) driven by Playwright; no browser download. They mostly
# wait (for servers, kernels and pages: a third of a core each), so they run on four workers; the site is built first
# (test_site's own `make site` then finds it up to date; a failed build fails test_site, with its output, not the rest).
E2E_PARALLEL ?= -n 4 --dist loadgroup
e2e: $(VENV)/.installed-e2e
	command -v chromium-headless-shell >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; }
	-$(MAKE) --no-print-directory site
	RULEBOOK_E2E=1 $(BIN)/python -m pytest -q -p no:cacheprovider $(E2E_PARALLEL) --durations=25 tests/e2e

# The browser tests with the measurements make e2e leaves out (tests/e2e/conftest.py's SOAK_ONLY: the repeat visits in
# one browser profile, and the first visits in empty browsers, three rounds of them).
e2e-soak: $(VENV)/.installed-e2e
	command -v chromium-headless-shell >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; }
	-$(MAKE) --no-print-directory site
	RULEBOOK_SOAK=1 RULEBOOK_E2E=1 $(BIN)/python -m pytest -q -p no:cacheprovider $(E2E_PARALLEL) --durations=25 tests/e2e

# The bench's load test opens pages in Chromium (installed when missing), so it installs the browser extra as e2e does.
bench: $(VENV)/.installed-e2e
	command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
	$(BIN)/python -m rulebook.tools.bench

# ruff (with its complexity rule) on everything, mypy on the typed core (pyproject's [tool.mypy] names the files),
# and the check that no new function is over ruff's complexity limit (tests/test_lint.py).
lint: $(VENV)/.installed-lint
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

$(SITE_STAMP): $(LOCKS)/site.txt pyproject.toml | $(SITE_VENV)/bin/uv
	$(call install_lock,$(SITE_VENV),site)
	touch $(SITE_STAMP)

site: $(SITE_STAMP)
	$(SITE_VENV)/bin/python -m rulebook.site
