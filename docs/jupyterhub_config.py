# A JupyterHub for a class taking the tilelab course: a sample configuration (docs/hub.md says where each figure
# comes from and what each setting protects). One machine, every student in a systemd unit of their own
# (jupyterhub-systemdspawner, as The Littlest JupyterHub does it) with a private /tmp, no way to gain privileges and
# a read-only system; homes readable by their owner alone; HTTPS only; the course pulled into each home by an
# nbgitpuller link; graded with nbgrader (students fetch and submit from JupyterLab, teachers grade in formgrader);
# the caches built once by the administrator and shared read-only; per-student memory and CPU limits; idle kernels
# and servers culled.
#
#   pip install "tilelab[lab,hub] @ /path/to/your/copy"     # jupyterhub, systemdspawner, nbgrader, nbgitpuller, ...
#   npm install -g configurable-http-proxy
#   groupadd students; groupadd teachers                    # then usermod -aG students ada / -aG teachers tom
#   TILELAB_CACHE_DIR=/srv/tilelab/cache NUMBA_CACHE_DIR=/srv/tilelab/numba python -m tilelab.warm   # once, as root
#   jupyterhub -f jupyterhub_config.py                      # as root (systemd starts the students' units)
#
# Then give each lesson's nbgitpuller link (python -m tilelab.teach links --repo OWNER/NAME --hub HUB). The test
# tests/test_hub.py and benchmarks/bench_hub.py load this very file, changing only what a test machine needs
# (a local process per student instead of a systemd unit, a self-signed certificate, free ports).
import grp
import json
import os
import pwd
import stat
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub defines it while it reads this file)

#: the public name of the hub, as in the links `teach links --hub` prints
HUB_NAME = "hub.school.example"
#: made by `python -m tilelab.warm` with TILELAB_CACHE_DIR=$SHARED/cache and NUMBA_CACHE_DIR=$SHARED/numba; this file
#: makes it root's and read-only for everybody else each time the hub starts (below)
SHARED = Path(os.environ.get("TILELAB_HUB_SHARED", "/srv/tilelab"))
#: nbgrader's exchange: teachers release into it, students fetch from it and submit into it
EXCHANGE = Path(os.environ.get("TILELAB_HUB_EXCHANGE", "/srv/nbgrader/exchange"))
#: the course id of `python -m tilelab.teach nbgrader` (its nbgrader_config.py)
COURSE_ID = "tilelab"
#: Unix groups: who may log in as a student, and who teaches (teachers are the hub's admins and grade)
STUDENTS, TEACHERS = "students", "teachers"
#: where each teacher keeps the course folder made by `python -m tilelab.teach nbgrader ~/course`
TEACHER_COURSE = "~/course"

# ---------------------------------------------------------------------------------------------------- HTTPS
# Students type their password into the login page: the hub speaks HTTPS only, on port 443 of every interface, with
# the school's certificate (or one from Let's Encrypt: certbot certonly --standalone -d HUB_NAME). Nothing listens
# on port 80, so a plain http:// address is refused; no password ever crosses the network unencrypted. The hub's
# own API and the students' servers listen on 127.0.0.1 only, behind the proxy. (Behind a reverse proxy that holds
# the certificate instead: docs/hub.md, "HTTPS".)
c.JupyterHub.bind_url = "https://:443"
c.JupyterHub.ssl_cert = f"/etc/letsencrypt/live/{HUB_NAME}/fullchain.pem"
c.JupyterHub.ssl_key = f"/etc/letsencrypt/live/{HUB_NAME}/privkey.pem"
c.JupyterHub.hub_ip = "127.0.0.1"
c.Spawner.ip = "127.0.0.1"
# browsers that once reached the hub over HTTPS never try plain HTTP again for a year
c.JupyterHub.tornado_settings = {"headers": {"Strict-Transport-Security": "max-age=31536000"}}

# ---------------------------------------------------------------------------------------------------- logins
# The machine's own accounts (PAM, the default); use your school's authenticator (OAuth, LDAP) instead where it has
# one. Members of either group may log in; teachers are the hub's admins (they see the admin page, start and stop
# students' servers) and their servers run nbgrader's formgrader (below).
c.PAMAuthenticator.allowed_groups = {STUDENTS, TEACHERS}
c.PAMAuthenticator.admin_groups = {TEACHERS}
c.Spawner.default_url = "/lab"

# ---------------------------------------------------------------------------------------------------- servers
c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
# Measured (docs/hub.md): a lesson's kernel peaks at 184-400 MiB run top to bottom, a student's JupyterLab server
# holds about 100 MiB more, and a student who leaves the previous lesson's kernel running holds both. The limit
# lets one lesson run beside one idle kernel; the guarantee is what the machine is sized for.
c.Spawner.mem_limit = "1G"
c.Spawner.mem_guarantee = "512M"
# A kernel runs on one core (no threads); a limit of one core keeps one student's Run All from slowing the others.
c.Spawner.cpu_limit = 1.0
c.Spawner.cpu_guarantee = 0.25
# Each student's unit: its own /tmp and /dev (PrivateTmp, PrivateDevices), no sudo or setuid programs
# (NoNewPrivileges), the whole file system read-only except the student's home and nbgrader's exchange. Disk space is
# the file system's business: docs/hub.md, "Disk quotas".
c.SystemdSpawner.isolate_tmp = True
c.SystemdSpawner.isolate_devices = True
c.SystemdSpawner.disable_user_sudo = True
c.SystemdSpawner.readonly_paths = ["/"]
c.SystemdSpawner.readwrite_paths = ["/home/{USERNAME}", str(EXCHANGE)]

