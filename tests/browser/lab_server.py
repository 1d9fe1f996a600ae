"""JupyterLab for browser tests: started on 127.0.0.1 on copies of the notebooks, outputs cleared,
with settings that suit a headless run (kernel starts by itself, no news, every cell rendered),
and optionally more settings of its own (DARK_THEME: JupyterLab Dark)."""

import json
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"autoStartDefaultKernel": True,
                                                                   "windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                        "checkForUpdates": False},
}
DARK_THEME = {"@jupyterlab/apputils-extension/themes.jupyterlab-settings": {"theme": "JupyterLab Dark"}}


def copy_cleared(source: Path, folder: Path, first_cell: str | None = None, name: str | None = None) -> Path:
    """A copy of a notebook with every output cleared (what a learner's Clear Outputs gives), with `first_cell`
    (code) put before all others if given, in a folder of its language next to what a learner has there
    (lesson_tools.py, which notebooks 4-12 import): folder/en/name or folder/ru/name."""
    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    if first_cell:
        nb.cells.insert(0, nbformat.v4.new_code_cell(first_cell))
    home = folder / source.parent.name
    home.mkdir(parents=True, exist_ok=True)
    for beside in source.parent.glob("*.py"):
        shutil.copyfile(beside, home / beside.name)
    target = home / (name or source.name)
    nbformat.write(nb, target)
    return target


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def jupyterlab(workdir: Path, env: dict[str, str], extra_settings: dict | None = None):
    """Yield the base URL (with token) of a JupyterLab serving `workdir`, with its own settings folder."""
    settings = workdir / ".settings"
    for name, values in {**SETTINGS, **(extra_settings or {})}.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    token, port = secrets.token_hex(16), _free_port()
    environment = {**env, "JUPYTERLAB_SETTINGS_DIR": str(settings),
                   "JUPYTERLAB_WORKSPACES_DIR": str(workdir / ".workspaces")}
    log = open(workdir / "jupyterlab.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
         f"--port={port}", f"--ServerApp.token={token}", f"--ServerApp.root_dir={workdir}",
         "--ServerApp.disable_check_xsrf=True"],
        env=environment, stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start: " + (workdir / "jupyterlab.log").read_text()[-2000:])
                time.sleep(0.3)
        yield url, token
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
