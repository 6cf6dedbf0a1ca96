# Every target sets up what it needs: a .venv with the project and its dev extra.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
# Test processes (pytest-xdist); 1 runs the suite in one process.
WORKERS ?= 2

# make docs: where the docs site is written and served (python -m http.server -d site 8000).
DOCS_SITE ?= site
DOCS_URL  ?= http://127.0.0.1:8000/

.PHONY: venv test quick lint typecheck pytest demo bench sameoutputs lambda-zip release-check action-lock docs config-docs clean

# setuptools says "Editable installation" in a banner of stars on every editable install (its
# meta path finder: package-dir maps templates/); that is no news to a user of make demo.
EDITABLE_QUIET := PYTHONWARNINGS="ignore:Editable installation"

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(EDITABLE_QUIET) $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# PYTHONDONTWRITEBYTECODE emptied: with it set, each worker rewrote every test module's asserts
# and each `sitemill` a test starts compiled the sources again (13.5 s, 0.37 s of CPU; 5.9, 0.18 cached).
pytest: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -p no:cacheprovider -n $(WORKERS) --dist worksteal

test: lint typecheck pytest

# make quick: is this clone set up? ruff, and one test of each front end (the CLI's and the
# Action's quick starts, the demo with its moto Lambda path) and of the docs and the layout.
quick: $(STAMP)
	$(BIN)/ruff check .
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -p no:cacheprovider -n $(WORKERS) --dist worksteal tests/docs tests/core tests/infra/test_demo.py

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# make bench BASELINE=PATH: ladder-3k compares with that sitemill (a venv of 0fab719's).
# make bench REALSITES=DIR: second-run's real sites (benchmarks/realsites/checkout.py --data DIR).
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py $(if $(BASELINE),--baseline $(BASELINE)) $(if $(REALSITES),--realsites $(REALSITES))

# make sameoutputs BASE=<rev> [SITES=file.json] [DATA=dir] [MIRRORS=dir] [ONLY="name ..."] [WHY=n]: this
# work tree's outputs against BASE's, byte for byte, on real sites with their history (folder and
# moto buckets: benchmarks/sameoutputs/README.md). Run by hand: it needs the sites' checkouts.
# time-machine (the runs' fixed clock) is the harness's alone: installed here, not in an extra.
sameoutputs: $(STAMP)
	@test -n "$(BASE)" || { echo "make sameoutputs BASE=<rev>: name the revision to compare with"; exit 2; }
	$(BIN)/python -c 'import time_machine' 2>/dev/null || $(BIN)/pip install --quiet time-machine
	$(BIN)/python benchmarks/sameoutputs/sameoutputs.py --base $(BASE) $(if $(SITES),--sites $(SITES)) $(if $(DATA),--data $(DATA)) $(if $(MIRRORS),--mirrors $(MIRRORS)) $(foreach n,$(ONLY),--only $(n)) $(if $(WHY),--why $(WHY))

# make lambda-zip LAMBDA_PYTHON=/path/to/python3.12: the Python of the function's runtime, which
# compiles the zip's bytecode (found on PATH, or this one, when not named: else the build fails);
# NO_BYTECODE=1 ships the zip without it (each cold start then compiles every module).
lambda-zip: $(STAMP)
	$(BIN)/python infra/build_lambda_zip.py $(if $(NO_BYTECODE),--no-bytecode)

# action/requirements.txt: pyproject.toml's dependencies pinned for the GitHub Action, with the
# SHA-256 of every file of each pinned release (uv resolves for every platform; its header kept).
action-lock: $(STAMP)
	rm -rf build/lock && $(BIN)/python -m venv build/lock && build/lock/bin/pip install --quiet uv
	$(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"], sep="\n")' > build/lock/in.txt
	printf 'soupsieve<3\n' > build/lock/constraints.txt  # (3.x and 4.x need Python 3.11.5: one release for every 3.11)
	build/lock/bin/uv pip compile --quiet --generate-hashes --universal --python-version 3.11 \
	  --no-header -c build/lock/constraints.txt build/lock/in.txt -o build/lock/out.txt
	{ sed -n '/^#/!q;p' action/requirements.txt; sed 's|# via -r .*|# via sitemill|; s|#   -r .*in.txt|#   sitemill|; /#   -c .*constraints.txt/d' build/lock/out.txt; } > build/lock/requirements.txt
	mv build/lock/requirements.txt action/requirements.txt

# The release workflow's steps but the publishing (.github/workflows/release.yml): the sdist, the
# wheel, the Lambda zip, the stack's template and their sums in dist/release; twine's check, the
# wheel installed and run in a fresh venv, the zip built twice and compared (with its bytecode:
# a Python 3.12 on PATH, this one, or LAMBDA_PYTHON=... as for lambda-zip).
release-check: $(STAMP)
	$(BIN)/python infra/release_files.py dist/release --check

# The docs site, its sitemap written by sitemill from the built pages, not by MkDocs: MkDocs
# always writes sitemap.xml and sitemap.xml.gz; sitemill replaces both (it recognises MkDocs'
# sitemap and deletes its .gz twin), so no stale sitemap of MkDocs' stays beside ours.
docs: $(STAMP)
	DOCS_URL=$(DOCS_URL) NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir $(DOCS_SITE)
	$(BIN)/sitemill build $(DOCS_SITE) --base-url $(DOCS_URL)

# docs/configuration.md from the config model, the CLI, action.yml and infra/template.yaml.
config-docs: $(STAMP)
	$(BIN)/python tools/config_reference.py

clean:
	rm -rf $(VENV) dist build site .mypy_cache .ruff_cache
