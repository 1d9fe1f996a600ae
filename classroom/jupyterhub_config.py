# JupyterHub for a class on one machine: `CLASSROOM_PASSWORD=... classroom/start` (docs/classroom.md).
#
# What it sets up, and why:
# - JupyterHub from PyPI (`pip install -e ".[hub]"`), its proxy, configurable-http-proxy, from npm in
#   classroom/node_modules (classroom/install-proxy, which classroom/start runs on first use);
# - every address on 127.0.0.1: the proxy (the learners' door), its API, the hub, each learner's server;
#   put an HTTPS reverse proxy (or TLJH, docs/classroom.md) in front to open it to a room;
# - a workshop login: jupyterhub's SharedPasswordAuthenticator, one password for the session (CLASSROOM_PASSWORD,
#   8+ characters); any name logs in with it, and a name is a learner;
# - SimpleLocalProcessSpawner: each learner's server is a process of the hub's own OS user, with a home of its
#   own (CLASSROOM_HOMES/<name>). LocalProcessSpawner would run each learner as an OS user of that name, which
#   needs the hub to run as root and the users to exist: a workshop's made-up names do not. So the learners share
#   one OS user and a learner's terminal can read another's home: fine for a workshop on a machine of its own,
#   not for graded work or strangers' data (TLJH gives each learner an OS user of their own);
# - memory and CPU limits: set (CLASSROOM_MEM_LIMIT, CLASSROOM_CPU_LIMIT) but NOT enforced by a local spawner:
#   it only passes them to the server as MEM_LIMIT / CPU_LIMIT (jupyter-resource-usage shows them). TLJH's
#   SystemdSpawner and Zero to JupyterHub's KubeSpawner enforce the same two settings;
# - the idle culler (jupyterhub-idle-culler, a hub service): a server idle for CLASSROOM_CULL_TIMEOUT seconds stops;
# - JupyterLab on the learner's language: the learner picks English or Russian when their server starts (the
#   session's CLASSROOM_LANGUAGE is the default); their kernels get COURSE_AGENT_LANGUAGE and JupyterLab opens
#   notebooks/<language>/01_single_call.ipynb; with CLASSROOM_REPO set, the hub's default page is nbgitpuller's
#   pull of the course (course_agent.classroom), so logging in is enough to get the course;
# - each kernel starts its own offline sandbox and demo GitLab with a random key and token of their own
#   (course_sandbox), on a free port: learners' states never mix and no two ports clash; TMPDIR is in the
#   learner's home, so nothing of a learner is written outside it.
#
# The variables (all optional but the password):
#   CLASSROOM_PASSWORD        the session's shared password (required)
#   CLASSROOM_ADMINS          comma-separated instructor names; they log in with CLASSROOM_ADMIN_PASSWORD (32+ chars)
#   CLASSROOM_PORT            the proxy's port, the address learners open (8000)
#   CLASSROOM_HUB_PORT        the hub's own port (8081), CLASSROOM_PROXY_API_PORT the proxy's API (8001)
#   CLASSROOM_HOMES           where the learners' homes are (classroom/homes)
#   CLASSROOM_STATE           the hub's database, cookie secret and pid file (classroom/state)
#   CLASSROOM_LANGUAGE        en or ru: the language the start form proposes (en)
#   CLASSROOM_REPO            the course's git repository, pulled into each home at login (none: no pull)
#   CLASSROOM_BRANCH          its branch (main)
#   CLASSROOM_MEM_LIMIT       per learner, e.g. 512M (see above: advisory here); CLASSROOM_CPU_LIMIT e.g. 1
#   CLASSROOM_CULL_TIMEOUT    seconds of idleness before a server is stopped (3600)
#   CLASSROOM_ALLOW_ROOT      1 to let a hub run as root start servers (as root: each learner is root then; run
#                             the hub as an ordinary user instead wherever you can)

import os
import sys
from pathlib import Path

from course_agent.classroom import notebook_path, pull_query
from course_agent.settings import LANGUAGES

c = get_config()  # noqa: F821 (JupyterHub's config loader defines it)

HERE = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"


