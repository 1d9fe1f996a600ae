"""A real classroom hub for the tests and benchmarks/bench_classroom.py: classroom/jupyterhub_config.py run by
JupyterHub on 127.0.0.1 (free ports, a temporary state and homes), learners who log in with the shared password
as a browser does (the login form, its xsrf cookie), get a token, start their server through the hub's REST API,
have the course pulled by nbgitpuller and run notebook cells in a kernel through jupyter_server's REST API and
the kernel's websocket (the messages JupyterLab sends).

Run as root (CI), the hub gives each learner an OS user of their own, as in a real class: their homes are then in a
temporary folder every user may pass through (pytest's own are root's only), their servers run with a Python every
user can run (learners_python(): the tests' own, or a virtual environment of the course built once in
classroom/learners-python when the tests' is under a closed home such as /root/.pyenv), the course is served to
them by `git daemon` on 127.0.0.1 (git refuses a local clone of a repository another user owns), and the accounts
the hub made are removed (userdel --remove) when it stops, whatever happened."""

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import requests

ROOT = Path(__file__).resolve().parents[2]
CLASSROOM = ROOT / "classroom"
PASSWORD = "a-shared-workshop-password"
HOMES_PREFIX = "classroom-homes-"
EXERCISE_STUB = ("# your code here", "# ваш код", "# Your starting point:", "# Отправная точка")
"""How notebook 3's exercise cell begins, in either language: a placeholder, or (today) a copy of the loop to change;
the tests and the benchmark replace it with the reference solution, as a learner who solved it."""


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
    if as_root():
        try:
            learners_python()
        except RuntimeError as error:
            return str(error)
    return None


