"""A real classroom hub for the tests and benchmarks/bench_classroom.py: classroom/jupyterhub_config.py run by
JupyterHub on 127.0.0.1 (free ports, a temporary state and homes), learners who log in with the shared password
as a browser does (the login form, its xsrf cookie), get a token, start their server through the hub's REST API,
have the course pulled by nbgitpuller and run notebook cells in a kernel through jupyter_server's REST API and
the kernel's websocket (the messages JupyterLab sends)."""

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import requests

ROOT = Path(__file__).resolve().parents[2]
CLASSROOM = ROOT / "classroom"
PASSWORD = "a-shared-workshop-password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proxy_command() -> str | None:
    """configurable-http-proxy: the project's own (classroom/install-proxy) or one on PATH."""
    local = CLASSROOM / "node_modules" / ".bin" / "configurable-http-proxy"
    return str(local) if local.exists() else shutil.which("configurable-http-proxy")


def missing() -> str | None:
    """Why a hub cannot start here, after installing the proxy with the project's script if npm is there."""
    try:
        import jupyterhub  # noqa: F401
        import jupyterhub_idle_culler  # noqa: F401
        import nbgitpuller  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed (pip install -e '.[hub]')"
    if proxy_command() is None and shutil.which("npm"):
        subprocess.run([str(CLASSROOM / "install-proxy")], capture_output=True, timeout=300)
    if proxy_command() is None:
        return "configurable-http-proxy is not installed and classroom/install-proxy could not install it (npm)"
    return None


def course_repository(where: Path) -> Path:
    """A git repository of the checkout's notebooks (as they are now, committed or not), on branch main, for
    nbgitpuller to clone from its path: works in a detached CI checkout and in an sdist alike."""
    repo = where / "course"
    shutil.copytree(ROOT / "notebooks", repo / "notebooks",
                    ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", "my_code", "source"))
    env = {**os.environ, "GIT_AUTHOR_NAME": "course", "GIT_AUTHOR_EMAIL": "course@example.invalid",
           "GIT_COMMITTER_NAME": "course", "GIT_COMMITTER_EMAIL": "course@example.invalid"}
    for command in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "course"]):
        subprocess.run(command, cwd=repo, env=env, check=True, capture_output=True)
    return repo


@dataclass
class Hub:
    url: str
    process: subprocess.Popen
    homes: Path
    log: Path

    def pids(self) -> list[int]:
        import psutil

        hub = psutil.Process(self.process.pid)
        return [hub.pid] + [child.pid for child in hub.children(recursive=True)]