def _setting(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


PASSWORD = _setting("CLASSROOM_PASSWORD")
if not PASSWORD:
    sys.exit("classroom: set CLASSROOM_PASSWORD, the session's shared password (8 characters or more)")
SESSION_LANGUAGE = _setting("CLASSROOM_LANGUAGE", "en")
if SESSION_LANGUAGE not in LANGUAGES:
    sys.exit(f"classroom: CLASSROOM_LANGUAGE must be one of {', '.join(LANGUAGES)}, got {SESSION_LANGUAGE!r}")
STATE = Path(_setting("CLASSROOM_STATE") or HERE / "state").resolve()
HOMES = Path(_setting("CLASSROOM_HOMES") or HERE / "homes").resolve()
REPO = _setting("CLASSROOM_REPO")
BRANCH = _setting("CLASSROOM_BRANCH", "main")
STATE.mkdir(parents=True, exist_ok=True)
HOMES.mkdir(parents=True, exist_ok=True)

# ---------------------------------------------------------------- addresses: this machine only
c.JupyterHub.ip = LOOPBACK
c.JupyterHub.port = int(_setting("CLASSROOM_PORT", "8000"))
c.JupyterHub.hub_ip = LOOPBACK
c.JupyterHub.hub_port = int(_setting("CLASSROOM_HUB_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://{LOOPBACK}:{int(_setting('CLASSROOM_PROXY_API_PORT', '8001'))}"
_proxy = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if _proxy.exists():  # else configurable-http-proxy from PATH, JupyterHub's default
    c.ConfigurableHTTPProxy.command = [str(_proxy)]
c.Spawner.ip = LOOPBACK

# ---------------------------------------------------------------- the hub's own files
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# ---------------------------------------------------------------- login: one password for the session
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = PASSWORD
_admins = {name.strip() for name in _setting("CLASSROOM_ADMINS").split(",") if name.strip()}
if _admins:
    c.Authenticator.admin_users = _admins
    c.SharedPasswordAuthenticator.admin_password = _setting("CLASSROOM_ADMIN_PASSWORD")
c.Authenticator.allow_all = True  # a workshop: whoever has the password

# ---------------------------------------------------------------- each learner's server
c.JupyterHub.spawner_class = "simple"  # SimpleLocalProcessSpawner: why, at the top of this file
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]  # the hub's Python: the course is installed there
c.Spawner.notebook_dir = "~"
c.Spawner.start_timeout = 180  # ten learners starting at once on two cores
c.Spawner.http_timeout = 180
c.Spawner.mem_limit = _setting("CLASSROOM_MEM_LIMIT", "512M") or None
c.Spawner.cpu_limit = float(_setting("CLASSROOM_CPU_LIMIT", "1")) or None


def _language_form(spawner) -> str:
    options = "".join(f'<option value="{code}"{" selected" if code == SESSION_LANGUAGE else ""}>{label}</option>'
                      for code, label in (("en", "English"), ("ru", "Русский")))
    return f'<label for="language">Course language / Язык курса</label> <select name="language">{options}</select>'


def _language_from_form(form: dict) -> dict:
    return {"language": (form.get("language") or [SESSION_LANGUAGE])[0]}


def _check_language(spawner, options: dict) -> None:
    """A learner's options are only their language: another value is the start form's (or the API's) 400."""
    unknown = set(options) - {"language"}
    if unknown or str(options.get("language", SESSION_LANGUAGE)) not in LANGUAGES:
        raise ValueError(f"the options are {{'language': one of {', '.join(LANGUAGES)}}}, got {options!r}")


def _before_start(spawner) -> None:
    """The learner's language (from the start form, or `{"language": ...}` in the REST API's body) becomes their
    kernels' COURSE_AGENT_LANGUAGE and JupyterLab's first page; their temporary files stay in their home."""
    language = str((spawner.user_options or {}).get("language") or SESSION_LANGUAGE)
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}")
    home = Path(spawner.home_dir)
    tmp = home / ".cache" / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    spawner.environment = {**spawner.environment, "COURSE_AGENT_LANGUAGE": language, "TMPDIR": str(tmp)}
    if REPO:  # the pull of the course, then notebook 1 in the learner's language
        spawner.default_url = "/git-pull?" + pull_query(REPO, BRANCH, language)
    elif (home / notebook_path("course", language)).exists():  # a course copied in as ~/course
        spawner.default_url = "/lab/tree/" + notebook_path("course", language)
    else:
        spawner.default_url = "/lab"


c.Spawner.options_form = _language_form
c.Spawner.options_from_form = _language_from_form
c.Spawner.apply_user_options = _check_language
c.Spawner.pre_spawn_hook = _before_start
if _setting("CLASSROOM_ALLOW_ROOT") == "1":  # a hub run as root (CI, a container): the learners' servers are root's
    c.Spawner.args = ["--allow-root"]

# ---------------------------------------------------------------- the idle culler
CULL_TIMEOUT = int(_setting("CLASSROOM_CULL_TIMEOUT", "3600"))
c.JupyterHub.services = [
    {"name": "idle-culler",
     "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_TIMEOUT}",
                 f"--cull-every={max(30, min(300, CULL_TIMEOUT // 4))}"]},
]
c.JupyterHub.load_roles = [
    {"name": "idle-culler", "services": ["idle-culler"],
     "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]},
]
