"""The sandbox's demo GitLab: project course/shop over a real git repository."""

from .http import GitLabHttp
from .project import PROJECT_ID, PROJECT_PATH, DemoProject

__all__ = ["DemoProject", "GitLabHttp", "PROJECT_ID", "PROJECT_PATH"]
