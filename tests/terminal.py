"""Starting a command as a terminal would, for the tests that press Ctrl-C.

A process started in the background by a non-interactive shell (`cmd &`, nohup, some CI runners)
inherits SIGINT *ignored*, and Python then never raises KeyboardInterrupt: a test that sends SIGINT to
such a child would test the runner, not the command. At a terminal, Ctrl-C arrives with the default
disposition, so the child gets that back before it starts.
"""

import signal


def as_at_a_terminal() -> None:
    """preexec_fn for subprocess.Popen: SIGINT as a terminal delivers it (default disposition)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
