"""A real JupyterHub on this machine, and simulated students and teachers who use it as a class would.

``Hub`` starts JupyterHub (from PyPI) with configurable-http-proxy (from npm), loading the sample configuration
``docs/jupyterhub_config.py`` and changing only what a test machine needs: every server a local process run as
root (``SimpleLocalProcessSpawner``: no systemd here, and the test's Python lives where other accounts cannot run
it), a self-signed certificate (made with openssl), free ports on 127.0.0.1, its folders under a temporary one.
The logins are real: :class:`Accounts` makes Unix accounts (as root: useradd, in the sample's ``students`` and
``teachers`` groups, homes under the temporary folder) and the sample's PAM authenticator checks their passwords.
A :class:`Student` then does what a student does, over HTTPS, through the hub's login page, its REST API and the
Jupyter server's: logs in (the login form, then a token), starts a server, opens the teacher's nbgitpuller link
(from a local git repository: the machine has no internet), opens a lesson (a session, as JupyterLab makes one)
and runs every code cell over the kernel's websocket, timing the first output and the last cell; fetches and
submits an assignment through nbgrader's assignment list. A :class:`Teacher` releases, collects and autogrades
through nbgrader's formgrader. :class:`MemoryWatch` samples each student's processes (server and kernels) and the
machine meanwhile.

Used by ``tests/test_hub.py`` (two students, end to end, in ``make test``) and ``benchmarks/bench_hub.py``
(1, 5, 10 ... students on a sliding, a match-3 and a 2048 lesson).
"""

from __future__ import annotations

import asyncio
import grp
import http.cookiejar
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CONFIG = ROOT / "docs" / "jupyterhub_config.py"
PROXY_PACKAGE = "configurable-http-proxy@5"
HUB_START_TIMEOUT_S = 90.0
SERVER_START_TIMEOUT_S = 120.0
OUTPUT_TYPES = ("stream", "display_data", "execute_result", "error")
#: the sample's Unix groups (docs/jupyterhub_config.py: STUDENTS, TEACHERS)
STUDENTS_GROUP, TEACHERS_GROUP = "students", "teachers"


class HubUnavailable(RuntimeError):
    """JupyterHub, nbgitpuller or configurable-http-proxy (or npm to install it) is missing."""


# ------------------------------------------------------------------------------------------------ set-up
def proxy_folder() -> Path:
    """Where configurable-http-proxy is installed when it is not on PATH: ``node/`` inside the Python environment
    (``.venv`` for ``make test``), so ``make clean`` removes it with the rest."""
    return Path(sys.prefix) / "node"


def find_proxy(install: bool = True) -> str:
    """The ``configurable-http-proxy`` command: on PATH, else in :func:`proxy_folder`, else installed there by npm."""
    on_path = shutil.which("configurable-http-proxy")
    if on_path:
        return on_path
    local = proxy_folder() / "node_modules" / ".bin" / "configurable-http-proxy"
    if local.exists():
        return str(local)
    npm = shutil.which("npm")
    if not install or npm is None or shutil.which("node") is None:
        raise HubUnavailable("configurable-http-proxy is not installed and npm/node are missing to install it "
                             "(Debian: apt-get install nodejs npm)")
    proxy_folder().mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "install", "--prefix", str(proxy_folder()), "--no-audit", "--no-fund", "--silent",
                           PROXY_PACKAGE], capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not local.exists():
        raise HubUnavailable(f"npm install {PROXY_PACKAGE} failed: {(done.stdout + done.stderr)[-800:]}")
    return str(local)


