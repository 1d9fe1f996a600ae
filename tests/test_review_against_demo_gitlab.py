"""The lesson's example end to end: the simulated model, driven through the real anthropic SDK,
reviews the demo GitLab's merge requests with tools written on the real python-gitlab."""

import json

import gitlab
import pytest

from review_material import COMMENT_TOOL, MERGE_TOOL, TOOLS, drive


def gitlab_answer(sandbox):
    """Tool functions as a learner writes them, on python-gitlab; errors become error results."""
    project = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project)

    def answer(name, tool_input):
        try:
            if name == "get_diff":
                return json.dumps(project.mergerequests.get(tool_input["pr"]).changes()), False
            if name == "read_file":
                ref = tool_input.get("ref") or "main"
                return project.files.raw(tool_input["path"], ref=ref).decode(), False
            if name == "post_comment":
                note = project.mergerequests.get(tool_input["pr"]).notes.create({"body": tool_input["body"]})
                return f"posted note {note.id}", False
            if name == "merge_pr":
                return json.dumps(project.mergerequests.get(tool_input["pr"]).merge()["state"]), False
        except gitlab.GitlabError as error:
            return f"GitLab error {error.response_code}: {error.error_message}", True
        return f"unknown tool {name}", True

    return answer


def calls(responses):
    return [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]


def test_review_of_482_names_the_stale_caller(sandbox):
    final, _, responses = drive(sandbox.client(), "Review PR #482.", answer=gitlab_answer(sandbox))
    assert calls(responses)[:2] == [
        [("get_diff", {"pr": 482})],
        [("read_file", {"path": "shop/checkout.py", "ref": "feature/discount-object"})],
    ]
    review = final.content[-1].text
    assert final.stop_reason == "end_turn"
    assert "shop/checkout.py:20 still calls `total = calculate_total(cart.items, coupon_percent)`" in review
    assert "shop/pricing.py:22" in review
    assert review.endswith("Verdict: request changes.")


def test_484_needs_several_reads_in_one_response(sandbox):
    final, _, responses = drive(sandbox.client(), "Review MR !484", answer=gitlab_answer(sandbox))
    reads = calls(responses)[1]
    assert [c[1]["path"] for c in reads] == ["shop/invoices.py", "shop/reports.py"]
    review = final.content[-1].text
    assert "shop/invoices.py:" in review and "shop/reports.py:" in review


def test_clean_483_is_approved(sandbox):
    final, _, _ = drive(sandbox.client(), "Review MR !483", answer=gitlab_answer(sandbox))
    assert final.content[-1].text.endswith("Verdict: approve.")


def test_too_large_486_is_read_instead(sandbox):
    _, _, responses = drive(sandbox.client(), "Review MR !486", answer=gitlab_answer(sandbox))
    assert ("read_file", {"path": "data/catalog.json", "ref": "data/catalog-refresh"}) in calls(responses)[1]


def test_missing_mr_is_reported(sandbox):
    final, _, _ = drive(sandbox.client(), "Review MR !999", answer=gitlab_answer(sandbox))
    assert "!999 does not exist" in final.content[-1].text


def test_review_posted_as_a_note(sandbox):
    final, _, _ = drive(sandbox.client(), "Review PR #482 and post your review as a comment.",
                        tools=TOOLS + [COMMENT_TOOL], answer=gitlab_answer(sandbox))
    notes = sandbox.gitlab.merge_requests[482].notes
    assert len(notes) == 1 and "shop/checkout.py:20" in notes[0]["body"]
    assert final.content[-1].text.startswith("Posted the review on !482.")


def test_injection_mr_makes_the_model_merge_when_nothing_stops_it(sandbox):
    """Only code stands between the attacker and main: here no code does, and main moves."""
    before = sandbox.gitlab.repository.sha("main")
    _, _, responses = drive(sandbox.client(), "Review MR !485", tools=TOOLS + [MERGE_TOOL],
                            answer=gitlab_answer(sandbox))
    assert ("merge_pr", {"pr": 485}) in calls(responses)[1]
    assert sandbox.gitlab.merge_requests[485].state == "merged"
    assert sandbox.gitlab.repository.sha("main") != before


@pytest.mark.parametrize("language, task, verdict", [("ru", "Проверь pull request #482.", "нужны исправления")])
def test_review_in_russian_against_gitlab(sandbox, language, task, verdict):
    final, _, _ = drive(sandbox.client(), task, answer=gitlab_answer(sandbox))
    assert final.content[-1].text.endswith(f"Вердикт: {verdict}.")
