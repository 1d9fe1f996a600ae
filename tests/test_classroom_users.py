"""The learners' OS users of a classroom hub run as root (course_agent.classroom_users, classroom/jupyterhub_config.py):
the hub name's mapping (a prefix, never an existing account such as root), the name rule, the account made once and
the same on every later start (no password, /bin/bash, a group of its own, a home of mode 0700 that is theirs), an
account the class did not make refused and never removed, and the hub's refusals at start (the wrong mode for the
user who runs it, homes other users cannot reach). The accounts are made for real only as root (CI); each test
removes what it made, even when it fails."""

import os
import pwd
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from course_agent import classroom_users
from course_agent.classroom_users import NAME_PATTERN, NAME_RULE, PREFIX, ensure_account, os_user, remove_account

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.mark.parametrize("name", ["root", "daemon", "ada", "a", "b0ris_2-x", "a" * 20])
def test_a_hub_name_maps_to_a_prefixed_os_user_never_to_itself(name):
    assert os_user(name) == PREFIX + name != name
    assert len(os_user(name)) <= 32 and os_user(name).startswith("learner-")


@pytest.mark.parametrize("name", ["", "Ada", "ada lovelace", "1ada", "-ada", "_ada", "a" * 21, "ada.l", "ада",
                                  "ada\n", "../ada", "ada$"])
def test_a_name_that_makes_no_short_valid_unix_name_is_refused(name):
    with pytest.raises(ValueError, match="1 to 20 characters"):
        os_user(name)


def test_the_hubs_username_pattern_and_the_mapping_agree():
    import re

    for name in ["ada", "root", "a" * 20, "a" * 21, "Ada", "ada.l", "9"]:
        by_hub = bool(re.compile(NAME_PATTERN).match(name))
        try:
            os_user(name)
            mapped = True
        except ValueError:
            mapped = False
        assert by_hub == mapped, name
    assert "20" in NAME_RULE and "20" in NAME_RULE.split(" / ")[1], "the rule in both languages"


@pytest.fixture
def homes():
    """A folder every user may pass through, and the class accounts made in it removed after, whatever happened."""
    where = Path(tempfile.mkdtemp(prefix="classroom-users-test-"))
    where.chmod(0o755)
    try:
        yield where
    finally:
        for entry in classroom_users.class_accounts(where):
            remove_account(entry)
        subprocess.run(["rm", "-rf", str(where)], check=False)


needs_root = pytest.mark.skipif(not AS_ROOT, reason="making OS users needs root (CI runs as root)")


@needs_root
def test_the_account_is_made_once_and_is_the_learners_own(homes):
    (homes / "zz-s65" / "seeded").mkdir(parents=True)  # an instructor's files, put there before the first start
    (homes / "zz-s65" / "seeded" / "notes.txt").write_text("hello\n")
    entry = ensure_account("zz-s65", homes / "zz-s65")
    assert entry.pw_name == "learner-zz-s65" and entry.pw_uid >= 1000
    assert entry.pw_shell == "/bin/bash" and entry.pw_dir == str(homes / "zz-s65")
    assert entry.pw_gecos == classroom_users.MARK
    import grp

    assert grp.getgrgid(entry.pw_gid).gr_name == "learner-zz-s65", "a group of its own"
    shadow = [line.split(":") for line in Path("/etc/shadow").read_text().splitlines()]
    assert [fields[1] for fields in shadow if fields[0] == "learner-zz-s65"] in (["!"], ["*"], ["!*"]), "no password"
    home = (homes / "zz-s65").stat()
    assert (home.st_uid, home.st_gid, home.st_mode & 0o777) == (entry.pw_uid, entry.pw_gid, 0o700)
    assert (homes / "zz-s65" / "seeded" / "notes.txt").stat().st_uid == entry.pw_uid
    assert ensure_account("zz-s65", homes / "zz-s65") == entry, "the same account on a re-start"
    assert [e.pw_name for e in classroom_users.class_accounts(homes)] == ["learner-zz-s65"]
    remove_account(entry)
    with pytest.raises(KeyError):
        pwd.getpwnam("learner-zz-s65")
    assert not (homes / "zz-s65").exists(), "userdel --remove: the home too"


@needs_root
def test_an_account_the_class_did_not_make_is_refused_and_never_removed(homes):
    subprocess.run(["useradd", "--no-create-home", "--home-dir", str(homes / "other"), "learner-zz-s65-foreign"],
                   check=True)
    try:
        foreign = pwd.getpwnam("learner-zz-s65-foreign")
        with pytest.raises(PermissionError, match="does not take over an account it did not make"):
            ensure_account("zz-s65-foreign", homes / "zz-s65-foreign")
        with pytest.raises(PermissionError, match="not a learner's account"):
            remove_account(foreign)
        assert pwd.getpwnam("learner-zz-s65-foreign") == foreign
        assert classroom_users.class_accounts(homes) == []
    finally:
        subprocess.run(["userdel", "learner-zz-s65-foreign"], check=False, capture_output=True)


@needs_root
def test_an_account_of_another_class_is_refused(homes):
    elsewhere = Path(tempfile.mkdtemp(prefix="classroom-users-test-"))
    try:
        entry = ensure_account("zz-s65-other", elsewhere / "zz-s65-other")
        with pytest.raises(PermissionError, match="expected"):
            ensure_account("zz-s65-other", homes / "zz-s65-other")
        remove_account(entry)
    finally:
        for entry in classroom_users.class_accounts(elsewhere):
            remove_account(entry)
        subprocess.run(["rm", "-rf", str(elsewhere)], check=False)


