# puzzlelab — two commands set everything up: `make reproduce` (the main job) and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# Progress bars off while notebooks are executed for the record or checked (not in `make lab`);
# no MPLBACKEND here: notebook kernels must use the inline backend so figures appear in outputs.
QUIET  := TQDM_DISABLE=1

.PHONY: reproduce test unit nbval notebook bench lab clean-venv

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## The main job: re-execute every notebook in place, recomputing data/ and figures/.
reproduce: $(STAMP)
	$(QUIET) PUZZLELAB_RECOMPUTE=1 $(BIN)/python tools/run_notebooks.py $(NOTEBOOKS)

## Unit tests, then every notebook checked cell by cell against its committed outputs.
test: $(STAMP)
	$(QUIET) MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2 tests
	$(QUIET) $(BIN)/python -m pytest -q -n 2 --dist loadfile $(NBVAL) $(NOTEBOOKS)

unit: $(STAMP)
	$(QUIET) MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2 tests

## Check or execute one notebook: make nbval NB=notebooks/hanabi.ipynb
nbval: $(STAMP)
	$(QUIET) $(BIN)/python -m pytest -q $(NBVAL) $(NB)

notebook: $(STAMP)
	$(QUIET) PUZZLELAB_RECOMPUTE=$${PUZZLELAB_RECOMPUTE:-0} $(BIN)/python tools/run_notebooks.py $(NB)

## Speed measurements (results in data/bench_*.csv); not part of reproduce or test.
bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; MPLBACKEND=Agg $(BIN)/python $$b || exit 1; done

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks

clean-venv:
	rm -rf $(VENV)
