"""Where an inline (diff) comment may sit, decided the way GitLab decides it.

GitLab turns a text position into a line code by looking, in the diff of the position's file,
for the one diff line whose (old_line, new_line) pair is exactly the position's pair
(`Gitlab::Diff::File#line_for_position`). So an added line is addressed by `new_line` alone,
a removed line by `old_line` alone, and an unchanged (context) line needs *both* numbers,
as the Discussions API docs say. A line outside every hunk, a path that is not in the diff,
or shas that are not the merge request's `diff_refs` give no line code, and GitLab answers
400 with the model's validation errors:
`400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`.
"""

from dataclasses import dataclass

from course_shared.hunks import hunk_lines

from .errors import GitLabError, bad_request, invalid

LINE_CODE_ERRORS = '{:line_code=>["can\'t be blank", "must be a valid line code"]}'
INCOMPLETE_ERRORS = '{:line_code=>["can\'t be blank", "must be a valid line code"], :position=>["is incomplete"]}'
_SHAS = ("base_sha", "start_sha", "head_sha")


@dataclass(frozen=True)
class DiffLine:
    """One line of a hunk: `old` is None for an added line, `new` is None for a removed one."""

    old: int | None
    new: int | None


def diff_lines(diff: str) -> list[DiffLine]:
    """The (old, new) numbers of a unified diff's hunk lines, read as GitLab reads them (one reader
    with the publisher's: `course_shared.hunks`)."""
    return [DiffLine(line.old, line.new) for line in hunk_lines(diff)]


def bad_note(errors: str) -> GitLabError:
    """GitLab's answer when the note model does not validate (`bad_request!("Note #{errors}")`)."""
    return bad_request(f"Note {errors}")


def _optional_int(position: dict, key: str) -> int | None:
    value = position.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise invalid(f"position[{key}]")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise invalid(f"position[{key}]") from None


def parse_position(position: object) -> dict:
    """Grape's checks of the `position` hash: the shas and the type are required."""
    if not isinstance(position, dict):
        raise invalid("position")
    for key in (*_SHAS, "position_type"):
        if not isinstance(position.get(key), str) or position.get(key) == "":
            raise invalid(f"position[{key}]", "is missing")
    if position["position_type"] not in ("text", "image", "file"):
        raise invalid("position[position_type]", "does not have a valid value")
    for key in ("new_path", "old_path"):
        if position.get(key) is not None and not isinstance(position.get(key), str):
            raise invalid(f"position[{key}]")
    return {
        **{key: position[key] for key in _SHAS},
        "old_path": position.get("old_path") or None, "new_path": position.get("new_path") or None,
        "position_type": position["position_type"],
        "old_line": _optional_int(position, "old_line"), "new_line": _optional_int(position, "new_line"),
        "line_range": None,
    }


def check_position(position: dict, diff_refs: dict, changes: list[dict]) -> dict:
    """The position as GitLab stores it, or the 400 GitLab gives when it names no diff line."""
    if position["position_type"] != "text":
        raise bad_note('{:position=>["is not supported by the demo GitLab"]}')
    if not (position["new_path"] or position["old_path"]) or (
            position["old_line"] is None and position["new_line"] is None):
        raise bad_note(INCOMPLETE_ERRORS)
    if any(position[key] != diff_refs.get(key) for key in _SHAS):
        raise bad_note(LINE_CODE_ERRORS)
    paths = {p for p in (position["old_path"], position["new_path"]) if p}
    change = next((c for c in changes if c["old_path"] in paths or c["new_path"] in paths), None)
    wanted = DiffLine(position["old_line"], position["new_line"])
    if change is None or wanted not in diff_lines(change["diff"]):
        raise bad_note(LINE_CODE_ERRORS)
    return position
