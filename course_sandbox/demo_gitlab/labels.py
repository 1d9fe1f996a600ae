"""Project labels and merge requests' label events (docs.gitlab.com/api/labels/,
/api/resource_label_events/).

Review bots read the project's labels to choose among them (pr-agent's `get_repo_labels`) and
set them on a merge request; GitLab creates a label a merge request names that the project
lacks (Labels::FindOrCreateService, colour `#6699cc`) and records one event per label added
or removed, which `resource_label_events` lists.
"""

import threading
from dataclasses import dataclass

from .users import user

DEFAULT_COLOR = "#6699cc"
"""Label::DEFAULT_COLOR: the colour of a label GitLab creates because a merge request named it."""
START_LABELS = (
    ("bug", "#d9534f", "Something does not work"),
    ("enhancement", "#5cb85c", "A new feature or an improvement"),
    ("documentation", "#428bca", "Docs and comments"),
    ("security", "#cc338b", "A security concern"),
    ("needs-review", "#f0ad4e", "Waiting for a reviewer"),
)


@dataclass
class Label:
    id: int
    name: str
    color: str
    description: str | None

    def basic_view(self) -> dict:
        """Entities::LabelBasic (as inside a label event)."""
        return {"id": self.id, "name": self.name, "description": self.description,
                "description_html": self.description or "", "text_color": text_color(self.color),
                "color": self.color, "archived": False}

    def view(self, open_merge_requests: int | None = None) -> dict:
        """Entities::ProjectLabel; the counts only with `with_counts=true`, as in GitLab."""
        data = {**self.basic_view(), "subscribed": False, "priority": None, "is_project_label": True}
        if open_merge_requests is not None:
            data.update(open_issues_count=0, closed_issues_count=0, open_merge_requests_count=open_merge_requests)
        return data


@dataclass(frozen=True)
class LabelEvent:
    id: int
    iid: int
    label: Label
    action: str
    username: str
    created_at: str

    def view(self) -> dict:
        """Entities::ResourceLabelEvent."""
        return {"id": self.id, "user": user(self.username), "created_at": self.created_at,
                "resource_type": "MergeRequest", "resource_id": 1000 + self.iid, "label": self.label.basic_view(),
                "action": self.action}


def text_color(color: str) -> str:
    """Gitlab::Color#contrast: dark text on a light label (its RGB channels sum above 500)."""
    try:
        channels = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    except ValueError:
        return "#FFFFFF"
    return "#1F1E24" if sum(channels) > 500 else "#FFFFFF"


class ProjectLabels:
    """The project's labels by name, and every label event, in order."""

    def __init__(self) -> None:
        self.by_name = {name: Label(n, name, color, text) for n, (name, color, text) in enumerate(START_LABELS, 1)}
        self.events: list[LabelEvent] = []
        self._lock = threading.Lock()

    def all(self) -> list[Label]:
        """Sorted by name, as GitLab's LabelsFinder lists them (`title` ascending)."""
        return sorted(self.by_name.values(), key=lambda label: label.name)

    def find(self, id_or_name: str) -> Label | None:
        """GET labels/:label_id takes an id or a name (`find_label!`)."""
        by_id = next((label for label in self.by_name.values() if str(label.id) == id_or_name), None)
        return by_id or self.by_name.get(id_or_name)

    def record(self, iid: int, before: list[str], after: list[str], username: str, now: str) -> None:
        """One event per label added or removed; a label new to the project is created first."""
        with self._lock:
            for name in after:
                if name not in before:
                    label = self.by_name.get(name)
                    if label is None:
                        label = self.by_name[name] = Label(len(self.by_name) + 1, name, DEFAULT_COLOR, None)
                    self._event(iid, label, "add", username, now)
            for name in before:
                if name not in after and name in self.by_name:
                    self._event(iid, self.by_name[name], "remove", username, now)

    def _event(self, iid: int, label: Label, action: str, username: str, now: str) -> None:
        self.events.append(LabelEvent(len(self.events) + 1, iid, label, action, username, now))

    def events_of(self, iid: int) -> list[LabelEvent]:
        return [event for event in self.events if event.iid == iid]