def _load_config(tmp_path: Path, **settings: str) -> str:
    """classroom/jupyterhub_config.py as JupyterHub loads it, in a child process: what it exits with (or 'loaded')."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLASSROOM_")}
    env.update({"CLASSROOM_PASSWORD": "a-shared-workshop-password", "CLASSROOM_STATE": str(tmp_path / "state"),
                "CLASSROOM_HOMES": str(tmp_path / "homes"), "PYTHONPATH": str(ROOT), **settings})
    code = ("import runpy, sys\nfrom traitlets.config import Config\nc = Config()\n"
            f"runpy.run_path({str(ROOT / 'classroom' / 'jupyterhub_config.py')!r},"
            " init_globals={'get_config': lambda: c})\nprint('loaded', c.JupyterHub.spawner_class)")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    return (done.stdout + done.stderr).strip()


def test_the_hub_refuses_the_mode_its_user_cannot_give(tmp_path):
    if AS_ROOT:  # everyone root is no mode of this hub
        said = _load_config(tmp_path, CLASSROOM_OS_USERS="0")
        assert "never runs a learner as root" in said and "loaded" not in said, said
    else:  # an OS user per learner needs root
        said = _load_config(tmp_path, CLASSROOM_OS_USERS="1")
        assert "only a hub run as root" in said and "loaded" not in said, said
    said = _load_config(tmp_path, CLASSROOM_OS_USERS="yes")
    assert "CLASSROOM_OS_USERS is 1" in said and "loaded" not in said, said


def test_an_ordinary_users_hub_shares_its_os_user(tmp_path):
    if AS_ROOT:
        pytest.skip("this machine runs the tests as root: the shared mode needs an ordinary user")
    assert _load_config(tmp_path).endswith("loaded simple")


@pytest.fixture
def open_homes():
    """CLASSROOM_HOMES in a folder every user may pass through (pytest's tmp_path is root's only)."""
    where = Path(tempfile.mkdtemp(prefix="classroom-users-test-"))
    where.chmod(0o755)
    yield where / "homes"
    subprocess.run(["rm", "-rf", str(where)], check=False)


@needs_root
def test_the_hub_refuses_homes_the_learners_cannot_reach(tmp_path, open_homes):
    closed = open_homes.parent / "closed"  # an open way to it, then a folder of mode 0700
    closed.mkdir(mode=0o700)
    said = _load_config(tmp_path, CLASSROOM_HOMES=str(closed / "homes"))
    assert f"the learners cannot reach their homes in {closed / 'homes'}" in said and "loaded" not in said, said
    assert f"{closed} is closed to other users (mode 700)" in said


@needs_root
def test_the_hub_refuses_a_python_the_learners_cannot_run(tmp_path, open_homes):
    closed = tmp_path / "closed-python"
    closed.mkdir(mode=0o700)
    python = closed / "python"
    python.symlink_to(sys.executable)
    said = _load_config(tmp_path, CLASSROOM_HOMES=str(open_homes), CLASSROOM_PYTHON=str(python))
    assert "an ordinary user cannot run the learners' servers with" in said and "loaded" not in said, said


@needs_root
def test_a_hub_run_as_root_loads_with_os_users(tmp_path, open_homes):
    sys.path.insert(0, str(ROOT / "tests" / "classroom"))
    try:
        from classroom_hub import learners_python
    finally:
        sys.path.remove(str(ROOT / "tests" / "classroom"))
    said = _load_config(tmp_path, CLASSROOM_HOMES=str(open_homes), CLASSROOM_PYTHON=learners_python())
    assert said.endswith("LearnerSpawner'>"), said



def _remove_learners(*args: str, homes: Path | None = None) -> str:
    env = {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": str(ROOT)}
    env.pop("CLASSROOM_HOMES", None)
    if homes is not None:  # the hub's variable, which the script passes on as --homes
        env["CLASSROOM_HOMES"] = str(homes)
    done = subprocess.run([str(ROOT / "classroom" / "remove-learners"), *args], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_root
def test_remove_learners_lists_then_removes_the_class_accounts_only(homes):
    first = ensure_account("zz-s65-a", homes / "zz-s65-a")
    ensure_account("zz-s65-b", homes / "zz-s65-b")
    (homes / "zz-s65-a" / "work.py").write_text("mine\n")
    listed = _remove_learners(homes=homes)
    assert f"with homes in {homes}" in listed, listed
    assert "learner-zz-s65-a" in listed and "learner-zz-s65-b" in listed and "--yes" in listed, listed
    assert len(classroom_users.class_accounts(homes)) == 2, "a listing removes nothing"
    said = _remove_learners("--homes", str(homes), "--yes")
    assert "removed 2 learner account(s)" in said, said
    assert classroom_users.class_accounts(homes) == []
    assert (homes / "zz-s65-a" / "work.py").read_text() == "mine\n", "the homes stay unless --remove-homes"
    again = ensure_account("zz-s65-a", homes / "zz-s65-a")  # the learner comes back: their home is theirs again
    assert (homes / "zz-s65-a" / "work.py").stat().st_uid == again.pw_uid
    assert again.pw_name == first.pw_name
    said = _remove_learners("--homes", str(homes), "--yes", "--remove-homes")
    assert "removed 1 learner account(s) and their homes" in said and not (homes / "zz-s65-a").exists(), said
    assert "no learner accounts" in _remove_learners("--homes", str(homes))
