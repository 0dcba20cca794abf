"""Each student's kernel runs in bubblewrap: it reads the machine, writes only its own folders, has no network.

:class:`SandboxedKernelManager` is a jupyter_client kernel manager whose kernel command is wrapped in ``bwrap``
(Debian's ``bubblewrap``). Inside the sandbox

- the whole file system is read-only (``--ro-bind / /``), except the kernel's working folder (nbgrader's
  ``autograded/STUDENT/LESSON``, where the notebook runs) and a fresh runtime folder (the connection file, the
  kernel's sockets, IPython's, matplotlib's and numba's files); ``/tmp`` is an empty private tmpfs;
- the course's ``submitted/``, ``autograded/``, ``feedback/`` and ``source/`` folders are empty tmpfs (no other
  student's work, no solutions)
  and ``gradebook.db`` reads as an empty file;
- every namespace is new (``--unshare-all``: no network but a private loopback, own PIDs, IPC and hostname) and
  the kernel dies with the grader (``--die-with-parent``);
- ``prlimit`` caps its address space (:attr:`memory`) and the size of any file it writes (:attr:`file_size`).

The kernel talks to the grader over Unix sockets in the runtime folder (``transport="ipc"``), the only channel
out of its network namespace.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from traitlets import Bool, Integer, List, Unicode

#: Folders of an nbgrader course that hold students' work and marks: hidden from every sandbox.
HIDDEN_FOLDERS = ("submitted", "autograded", "feedback", "released", "exchange", "source")


class SandboxError(RuntimeError):
    """bubblewrap is missing or cannot make a sandbox here."""


def kernel_reads() -> list[str]:
    """The folders the kernel must read that the private ``/tmp`` would hide: this Python's environment and the
    tilelab it imports, where they sit under ``/tmp`` (a checkout or a virtualenv made there); elsewhere none."""
    import tilelab

    tmp = os.path.realpath("/tmp") + os.sep
    places = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix,
                                             os.path.dirname(os.path.dirname(os.path.abspath(tilelab.__file__))))}
    return sorted(p for p in places if (p + os.sep).startswith(tmp) and os.path.isdir(p))


def bwrap_command(command: list[str], *, cwd: str, writable: list[str], course: str | None = None,
                  memory: int = 0, file_size: int = 0, env: dict[str, str] | None = None) -> list[str]:
    """``command`` wrapped in bubblewrap (see the module docstring); ``cwd`` and ``writable`` stay writable.

    >>> command = bwrap_command(["python", "-c", "pass"], cwd="/c/autograded/ann/l", writable=[])
    >>> command[1:4], command[-5:]
    (['--ro-bind', '/', '/'], ['/c/autograded/ann/l', '--', 'python', '-c', 'pass'])
    """
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--unshare-all", "--die-with-parent"]
    for folder in kernel_reads():  # the Python and tilelab the kernel runs, read-only even where they sit in /tmp
        args += ["--ro-bind", folder, folder]
    if course is not None:
        for name in HIDDEN_FOLDERS:
            if os.path.isdir(os.path.join(course, name)):
                args += ["--tmpfs", os.path.join(course, name)]
        if os.path.exists(os.path.join(course, "gradebook.db")):
            empty = os.path.join(tempfile.gettempdir(), "tilelab-empty-file")
            if not os.path.isfile(empty) or os.path.getsize(empty):
                Path(empty).write_bytes(b"")
            args += ["--ro-bind", empty, os.path.join(course, "gradebook.db")]
    for folder in [cwd, *writable]:
        args += ["--bind", folder, folder]
    for key, value in (env or {}).items():
        args += ["--setenv", key, value]
    args += ["--chdir", cwd, "--"]
    limits = []
    if memory:
        limits.append(f"--as={memory}")
    if file_size:
        limits.append(f"--fsize={file_size}")
    if limits and shutil.which("prlimit"):
        args += [shutil.which("prlimit") or "prlimit", *limits, "--"]
    return args + list(command)


def closed_to_root_sandbox(paths: list[str]) -> list[str]:
    """The folders on the way to ``paths`` that a kernel sandboxed by root cannot enter: owned by another account
    and closed to others (no ``o+x``). bubblewrap's user namespace maps only root, so root's usual right to enter
    any folder does not reach there. Empty when the grader is not root.

    >>> closed_to_root_sandbox(["/"])
    []
    """
    if os.geteuid() != 0:
        return []
    closed = []
    for path in paths:
        folder = Path(path).resolve()
        for step in [*reversed(folder.parents), folder]:
            try:
                info = step.stat()
            except OSError:
                continue
            if info.st_uid != 0 and not info.st_mode & 0o001 and str(step) not in closed:
                closed.append(str(step))
    return closed


def check_bwrap() -> None:
    """Raise :class:`SandboxError` naming the fix when bubblewrap cannot make a sandbox on this machine."""
    import subprocess

    if shutil.which("bwrap") is None:
        raise SandboxError("bubblewrap is not installed: `apt-get install bubblewrap` (Debian/Ubuntu), or grade "
                           "without a sandbox with --no-sandbox (only in a throw-away container)")
    probe = subprocess.run(bwrap_command(["true"], cwd="/", writable=[]), capture_output=True, text=True)
    if probe.returncode != 0:
        raise SandboxError(f"bubblewrap cannot make a sandbox here ({probe.stderr.strip()}): it needs user "
                           "namespaces (sysctl kernel.unprivileged_userns_clone=1, or a container run with "
                           "--security-opt seccomp=unconfined), or root")


def seed_numba_cache(cache_dir: str) -> int:
    """Copy tilelab's compiled numba functions into ``cache_dir`` (a sandboxed kernel's ``NUMBA_CACHE_DIR``).

    In the sandbox the package's ``__pycache__`` folders are read-only, so numba would look only in the kernel's
    own, empty cache and compile every function again (tens of seconds a kernel). The copies sit where numba
    looks for them (a folder per source folder, named by numba's own rule); numba still checks each against its
    source file. Returns the number of files copied (0 when nothing is compiled yet, or without numba).
    """
    try:
        from numba.core.caching import UserProvidedCacheLocator  # where numba looks, by its own rule
    except ImportError:  # no numba (or one that keeps its caching elsewhere): nothing compiled to share
        return 0
    import tilelab

    copied = 0
    for pycache in Path(tilelab.__file__).resolve().parent.rglob("__pycache__"):
        name = UserProvidedCacheLocator.get_suitable_cache_subpath(str(pycache.parent / "module.py"))
        # numba's own places: beside the source, or the grader's NUMBA_CACHE_DIR when it has one
        places = [pycache, *([Path(os.environ["NUMBA_CACHE_DIR"], name)] if os.environ.get("NUMBA_CACHE_DIR") else [])]
        for place in places:
            for item in place.iterdir() if place.is_dir() else ():
                if item.suffix in (".nbi", ".nbc"):
                    Path(cache_dir, name).mkdir(parents=True, exist_ok=True)
                    shutil.copy2(item, Path(cache_dir, name, item.name))
                    copied += 1
    return copied


class SandboxedKernelManager(AsyncKernelManager):
    """An async kernel manager whose kernel runs in bubblewrap (nbgrader's Execute uses it through tilelab's config)."""

    sandbox = Bool(True, help="Run the kernel in bubblewrap (False: an ordinary kernel).").tag(config=True)
    course = Unicode("", help="The course folder whose students' work the sandbox hides (default: the current "
                              "folder when it holds a gradebook.db).").tag(config=True)
    memory = Integer(4 * 1024**3, help="Bytes of address space the kernel may use (0: no cap).").tag(config=True)
    file_size = Integer(256 * 1024**2, help="Largest file the kernel may write, in bytes (0: no cap).").tag(
        config=True)
    extra_writable = List(Unicode(), help="More folders the kernel may write.").tag(config=True)

    _sandbox_cwd: str = ""
    _runtime: str = ""

    async def start_kernel(self, **kw: Any) -> None:  # type: ignore[override]
        self._sandbox_cwd = os.path.abspath(kw.get("cwd") or os.getcwd())
        if self.sandbox:
            self._runtime = tempfile.mkdtemp(prefix="tilelab-kernel-")
            self.transport = "ipc"
            self.ip = os.path.join(self._runtime, "kernel")
            self.connection_file = os.path.join(self._runtime, "kernel.json")
        await super().start_kernel(**kw)

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        command = super().format_kernel_cmd(extra_arguments)
        if not self.sandbox:
            return command
        if shutil.which("bwrap") is None:
            raise SandboxError("bubblewrap is not installed: `apt-get install bubblewrap` (Debian/Ubuntu); to grade "
                               "without a sandbox (a throw-away container only): "
                               "--SandboxedKernelManager.sandbox=False")
        course = self.course or (os.getcwd() if os.path.exists("gradebook.db") else None)
        runtime = self._runtime
        closed = closed_to_root_sandbox([self._sandbox_cwd, runtime, *self.extra_writable, *kernel_reads()])
        if closed:
            raise SandboxError(f"grading as root, the sandbox cannot enter {', '.join(closed)}: another account owns "
                               "it and it is closed to others (bubblewrap's user namespace maps only root). Grade as "
                               f"that account (on a hub: in the teacher's own server), or `chmod o+x {closed[0]}`")
        for sub in ("ipython", "mpl", "numba"):
            Path(runtime, sub).mkdir(exist_ok=True)
        seed_numba_cache(os.path.join(runtime, "numba"))
        env = {"IPYTHONDIR": os.path.join(runtime, "ipython"), "MPLCONFIGDIR": os.path.join(runtime, "mpl"),
               "NUMBA_CACHE_DIR": os.path.join(runtime, "numba"),  # the package's folder is read-only here
               "JPY_PARENT_PID": "1"}  # the grader's pid means nothing in the sandbox: --die-with-parent watches it
        return bwrap_command(command, cwd=self._sandbox_cwd, writable=[runtime, *self.extra_writable],
                             course=course, memory=self.memory, file_size=self.file_size, env=env)

    async def cleanup_resources(self, restart: bool = False) -> None:  # type: ignore[override]
        await super().cleanup_resources(restart)
        if self._runtime and not restart:
            shutil.rmtree(self._runtime, ignore_errors=True)
