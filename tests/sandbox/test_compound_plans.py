"""Compound asks as a plan (issue #37): "List the files in /tmp/demo, then delete the ones that end in .log"
lists first, then deletes each listed .log file (in parallel, or one per response), and nothing else; an action
with a side effect is proposed exactly when asked."""

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import tool, uses
from tool_use_helpers import drive as loop

LIST = tool("list_files", "List the files in a directory.",
            {"directory": {"type": "string", "description": "The directory to list."}})
DELETE = tool("delete_file", "Delete a file.", {"path": {"type": "string", "description": "The file to delete."}})
LISTING = ["app.log", "notes.txt", "old.log"]


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def answer(name, tool_input):
    if name == "list_files":
        return "\n".join(f"{tool_input['directory']}/{f}" for f in LISTING), False
    return f"Deleted {tool_input['path']}.", False


def calls(client, prompt, **kw):
    final, responses = loop(client, prompt, [LIST, DELETE], answer, **kw)
    assert final.stop_reason == "end_turn"
    return [[use for use in uses(r)] for r in responses if uses(r)]


LOGS = [("delete_file", {"path": "/tmp/demo/app.log"}), ("delete_file", {"path": "/tmp/demo/old.log"})]


@pytest.mark.parametrize("prompt", [
    "List the files in /tmp/demo, then delete the ones that end in .log.",
    "List the files in /tmp/demo and then delete the .log files",
    "List the files in /tmp/demo, then delete the ones with the extension log.",
    "Покажи файлы в /tmp/demo, затем удали те, что заканчиваются на .log",
])
def test_the_later_step_acts_on_each_selected_item_in_one_turn(client, prompt):
    assert calls(client, prompt) == [[("list_files", {"directory": "/tmp/demo"})], LOGS]


def test_one_call_per_response_when_parallel_use_is_off(client):
    turns = calls(client, "List the files in /tmp/demo, then delete the ones that end in .log.",
                  tool_choice={"type": "auto", "disable_parallel_tool_use": True})
    assert turns == [[("list_files", {"directory": "/tmp/demo"})], LOGS[:1], LOGS[1:]]


def test_them_means_every_listed_item(client):
    turns = calls(client, "List the files in /tmp/demo, then delete them.")
    assert [u for turn in turns[1:] for u in turn] == [("delete_file", {"path": f"/tmp/demo/{f}"}) for f in LISTING]


@pytest.mark.parametrize("prompt", ["List the files in /tmp/demo.",
                                    "List the files in /tmp/demo, then tell me which end in .log.",
                                    "Don't delete anything, just list the files in /tmp/demo."])
def test_no_action_beyond_what_was_asked(client, prompt):
    assert calls(client, prompt) == [[("list_files", {"directory": "/tmp/demo"})]]


def test_nothing_selected_nothing_deleted(client):
    assert calls(client, "List the files in /tmp/demo, then delete the ones that end in .tmp.") == \
        [[("list_files", {"directory": "/tmp/demo"})]]


OTHER_LIST = tool("list_dir", "List the files in a directory",
                  {"directory": {"type": "string", "description": "directory path"}})
REMOVE = tool("remove_file", "Delete a file", {"path": {"type": "string", "description": "file path"}})


def answer_dir(name, tool_input):
    if name == "list_dir":
        return '["a.tmp", "notes.txt", "c.tmp", "old_1.log", "new.log", "app_old.log"]', False
    return f"Deleted {tool_input['path']}.", False


