"""Compound asks whose later step filters the listed results by their fields (issue #37): a list field holding a
word ("tagged duplicate"), a boolean ("not yet shipped", «ещё не отправлены»), a number compared ("battery below
20%", «заряд меньше 20»), the single result of a lookup ("page them"); and nothing acted on when the filter
cannot be read."""

import json

import pytest

from course_sandbox import Sandbox
from course_sandbox.simulated_model.result_conditions import Condition, conditions
from tool_use_helpers import text_of, tool, uses
from tool_use_helpers import drive as loop

S = {"type": "string"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def later_calls(client, prompt, tools, listing):
    def answer(name, tool_input):
        if name == tools[0]["name"]:
            return json.dumps(listing, ensure_ascii=False), False
        return json.dumps({"ok": True, **tool_input}), False
    final, responses = loop(client, prompt, tools, answer)
    assert final.stop_reason == "end_turn"
    turns = [uses(r) for r in responses if uses(r)]
    assert [name for name, _ in turns[0]] == [tools[0]["name"]]
    return [u for turn in turns[1:] for u in turn], text_of(final)


ISSUES = [tool("list_issues", "List the issues of a project.", {"project": S}),
          tool("archive_issue", "Archive an issue.", {"issue_id": S})]
ISSUE_LIST = [{"issue_id": "P-1", "labels": ["wontfix"], "stale": True, "votes": 3},
              {"issue_id": "P-2", "labels": ["bug"], "stale": False, "votes": 40},
              {"issue_id": "P-3", "labels": ["bug", "wontfix"], "stale": False, "votes": 0}]


@pytest.mark.parametrize(("prompt", "kept"), [
    ("List the issues of project Atlas, then archive the ones labelled wontfix.", ["P-1", "P-3"]),
    ("List the issues of project Atlas, then archive those that are not stale.", ["P-2", "P-3"]),
    ("List the issues of project Atlas and then archive the ones whose votes are under 5.", ["P-1", "P-3"]),
    ("List the issues of project Atlas, then archive the ones with votes of at least 40.", ["P-2"]),
])
def test_the_later_step_acts_only_on_the_items_its_condition_keeps(client, prompt, kept):
    later, _ = later_calls(client, prompt, ISSUES, ISSUE_LIST)
    assert later == [("archive_issue", {"issue_id": key}) for key in kept]


TASKS = [tool("list_tasks", "List the tasks of a project.", {"project": S}),
         tool("delete_task", "Delete a task.", {"task_id": S})]


@pytest.mark.parametrize(("prompt", "kept"), [
    ("Покажи задачи проекта Atlas, потом удали те, у которых votes больше 10.", ["P-2"]),
    ("Покажи задачи проекта Atlas, потом удали те, что помечены wontfix.", ["P-1", "P-3"]),
])
def test_russian_conditions(client, prompt, kept):
    later, _ = later_calls(client, prompt, TASKS, ISSUE_LIST)
    assert later == [("delete_task", {"task_id": key}) for key in kept]


def test_a_filter_that_cannot_be_read_acts_on_nothing_and_says_so(client):
    later, text = later_calls(client, "List the issues of project Atlas, then archive the ones that smell funny.",
                              ISSUES, ISSUE_LIST)
    assert later == []
    assert "acted on none" in text


def test_a_condition_on_a_field_no_item_has_acts_on_nothing(client):
    later, text = later_calls(client, "List the issues of project Atlas, then archive the ones whose price is over 3.",
                              ISSUES, ISSUE_LIST)
    assert later == [] and "acted on none" in text


def test_them_after_a_lookup_is_the_id_of_the_single_result(client):
    tools = [tool("get_owner", "Who owns a repository.", {"repo": S}),
             tool("notify_user", "Send a notification to a user.", {"user_id": S, "text": S})]

    def answer(name, tool_input):
        if name == "get_owner":
            return json.dumps({"repo": "atlas", "user_id": "u-77", "name": "Kim Lee"}), False
        return json.dumps({"sent": True}), False
    final, responses = loop(client, 'Look up the owner of the atlas repo, then notify them with the text "build broken".',
                            tools, answer)
    turns = [uses(r) for r in responses if uses(r)]
    assert turns[1:] == [[("notify_user", {"user_id": "u-77", "text": "build broken"})]]
    assert final.stop_reason == "end_turn"


@pytest.mark.parametrize(("words", "expected"), [
    ("close the ones tagged duplicate", (Condition("tag", "duplicate"),)),
    ("cancel those that are not yet shipped", (Condition("state", "shipped", value=False),)),
    ("отмени те, что ещё не отправлены", (Condition("state", ("shipped", "sent", "dispatched"), value=False),)),
    ("reboot the ones whose battery is below 20%", (Condition("number", "battery", "<", 20.0),)),
    ("перезагрузи те, у которых заряд ниже 15%", (Condition("number", "battery", "<", 15.0),)),
])
def test_conditions_read_from_the_words(words, expected):
    assert conditions(words) == (expected, False)
