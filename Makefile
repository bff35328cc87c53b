# Two commands on a fresh machine: `make demo` and `make test` (each runs `make setup` first).
# `make setup` installs the suite with every extra on the locked versions (constraints.txt), the
# Debian packages its resources need, and builds those resources (`aesop-eval setup all`).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.setup-done
LATEST := .venv-latest

.PHONY: setup demo test test-latest lock fuzz bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt scripts/setup_resources.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	BIN=$(abspath $(BIN)) bash scripts/setup_resources.sh
	touch $(STAMP)

demo: setup
	$(BIN)/summeval score --models data/demo/models --peers data/demo/peers --metric all --report demo-report
	$(BIN)/parapeval score --input data/parapeval/demo_pairs.tsv
	$(BIN)/mteval score -r data/demo/mt/ref.A.en -r data/demo/mt/ref.B.en -i data/demo/mt/system-a.en data/demo/mt/system-b.en --src data/demo/mt/src.fr -m tesla-m -m beer2 -m red -m bleu -m chrf -m ter -m meteor -m xmeant --paired-bs

# the tests spread over the machine's cores (at most 4 workers: each loads its own models)
PYTEST_WORKERS = -n auto --maxprocesses 4

test: setup
	$(BIN)/python -m pytest $(PYTEST_WORKERS)

# The suite on the newest versions pyproject.toml's bounds allow (no constraints), in its own venv.
test-latest:
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/pip install -q --upgrade pip
	$(LATEST)/bin/pip install -q --upgrade --upgrade-strategy eager -e '.[test]'
	BIN=$(abspath $(LATEST)/bin) bash scripts/setup_resources.sh
	$(LATEST)/bin/pip freeze --exclude-editable > $(LATEST)/versions.txt
	diff constraints.txt $(LATEST)/versions.txt || true
	$(LATEST)/bin/python -m pytest $(PYTEST_WORKERS)

# Rewrite constraints.txt from the versions installed in .venv (after a deliberate upgrade).
lock:
	{ head -3 constraints.txt; $(BIN)/pip freeze --exclude-editable | grep -v '^aesop-eval'; } > constraints.new && mv constraints.new constraints.txt

fuzz: setup
	$(BIN)/python -m tests.fuzz.run --minutes $(or $(MINUTES),30)

# Every benchmark the docs cite (docs/results/index.md), each from this checkout's benchmarks/ folder
# writing JSON and Markdown into bench/NAME, plus the cross-validated reports of the two trained MT
# metrics, and the variant runs (other options) whose tables the pages quote, into bench/variants/;
# then the runs the docs generate tables from (bench/NAME, and bench/variants/VARIANT for the variants
# benchmarks/render.py's VARIANTS names) are copied into docs/results/data and the pages' marked
# regions rewritten (`python -m benchmarks render`), so a rerun is a data commit.
BENCHMARKS := summeval summeval-speed responsiveness transfer scale languages parser dicomer-variants readability coherence-speed \
	parapeval parapeval-speed parapeval-generators parapeval-metrics wmt12 mqm wmt mteval-speed tesla-m-speed matching celab srl hmeant xmeant aso
bench: setup
	for name in $(BENCHMARKS); do $(BIN)/python -m benchmarks $$name --out bench/$$name || exit 1; done
	$(BIN)/mteval train beer --cv-report bench/beer
	$(BIN)/mteval train tesla-f --cv-report bench/tesla-f
	$(BIN)/python -m benchmarks dicomer-variants --tier 0 --out bench/variants/dicomer-variants-tier0
	$(BIN)/python -m benchmarks aso --lambda-cv --out bench/variants/aso-lambda-cv
	$(BIN)/python -m benchmarks tesla-m-speed --pair en-de --out bench/variants/tesla-m-speed-en-de
	$(BIN)/python -m benchmarks wmt --max-segments 0 --out bench/variants/wmt-all-segments
	$(BIN)/python -m benchmarks wmt --pairs mqm-en-de en-de -m tesla-m -m bleu -m chrf -m meteor --out bench/variants/wmt-de
	$(BIN)/python -m benchmarks wmt --pairs en-de --max-segments 0 --out bench/variants/wmt-de-all-segments
	$(BIN)/python -m benchmarks wmt --pairs mqm-zh-en -m tesla-m -m tesla-b -m tesla-f --max-segments 100 \
		--out bench/variants/wmt-tesla-f-held-out
	$(BIN)/python -m benchmarks wmt12 -m meant -m umeant --pairs cs-en de-en es-en fr-en --out bench/variants/wmt12-meant
	$(BIN)/python -m benchmarks mqm -m beer --pairs mqm-zh-en --out bench/variants/mqm-beer-held-out
	$(BIN)/python -m benchmarks transfer --experiments --cremer-tuning shipped --out bench/variants/transfer-experiments
	$(BIN)/python -m benchmarks render --collect bench

clean:
	rm -rf $(VENV) $(LATEST) .pytest_cache .hypothesis demo-report fuzz-failures
