"""The demo GitLab's clock: every event gets the next minute after a fixed start, so the
timestamps in notebook outputs are the same on every run (never the wall clock)."""

import threading
from datetime import UTC, datetime, timedelta

START = datetime(2026, 1, 15, 11, 0, tzinfo=UTC)


def gitlab_time(moment: datetime) -> str:
    """GitLab's timestamp format: `2026-01-15T11:00:00.000Z`."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Clock:
    def __init__(self) -> None:
        self._ticks = 0
        self._lock = threading.Lock()

    def tick(self) -> str:
        """The time of a new event: one minute after the previous one."""
        with self._lock:
            moment = START + timedelta(minutes=self._ticks)
            self._ticks += 1
        return gitlab_time(moment)

    @property
    def events(self) -> int:
        """How many events have been stamped (the self-check reads it: a refused request stamps none)."""
        with self._lock:
            return self._ticks