def as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _runs_as_nobody(python: str, code: str = "import sys; assert sys.version_info >= (3, 11)") -> bool:
    import pwd

    nobody = pwd.getpwnam("nobody")
    try:
        return subprocess.run([python, "-c", code], user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[], cwd="/",
                              env={"PATH": "/usr/bin:/bin", "HOME": "/"}, capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def learners_python() -> str:
    """A Python with the course's hub extra that an ordinary user can run, for the learners' servers of a hub run as
    root: the tests' own when it is one, else a virtual environment built (once per pyproject.toml) with a system
    Python in classroom/learners-python. RuntimeError when neither can be had."""
    from course_agent.classroom_users import python_problem

    if python_problem(sys.executable, os.environ) is None:
        return sys.executable
    if _closed(ROOT):
        raise RuntimeError(f"the learners' OS users cannot read this checkout ({ROOT}): {_closed(ROOT)} is closed")
    venv = CLASSROOM / "learners-python"
    python = venv / "bin" / "python"
    key = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    CLASSROOM.mkdir(exist_ok=True)
    with open(CLASSROOM / ".learners-python.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test workers may want it at once
        stamp = venv / "built-from"
        if stamp.exists() and stamp.read_text() == key and python_problem(str(python), os.environ) is None:
            return str(python)
        bases = [path for path in ("/usr/bin/python3", "/usr/local/bin/python3", shutil.which("python3"))
                 if path and os.path.exists(path) and _runs_as_nobody(path)]
        if not bases:
            raise RuntimeError("no Python 3.11+ that an ordinary user can run for the learners' servers "
                               "(the tests' own is under a closed home); install python3 and python3-venv")
        shutil.rmtree(venv, ignore_errors=True)
        for command in ([bases[0], "-m", "venv", str(venv)],
                        [str(python), "-m", "pip", "install", "-q", f"{ROOT}[hub]"]):
            done = subprocess.run(command, capture_output=True, text=True, timeout=1200, umask=0o022)  # readable
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()[-2000:]}")
        venv.chmod(0o755)
        problem = python_problem(str(python), os.environ)
        if problem is not None:
            raise RuntimeError(f"the learners' Python {python} does not work for an ordinary user: {problem}")
        stamp.write_text(key)
        return str(python)


def _closed(path: Path) -> Path | None:
    from course_agent.classroom_users import unreachable

    return unreachable(path)


@contextlib.contextmanager
def served_repository(repo: Path):
    """`repo` over git's own protocol on 127.0.0.1 (`git daemon`, run as whoever runs the tests), its URL yielded:
    nbgitpuller clones it as the learner, whom git would not let clone a local repository that is not theirs."""
    port = free_port()
    daemon = subprocess.Popen(["git", "daemon", "--export-all", "--reuseaddr", f"--base-path={repo.parent}",
                               "--listen=127.0.0.1", f"--port={port}", str(repo)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"git daemon did not start (exit {daemon.poll()})")
            time.sleep(0.1)
        yield f"git://127.0.0.1:{port}/{repo.name}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(daemon.pid, signal.SIGTERM)  # the daemon and the upload-packs it forked: its own group
        daemon.wait(30)


def remove_learner_accounts(homes: Path) -> list[str]:
    """The OS users a hub made for learners whose homes are in `homes` (and the test's own leftovers: accounts of
    classroom-homes-* folders that are gone), removed with their homes: the names removed."""
    from course_agent.classroom_users import class_accounts, remove_account

    removed = []
    for entry in class_accounts():
        home = Path(entry.pw_dir)
        ours = home.parent == homes
        left_over = home.parent.parent.name.startswith(HOMES_PREFIX) and not home.parent.exists()  # <prefix>*/homes/<name>
        if ours or left_over:
            remove_account(entry)
            removed.append(entry.pw_name)
    return removed


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
    os_users: bool = False

    def pids(self) -> list[int]:
        import psutil

        hub = psutil.Process(self.process.pid)
        return [hub.pid] + [child.pid for child in hub.children(recursive=True)]


@contextlib.contextmanager
def running_hub(where: Path, **settings: str):
    """JupyterHub with classroom/jupyterhub_config.py, everything under `where`; stopped (servers too) after."""
    port = free_port()
    os_users = as_root()  # the hub's own choice too: as root, each learner an OS user of their own
    homes = where / "homes"
    if os_users:  # a folder every user may pass through (pytest's are root's only): the learners reach their homes
        homes = Path(tempfile.mkdtemp(prefix=HOMES_PREFIX)) / "homes"
        homes.parent.chmod(0o755)
        remove_learner_accounts(homes)  # a killed run's accounts, whose homes are gone
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
    env.update(CLASSROOM_PASSWORD=PASSWORD, CLASSROOM_PORT=str(port), CLASSROOM_HUB_PORT=str(free_port()),
               CLASSROOM_PROXY_API_PORT=str(free_port()), CLASSROOM_STATE=str(where / "state"),
               CLASSROOM_HOMES=str(homes), **settings)
    if os_users:
        env["CLASSROOM_PYTHON"] = learners_python()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))  # this checkout's course
    log = where / "jupyterhub.log"
    command = [sys.executable, "-m", "jupyterhub", "-f", str(CLASSROOM / "jupyterhub_config.py")]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=where, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{port}", process, homes, log, os_users)
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
        if os_users:  # the accounts it made, whatever happened (what still runs as them is stopped first)
            remove_learner_accounts(homes)
            shutil.rmtree(homes.parent, ignore_errors=True)


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

    def stop(self, timeout: float = 120) -> None:
        """The learner's server stopped through the hub's REST API (as the hub's page's Stop My Server button)."""
        answer = self._api("DELETE", f"{self.hub.url}/hub/api/users/{self.name}/server")
        if answer.status_code not in (202, 204):
            raise RuntimeError(f"{self.name}: stopping the server answered {answer.status_code}: {answer.text}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "" not in self._api("GET", f"{self.hub.url}/hub/api/users/{self.name}").json().get("servers", {}):
                return
            time.sleep(0.5)
        raise TimeoutError(f"{self.name}: the server did not stop in {timeout} s")

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
