# Two commands on a fresh machine: `make demo` and `make test` (each runs `make setup` first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.setup-done

.PHONY: setup demo test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/setup_resources.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	BIN=$(abspath $(BIN)) bash scripts/setup_resources.sh
	touch $(STAMP)

demo: setup
	$(BIN)/summeval score --models data/demo/models --peers data/demo/peers --metric all --report demo-report
	$(BIN)/parapeval score --input data/parapeval/demo_pairs.tsv --system-field system
	$(BIN)/mteval score -r data/demo/mt/ref.A.en -r data/demo/mt/ref.B.en -i data/demo/mt/system-a.en data/demo/mt/system-b.en -m tesla-m -m beer2 -m red -m bleu -m chrf -m ter -m meteor --paired-bs

test: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/summeval bench summeval --out bench/summeval
	$(BIN)/summeval bench speed --out bench/speed
	$(BIN)/summeval bench responsiveness --out bench/responsiveness
	$(BIN)/summeval bench transfer --out bench/transfer
	$(BIN)/summeval bench scale --out bench/scale
	$(BIN)/coherence bench parser --out bench/coherence
	$(BIN)/coherence bench readability --out bench/readability
	$(BIN)/parapeval bench --out bench/parapeval
	$(BIN)/parapeval bench --speed-only --out bench/parapeval-speed
	$(BIN)/mteval bench wmt12 --out bench/mteval
	$(BIN)/mteval bench mqm --out bench/mteval
	$(BIN)/mteval bench speed --out bench/mteval
	$(BIN)/mteval bench aso --out bench/aso
	$(BIN)/mteval bench srl --out bench/srl
	$(BIN)/mteval bench hmeant --out bench/hmeant
	$(BIN)/mteval train beer --cv-report bench/beer
	$(BIN)/mteval train tesla-f --cv-report bench/tesla-f

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis demo-report