@contextlib.contextmanager
def running_hub(where: Path, **settings: str):
    """JupyterHub with classroom/jupyterhub_config.py, everything under `where`; stopped (servers too) after."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
    env.update(CLASSROOM_PASSWORD=PASSWORD, CLASSROOM_PORT=str(port), CLASSROOM_HUB_PORT=str(free_port()),
               CLASSROOM_PROXY_API_PORT=str(free_port()), CLASSROOM_STATE=str(where / "state"),
               CLASSROOM_HOMES=str(where / "homes"), **settings)
    if os.geteuid() == 0:  # CI runs as root
        env["CLASSROOM_ALLOW_ROOT"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))  # this checkout's course
    log = where / "jupyterhub.log"
    command = [sys.executable, "-m", "jupyterhub", "-f", str(CLASSROOM / "jupyterhub_config.py")]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=where, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{port}", process, where / "homes", log)
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited ({process.returncode}):\n{log.read_text()[-3000:]}")
            with contextlib.suppress(requests.ConnectionError):
                if requests.get(f"{hub.url}/hub/api/", timeout=5).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"JupyterHub did not answer in 90 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield hub
    finally:
        process.send_signal(signal.SIGTERM)  # the hub stops the learners' servers and the proxy
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever of its session is left (its own group only)


@dataclass
class Learner:
    hub: Hub
    name: str
    token: str = ""
    session: requests.Session = field(default_factory=requests.Session)

    @property
    def server(self) -> str:
        return f"{self.hub.url}/user/{self.name}"

    @property
    def home(self) -> Path:
        return self.hub.homes / self.name

    def _api(self, method: str, url: str, **kwargs) -> requests.Response:
        headers = {"Authorization": f"token {self.token}", **kwargs.pop("headers", {})}
        return requests.request(method, url, headers=headers, timeout=kwargs.pop("timeout", 60), **kwargs)

    def log_in(self, password: str = PASSWORD) -> None:
        """The login form as a browser sends it, then a token of the learner's own (with their permissions)."""
        page = self.session.get(f"{self.hub.url}/hub/login", timeout=30)
        xsrf = self.session.cookies.get("_xsrf") or re.search(r'name="_xsrf" value="([^"]+)"', page.text).group(1)
        answer = self.session.post(f"{self.hub.url}/hub/login", data={"username": self.name, "password": password,
                                                                      "_xsrf": xsrf},
                                   allow_redirects=False, timeout=60)
        if answer.status_code != 302:
            raise PermissionError(f"{self.name}: the login answered {answer.status_code}")
        made = self.session.post(f"{self.hub.url}/hub/api/users/{self.name}/tokens", json={"note": "test"},
                                 headers={"X-XSRFToken": self.session.cookies.get("_xsrf") or xsrf}, timeout=30)
        made.raise_for_status()
        self.token = made.json()["token"]

    def start(self, language: str = "en", timeout: float = 240) -> dict:
        answer = self._api("POST", f"{self.hub.url}/hub/api/users/{self.name}/server", json={"language": language})
        if answer.status_code not in (201, 202):
            raise RuntimeError(f"{self.name}: starting the server answered {answer.status_code}: {answer.text}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            model = self._api("GET", f"{self.hub.url}/hub/api/users/{self.name}").json()
            server = model.get("servers", {}).get("", {})
            if server.get("ready"):
                return server
            time.sleep(0.5)
        raise TimeoutError(f"{self.name}: the server was not ready in {timeout} s")

    def pull(self, repo: str, branch: str = "main", targetpath: str = "course") -> list[dict]:
        """nbgitpuller's API (what its page's script calls): the events of the clone or merge, up to the last."""
        query = urlencode({"repo": repo, "branch": branch, "targetpath": targetpath})
        events = []
        with self._api("GET", f"{self.server}/git-pull/api?{query}", stream=True, timeout=300) as answer:
            answer.raise_for_status()
            for line in answer.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    events.append(json.loads(line[5:]))
                    if events[-1].get("phase") in ("finished", "error"):
                        break
        if not events or events[-1].get("phase") != "finished":
            raise RuntimeError(f"{self.name}: nbgitpuller did not finish: {events[-3:]}")
        return events

    def contents(self, path: str) -> dict:
        answer = self._api("GET", f"{self.server}/api/contents/{path}")
        answer.raise_for_status()
        return answer.json()

    def kernel(self, notebook: str) -> "Kernel":
        """A kernel for `notebook` (a session, as JupyterLab opens one: its working directory is the notebook's)."""
        answer = self._api("POST", f"{self.server}/api/sessions",
                           json={"path": notebook, "type": "notebook", "name": Path(notebook).name,
                                 "kernel": {"name": "python3"}})
        answer.raise_for_status()
        return Kernel(self, answer.json()["kernel"]["id"])


class Kernel:
    """A kernel of a learner's server, spoken to over its websocket (Jupyter's messaging protocol, JSON)."""

    def __init__(self, learner: Learner, kernel_id: str) -> None:
        import websocket

        self.learner = learner
        self.id = kernel_id
        url = learner.server.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels"
        for attempt in range(5):  # a kernel just started on a busy machine may not take its socket at once
            try:
                self.socket = websocket.create_connection(url, header=[f"Authorization: token {learner.token}"],
                                                          timeout=600)
                break
            except (websocket.WebSocketException, OSError):
                if attempt == 4:
                    raise
                time.sleep(2)
        self.session = uuid.uuid4().hex

    def run(self, code: str, timeout: float = 600) -> tuple[str, dict | None]:
        """Run `code`; its text (streams, results, displays' text/plain) and its error (None when it raised none)."""
        msg_id = uuid.uuid4().hex
        self.socket.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": self.session,
                       "username": self.learner.name, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        text, error, idle, replied = [], None, False, False
        deadline = time.monotonic() + timeout
        while not (idle and replied):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.learner.name}: no answer in {timeout} s to {code[:80]!r}")
            message = json.loads(self.socket.recv())
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                text.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                text.append(content["data"].get("text/plain", "") + "\n")
            elif kind == "error":
                error = content
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
                if content["status"] == "error" and error is None:
                    error = content
        return "".join(text), error

    def close(self) -> None:
        self.socket.close()
        with contextlib.suppress(requests.RequestException):
            self.learner._api("DELETE", f"{self.learner.server}/api/kernels/{self.id}")


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text())["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
