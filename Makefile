# tilelab: two commands do all set-up on a fresh machine with Python >= 3.10 and make.
#   make lab   -- create .venv if missing, install tilelab with JupyterLab, open the lessons
#   make test  -- same bootstrap, then unit tests, doctests, nbval over every notebook
#                 (and the browser tests when Chromium is installed)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.tilelab-installed
PYTEST := $(PY) -m pytest

.PHONY: lab test test-unit test-notebooks test-browser bench strong-net clean student site warm grade lite test-lite

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[lab,test]"
	$(PY) -m tilelab.server_nodelay --install  # editable installs skip data-files (TCP_NODELAY for the boards)
	@touch $(STAMP)

# Root (a container, a class VM) needs --allow-root; everybody else gets the plain command.
# `make lab STUDENT=1` opens the student editions in student/ (made once; never overwritten, so work is kept).
LAB_DIR := $(if $(STUDENT),student,notebooks)
lab: $(STAMP)
	$(if $(STUDENT),test -d student || $(PY) -m tilelab.teach student student)
	$(VENV)/bin/jupyter lab $(LAB_DIR)/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# Everything in one pytest run so CI sees one summary line. pytest-xdist spreads the test files over
# TEST_JOBS processes (one per core, at most 4; TEST_JOBS=0: all in this process); a file's tests stay in one
# process, so its fixtures and a notebook's cells run in order.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ "$$n" -gt 4 ] && n=4; echo $$n)
PARALLEL  := -n $(TEST_JOBS) --dist loadfile
test: $(STAMP)
	$(PYTEST) tests tilelab notebooks --doctest-modules --nbval-lax --nbval-current-env --durations=15 $(PARALLEL)

test-unit: $(STAMP)
	$(PYTEST) tests tilelab --doctest-modules -m "not browser" $(PARALLEL)

test-notebooks: $(STAMP)
	$(PYTEST) notebooks --nbval-lax --nbval-current-env $(PARALLEL)

test-browser: $(STAMP)
	TILELAB_REQUIRE_BROWSER=1 $(PYTEST) tests/browser tests/test_teach_site.py -m browser

# Every benchmark once; the 2048 AI in its quick form (the full 100-game run takes hours:
# .venv/bin/python benchmarks/bench_2048_ai.py --games 100 --workers 2).
bench: $(STAMP)
	for b in benchmarks/bench_*.py; do \
	    echo "== $$b"; \
	    case $$b in *bench_2048_ai.py) $(PY) $$b --quick ;; *) $(PY) $$b ;; esac || exit 1; \
	done

# The strong 2048 player from nothing (benchmarks/README.md): train the 91% net's recipe, make the compact
# file, measure it on 100 seeded games over both cores, rewrite its row in benchmarks/README.md. Hours; a
# stopped run started again goes on where it was. STRONG_ARGS=--dry-run prints the steps still to run.
strong-net: $(STAMP)
	$(PY) benchmarks/strong_net_pipeline.py $(STRONG_ARGS)

# Teacher's kit (docs/teaching.md).
#   make student [OUT=folder]            lessons without solution cells (default: student/)
#   make site    [OUT=folder] [LITE_URL=lite/] [REPO=OWNER/NAME]  the course as a static website (default: site/);
#                                        LITE_URL links each page to the lite site ("Run in your browser");
#                                        REPO=OWNER/NAME (your GitHub copy) adds Binder and GitHub links
#   make lite    [OUT=folder] [STUDENT=1] the course as a JupyterLite site: every lesson runs in the
#                                        browser, no server (default: lite/; STUDENT=1: student editions)
#   make warm    [WARM=--quick]          build every cache once (pattern databases, numba code)
#   make grade FOLDER=... [OUT=x.csv]    run every student notebook in FOLDER, write a CSV
student: $(STAMP)
	$(PY) -m tilelab.teach student $(or $(OUT),student)

site: $(STAMP)
	$(PY) -m tilelab.teach site $(or $(OUT),site) $(if $(LITE_URL),--lite-url "$(LITE_URL)") $(if $(REPO),--repo "$(REPO)")

lite: $(STAMP)
	$(PY) -m tilelab.teach lite $(or $(OUT),lite) $(if $(STUDENT),--student)

# Every lesson top to bottom in the browser kernel, in Chromium (slow; make test runs four of them).
test-lite: $(STAMP)
	TILELAB_LITE_LESSONS=all TILELAB_REQUIRE_BROWSER=1 $(PYTEST) tests/browser/test_browser_lite.py -m browser

warm: $(STAMP)
	$(PY) -m tilelab.warm $(WARM)

grade: $(STAMP)
	@test -n "$(FOLDER)" || { echo "usage: make grade FOLDER=path/to/notebooks [OUT=results.csv] [TIMEOUT=300]"; exit 2; }
	$(PY) -m tilelab.teach grade "$(FOLDER)" --out "$(or $(OUT),results.csv)" --timeout $(or $(TIMEOUT),300)

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts student site lite
