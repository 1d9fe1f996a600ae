"""The demo GitLab's users, as GitLab shows a user inside other objects."""

USERS = {
    "course-reviewer": 1, "alice": 2, "bob": 3, "carol": 4, "mallory": 5,
}
CURRENT_USER = "course-reviewer"
"""Whoever holds the sandbox token: it comments, approves and merges."""


def user(username: str) -> dict:
    return {"id": USERS.get(username, 99), "username": username, "name": username.capitalize(), "state": "active"}
