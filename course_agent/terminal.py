"""A line typed on the terminal within a time limit, and a question asked in a thread that never keeps the process
alive: what the console approver needs from the terminal, apart from the policy that decides what to ask."""

import os
import sys
import threading
import time
from collections.abc import Callable


def read_line(timeout: float) -> str | None:
    """A line typed on standard input within `timeout` seconds (None if none came). Reads the file
    descriptor directly, in this thread: nothing is left waiting on the terminal afterwards, so
    the process can always exit. EOFError when there is nothing to read from."""
    stdin = sys.stdin
    try:
        fd = stdin.fileno() if stdin is not None else -1
    except (OSError, ValueError, AttributeError):
        fd = -1
    if fd < 0:
        raise EOFError
    import select

    deadline = time.monotonic() + timeout
    typed = b""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            ready, _, _ = select.select([fd], [], [], min(remaining, 0.25))
        except (OSError, ValueError):  # not selectable (Windows consoles): read with a helper thread
            return _read_line_in_a_thread(timeout)
        if not ready:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            if typed:
                return typed.decode(errors="replace")
            raise EOFError
        typed += chunk
        if b"\n" in typed:
            return typed.split(b"\n", 1)[0].decode(errors="replace")


def _read_line_in_a_thread(timeout: float) -> str | None:
    return ask_in_a_thread(lambda prompt: sys.stdin.readline() or _raise(EOFError()), "", timeout)


def _raise(error: BaseException):
    raise error


def ask_in_a_thread(ask: Callable[[str], str], prompt: str, timeout: float) -> str | None:
    """Run `ask(prompt)` in a daemon thread (it never keeps the process alive); None on timeout."""
    outcome: dict = {}
    answered = threading.Event()

    def run() -> None:
        try:
            outcome["reply"] = ask(prompt)
        except BaseException as error:  # noqa: BLE001 - handed to the asking thread
            outcome["error"] = error
        answered.set()

    threading.Thread(target=run, name="course-agent-approval", daemon=True).start()
    if not answered.wait(timeout):
        return None
    if "error" in outcome:
        raise outcome["error"]
    return outcome["reply"]
