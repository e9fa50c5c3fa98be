# puzzlelab — two commands set everything up: `make reproduce` (the main job) and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600
# Progress bars off while notebooks are executed for the record or checked (not in `make lab`);
# no MPLBACKEND here: notebook kernels must use the inline backend so figures appear in outputs.
QUIET  := TQDM_DISABLE=1

CHROMIUM ?= /usr/bin/chromium
SITE_HTML := site/_build/html
NPM_STAMP := site/node_modules/.package-lock.json

.PHONY: reproduce test unit nbval notebook bench lab clean-venv site serve browser-test browser-test-if-present

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/puzzlelab warm
	@touch $(STAMP)

## The main job: re-execute every notebook in place, recomputing data/ and figures/, with an
## estimate at the start, a progress line per notebook and a summary of what changed.
reproduce: $(STAMP)
	$(QUIET) $(BIN)/puzzlelab reproduce --recompute

## Unit tests, every notebook checked cell by cell against its committed outputs, then the
## browser tests when Debian's chromium is installed (one line says so when it is not).
test: $(STAMP)
	$(QUIET) MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2 --doctest-modules --ignore=tests/browser tests puzzlelab
	$(QUIET) $(BIN)/python -m pytest -q -n 2 --dist loadfile $(NBVAL) $(NOTEBOOKS)
	@$(MAKE) --no-print-directory browser-test-if-present

unit: $(STAMP)
	$(QUIET) MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2 --doctest-modules --ignore=tests/browser tests puzzlelab

## The static site in site/_build/html: executed publishing copies with widget state, offline.
$(NPM_STAMP): site/package.json site/package-lock.json
	cd site && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

site: $(STAMP) $(NPM_STAMP)
	$(QUIET) $(BIN)/puzzlelab site

## Build the site and serve it at http://127.0.0.1:8000 (Ctrl-C stops it).
serve: site
	@echo "open http://127.0.0.1:8000/"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory $(SITE_HTML) 8000

## Real-browser tests (Debian's chromium): the static site, then the notebooks in JupyterLab.
browser-test: site
	$(QUIET) $(BIN)/python -m pytest -q -m browser tests/browser

browser-test-if-present:
	@if [ -x $(CHROMIUM) ]; then $(MAKE) --no-print-directory browser-test; \
	else echo "browser tests SKIPPED: $(CHROMIUM) not found (apt-get install chromium, then make browser-test)"; fi

## Check or execute one notebook: make nbval NB=notebooks/hanabi.ipynb
nbval: $(STAMP)
	$(QUIET) $(BIN)/python -m pytest -q $(NBVAL) $(NB)

notebook: $(STAMP)
	$(QUIET) $(BIN)/puzzlelab reproduce --only $(basename $(notdir $(NB))) $(if $(filter 1,$(PUZZLELAB_RECOMPUTE)),--recompute)

## Speed measurements (results in data/bench_*.csv); not part of reproduce or test.
bench: $(STAMP)
	$(BIN)/puzzlelab bench

## JupyterLab saves a notebook with its metadata as committed (runner.lab_pre_save): opening and
## saving one changes no committed byte.
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks --ContentsManager.pre_save_hook=puzzlelab.runner.lab_pre_save

clean-venv:
	rm -rf $(VENV)
