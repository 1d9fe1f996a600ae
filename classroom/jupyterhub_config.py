# JupyterHub for a class on one machine: `CLASSROOM_PASSWORD=... classroom/start` (docs/classroom.md).
#
# What it sets up, and why:
# - JupyterHub from PyPI (`pip install -e ".[hub]"`), its proxy, configurable-http-proxy, from npm in
#   classroom/node_modules (classroom/install-proxy, which classroom/start runs on first use);
# - every address on 127.0.0.1: the proxy (the learners' door), its API, the hub, each learner's server;
#   put an HTTPS reverse proxy (or TLJH, docs/classroom.md) in front to open it to a room;
# - a workshop login: jupyterhub's SharedPasswordAuthenticator, one password for the session (CLASSROOM_PASSWORD,
#   8+ characters); any name logs in with it, and a name is a learner;
# - each learner's server, in one of two modes (CLASSROOM_OS_USERS; by default, whichever user runs the hub decides):
#   * a hub run as root gives each learner an OS user of their own, `learner-<name>` (course_agent.classroom_users):
#     made by useradd on their first start (no password, /bin/bash, a group of its own, home CLASSROOM_HOMES/<name>
#     of mode 0700), their server started as that user by JupyterHub's LocalProcessSpawner (LearnerSpawner below
#     maps the hub name to the OS one through its public methods only). A learner's terminal cannot read another's
#     home or processes (/proc/<pid>/environ, where their sandbox's key and their hub token are), and no learner
#     runs as root. The prefix keeps the hub name `root` away from root; names are those that make a valid, short
#     Unix name (Authenticator.username_pattern; the login page says which), and an account of that name that the
#     hub did not make is refused, never taken over. The learners' Python (CLASSROOM_PYTHON) and CLASSROOM_HOMES
#     must be reachable by ordinary users: the hub checks both when it starts. classroom/remove-learners removes
#     the accounts after the class;
#   * a hub run as an ordinary user (a workshop on a laptop) cannot switch users: SimpleLocalProcessSpawner runs
#     every learner's server as the hub's own OS user, with a home of its own (CLASSROOM_HOMES/<name>), so a
#     learner's terminal can read another's home and processes: fine for a workshop on a machine of its own, not
#     for graded work or strangers' data. There is no third mode: a hub run as root never runs learners as root
#     (the old CLASSROOM_ALLOW_ROOT=1 did, which handed every learner the machine, the hub's secrets and the
#     other learners' work; with OS users of their own nothing needs it any more);
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
#   learner's home, so nothing of a learner is written outside it; the hub's own files (CLASSROOM_STATE) are
#   its user's only (mode 0700).
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
#   CLASSROOM_OS_USERS        1: each learner an OS user of their own (the hub must run as root), 0: one shared OS
#                             user (the hub must not run as root); unset: 1 for a hub run as root, else 0
#   CLASSROOM_PYTHON          the Python of the learners' servers and kernels, with the course installed (the hub's
#                             own); with OS users, one every user can run (not under /root: /opt/course/.venv...)

import os
import pwd
import sys
from pathlib import Path

from course_agent import classroom_users
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
LEARNER_PYTHON = _setting("CLASSROOM_PYTHON") or sys.executable

# ---------------------------------------------------------------- the mode: an OS user per learner, or one shared
AS_ROOT = os.geteuid() == 0
_os_users = _setting("CLASSROOM_OS_USERS")
if _os_users not in ("", "0", "1"):
    sys.exit(f"classroom: CLASSROOM_OS_USERS is 1 (an OS user per learner) or 0 (one shared), got {_os_users!r}")
OS_USERS = AS_ROOT if not _os_users else _os_users == "1"
STATE.mkdir(parents=True, exist_ok=True)
STATE.chmod(0o700)  # the hub's database and cookie secret: its own user's only
if not HOMES.exists():
    HOMES.mkdir(parents=True)
    if OS_USERS:  # the learners pass through to their homes, without listing who else is in the class
        HOMES.chmod(0o711)
if OS_USERS and not AS_ROOT:
    sys.exit("classroom: CLASSROOM_OS_USERS=1 gives each learner an OS user of their own, which only a hub run as root "
             "can make and switch to: start it as root (sudo -E classroom/start), or leave CLASSROOM_OS_USERS unset "
             "for one OS user shared by all (docs/classroom.md)")
