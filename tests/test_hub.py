"""The course on a real JupyterHub, end to end: the sample configuration (docs/jupyterhub_config.py), over HTTPS,
with real Unix accounts (two students and a teacher) logging in through PAM.

JupyterHub from PyPI and configurable-http-proxy from npm (installed into the environment's ``node/`` folder on
first use) on free local ports, with a self-signed certificate; the test makes the accounts (useradd: it must run
as root) and removes them after. Each student logs in through the login page, opens the teacher's nbgitpuller link
(the course from a local git repository) and runs lesson 00 top to bottom over the kernel's websocket, as JupyterLab
would; then the teacher releases an assignment through nbgrader's formgrader, a student fetches, solves and
submits it from the assignment list, and the teacher collects and autogrades it. The accounts' own permissions
are tried with ``runuser``. ``tests/hubrun.py`` does the work; ``benchmarks/bench_hub.py`` runs whole classes with
it. Without npm (or node), or not as root, the test is skipped, and fails instead where ``TILELAB_REQUIRE_BROWSER``
or ``CI`` is set.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import pwd
import re
import secrets
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import nbformat
import pytest

from tests.hubrun import (
    ROOT, SAMPLE_CONFIG, STUDENTS_GROUP, TEACHERS_GROUP, Hub, HubUnavailable, LoginRefused, Student, Teacher,
    check_python_packages, course_repository, find_proxy, log_in, run_class,
)

REQUIRE = any(os.environ.get(v, "") not in ("", "0", "false") for v in ("TILELAB_REQUIRE_BROWSER", "CI"))
LESSON = "00_start_here.ipynb"
ASSIGNMENT = "03a_sliding_parity"  # two autograded exercises, a short lesson to autograde
COURSE_ID = "tilelab"
_SUFFIX = secrets.token_hex(2)
ADA, GRACE, TOM = f"ada-{_SUFFIX}", f"grace-{_SUFFIX}", f"tom-{_SUFFIX}"


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    try:
        check_python_packages()
        find_proxy()
    except HubUnavailable as exc:
        if REQUIRE:
            pytest.fail(f"the hub test cannot run: {exc}", pytrace=False)
        pytest.skip(str(exc))
    running = Hub(tmp_path_factory.mktemp("hub") / "hub")
    # what `python -m tilelab.warm` leaves before the hub starts, here as carelessly writable as it could be: the
    # sample configuration must make it read-only for students itself
    for folder in ("cache", "numba"):
        (running.shared / folder).mkdir(parents=True)
        (running.shared / folder / "built.bin").write_bytes(b"cache")
        os.chmod(running.shared / folder, 0o777)
        os.chmod(running.shared / folder / "built.bin", 0o666)
    running.start()
    running.enrol(TOM, TEACHERS_GROUP)
    for name in (ADA, GRACE):
        running.enrol(name, STUDENTS_GROUP)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> tuple[str, str]:
    return course_repository(tmp_path_factory.mktemp("repos") / "tilelab")


@pytest.fixture(scope="module")
def lesson_run(hub, course):
    repo, branch = course
    return asyncio.run(run_class(hub, [ADA, GRACE], repo, branch, LESSON, timeout=600))


def _sample(hub: Hub) -> Any:
    """The sample configuration as JupyterHub reads it (with the test hub's folders)."""
    from traitlets.config.loader import PyFileConfigLoader

    with mock.patch.dict(os.environ, hub.sample_environment()):
        return PyFileConfigLoader(SAMPLE_CONFIG.name, path=str(SAMPLE_CONFIG.parent)).load_config()


# ------------------------------------------------------------------------------------------------ HTTPS, logins
def test_the_sample_serves_https_only_and_keeps_the_hub_api_on_loopback(hub):
    sample = _sample(hub)
    assert sample.JupyterHub.bind_url.startswith("https://")
    assert sample.JupyterHub.ssl_cert and sample.JupyterHub.ssl_key
    assert sample.JupyterHub.hub_ip == "127.0.0.1" and sample.Spawner.ip == "127.0.0.1"


def test_a_login_works_over_https_and_is_impossible_over_plain_http(hub):
    import urllib.request

    with urllib.request.urlopen(f"{hub.url}/hub/login", context=hub.ssl_context(), timeout=30) as page:
        assert page.headers["Strict-Transport-Security"].startswith("max-age=")  # browsers stay on HTTPS
    password = hub.enrol(f"eve-{_SUFFIX}")
    assert log_in(hub, f"eve-{_SUFFIX}", password)  # HTTPS, the right password: a token
    plain = hub.url.replace("https://", "http://", 1)
    with pytest.raises((OSError, http.client.HTTPException, LoginRefused)):
        log_in(hub, f"eve-{_SUFFIX}", password, url=plain)
    with pytest.raises(LoginRefused):  # PAM checks the password
        log_in(hub, f"eve-{_SUFFIX}", password + "x")


def test_only_the_students_and_teachers_groups_may_log_in(hub):
    assert hub.accounts is not None
    password = hub.accounts.add(f"mallory-{_SUFFIX}", group=None)
    with pytest.raises(LoginRefused):
        log_in(hub, f"mallory-{_SUFFIX}", password)


# ------------------------------------------------------------------------------------------------ a lesson
def test_two_students_pull_the_course_and_run_lesson_00(hub, lesson_run):
    for student in lesson_run.students:
        assert student.errors == [], (student.name, student.errors)
        assert student.cells > 5 and student.first_output is not None and student.last_cell is not None
        assert student.first_output <= student.last_cell
        home = hub.homes / student.name
        assert (home / "tilelab" / "notebooks" / LESSON).is_file()  # nbgitpuller put the course in their home
        assert any("2048" in text for text in student.outputs)  # the lesson's own prints came back
    assert {s.name for s in lesson_run.students} == {ADA, GRACE}


def test_each_student_is_measured_and_fits_the_sample_memory_limit(hub, lesson_run):
    """Server plus kernel of each student, sampled during the run, fit the limit the sample sets."""
    from jupyterhub.traitlets import ByteSpecification

    limit = ByteSpecification().validate(None, _sample(hub).Spawner.mem_limit) / 2**20
    for name, peak in lesson_run.peak_mib.items():
        kernel, cpu = lesson_run.kernel_peak_mib[name], lesson_run.cpu_s[name]
        assert 0 < kernel < peak < limit and cpu > 0, (name, kernel, peak, limit, cpu)
    assert lesson_run.machine_peak_mib >= lesson_run.machine_before_mib


def test_the_sample_configuration_culls_idle_kernels_and_servers_and_seeds_the_numba_cache(hub, lesson_run):
    services = hub.api("GET", "/hub/api/services")
    assert "idle-culler" in services and services["idle-culler"]["command"]  # the hub started the culler
    args = " ".join(_sample(hub).Spawner.args)
    assert "--MappingKernelManager.cull_idle_timeout=" in args
    for student in lesson_run.students:  # the start command copied the shared numba cache into their own folder
        assert (hub.homes / student.name / ".cache" / "tilelab-numba" / "built.bin").is_file()


# ------------------------------------------------------------------------------------------------ isolation
def test_a_student_can_neither_read_nor_write_another_students_home(hub, lesson_run):
    assert hub.accounts is not None
    notebook = f"tilelab/notebooks/{LESSON}"
    for name in (ADA, GRACE):  # the sample made each home its owner's alone when their server started
        home = hub.homes / name
        assert stat.S_IMODE(home.stat().st_mode) == 0o700, oct(home.stat().st_mode)
    own = hub.accounts.run_as(ADA, f'cat "{hub.homes / ADA / notebook}" >/dev/null && touch "{hub.homes / ADA}/mine"')
    assert own.returncode == 0, own.stderr  # the owner can (so what fails below fails for the right reason)
    read = hub.accounts.run_as(GRACE, f'cat "{hub.homes / ADA / notebook}"')
    listing = hub.accounts.run_as(GRACE, f'ls "{hub.homes / ADA}"')
    write = hub.accounts.run_as(GRACE, f'touch "{hub.homes / ADA}/from-grace"')
    for attempt in (read, listing, write):
        assert attempt.returncode != 0 and "Permission denied" in attempt.stderr, attempt
    assert not (hub.homes / ADA / "from-grace").exists()


def test_the_shared_caches_and_settings_are_read_only_for_students(hub, lesson_run):
    assert hub.accounts is not None
    shared = hub.shared
    readable = hub.accounts.run_as(GRACE, f'cat "{shared}/numba/built.bin" "{shared}/cache/built.bin" '
                                          f'"{shared}/jupyter/student/nbgrader_config.py"')
    assert readable.returncode == 0, readable.stderr  # students read the caches and their settings
    for script in (f'touch "{shared}/numba/planted.nbi"', f'echo x >> "{shared}/numba/built.bin"',
                   f'touch "{shared}/cache/planted"', f'echo x >> "{shared}/jupyter/student/nbgrader_config.py"',
                   f'mkdir "{shared}/jupyter/mine"', f'rm -f "{shared}/cache/built.bin"'):
        attempt = hub.accounts.run_as(GRACE, script)
        assert attempt.returncode != 0 and "Permission denied" in attempt.stderr, (script, attempt)
    for path in [shared, *shared.rglob("*")]:
        info = path.lstat()
        assert info.st_uid == 0 and not info.st_mode & 0o022, (path, oct(info.st_mode))
    # nbgrader's exchange: the course's folder is the teachers' group's, so no student can make or replace it
    course = hub.exchange / COURSE_ID
    attempt = hub.accounts.run_as(GRACE, f'mkdir "{course}/outbound-forged"')
    assert attempt.returncode != 0 and "Permission denied" in attempt.stderr, attempt


def test_each_students_systemd_unit_is_asked_for_isolation_and_limits(hub, monkeypatch):
    """What SystemdSpawner, with the sample's settings, asks systemd for (systemd-run's properties). This machine
    runs no systemd, so systemd-run is replaced by a recorder here: that systemd enforces them needs a real hub."""
    from jupyterhub import orm
    from jupyterhub.objects import Hub as HubAddress
    from jupyterhub.traitlets import ByteSpecification
    from systemdspawner import SystemdSpawner, systemd

    asked: dict[str, Any] = {}

    async def start_transient_service(unit_name: str, **kwargs: Any) -> None:
        asked.update(kwargs, unit=unit_name)

    async def not_running(unit_name: str) -> bool:
        return False

    monkeypatch.setattr(systemd, "start_transient_service", start_transient_service)
    monkeypatch.setattr(systemd, "service_running", not_running)
    monkeypatch.setattr(systemd, "service_failed", not_running)
    user = type("User", (), {"name": ADA, "id": 7, "url": f"/user/{ADA}/", "escaped_name": ADA, "admin": False,
                             "server": None})()
    sample = _sample(hub)
    spawner = SystemdSpawner(config=sample, user=user, hub=HubAddress(), orm_spawner=orm.Spawner(name=""))
    spawner.api_token, spawner.start_timeout = "unused", 0
    asyncio.run(spawner.start())
    properties = asked["properties"]
    assert properties["PrivateTmp"] == properties["PrivateDevices"] == properties["NoNewPrivileges"] == "yes"
    assert properties["ReadOnlyDirectories"] == ["/"]
    assert set(properties["ReadWriteDirectories"]) == {f"/home/{ADA}", str(hub.exchange)}
    assert properties["MemoryMax"] == ByteSpecification().validate(None, sample.Spawner.mem_limit)
    assert properties["CPUQuota"] == "100%"
    assert asked["uid"] == pwd.getpwnam(ADA).pw_uid != 0  # run as the student's own account, never root's
    assert asked["cmd"][:2] == ["/bin/sh", "-c"] and "cp -Ru" in asked["cmd"][2]  # the command survived formatting


# ------------------------------------------------------------------------------------------------ nbgrader
def _page_config(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, html[:300]
    return json.loads(found.group(1))


def _solve_first_exercise(student_nb: dict[str, Any], source_nb: Any) -> tuple[dict[str, Any], str]:
    """The student's notebook with its first answer cell solved (the official solution typed under the stub, as
    a student would), the second left as handed out. Returns it and the solved exercise's grade id."""
    solutions = {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in source_nb.cells
                 if cell.metadata.get("nbgrader", {}).get("solution")}
    for cell in student_nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            official = solutions[meta["grade_id"]]
            answer = official.split("### BEGIN SOLUTION\n", 1)[1].split("### END SOLUTION", 1)[0]
            stub, check_line = cell["source"].rsplit("\n", 1)
            cell["source"] = f"{stub}\n{answer}{check_line}"
            return student_nb, meta["grade_id"]
    raise AssertionError("no answer cell in the assignment")


@pytest.fixture(scope="module")
def round_trip(hub, lesson_run, tmp_path_factory) -> dict[str, Any]:
    """The teacher makes the course folder and releases an assignment in formgrader; Ada fetches it from her
    assignment list, solves one of its two exercises and submits it; the teacher collects and autogrades it."""
    # the teacher's course folder, as docs/hub.md tells them to make it (python -m tilelab.teach nbgrader ~/course);
    # here with only the one lesson, to keep the test short
    lessons = tmp_path_factory.mktemp("lessons")
    shutil.copy(ROOT / "notebooks" / f"{ASSIGNMENT}.ipynb", lessons)
    course = hub.homes / TOM / "course"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-m", "tilelab.teach", "nbgrader", str(course), "--notebooks", str(lessons)],
                   check=True, capture_output=True, env=env, timeout=300)
    seen: dict[str, Any] = {}

    async def run() -> None:
        tom, ada = Teacher(hub, TOM), Student(hub, ADA)
        await asyncio.gather(tom.log_in(), ada.log_in())
        # Here every server runs as root (SimpleLocalProcessSpawner: this Python lives where other accounts cannot
        # run it), so the teacher's grading sandbox is root's, whose user namespace cannot enter the home the
        # sample closed (0700) as the server started (test_teach_grading: grading as root in a closed folder). On a
        # real hub the teacher's server runs as the teacher, who may enter it.
        (hub.homes / TOM).chmod(0o711)
        seen["admin"] = {name: hub.api("GET", f"/hub/api/users/{name}")["admin"] for name in (TOM, ADA)}
        seen["lab"] = {p.name: _page_config(await p._call("GET", "/lab", user_server=True, raw=True))
                       for p in (tom, ada)}
        try:
            await ada._call("GET", "/formgrader/api/assignments", user_server=True)
            seen["student_formgrader"] = 200
        except Exception as exc:  # tornado's HTTPClientError
            seen["student_formgrader"] = getattr(exc, "code", repr(exc))
        seen["generate"] = await tom.formgrader("POST", f"assignment/{ASSIGNMENT}/assign")
        seen["release"] = await tom.formgrader("POST", f"assignment/{ASSIGNMENT}/release")
        seen["listed"] = await ada.assignments(COURSE_ID)
        await ada.assignment_action("fetch", COURSE_ID, ASSIGNMENT)
        path = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
        source = nbformat.read(course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", 4)
        solved, seen["solved"] = _solve_first_exercise((await ada.contents(path))["content"], source)
        await ada.save_notebook(path, solved)
        seen["after_submit"] = await ada.assignment_action("submit", COURSE_ID, ASSIGNMENT)
        seen["collect"] = await tom.formgrader("POST", f"assignment/{ASSIGNMENT}/collect")
        seen["autograde"] = await tom.formgrader("POST", f"submission/{ASSIGNMENT}/{ADA}/autograde")
        seen["submission"] = await tom.formgrader("GET", f"submission/{ASSIGNMENT}/{ADA}")
        await asyncio.gather(tom.stop_server(), ada.stop_server())

    asyncio.run(run())
    return seen


def test_the_teacher_is_an_admin_with_formgrader_and_students_are_not(round_trip):
    assert round_trip["admin"] == {TOM: True, ADA: False}
    assert round_trip["student_formgrader"] == 404  # no formgrader in a student's server
    off = {name: set(config.get("disabledExtensions", [])) for name, config in round_trip["lab"].items()}
    assert "@jupyter/nbgrader:formgrader" in off[ADA] and "@jupyter/nbgrader:create-assignment" in off[ADA]
    assert "@jupyter/nbgrader:assignment-list" not in off[ADA]  # the student's Assignments panel is on
    assert not {p for p in off[TOM] if p.startswith("@jupyter/nbgrader")}  # the teacher has every nbgrader panel


def test_a_student_fetches_solves_and_submits_and_the_teacher_autogrades_it(round_trip):
    assert round_trip["generate"]["success"] and round_trip["release"]["success"], round_trip
    assert [(a["assignment_id"], a["status"]) for a in round_trip["listed"]] == [(ASSIGNMENT, "released")]
    assert {(a["assignment_id"], a["status"]) for a in round_trip["after_submit"]} >= {(ASSIGNMENT, "submitted")}
    assert round_trip["collect"]["success"], round_trip["collect"]
    assert round_trip["autograde"]["success"], round_trip["autograde"].get("log", "")[-3000:]
    submission = round_trip["submission"]
    assert submission["student"] == ADA and submission["autograded"]
    assert (submission["score"], submission["max_score"]) == (1.0, 2.0), submission  # one exercise of two solved


# ------------------------------------------------------------------------------------------------ Kubernetes
def test_the_kubernetes_values_keep_the_samples_limits_culling_and_nbgrader_settings(hub):
    """docs/z2jh-config.yaml (more than one machine) gives each student what the one-machine sample gives."""
    import yaml

    values = yaml.safe_load((ROOT / "docs" / "z2jh-config.yaml").read_text(encoding="utf-8"))
    sample, user = _sample(hub), values["singleuser"]
    assert (user["memory"]["limit"], user["memory"]["guarantee"]) == (sample.Spawner.mem_limit,
                                                                      sample.Spawner.mem_guarantee)
    assert (user["cpu"]["limit"], user["cpu"]["guarantee"]) == (sample.Spawner.cpu_limit, sample.Spawner.cpu_guarantee)
    kernels = user["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    args = dict(arg.removeprefix("--MappingKernelManager.").split("=") for arg in sample.Spawner.args)
    assert {key: str(value).lower() for key, value in kernels.items()} == {k: v.lower() for k, v in args.items()}
    culler = next(s for s in sample.JupyterHub.services if s["name"] == "idle-culler")["command"]
    assert f"--timeout={values['cull']['timeout']}" in culler and values["cull"]["enabled"]
    for role in ("student", "teacher"):  # the same nbgrader panels and server extensions by role
        written = hub.shared / "jupyter" / role
        files = user["extraFiles"]
        assert files[f"{role}-server"]["data"] == json.loads((written / "jupyter_server_config.json").read_text())
        assert files[f"{role}-lab"]["data"] == json.loads((written / "labconfig" / "page_config.json").read_text())
    assert values["proxy"]["https"]["enabled"] and values["hub"]["config"]["GenericOAuthenticator"]["admin_groups"] \
        == sorted(sample.PAMAuthenticator.admin_groups)