# The caches, shared: pattern databases are read in place; numba's compiled code (which numba reads only from a
# folder it can also write) is copied into each student's own cache folder when their server starts, newer files
# only (cp -u), so nobody compiles in class (35-50 CPU seconds each otherwise).
c.Spawner.environment = {"TILELAB_CACHE_DIR": f"{SHARED}/cache"}
# (No braces in it: SystemdSpawner fills {USERNAME} into the command with str.format.)
_SEED = ('export NUMBA_CACHE_DIR="$HOME/.cache/tilelab-numba"; mkdir -p "$NUMBA_CACHE_DIR"; '
         f'if [ -d "{SHARED}/numba" ]; then cp -Ru "{SHARED}/numba/." "$NUMBA_CACHE_DIR/"; fi; exec "$0" "$@"')
c.Spawner.cmd = ["/bin/sh", "-c", _SEED, "jupyterhub-singleuser"]

# A kernel nobody has used for 30 minutes is shut down (a forgotten lesson-02 kernel holds 400 MiB), also while its
# tab is still open; its notebook stays, and Run All starts it again.
c.Spawner.args = [
    "--MappingKernelManager.cull_idle_timeout=1800",
    "--MappingKernelManager.cull_interval=300",
    "--MappingKernelManager.cull_connected=True",
]

# A server idle for an hour is stopped (the student's files stay in their home).
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=3600", "--cull-every=300"],
}]


# ---------------------------------------------------------------------------------------------------- set-up
# Done by the hub itself each time it starts (as root), so that none of it rests on a command an administrator
# might forget: the shared folder becomes root's and read-only for everybody else, nbgrader's settings for students
# and for teachers are written into it, and the exchange gets the permissions nbgrader needs.
def _read_only_for_others(folder: Path) -> None:
    """``folder`` and everything in it owned by root, writable by root alone (0755 folders, files a+r, go-w)."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        os.chown(path, 0, 0)
        mode = stat.S_IMODE(path.stat().st_mode)
        os.chmod(path, (mode | (0o755 if path.is_dir() else 0o444)) & ~0o022)


def _jupyter_settings(folder: Path, *, teacher: bool) -> None:
    """The Jupyter settings folder of a student's or a teacher's server (put first on its JUPYTER_CONFIG_PATH):
    nbgrader's assignment list for everybody, its formgrader and Create Assignment panel for teachers only."""
    (folder / "labconfig").mkdir(parents=True, exist_ok=True)
    extensions = {f"nbgrader.server_extensions.{name}": True
                  for name in ("assignment_list", "course_list", "validate_assignment")}
    extensions["nbgrader.server_extensions.formgrader"] = teacher
    (folder / "jupyter_server_config.json").write_text(
        json.dumps({"ServerApp": {"jpserver_extensions": extensions}}, indent=1), encoding="utf-8")
    panels = {"@jupyter/nbgrader": False, "@jupyter/nbgrader:formgrader": not teacher,
              "@jupyter/nbgrader:create-assignment": not teacher}
    (folder / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": panels, "lockedExtensions": {"@jupyter/nbgrader": False}}, indent=1),
        encoding="utf-8")
    lines = ["c = get_config()  # noqa: F821", f"c.CourseDirectory.course_id = {COURSE_ID!r}",
             f"c.Exchange.root = {str(EXCHANGE)!r}"]
    if teacher:  # formgrader, collect and autograde work in the teacher's course folder
        lines += ["import os", f"c.CourseDirectory.root = os.path.expanduser({TEACHER_COURSE!r})"]
    else:  # a student submits under the name they logged in with (with PAM: their Unix account)
        lines += ["import os", "c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']"]
    (folder / "nbgrader_config.py").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _set_up() -> None:
    try:
        teachers = grp.getgrnam(TEACHERS).gr_gid
    except KeyError:
        raise SystemExit(f"jupyterhub_config.py: there is no Unix group {TEACHERS!r}: create it "
                         f"(groupadd {TEACHERS}) and add the teachers to it (usermod -aG {TEACHERS} NAME)") from None
    SHARED.mkdir(parents=True, exist_ok=True)
    for role in ("student", "teacher"):
        _jupyter_settings(SHARED / "jupyter" / role, teacher=role == "teacher")
    _read_only_for_others(SHARED)
    # The exchange: anyone may write into its root (nbgrader's rule), the sticky bit keeps each entry its owner's;
    # the course's own folder belongs to the teachers' group, so no student can make or replace it. nbgrader makes
    # outbound/ (0755: students read) and inbound/ (0733: students drop submissions they cannot list) in it.
    EXCHANGE.mkdir(parents=True, exist_ok=True)
    os.chown(EXCHANGE, 0, 0)
    os.chmod(EXCHANGE, 0o1777)
    course = EXCHANGE / COURSE_ID
    course.mkdir(exist_ok=True)
    os.chown(course, 0, teachers)
    os.chmod(course, 0o2775)


_set_up()


def _before_each_server(spawner) -> None:
    """Before a server starts: its owner's home made readable by them alone (homes are created 0755 on many
    systems), and the server given the student's or the teacher's Jupyter settings."""
    name = spawner.user.name
    try:
        account = pwd.getpwnam(name)
    except KeyError:
        raise RuntimeError(f"{name} has no Unix account on the hub: create it (useradd -m {name})") from None
    home = Path(account.pw_dir)
    if home.stat().st_uid != account.pw_uid:
        raise RuntimeError(f"{home} is not {name}'s (chown {name}: {home})")
    os.chmod(home, 0o700)
    role = "teacher" if spawner.user.admin else "student"
    spawner.environment = {**spawner.environment, "JUPYTER_CONFIG_PATH": str(SHARED / "jupyter" / role)}


c.Spawner.pre_spawn_hook = _before_each_server
