"""The course on a real JupyterHub, end to end: the sample configuration (docs/jupyterhub_config.py), two students.

JupyterHub from PyPI and configurable-http-proxy from npm (installed into the environment's ``node/`` folder on
first use) on free local ports; each student logs in through the REST API, opens the teacher's nbgitpuller link
(the course from a local git repository), and runs lesson 00 top to bottom over the kernel's websocket, as
JupyterLab would. ``tests/hubrun.py`` does the work; ``benchmarks/bench_hub.py`` runs whole classes with it.
Without npm (or node) the test is skipped, and fails instead where ``TILELAB_REQUIRE_BROWSER`` or ``CI`` is set.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from tests.hubrun import (
    SAMPLE_CONFIG, Hub, HubUnavailable, check_python_packages, course_repository, find_proxy, run_class,
)

REQUIRE = any(os.environ.get(v, "") not in ("", "0", "false") for v in ("TILELAB_REQUIRE_BROWSER", "CI"))
LESSON = "00_start_here.ipynb"


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    try:
        check_python_packages()
        find_proxy()
    except HubUnavailable as exc:
        if REQUIRE:
            pytest.fail(f"the hub test cannot run: {exc}", pytrace=False)
        pytest.skip(str(exc))
    root = tmp_path_factory.mktemp("hub")
    running = Hub(root / "hub").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> tuple[str, str]:
    return course_repository(tmp_path_factory.mktemp("repos") / "tilelab")


@pytest.fixture(scope="module")
def lesson_run(hub, course):
    repo, branch = course
    return asyncio.run(run_class(hub, ["ada", "grace"], repo, branch, LESSON, timeout=600))


def test_two_students_pull_the_course_and_run_lesson_00(hub, lesson_run):
    for student in lesson_run.students:
        assert student.errors == [], (student.name, student.errors)
        assert student.cells > 5 and student.first_output is not None and student.last_cell is not None
        assert student.first_output <= student.last_cell
        home = hub.root / "home" / student.name
        assert (home / "tilelab" / "notebooks" / LESSON).is_file()  # nbgitpuller put the course in their home
        assert any("2048" in text for text in student.outputs)  # the lesson's own prints came back
    assert {s.name for s in lesson_run.students} == {"ada", "grace"}


def _sample() -> Any:
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader(SAMPLE_CONFIG.name, path=str(SAMPLE_CONFIG.parent)).load_config()


def test_each_student_is_measured_and_fits_the_sample_memory_limit(lesson_run):
    """Server plus kernel of each student, sampled during the run, fit the limit the sample sets."""
    from jupyterhub.traitlets import ByteSpecification

    limit = ByteSpecification().validate(None, _sample().Spawner.mem_limit) / 2**20
    for name, peak in lesson_run.peak_mib.items():
        kernel, cpu = lesson_run.kernel_peak_mib[name], lesson_run.cpu_s[name]
        assert 0 < kernel < peak < limit and cpu > 0, (name, kernel, peak, limit, cpu)
    assert lesson_run.machine_peak_mib >= lesson_run.machine_before_mib


def test_the_sample_configuration_culls_idle_kernels_and_servers_and_seeds_the_numba_cache(hub, lesson_run):
    services = hub.api("GET", "/hub/api/services")
    assert "idle-culler" in services and services["idle-culler"]["command"]  # the hub started the culler
    args = " ".join(_sample().Spawner.args)
    assert "--MappingKernelManager.cull_idle_timeout=" in args
    for student in lesson_run.students:  # the start command made each student's own numba cache folder
        assert (hub.root / "home" / student.name / ".cache" / "tilelab-numba").is_dir()