if AS_ROOT and not OS_USERS:
    sys.exit("classroom: a hub run as root gives each learner an OS user of their own and never runs a learner as "
             "root; with CLASSROOM_OS_USERS=0 every learner would be root. Leave it unset, or run the hub as an "
             "ordinary user to share one OS user (docs/classroom.md)")
if _setting("CLASSROOM_ALLOW_ROOT"):
    print("classroom: CLASSROOM_ALLOW_ROOT is no longer read: a hub run as root now gives each learner an OS user of "
          "their own (docs/classroom.md)", file=sys.stderr)
if OS_USERS:
    for _tool in ("useradd", "userdel"):
        if not any(Path(folder, _tool).exists() for folder in ("/usr/sbin", "/sbin", "/usr/bin")):
            sys.exit(f"classroom: {_tool} is missing: each learner's OS user is made with it (Debian's passwd package)")
    _closed = classroom_users.unreachable(HOMES)
    if _closed is not None:
        sys.exit(f"classroom: the learners cannot reach their homes in {HOMES}: {_closed} is closed to other users "
                 f"(mode {_closed.stat().st_mode & 0o777:o}). Put CLASSROOM_HOMES where every user may pass, "
                 "e.g. /srv/classroom/homes")
    _problem = classroom_users.python_problem(LEARNER_PYTHON, os.environ)
    if _problem is not None:
        sys.exit(f"classroom: an ordinary user cannot run the learners' servers with {LEARNER_PYTHON} ({_problem}). "
                 "Install the course where every user can read it (python3 -m venv /opt/course/.venv; "
                 "/opt/course/.venv/bin/pip install 'course-agent[hub]') and set CLASSROOM_PYTHON to its python")

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
if OS_USERS:  # names that make an OS user: JupyterHub's own rule, and the login page saying it
    from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
    from tornado import web

    class LearnerLogin(SharedPasswordAuthenticator):
        """The shared password, for names that make a learner's OS user (NAME_PATTERN); another name is told the
        rule on the login page (JupyterHub's own check, after this one, would only say 'Invalid username or password')."""

        async def authenticate(self, handler, data):
            if not self.validate_username(self.normalize_username(str(data.get("username", "")))):
                raise web.HTTPError(403, classroom_users.NAME_RULE)
            return await super().authenticate(handler, data)

    c.JupyterHub.authenticator_class = LearnerLogin
    c.Authenticator.username_pattern = classroom_users.NAME_PATTERN
else:
    c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = PASSWORD
_admins = {name.strip() for name in _setting("CLASSROOM_ADMINS").split(",") if name.strip()}
if _admins:
    c.Authenticator.admin_users = _admins
    c.SharedPasswordAuthenticator.admin_password = _setting("CLASSROOM_ADMIN_PASSWORD")
c.Authenticator.allow_all = True  # a workshop: whoever has the password

# ---------------------------------------------------------------- each learner's server
def _tmp(hub_name: str) -> Path:
    return HOMES / hub_name / ".cache" / "tmp"


if OS_USERS:
    from jupyterhub.spawner import LocalProcessSpawner

    class LearnerSpawner(LocalProcessSpawner):
        """LocalProcessSpawner for `learner-<name>` instead of the account named as the hub user (which may not
        exist, or be root): the name mapped in its two public methods that look the user up (a third, move_certs,
        serves internal_ssl, which this hub does not turn on)."""

        def make_preexec_fn(self, name):
            as_learner = super().make_preexec_fn(classroom_users.os_user(name))  # setuid, setgid, chdir home
            tmp = str(_tmp(name))

            def preexec():
                as_learner()
                os.makedirs(tmp, exist_ok=True)  # as the learner: root writes nothing under a learner's links

            return preexec

        def user_env(self, env):
            entry = pwd.getpwnam(classroom_users.os_user(self.user.name))
            env.update(USER=entry.pw_name, HOME=entry.pw_dir, SHELL=entry.pw_shell or classroom_users.SHELL)
            return env

    c.JupyterHub.spawner_class = LearnerSpawner
else:
    c.JupyterHub.spawner_class = "simple"  # SimpleLocalProcessSpawner: why, at the top of this file
    c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.cmd = [LEARNER_PYTHON, "-m", "jupyterhub.singleuser"]  # the hub's own Python unless CLASSROOM_PYTHON
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
    home, tmp = HOMES / spawner.user.name, _tmp(spawner.user.name)
    if OS_USERS:  # their account, made on the first start; their TMPDIR is made as them (LearnerSpawner)
        classroom_users.ensure_account(spawner.user.name, home)
    else:
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
