# Two commands on a fresh machine: `make demo` and `make test` (each runs `make setup` first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.setup-done

.PHONY: setup demo test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

demo: setup
	$(BIN)/summeval score --models data/demo/models --peers data/demo/peers

test: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/summeval bench summeval --out bench/summeval
	$(BIN)/summeval bench speed --out bench/speed

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