@pytest.mark.parametrize("prompt, deleted", [
    ("List the files in /tmp/x, then delete the ones that end in .tmp.", ["/tmp/x/a.tmp", "/tmp/x/c.tmp"]),
    ("Покажи файлы в /var/log/app, а потом удали те, что начинаются на old_.", ["/var/log/app/old_1.log"]),
])
def test_a_listing_tool_of_any_name_lists_first_and_the_directory_itself_is_never_deleted(client, prompt, deleted):
    """Found by an independent probe: with a listing tool not named list_files, the model listed and, in the same
    turn, called remove_file on the directory itself (the words "the files" named both tools); in Russian it
    deleted the directory without listing. Each part of the ask may use only the actions its own words ask for."""
    final, responses = loop(client, prompt, [OTHER_LIST, REMOVE], answer_dir)
    assert final.stop_reason == "end_turn"
    made = [use for r in responses for use in uses(r)]
    assert made[0][0] == "list_dir" and all(name != "remove_file" for name, _ in uses(responses[0])), made
    assert [tool_input["path"] for name, tool_input in made if name == "remove_file"] == deleted, made


PEOPLE = [{"user_id": "u-1", "email": "ana@keep.org", "name": "Ana"}, {"user_id": "u-2", "email": "bo@gone.io", "name": "Bo"},
          {"user_id": "u-3", "email": "cy@gone.io", "name": "Cy"}]
ROSTER = tool("list_team", "List the members of a team, with their user_id, name and email.",
              {"team": {"type": "string"}})
OFFBOARD = tool("offboard_user", "Offboard a user by user_id.", {"user_id": {"type": "string"}})
REMOVE_MEMBER = tool("remove_member", "Remove a member from a team by user_id.", {"user_id": {"type": "string"}})
MEETINGS = tool("list_meetings", "List meetings on a date, with meeting_id and subject.",
                {"date": {"type": "string", "format": "date"}})
DECLINE = tool("decline_meeting", "Decline a meeting by meeting_id.", {"meeting_id": {"type": "string"}})
SUBJECTS = [{"meeting_id": "m-1", "subject": "Weekly sync"}, {"meeting_id": "m-2", "subject": "Budget"},
            {"meeting_id": "m-3", "subject": "Sync with design"}]


def answer_objects(name, tool_input):
    import json
    if name == "list_team":
        return json.dumps({"members": PEOPLE}), False
    if name == "list_meetings":
        return json.dumps(SUBJECTS), False
    return "done", False


@pytest.mark.parametrize("prompt, tools, first, later", [
    ("List the members of the platform team, then offboard the ones whose email ends with @gone.io.",
     [ROSTER, OFFBOARD], ("list_team", {"team": "platform"}),
     [("offboard_user", {"user_id": "u-2"}), ("offboard_user", {"user_id": "u-3"})]),
    ("List my meetings on 2026-05-04, then decline the ones whose subject contains Sync.",
     [MEETINGS, DECLINE], ("list_meetings", {"date": "2026-05-04"}),
     [("decline_meeting", {"meeting_id": "m-1"}), ("decline_meeting", {"meeting_id": "m-3"})]),
    ("List the members of the platform team.", [ROSTER, OFFBOARD], ("list_team", {"team": "platform"}), []),
    ("List the members of the platform team, then offboard the ones whose name is Bo.", [ROSTER, OFFBOARD],
     ("list_team", {"team": "platform"}), [("offboard_user", {"user_id": "u-2"})]),
    ("Покажи участников команды platform, затем удали тех, у которых почта заканчивается на @gone.io.",
     [ROSTER, REMOVE_MEMBER], ("list_team", {"team": "platform"}),
     [("remove_member", {"user_id": "u-2"}), ("remove_member", {"user_id": "u-3"})]),
    ("List the members of the platform team, then offboard the ones whose name is not Bo.", [ROSTER, OFFBOARD],
     ("list_team", {"team": "platform"}), []),
])
def test_a_filter_reads_the_field_it_names_and_the_action_takes_the_listed_ids(client, prompt, tools, first, later):
    """Probe 53: "whose email ends with…", "whose subject contains…" filter the listed objects by that field; the
    action is proposed once for each match, with the id the listing returned, then the conversation ends."""
    final, responses = loop(client, prompt, tools, answer_objects)
    assert final.stop_reason == "end_turn"
    made = [use for r in responses for use in uses(r)]
    assert made == [first, *later]