def check_python_packages() -> None:
    """HubUnavailable unless the hub's Python packages can be imported here, and this process can make accounts."""
    for module in ("jupyterhub", "nbgitpuller", "nbgrader", "pamela"):
        try:
            __import__(module)
        except ImportError as exc:
            raise HubUnavailable(f"{module} is not installed ({exc}); pip install -e '.[test]'") from None
    if os.geteuid() != 0:
        raise HubUnavailable("the hub test makes Unix accounts for its students and teacher (useradd): run it as root")
    for tool in ("useradd", "userdel", "groupadd", "chpasswd", "runuser", "openssl"):
        if shutil.which(tool) is None:
            raise HubUnavailable(f"{tool} is missing (Debian: apt-get install passwd util-linux openssl)")


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made with openssl: what the school's certificate is on a real hub."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class Accounts:
    """Unix accounts for a hub's students and teachers (as root), homes under ``homes``; the sample's groups made
    where missing. :meth:`remove` deletes every account (and home) and every group it made."""

    def __init__(self, homes: Path) -> None:
        self.homes = homes
        self.passwords: dict[str, str] = {}
        self.made_groups: list[str] = []
        for group in (STUDENTS_GROUP, TEACHERS_GROUP):
            try:
                grp.getgrnam(group)
            except KeyError:
                subprocess.run(["groupadd", group], check=True, capture_output=True)
                self.made_groups.append(group)

    def add(self, name: str, group: str | None = STUDENTS_GROUP) -> str:
        """A new account ``name`` in ``group`` (None: in no group but its own) with a home and a random password
        (returned)."""
        if name in self.passwords:
            return self.passwords[name]
        subprocess.run(["useradd", "--create-home", "--base-dir", str(self.homes), "--shell", "/bin/sh", name,
                        *(["--groups", group] if group else [])], check=True, capture_output=True)
        password = secrets.token_urlsafe(12)
        subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True, capture_output=True)
        self.passwords[name] = password
        return password

    def run_as(self, name: str, script: str) -> subprocess.CompletedProcess[str]:
        """``script`` run by /bin/sh as ``name`` (runuser): what that account may do on the machine."""
        return subprocess.run(["runuser", "-u", name, "--", "/bin/sh", "-c", script], capture_output=True, text=True,
                              timeout=60, cwd="/")

    def remove(self) -> None:
        for name in list(self.passwords):
            subprocess.run(["userdel", "--remove", name], capture_output=True)
            self.passwords.pop(name)
        for group in self.made_groups:
            subprocess.run(["groupdel", group], capture_output=True)
        self.made_groups = []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def course_repository(dest: Path, source: Path = ROOT) -> tuple[str, str]:
    """A bare git repository of the course at ``dest`` (cloned from ``source``'s committed HEAD; name it as the
    folder the course should land in): what a teacher's GitHub copy would be. Returns its ``file://`` URL and
    branch, for the nbgitpuller link."""
    if dest.exists():
        shutil.rmtree(dest)
    subprocess.run(["git", "clone", "--quiet", "--bare", "--no-hardlinks", str(source), str(dest)], check=True,
                   capture_output=True, timeout=300)
    branch = subprocess.run(["git", "-C", str(source), "rev-parse", "--abbrev-ref", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    subprocess.run(["git", "-C", str(dest), "symbolic-ref", "HEAD", f"refs/heads/{branch}"], check=True)
    return dest.as_uri(), branch


def puller_link(hub: "Hub", repo_url: str, branch: str, lesson: str) -> str:
    """The nbgitpuller link a teacher hands out (``tilelab.teach.links``' format) for ``lesson`` on this hub."""
    from tilelab.teach.links import PULLER_LINK, hub_base

    folder = repo_url.rstrip("/").split("/")[-1]
    return PULLER_LINK.format(hub=hub_base(hub.url), repo_url=urllib.parse.quote(repo_url, safe=""),
                              urlpath=urllib.parse.quote(f"lab/tree/{folder}/notebooks/{lesson}", safe=""),
                              branch=urllib.parse.quote(branch, safe=""))


# ------------------------------------------------------------------------------------------------ the hub
class Hub:
    """JupyterHub with the sample configuration, over HTTPS on free local ports: its database, logs and certificate
    in ``root``; the homes, the shared folder and nbgrader's exchange in :attr:`public`, a temporary folder every
    account may enter (as ``/home`` and ``/srv`` are on a real hub); its accounts in :attr:`accounts`."""

    def __init__(self, root: Path, *, shared: Path | None = None, config_extra: str = "") -> None:
        self.root = Path(root)
        self.port, self.api_port, self.hub_port = free_port(), free_port(), free_port()
        self.url = f"https://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(16)
        self.public = Path(tempfile.mkdtemp(prefix="tilelab-hub-"))
        os.chmod(self.public, 0o755)
        self.homes = self.public / "home"
        self.shared = shared or self.public / "shared"
        self.exchange = self.public / "exchange"
        self.config_extra = config_extra
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = self.root / "jupyterhub.log"
        self.ca = self.root / "tls" / "cert.pem"
        self.accounts: Accounts | None = None

    def ssl_context(self) -> ssl.SSLContext:
        """A client's TLS context that trusts the hub's certificate (and nothing else)."""
        return ssl.create_default_context(cafile=str(self.ca))

    def enrol(self, name: str, group: str = STUDENTS_GROUP) -> str:
        """A Unix account for ``name`` in ``group`` (the school's IT makes them on a real hub); its password."""
        assert self.accounts is not None, "start the hub first"
        return self.accounts.add(name, group)

    def config(self, proxy: str) -> Path:
        """The configuration file: the sample's, then what a test machine changes."""
        cert, key = self_signed_certificate(self.root / "tls")
        text = f"""
load_subconfig({str(SAMPLE_CONFIG)!r})
c.JupyterHub.bind_url = {self.url!r}
c.JupyterHub.ssl_cert = {str(cert)!r}
c.JupyterHub.ssl_key = {str(key)!r}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
c.ConfigurableHTTPProxy.pid_file = {str(self.root / 'proxy.pid')!r}
c.JupyterHub.db_url = "sqlite:///{self.root / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = {str(self.root / 'cookie_secret')!r}
c.JupyterHub.pid_file = {str(self.root / 'jupyterhub.pid')!r}
c.JupyterHub.cleanup_servers = True
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = {str(self.homes / '{username}')!r}
c.Spawner.start_timeout = {int(SERVER_START_TIMEOUT_S)}
c.Spawner.http_timeout = {int(SERVER_START_TIMEOUT_S)}
c.Spawner.env_keep = ["PATH", "LANG", "LC_ALL", "VIRTUAL_ENV"]
c.Spawner.args = list(c.Spawner.args) + {["--allow-root"] if os.getuid() == 0 else []!r}  # a container's root
c.JupyterHub.services.append({{"name": "class-bench", "api_token": {self.token!r}}})
c.JupyterHub.load_roles.append({{"name": "class-bench", "services": ["class-bench"],
    "scopes": ["admin:users", "admin:servers", "list:users", "read:users", "list:services", "read:services"]}})
"""
        path = self.root / "jupyterhub_config.py"
        path.write_text(text + self.config_extra, encoding="utf-8")
        return path

    def start(self, timeout: float = HUB_START_TIMEOUT_S) -> "Hub":
        check_python_packages()
        proxy = find_proxy()
        try:
            self._start(proxy, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self, proxy: str, timeout: float) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.homes.mkdir(mode=0o755, exist_ok=True)
        self.accounts = Accounts(self.homes)
        env = dict(os.environ)
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        env.update(self.sample_environment())
        env.pop("JUPYTERHUB_API_TOKEN", None)
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(self.config(proxy))]
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited ({self.process.returncode}):\n{self.log_tail()}")
            try:
                if self.api("GET", "/hub/api/")["version"]:
                    return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"JupyterHub did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def sample_environment(self) -> dict[str, str]:
        """The environment the sample configuration reads its folders from (TILELAB_HUB_SHARED, ...)."""
        return {"TILELAB_HUB_SHARED": str(self.shared), "TILELAB_HUB_EXCHANGE": str(self.exchange)}

    def api(self, method: str, path: str, body: Any = None, token: str | None = None, timeout: float = 30) -> Any:
        """A blocking call of the hub's REST API (as the bench's service unless ``token``)."""
        import urllib.request

        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": f"token {token or self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout, context=self.ssl_context()) as response:
            text = response.read().decode()
        return json.loads(text) if text else None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the hub (it stops the students' servers and the proxy), then anything left of its session; remove
        its accounts and its temporary folders."""
        try:
            self._stop_process(timeout)
        finally:
            if self.accounts is not None:
                self.accounts.remove()
            shutil.rmtree(self.public, ignore_errors=True)

    def _stop_process(self, timeout: float) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the proxy and any server left, all started by the hub
        except (ProcessLookupError, PermissionError):
            pass
        self.process = None


# ------------------------------------------------------------------------------------------------ logging in
class LoginRefused(RuntimeError):
    """The hub's login page did not let this name and password in."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect comes back as an HTTPError: after logging in the hub would start the server


def log_in(hub: Hub, name: str, password: str, url: str | None = None) -> str:
    """Log in as a person does (the hub's login form over ``url``, default the hub's HTTPS address, with the
    cookies and the form's XSRF token), then ask for an API token with that session. Returns the token;
    LoginRefused if the hub let nobody in."""
    base = url or hub.url
    jar = http.cookiejar.CookieJar()
    handlers: list[Any] = [urllib.request.HTTPCookieProcessor(jar), _NoRedirect()]
    if base.startswith("https:"):
        handlers.append(urllib.request.HTTPSHandler(context=hub.ssl_context()))
    browser = urllib.request.build_opener(*handlers)
    page = browser.open(f"{base}/hub/login", timeout=30).read().decode()
    found = re.search(r'name="_xsrf"\s+value="([^"]+)"', page)
    form = {"username": name, "password": password, **({"_xsrf": found.group(1)} if found else {})}
    try:
        browser.open(f"{base}/hub/login", data=urllib.parse.urlencode(form).encode(), timeout=60)
    except urllib.error.HTTPError as exc:
        if exc.code not in (302, 303):
            raise LoginRefused(f"{name}: the login page answered {exc.code}") from None
    cookies = {cookie.name: cookie.value for cookie in jar}
    if "jupyterhub-hub-login" not in cookies:
        raise LoginRefused(f"{name}: no session after logging in (cookies: {sorted(cookies)})")
    request = urllib.request.Request(f"{base}/hub/api/users/{name}/tokens", method="POST",
                                     data=json.dumps({"note": "hub test", "expires_in": 3600}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "X-XSRFToken": cookies.get("_xsrf", "")})
    return json.loads(browser.open(request, timeout=30).read().decode())["token"]


# ------------------------------------------------------------------------------------------------ a student
@dataclass
class Timing:
    """What one student met, in seconds from opening the lesson (pressing Run All)."""

    name: str
    login: float = 0.0  # logging in and starting the server
    pull: float = 0.0  # the nbgitpuller link: the course cloned into the home
    first_output: float | None = None
    last_cell: float | None = None
    cells: int = 0
    errors: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # every output's text (printed, or text/plain), in order


class Student:
    """One simulated student: log in, start a server, pull the course, run a lesson, fetch and submit an
    assignment (async, many at once). ``name`` must have an account (:meth:`Hub.enrol`)."""

    def __init__(self, hub: Hub, name: str) -> None:
        self.hub, self.name = hub, name
        self.token = ""
        self.timing = Timing(name)

    async def _call(self, method: str, path: str, body: Any = None, *, user_server: bool = False,
                    timeout: float = 60, raw: bool = False) -> Any:
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        base = f"{self.hub.url}/user/{urllib.parse.quote(self.name)}" if user_server else self.hub.url
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"token {self.token}"
        request = HTTPRequest(base + path, method=method, headers=headers, request_timeout=timeout,
                              ca_certs=str(self.hub.ca),
                              body=None if body is None and method in ("GET", "DELETE") else json.dumps(body or {}))
        response = await AsyncHTTPClient().fetch(request)
        text = response.body.decode()
        if raw:
            return text
        return json.loads(text) if text else None

    async def log_in(self) -> None:
        """Log in with the account's name and password (the hub asks PAM), then start the server."""
        tick = time.perf_counter()
        assert self.hub.accounts is not None
        self.token = await asyncio.to_thread(log_in, self.hub, self.name, self.hub.accounts.passwords[self.name])
        await self._call("POST", f"/hub/api/users/{self.name}/server", {})
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            user = await self._call("GET", f"/hub/api/users/{self.name}")
            server = user.get("servers", {}).get("", {})
            if server.get("ready"):
                self.timing.login = time.perf_counter() - tick
                return
            await asyncio.sleep(0.3)
        raise RuntimeError(f"{self.name}'s server did not start within {SERVER_START_TIMEOUT_S:.0f} s:\n"
                           f"{self.hub.log_tail()}")

    async def pull(self, link: str) -> None:
        """Open the teacher's nbgitpuller ``link`` (``/hub/user-redirect/git-pull?repo=...``: the hub sends the student
        to their server's puller page), then do what that page's script does: stream the clone's progress from
        ``git-pull/api`` until it says finished."""
        tick = time.perf_counter()
        parts = urllib.parse.urlsplit(link)
        page = await self._call("GET", f"{parts.path}?{parts.query}", raw=True)
        if "git-pull" not in page and "nbgitpuller" not in page.lower():
            raise RuntimeError(f"{self.name}: the nbgitpuller link gave no puller page: {page[:300]!r}")
        query = dict(urllib.parse.parse_qsl(parts.query))
        api = urllib.parse.urlencode({k: query[k] for k in ("repo", "branch") if k in query})
        text = await self._call("GET", f"/git-pull/api?{api}", user_server=True, timeout=300, raw=True)
        events = [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]
        if not events or events[-1].get("phase") != "finished":
            raise RuntimeError(f"nbgitpuller did not finish for {self.name}: {text[-800:]}")
        self.timing.pull = time.perf_counter() - tick

    async def run_lesson(self, notebook: str, timeout: float = 900) -> Timing:
        """Open ``notebook`` (a path in the student's home) as JupyterLab does and run its code cells in order."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        content = await self._call("GET", f"/api/contents/{urllib.parse.quote(notebook)}?content=1",
                                   user_server=True)
        nb = nbformat.from_dict(content["content"])
        session = await self._call("POST", "/api/sessions", {"path": notebook, "name": Path(notebook).name,
                                                             "type": "notebook", "kernel": {"name": "python3"}},
                                   user_server=True)
        kernel = session["kernel"]["id"]
        ws_url = (self.hub.url.replace("http", "ws", 1) + f"/user/{self.name}/api/kernels/{kernel}/channels?"
                  + urllib.parse.urlencode({"session_id": uuid.uuid4().hex}))
        socket_ = await websocket_connect(HTTPRequest(ws_url, headers={"Authorization": f"token {self.token}"},
                                                      ca_certs=str(self.hub.ca)), max_message_size=64 << 20)
        start = time.perf_counter()
        deadline = time.monotonic() + timeout
        try:
            for cell in nb.cells:
                if cell.cell_type != "code" or not cell.source.strip():
                    continue
                msg_id = uuid.uuid4().hex
                socket_.write_message(json.dumps({
                    "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name,
                               "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": cell.source, "silent": False, "store_history": True,
                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
                replied = idle = False
                while not (replied and idle):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise TimeoutError(f"{self.name}: {notebook} did not finish within {timeout:.0f} s")
                    message = await asyncio.wait_for(socket_.read_message(), remaining)
                    if message is None:
                        raise RuntimeError(f"{self.name}: the kernel's websocket closed")
                    if isinstance(message, bytes):  # a binary frame (a widget's buffers): never a reply we wait for
                        continue
                    msg = json.loads(message)
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue
                    kind = msg["header"]["msg_type"]
                    if kind in OUTPUT_TYPES and self.timing.first_output is None:
                        self.timing.first_output = time.perf_counter() - start
                    if kind == "stream":
                        self.timing.outputs.append(msg["content"]["text"])
                    elif kind in ("display_data", "execute_result"):
                        self.timing.outputs.append(msg["content"].get("data", {}).get("text/plain", ""))
                    elif kind == "error":
                        self.timing.errors.append(f"{msg['content']['ename']}: {msg['content']['evalue']}")
                    elif kind == "execute_reply":
                        replied = True
                    elif kind == "status" and msg["content"]["execution_state"] == "idle":
                        idle = True
                self.timing.cells += 1
                if self.timing.errors:
                    break
            self.timing.last_cell = time.perf_counter() - start
        finally:
            socket_.close()
        return self.timing

    async def stop_server(self) -> None:
        await self._call("DELETE", f"/hub/api/users/{self.name}/server")

    # nbgrader's assignment list (the Assignments panel of the student's JupyterLab)
    async def assignments(self, course: str) -> list[dict[str, Any]]:
        """What the Assignments panel lists: ``{"assignment_id", "status" (released, fetched, submitted), ...}``."""
        answer = await self._call("GET", f"/assignments?course_id={course}", user_server=True)
        if not answer.get("success"):
            raise RuntimeError(f"{self.name}: the assignment list failed: {answer}")
        return answer["value"]

    async def assignment_action(self, action: str, course: str, assignment: str) -> Any:
        """The panel's Fetch or Submit button (``action``: fetch, submit)."""
        query = urllib.parse.urlencode({"course_id": course, "assignment_id": assignment})
        answer = await self._call("POST", f"/assignments/{action}?{query}", {}, user_server=True, timeout=120)
        if not answer.get("success"):
            raise RuntimeError(f"{self.name}: {action} {assignment} failed: {answer}")
        return answer["value"]

    async def contents(self, path: str) -> dict[str, Any]:
        return await self._call("GET", f"/api/contents/{urllib.parse.quote(path)}?content=1", user_server=True)

    async def save_notebook(self, path: str, nb: Any) -> None:
        """Save ``nb`` at ``path`` in the home, as JupyterLab's Save does."""
        await self._call("PUT", f"/api/contents/{urllib.parse.quote(path)}",
                         {"type": "notebook", "format": "json", "content": nb}, user_server=True)


class Teacher(Student):
    """A teacher (an account in the teachers group): the same login, then nbgrader's formgrader in their server."""

    async def formgrader(self, method: str, path: str, timeout: float = 600) -> Any:
        """A call of formgrader's API (``/formgrader/api/...``) in the teacher's server."""
        return await self._call(method, f"/formgrader/api/{path}", {} if method == "POST" else None,
                                user_server=True, timeout=timeout)


# ------------------------------------------------------------------------------------------------ memory
class MemoryWatch:
    """Samples, every ``every`` seconds, each student's processes (server and kernels: the processes whose
    environment names the student, as JupyterHub sets ``JUPYTERHUB_USER``) and the machine's used memory."""

    def __init__(self, names: list[str], every: float = 0.25) -> None:
        import psutil

        self.psutil = psutil
        self.names = set(names)
        self.every = every
        self.peak: dict[str, float] = dict.fromkeys(names, 0.0)  # MiB of server + kernels at once
        self.kernel_peak: dict[str, float] = dict.fromkeys(names, 0.0)
        self.cpu: dict[str, float] = dict.fromkeys(names, 0.0)  # CPU seconds of its processes, last seen
        self.machine_before = self._used()
        self.machine_peak = self.machine_before
        self._owners: dict[tuple[int, float], tuple[str, str]] = {}
        self._cpu_seen: dict[int, float] = {}  # a student's process's CPU seconds, last seen
        self._cpu_owner: dict[int, str] = {}
        self._task: asyncio.Task[None] | None = None

    def _used(self) -> float:
        vm = self.psutil.virtual_memory()
        return (vm.total - vm.available) / 2**20

    def _owner(self, process: Any) -> str | None:
        """The student a process belongs to (None: nobody's), read once per program a process runs: by pid and start
        time, as a pid freed by a short-lived process elsewhere on the machine is soon given to a new one (a kernel),
        and by its command line, as a process read between its fork and its exec still has its parent's environment
        (the hub's, no JUPYTERHUB_USER: a student's server seen that early was never counted again)."""
        try:
            key, program = (process.pid, process.create_time()), " ".join(process.cmdline())
            if self._owners.get(key, (None, None))[1] != program:
                self._owners[key] = (process.environ().get("JUPYTERHUB_USER", ""), program)
        except (self.psutil.Error, OSError):
            return None
        return self._owners[key][0] or None

    def sample(self) -> None:
        totals = dict.fromkeys(self.names, 0.0)
        for process in self.psutil.process_iter():
            owner = self._owner(process)
            if owner not in self.names:
                continue
            try:
                rss = process.memory_info().rss / 2**20
                times = process.cpu_times()
                is_kernel = "ipykernel" in " ".join(process.cmdline())
            except (self.psutil.Error, OSError):
                continue
            totals[owner] += rss
            if is_kernel:
                self.kernel_peak[owner] = max(self.kernel_peak[owner], rss)
            self._cpu_seen[process.pid] = times.user + times.system
            self._cpu_owner[process.pid] = owner
        for name, total in totals.items():
            self.peak[name] = max(self.peak[name], total)
        for name in self.names:
            self.cpu[name] = sum(s for pid, s in self._cpu_seen.items() if self._cpu_owner.get(pid) == name)
        self.machine_peak = max(self.machine_peak, self._used())

    async def _loop(self) -> None:
        while True:
            await asyncio.to_thread(self.sample)
            await asyncio.sleep(self.every)

    def __enter__(self) -> "MemoryWatch":
        self._task = asyncio.get_event_loop().create_task(self._loop())
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._task is not None:
            self._task.cancel()
        self.sample()


# ------------------------------------------------------------------------------------------------ a class
@dataclass
class ClassRun:
    """One class's run: every student's timing and memory, and the machine's."""

    lesson: str
    students: list[Timing]
    peak_mib: dict[str, float]
    kernel_peak_mib: dict[str, float]
    cpu_s: dict[str, float]
    machine_before_mib: float
    machine_peak_mib: float
    seconds: float


async def run_class(hub: Hub, names: list[str], repo_url: str, branch: str, lesson: str,
                    timeout: float = 1800) -> ClassRun:
    """Every student at once (an account each, made here if missing): log in, open the nbgitpuller link of
    ``lesson`` (a notebook name in ``notebooks/``), run it top to bottom."""
    for name in names:
        hub.enrol(name)
    students = [Student(hub, name) for name in names]
    folder = repo_url.rstrip("/").split("/")[-1]
    link = puller_link(hub, repo_url, branch, lesson)
    tick = time.perf_counter()
    with MemoryWatch(names) as watch:
        await asyncio.gather(*(s.log_in() for s in students))
        await asyncio.gather(*(s.pull(link) for s in students))
        await asyncio.gather(*(s.run_lesson(f"{folder}/notebooks/{lesson}", timeout=timeout) for s in students))
        watch.sample()
    seconds = time.perf_counter() - tick
    await asyncio.gather(*(s.stop_server() for s in students))
    return ClassRun(lesson, [s.timing for s in students], watch.peak, watch.kernel_peak, watch.cpu,
                    watch.machine_before, watch.machine_peak, seconds)
