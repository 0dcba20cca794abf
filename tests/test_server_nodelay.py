"""tilelab's Jupyter server extension: TCP_NODELAY on kernel websockets, installed with the package."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tilelab import server_nodelay

ROOT = Path(__file__).resolve().parents[1]


class FakeHandler:
    opened: list = []

    def __init__(self):
        self.nodelay = None

    def set_nodelay(self, value):
        self.nodelay = value

    async def open(self, kernel_id):
        FakeHandler.opened.append((kernel_id, self.nodelay))
        return "opened"


class FakeLog:
    def __init__(self):
        self.lines = []

    def info(self, message):
        self.lines.append(message)


def test_patched_handler_sets_nodelay_before_opening():
    class Handler(FakeHandler):
        pass

    assert server_nodelay.patch_kernel_websockets(Handler) is True
    assert server_nodelay.patch_kernel_websockets(Handler) is False  # idempotent: wrapped once
    handler = Handler()
    assert asyncio.run(handler.open("k1")) == "opened"
    assert handler.nodelay is True and FakeHandler.opened[-1] == ("k1", True)


def test_the_real_kernel_websocket_handler_is_patched(monkeypatch):
    from jupyter_server.services.kernels import websocket

    original = websocket.KernelWebsocketHandler.open
    monkeypatch.setattr(websocket.KernelWebsocketHandler, "open", original)
    monkeypatch.delattr(websocket.KernelWebsocketHandler, "_tilelab_nodelay", raising=False)
    monkeypatch.setenv("TILELAB_NODELAY", "1")
    log = FakeLog()
    server_nodelay._load_jupyter_server_extension(type("App", (), {"log": log})())
    assert websocket.KernelWebsocketHandler.open.__wrapped__ is original
    assert any("TCP_NODELAY" in line for line in log.lines)


def test_switched_off_by_the_environment(monkeypatch):
    from jupyter_server.services.kernels import websocket

    original = websocket.KernelWebsocketHandler.open
    monkeypatch.setattr(websocket.KernelWebsocketHandler, "open", original)
    monkeypatch.delattr(websocket.KernelWebsocketHandler, "_tilelab_nodelay", raising=False)
    monkeypatch.setenv("TILELAB_NODELAY", "0")
    server_nodelay._load_jupyter_server_extension(type("App", (), {"log": FakeLog()})())
    assert websocket.KernelWebsocketHandler.open is original


def test_extension_point_and_shipped_config_agree():
    assert server_nodelay._jupyter_server_extension_points() == [{"module": "tilelab.server_nodelay"}]
    shipped = json.loads((ROOT / "jupyter-config/jupyter_server_config.d/tilelab.json").read_text())
    assert shipped == server_nodelay.CONFIG
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"etc/jupyter/jupyter_server_config.d" = ["jupyter-config/jupyter_server_config.d/tilelab.json"]' in pyproject


def test_install_config_writes_the_file(tmp_path):
    path = server_nodelay.install_config(tmp_path)
    assert path == tmp_path / "etc/jupyter/jupyter_server_config.d/tilelab.json"
    assert json.loads(path.read_text()) == server_nodelay.CONFIG


def test_jupyter_server_finds_the_extension():
    """jupyter_server imports the module and finds its extension point and loader."""
    from jupyter_server.extension.manager import ExtensionPackage
    from jupyter_server.extension.utils import get_loader

    package = ExtensionPackage(name="tilelab.server_nodelay")
    assert package.validate()
    assert get_loader(server_nodelay) is server_nodelay._load_jupyter_server_extension


def test_lab_settings_match_the_shipped_overrides_and_turn_the_news_popup_off() -> None:
    """``make lab`` (editable: data-files skipped) writes LAB_SETTINGS; a wheel installs overrides.json: one content."""
    import json
    from pathlib import Path

    shipped = json.loads((Path(__file__).parents[1] / "jupyter-config" / "lab" / "settings" / "overrides.json").read_text())
    assert shipped == server_nodelay.LAB_SETTINGS
    assert shipped["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
