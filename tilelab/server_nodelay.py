"""A tiny Jupyter server extension: kernel websockets send each message at once (TCP_NODELAY).

Stock ``jupyter_server`` leaves Nagle's algorithm on for the websockets between the browser and
the kernel. Small messages (a key press, a batch of canvas commands) then wait for the previous
packet's acknowledgement, which a delayed ACK holds back ~40 ms: every key a student presses on a
board is answered 40 ms late. This extension turns ``TCP_NODELAY`` on for kernel websockets only.

Installing tilelab enables it: ``etc/jupyter/jupyter_server_config.d/tilelab.json`` (shipped as
package data-files) adds ``tilelab.server_nodelay`` to ``ServerApp.jpserver_extensions``, so
any JupyterLab started where tilelab is installed gets it. Editable installs (``pip install -e .``:
``make lab``, Binder's ``postBuild``) skip data-files, so they run
``python -m tilelab.server_nodelay --install``, which writes the same file into the environment.
Check with ``jupyter server extension list``; switch it off with ``TILELAB_NODELAY=0`` in the server's
environment (the latency benchmark does, to measure the difference).

>>> enabled({"TILELAB_NODELAY": "0"}), enabled({})
(False, True)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping

__all__ = ["CONFIG", "LAB_SETTINGS", "NBCONVERT_CONFIG", "enabled", "install_config", "install_lab_settings",
           "install_nbconvert_config", "patch_kernel_websockets"]

#: What ``etc/jupyter/jupyter_server_config.d/tilelab.json`` says.
CONFIG = {"ServerApp": {"jpserver_extensions": {"tilelab.server_nodelay": True}}}

_FLAG = "_tilelab_nodelay"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tilelab.server_nodelay"}]


def enabled(environ: Mapping[str, str] = os.environ) -> bool:
    """True unless ``TILELAB_NODELAY`` is set to 0/false/no/off."""
    return environ.get("TILELAB_NODELAY", "1").strip().lower() not in {"0", "false", "no", "off"}


def patch_kernel_websockets(handler_class: Any = None) -> bool:
    """Make ``handler_class`` (default: jupyter_server's ``KernelWebsocketHandler``) set TCP_NODELAY
    when a websocket opens. Returns False if it was already patched (idempotent)."""
    if handler_class is None:
        from jupyter_server.services.kernels.websocket import KernelWebsocketHandler as handler_class
    if getattr(handler_class, _FLAG, False):
        return False
    original = handler_class.open

    async def open_nodelay(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        result = original(self, *args, **kwargs)
        if hasattr(result, "__await__"):
            result = await result
        return result

    open_nodelay.__wrapped__ = original  # type: ignore[attr-defined]
    handler_class.open = open_nodelay
    setattr(handler_class, _FLAG, True)
    return True


def _load_jupyter_server_extension(serverapp: Any) -> None:
    if not enabled():
        serverapp.log.info("tilelab: TCP_NODELAY for kernel websockets is off (TILELAB_NODELAY=0)")
        return
    patch_kernel_websockets()
    serverapp.log.info("tilelab: kernel websockets send at once (TCP_NODELAY)")


def install_config(prefix: str | os.PathLike = sys.prefix) -> Path:
    """Write ``etc/jupyter/jupyter_server_config.d/tilelab.json`` under ``prefix`` (the environment).

    >>> import tempfile, json
    >>> path = install_config(tempfile.mkdtemp())
    >>> json.loads(path.read_text()) == CONFIG, path.parent.name
    (True, 'jupyter_server_config.d')
    """
    path = Path(prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "tilelab.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(CONFIG, indent=2) + "\n")
    return path


#: What ``share/jupyter/lab/settings/overrides.json`` gets from tilelab (the same as
#: ``jupyter-config/lab/settings/overrides.json``, which a wheel installs): JupyterLab saves the widgets' state with a
#: notebook, so a lesson reopened after its board cell ran again shows the board as saved, not "model not found";
#: and JupyterLab's "get notified about Jupyter news?" pop-up and update check stay off (they covered the first
#: lesson, and a classroom has no use for them).
LAB_SETTINGS = {
    "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def install_lab_settings(prefix: str | os.PathLike = sys.prefix) -> Path:
    """Merge :data:`LAB_SETTINGS` into ``share/jupyter/lab/settings/overrides.json`` under ``prefix`` (other
    settings there are kept).

    >>> import tempfile, json
    >>> path = install_lab_settings(tempfile.mkdtemp())
    >>> json.loads(path.read_text()) == LAB_SETTINGS, path.name
    (True, 'overrides.json')
    """
    return _merge_json(Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json", LAB_SETTINGS)


#: What ``etc/jupyter/jupyter_nbconvert_config.json`` gets from tilelab: a notebook executed by nbconvert (a lesson
#: stored with its outputs) keeps no widget state; with :data:`LAB_SETTINGS` on, JupyterLab would load that state
#: on opening the lesson and mark it modified, and the lesson's stored outputs show each board's picture anyway.
NBCONVERT_CONFIG = {"ExecutePreprocessor": {"store_widget_state": False}}


def install_nbconvert_config(prefix: str | os.PathLike = sys.prefix) -> Path:
    """Merge :data:`NBCONVERT_CONFIG` into ``etc/jupyter/jupyter_nbconvert_config.json`` under ``prefix``.

    >>> import tempfile, json
    >>> path = install_nbconvert_config(tempfile.mkdtemp())
    >>> json.loads(path.read_text()) == NBCONVERT_CONFIG
    True
    """
    return _merge_json(Path(prefix) / "etc" / "jupyter" / "jupyter_nbconvert_config.json", NBCONVERT_CONFIG)


def _merge_json(path: Path, values: dict[str, dict[str, Any]]) -> Path:
    """Merge ``values`` (section -> settings) into the JSON file at ``path`` (other settings there are kept)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        current = json.loads(path.read_text())
    except (OSError, ValueError):
        current = {}
    if not isinstance(current, dict):
        current = {}
    for section, settings in values.items():
        current[section] = {**current.get(section, {}), **settings}
    path.write_text(json.dumps(current, indent=2) + "\n")
    return path


if __name__ == "__main__":  # python -m tilelab.server_nodelay --install
    if sys.argv[1:] != ["--install"]:
        sys.exit("usage: python -m tilelab.server_nodelay --install   (enables the extension in this environment)")
    print(f"tilelab: wrote {install_config()}; restart JupyterLab to send kernel messages at once")
    print(f"tilelab: wrote {install_lab_settings()}; JupyterLab saves the boards' state with a notebook, no news pop-up")
    print(f"tilelab: wrote {install_nbconvert_config()}; notebooks executed by nbconvert keep no widget state")
