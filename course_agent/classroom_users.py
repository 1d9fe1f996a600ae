"""Each learner an OS user of their own, on a classroom hub run as root (classroom/jupyterhub_config.py,
docs/classroom.md): their files, processes and secrets (their sandbox's key and token, their hub token) are then
out of every other learner's reach, which one shared OS user cannot give.

- A hub name maps to `learner-<name>`, never to an existing account: the prefix keeps `root` or `daemon` (a hub
  name like any other) away from the accounts of that name, and an account `learner-<name>` that this module did
  not make (its comment field, MARK, says who made it, and its home is the class's) is refused, never taken over.
- The hub names are what makes a valid, short Unix name with the prefix: NAME_PATTERN, JupyterHub's
  Authenticator.username_pattern in that mode; NAME_RULE says it on the login page.
- An account is made on the learner's first start (useradd: no password, /bin/bash for the terminal, a group of
  its own, its home CLASSROOM_HOMES/<name>, mode 0700, theirs), again and again without harm.
- `classroom/remove-learners` (or class_accounts() and remove_account()) removes them after the class.

Messages here are for the instructor at the hub's console, in English as JupyterHub's own are; NAME_RULE, the one a
learner reads, is in both languages of the course, as the start form is."""

import os
import pwd
import re
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

PREFIX = "learner-"
NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,19}$"
"""A learner's hub name when they get an OS user: with PREFIX, a name useradd takes, of 28 characters at most."""
NAME_RULE = ("Here a name is 1 to 20 characters: lowercase Latin letters, digits, - and _, starting with a letter. / "
             "Имя здесь — от 1 до 20 символов: строчные латинские буквы, цифры, - и _, в начале — буква.")
MARK = "course-agent classroom learner"
"""The comment (GECOS) field of every account this module makes: how it knows its own from anyone else's."""
SHELL = "/bin/bash"
CHECK_IMPORTS = "import jupyterhub.singleuser, nbgitpuller, course_agent, course_sandbox"


def os_user(hub_name: str) -> str:
    """The OS user of a hub name: PREFIX + the name, for a name NAME_PATTERN allows (any other is a ValueError)."""
    if not re.fullmatch(NAME_PATTERN.strip("^$"), hub_name):
        raise ValueError(f"{hub_name!r} is not a learner's name here: {NAME_RULE}")
    return PREFIX + hub_name


def is_class_account(entry: pwd.struct_passwd, homes: Path | None = None) -> bool:
    """An account this module made (for the class whose homes are in `homes`, when given)."""
    return (entry.pw_name.startswith(PREFIX) and entry.pw_gecos == MARK
            and (homes is None or Path(entry.pw_dir).parent == Path(homes)))


def class_accounts(homes: Path | None = None) -> list[pwd.struct_passwd]:
    """The learners' accounts on this machine (of the class whose homes are in `homes`, when given), by name."""
    return sorted((entry for entry in pwd.getpwall() if is_class_account(entry, homes)), key=lambda e: e.pw_name)


def _run(command: list[str]) -> None:
    for attempt in range(10):  # useradd and userdel answer 10 while another one holds /etc/passwd's lock
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 10:
            break
        time.sleep(0.2 * (attempt + 1))
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} answered {done.returncode}: {done.stderr.strip()}")


def _give(home: Path, uid: int, gid: int) -> None:
    """The home and whatever an instructor put in it beforehand become the learner's (links are not followed)."""
    for folder, subfolders, files in os.walk(home):
        for name in [folder, *(os.path.join(folder, entry) for entry in subfolders + files)]:
            os.chown(name, uid, gid, follow_symlinks=False)
    home.chmod(0o700)


def ensure_account(hub_name: str, home: Path) -> pwd.struct_passwd:
    """The learner's OS user, made on their first start; the same one, unchanged, on every later start.
    PermissionError when `learner-<name>` exists but is not this class's account of that learner."""
    name, home = os_user(hub_name), Path(home)
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        entry = None
    if entry is not None and not (is_class_account(entry) and Path(entry.pw_dir) == home):
        raise PermissionError(f"the OS user {name} exists and is not the class's account of {hub_name!r} "
                              f"(comment {entry.pw_gecos!r}, home {entry.pw_dir}, expected {MARK!r} and {home}): "
                              "the hub does not take over an account it did not make")
    if home.is_symlink():
        raise PermissionError(f"{home} is a symbolic link: a learner's home must be a folder of CLASSROOM_HOMES")
    made = entry is None
    if made:
        _run(["useradd", "--comment", MARK, "--home-dir", str(home), "--no-create-home", "--shell", SHELL,
              "--user-group", name])
        entry = pwd.getpwnam(name)
    if made or not home.is_dir():  # a new account, or its home deleted since: the home is made, or given, again
        home.mkdir(mode=0o700, exist_ok=True)
        _give(home, entry.pw_uid, entry.pw_gid)
    return entry


