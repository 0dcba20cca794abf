# tilelab: two commands do all set-up on a fresh machine with Python >= 3.10 and make.
#   make lab   -- create .venv if missing, install tilelab with JupyterLab, open the lessons
#   make test  -- same bootstrap, then unit tests, doctests, nbval over every notebook
#                 (and the browser tests when Chromium is installed)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.tilelab-installed
PYTEST := $(PY) -m pytest

.PHONY: lab test test-unit test-shuffled test-notebooks test-pythons test-browser bench strong-net clean student site warm grade nbgrader autograde lite test-lite

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# setuptools' "Editable installation ... be careful with folders" note is information, not a failure, but its
	@# !!/**** frame reads as one to a beginner: that one message is filtered, every other warning still shows
	PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install --quiet -e ".[lab,test,teach]"
	@# nbgrader is the teacher's grader: its JupyterLab panels stay out of the students' JupyterLab (docs/grading.md)
	-$(VENV)/bin/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader >/dev/null 2>&1
	-$(VENV)/bin/jupyter server extension disable --sys-prefix $(addprefix nbgrader.server_extensions.,formgrader \
	    validate_assignment assignment_list course_list) >/dev/null 2>&1
	$(PY) -m tilelab.server_nodelay --install  # editable installs skip data-files (TCP_NODELAY for the boards)
	@touch $(STAMP)

# Root (a container, a class VM) needs --allow-root; everybody else gets the plain command.
# `make lab` opens the student editions in student/: written once, then only lessons new to the course are added
# and files the student never touched brought up to date (a changed file is never written over).
# `make lab TEACHER=1` opens the teacher edition (notebooks/, solutions folded away).
LAB_DIR := $(if $(TEACHER),notebooks,student)
# The lessons are signed as trusted (the course's own files, written just now): JupyterLab draws widgets only in a
# trusted notebook, and signs a save only when every cell is trusted. Unsigned, a lesson saved after playing reopened
# as its stored still picture (the board when the cell ran) instead of the live board or its saved state.
lab: $(STAMP)
	$(if $(TEACHER),,$(PY) -m tilelab.teach student student --quiet)
	@$(VENV)/bin/jupyter trust $(LAB_DIR)/*.ipynb >/dev/null
	$(VENV)/bin/jupyter lab $(LAB_DIR)/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# Everything in one pytest run so CI sees one summary line. pytest-xdist spreads the test files over
# TEST_JOBS processes (one per core, at most 4; TEST_JOBS=0: all in this process); a file's tests stay in one
# process, so its fixtures and a notebook's cells run in order.
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ "$$n" -gt 4 ] && n=4; echo $$n)
PARALLEL  := -n $(TEST_JOBS) --dist loadfile
# Then the engine and lesson tests again on the oldest and newest supported Python (test-pythons below; a
# Python this machine lacks is skipped with a message, or fails when TILELAB_REQUIRE_PYTHONS=1, as in CI).
test: $(STAMP)
	$(PYTEST) tests tilelab notebooks --doctest-modules --nbval-lax --nbval-current-env --durations=15 $(PARALLEL)
	$(PY) -m nox $(NOX_ARGS)

test-unit: $(STAMP)
	$(PYTEST) tests tilelab --doctest-modules -m "not browser" $(PARALLEL)

# The unit tests in a random order (pytest-randomly; RANDOM_SEED=N replays an order): each test passes alone and
# after any other. `make test` keeps file order (-p no:randomly in pyproject's addopts: lessons run cell by cell).
test-shuffled: $(STAMP)
	$(PYTEST) tests -m "not browser" -p randomly $(if $(RANDOM_SEED),--randomly-seed=$(RANDOM_SEED)) $(PARALLEL)

test-notebooks: $(STAMP)
	$(PYTEST) notebooks --nbval-lax --nbval-current-env $(PARALLEL)

# The engine and lesson tests (with doctests and the strict type check) on the oldest and the newest
# supported Python, each in its own environment under .nox/ with what pip installs there (noxfile.py).
# NOX_ARGS="-p 3.13" runs one; NOX_ARGS="-- -x" passes pytest arguments.
test-pythons: $(STAMP)
	$(PY) -m nox $(NOX_ARGS)

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
#   make student [OUT=folder] [STUDENT_REPO=OWNER/NAME]  the student edition (default: student/): each lesson
#                                        as its nbgrader release, with a tilelab wheel, environment.yml and
#                                        postBuild for Binder and hubs (STUDENT_REPO: its Binder link in the README)
#   make site    [OUT=folder] [REPO=OWNER/NAME] [STUDENT_REPO=OWNER/NAME] [HUB=URL] [LITE_URL=..]
#                [STUDENT_LITE_URL=..]   the course as two websites, OUT/student and OUT/teacher (default: site/),
#                                        each with launch buttons to its repository, your hub and its lite site
#   make lite    [OUT=folder] [STUDENT=1] the course as a JupyterLite site: every lesson runs in the
#                                        browser, no server (default: lite/; STUDENT=1: student editions;
#                                        Pyodide from its official release; offline: PYODIDE_SOURCE=transport)
#   make warm    [WARM=--quick]          build every cache once (pattern databases, numba code)
#   make nbgrader [OUT=folder]           an nbgrader course folder (default: ../tilelab-course, outside the
#                                        repository: it will hold students' work and marks): every lesson an
#                                        assignment with autograded exercises; then nbgrader's own commands
#   make autograde LESSON=name [COURSE=folder]  autograde every submission of a lesson, one
#                                        student at a time, each kernel in bubblewrap; ends with a table
student: $(STAMP)
	$(PY) -m tilelab.teach student $(or $(OUT),student) --wheel $(if $(STUDENT_REPO),--student-repo "$(STUDENT_REPO)")

site: $(STAMP)
	$(PY) -m tilelab.teach site $(or $(OUT),site) $(if $(REPO),--repo "$(REPO)") \
	    $(if $(STUDENT_REPO),--student-repo "$(STUDENT_REPO)") $(if $(HUB),--hub "$(HUB)") \
	    $(if $(LITE_URL),--lite-url "$(LITE_URL)") $(if $(STUDENT_LITE_URL),--student-lite-url "$(STUDENT_LITE_URL)")

lite: $(STAMP)
	$(PY) -m tilelab.teach lite $(or $(OUT),lite) $(if $(STUDENT),--student) \
	    $(if $(PYODIDE_SOURCE),--pyodide-source $(PYODIDE_SOURCE)) $(if $(PYODIDE_URL),--pyodide-url "$(PYODIDE_URL)")

# Every lesson top to bottom in the browser kernel, in Chromium (slow; make test runs four of them).
test-lite: $(STAMP)
	TILELAB_LITE_LESSONS=all TILELAB_REQUIRE_BROWSER=1 $(PYTEST) tests/browser/test_browser_lite.py -m browser

warm: $(STAMP)
	$(PY) -m tilelab.warm $(WARM)

nbgrader: $(STAMP)
	$(PY) -m tilelab.teach nbgrader $(OUT)

autograde: $(STAMP)
	@test -n "$(LESSON)" || { echo "make autograde LESSON=name (e.g. LESSON=03a_sliding_parity)"; exit 2; }
	$(PY) -m tilelab.teach autograde "$(LESSON)" $(if $(COURSE),--course "$(COURSE)")

grade:
	@echo "make grade is retired: grade with nbgrader (make nbgrader; docs/grading.md)"; exit 2

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts student site lite
