# A JupyterHub for a class taking the tilelab course: a sample configuration (docs/hub.md says where each figure
# comes from). One machine, every student in a systemd unit of their own (jupyterhub-systemdspawner, as The
# Littlest JupyterHub does it), the course pulled into each home by an nbgitpuller link, the caches built once by
# the administrator and shared read-only, per-student memory and CPU limits, idle kernels and servers culled.
#
#   pip install jupyterhub jupyterhub-systemdspawner jupyterhub-idle-culler nbgitpuller tilelab-from-your-copy
#   npm install -g configurable-http-proxy
#   TILELAB_CACHE_DIR=/srv/tilelab/cache NUMBA_CACHE_DIR=/srv/tilelab/numba python -m tilelab.warm   # once, as root
#   jupyterhub -f jupyterhub_config.py
#
# Then give each lesson's nbgitpuller link (python -m tilelab.teach links --repo OWNER/NAME --hub HUB). The test
# tests/test_hub.py and benchmarks/bench_hub.py load this very file, changing only what a test machine needs (a
# local process per student, a throw-away login, free ports).
import os
import sys

c = get_config()  # noqa: F821  (JupyterHub defines it while it reads this file)

#: made by `python -m tilelab.warm` with TILELAB_CACHE_DIR=$SHARED/cache and NUMBA_CACHE_DIR=$SHARED/numba, read-only
#: for students (chmod -R a+rX,go-w)
SHARED = os.environ.get("TILELAB_HUB_SHARED", "/srv/tilelab")

# ---------------------------------------------------------------------------------------------------- students
# Log in with the machine's own accounts (PAM, the default); use your school's authenticator (OAuth, LDAP) instead
# where it has one. Only members of this group may log in; list the teachers as admins.
c.PAMAuthenticator.allowed_groups = {"students"}
c.Authenticator.admin_users = set()
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

# The caches, shared: pattern databases are read in place; numba's compiled code (which numba reads only from a
# folder it can also write) is copied into each student's own cache folder when their server starts, newer files
# only (cp -u), so nobody compiles in class (35-50 CPU seconds each otherwise).
c.Spawner.environment = {"TILELAB_CACHE_DIR": f"{SHARED}/cache"}
_SEED = ('export NUMBA_CACHE_DIR="$HOME/.cache/tilelab-numba"; mkdir -p "$NUMBA_CACHE_DIR" && '
         f'{{ [ ! -d "{SHARED}/numba" ] || cp -Ru "{SHARED}/numba/." "$NUMBA_CACHE_DIR/"; }}; exec "$0" "$@"')
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
