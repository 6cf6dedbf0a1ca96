# Every target sets up what it needs: a .venv with the project and its dev extra.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
# Test processes (pytest-xdist); 1 runs the suite in one process.
WORKERS ?= 2

.PHONY: venv test lint typecheck pytest demo bench lambda-zip config-docs clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(WORKERS) --dist worksteal

test: lint typecheck pytest

demo: $(STAMP)
	$(BIN)/python examples/demo.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

lambda-zip: $(STAMP)
	$(BIN)/python infra/build_lambda_zip.py

# docs/configuration.md from the config model, the CLI, action.yml and infra/template.yaml.
config-docs: $(STAMP)
	$(BIN)/python tools/config_reference.py

clean:
	rm -rf $(VENV) dist build .mypy_cache .ruff_cache