def stop_processes(uid: int) -> list[int]:
    """SIGKILL to every process of `uid` (a learner's account being removed): the ids it was sent to."""
    import psutil

    stopped = []
    for process in psutil.process_iter(["uids"]):
        if process.info["uids"] and process.info["uids"].real == uid:
            try:
                os.kill(process.pid, signal.SIGKILL)
                stopped.append(process.pid)
            except ProcessLookupError:
                pass
    return stopped


def remove_account(entry: pwd.struct_passwd, keep_home: bool = False) -> None:
    """A learner's account removed (userdel: its group too, and its home unless `keep_home`); what still runs as
    them is stopped first. Only an account of the class (is_class_account) is ever removed."""
    if not is_class_account(entry):
        raise PermissionError(f"{entry.pw_name} is not a learner's account of a class (comment {entry.pw_gecos!r})")
    stop_processes(entry.pw_uid)
    _run(["userdel", *([] if keep_home else ["--remove"]), entry.pw_name])


def unreachable(path: Path) -> Path | None:
    """The first folder on the way to `path` (itself included) that other users cannot pass through, if any."""
    path = Path(path).resolve()
    for folder in [*reversed(path.parents), path]:
        if folder.exists() and not folder.stat().st_mode & 0o001:
            return folder
    return None


def python_problem(python: str, environ: Mapping[str, str], timeout: float = 120) -> str | None:
    """Why an ordinary user (`nobody`) cannot run the learners' servers with `python` (None when they can):
    a Python under a home of mode 0700 (/root/.pyenv...) or without the course's packages. `environ`: the hub's
    environment, whose PATH and PYTHONPATH the learners' servers get."""
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        return None  # no unprivileged account to try it with: the first start will tell
    env = {"PATH": environ.get("PATH", "/usr/bin:/bin"), "HOME": "/", "PYTHONPATH": environ.get("PYTHONPATH", "")}
    try:
        done = subprocess.run([python, "-c", CHECK_IMPORTS], user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[],
                              env=env, cwd="/", capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as error:
        return f"{python}: {error}"
    if done.returncode != 0:
        return f"{python}: {(done.stderr.strip().splitlines() or ['exit code ' + str(done.returncode)])[-1]}"
    return None



def main(argv: list[str] | None = None) -> int:
    """classroom/remove-learners: the class's accounts listed, then removed with --yes."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="classroom/remove-learners",
        description="Remove the OS users a classroom hub run as root made for its learners (learner-<name>, "
                    "marked as the class's). Without --yes, only lists them. Stop the hub first.")
    parser.add_argument("--homes", help="only the learners whose homes are in this folder (classroom/remove-learners "
                                         "gives $CLASSROOM_HOMES when it is set; none: every class's learners here)")
    parser.add_argument("--remove-homes", action="store_true",
                        help="delete their homes too (their work); by default the homes stay, root's to read, and "
                             "a learner of that name who comes back gets theirs again")
    parser.add_argument("--yes", action="store_true", help="remove them (else: list them)")
    args = parser.parse_args(argv)
    homes = Path(args.homes).resolve() if args.homes else None
    accounts = class_accounts(homes)
    where = f" with homes in {homes}" if homes else ""
    if not accounts:
        print(f"no learner accounts{where}")
        return 0
    for entry in accounts:
        print(f"{entry.pw_name}\tuid {entry.pw_uid}\t{entry.pw_dir}")
    if not args.yes:
        print(f"{len(accounts)} learner account(s){where}; run again with --yes to remove them"
              + (" and their homes" if args.remove_homes else " (their homes stay)"))
        return 0
    if os.geteuid() != 0:
        print("removing accounts needs root (sudo)")
        return 1
    for entry in accounts:
        remove_account(entry, keep_home=not args.remove_homes)
    print(f"removed {len(accounts)} learner account(s)" + (" and their homes" if args.remove_homes else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
