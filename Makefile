# tubedeck: `make run` builds every game into output/, `make test` runs the suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: run test test-fast test-research lint bench clean install install-cluster install-report browser-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,cluster,report]'
	touch $@ $(STAMP)

install: $(STAMP)

# The optional extras (what tubedeck's messages advise): Dask for --runner dask, matplotlib for report.
install-cluster: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[cluster]'

install-report: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[report]'

# Every game once: Next Station and Tube Dice with their extra sheets and challenge cards.
run: $(STAMP)
	$(BIN)/tubedeck build all --skip nextstation,dice --out output
	$(BIN)/tubedeck build nextstation --sheets 4 --challenge 1 --out output
	$(BIN)/tubedeck build dice --sheets 10 --challenge 1 --out output

# The suite on WORKERS processes (pytest-xdist), a test file to a process: module fixtures
# (the docs' build of every game) are built once.
WORKERS ?= 2

test: lint
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile

# The inner loop: everything but the tests marked slow.
test-fast: $(TSTAMP)
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile -m "not slow" -q

# pyflakes, bugbear and import order (ruff) and types (mypy) over the whole tree; part of `make test`.
lint: $(TSTAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# Research that does not ship (research/: Next Station's whole-game branch and price): its types and
# tests, apart from `make test`; hours of its benchmarks are in research/nextstation/benchmarks/.
test-research: lint
	$(BIN)/mypy research --exclude "/tests/"
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile research

# The report page in a real browser: Debian's chromium, headless (the test skips without it).
browser-test: $(TSTAMP)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)
	$(BIN)/python -m pytest tests/engine/test_report.py -k browser -rs

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) output/*
