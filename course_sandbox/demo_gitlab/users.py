"""The demo GitLab's users, as GitLab shows a user inside other objects."""

USERS = {
    "course-reviewer": 1, "alice": 2, "bob": 3, "carol": 4, "mallory": 5,
}
CURRENT_USER = "course-reviewer"
"""Whoever holds the sandbox token: it comments, approves and merges."""


def user(username: str) -> dict:
    """Entities::UserBasic without `web_url`: python-gitlab's auth() compares the user's web_url with
    its base URL and warns when they differ, and the demo's web URLs do not name the sandbox's port.
    (No avatar uploaded: GitLab's avatar_url would be a Gravatar; null here.)"""
    return {"id": USERS.get(username, 99), "username": username, "name": username.capitalize(), "state": "active",
            "locked": False, "avatar_url": None}
