"""The widgets, driven without a browser: cards, pairing, errors, approvals, the stepper."""

import threading
import time

import pytest

from course_agent.gitlab import GitLabTools
from course_agent.loop import run_agent
from course_agent.review import REVIEW_RULES, reviewer_toolbox
from course_agent.safety import ApprovalRequest
from course_agent.tools import Risk
from course_agent.widgets import MessagesView, Stepper, WidgetApprover
from course_agent.widgets.cards import pair_colour

REQUEST = ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS)


def lesson_loop(client, messages, tools, answer, max_iterations=10):
    """The learner's own loop, exactly as the lesson writes it."""
    for _ in range(max_iterations):
        response = client.messages.create(model="claude-opus-5", max_tokens=4000, tools=tools, messages=messages)
        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})
            return response
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": answer(b.name, b.input)}
            for b in response.content if b.type == "tool_use"]})


def test_the_view_follows_a_plain_loop(sandbox):
    from review_material import TOOLS, default_answer
    client = sandbox.client()
    view = MessagesView(client=client)
    messages = view.messages
    messages.append({"role": "user", "content": "Review PR #482"})
    lesson_loop(client, messages, TOOLS, lambda n, i: default_answer(n, i)[0])
    assert len(view.card_values()) == len(messages) == 6
    text = view.text().splitlines()
    assert text[0] == "MessagesView: 6 messages"
    assert text[2].startswith("  2 assistant (tool_use): text") and "tool_use get_diff [toolu_01" in text[2]
    assert text[6].startswith("  6 assistant (end_turn): text 'Review of !482")
    card = view.card_values()[1]
    assert "iteration 1" in card and "stop_reason tool_use" in card and "cache read" in card


def test_tool_use_and_its_result_share_colour_and_id_and_errors_stand_out():
    view = MessagesView()
    view.messages.extend([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_A", "name": "get_diff", "input": {"pr": 1}},
                                          {"type": "tool_use", "id": "toolu_B", "name": "read_file", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "diff"},
                                     {"type": "tool_result", "tool_use_id": "toolu_B", "content": "404",
                                      "is_error": True}]},
    ])
    use_card, result_card = view.card_values()[1:3]
    for tool_id in ("toolu_A", "toolu_B"):
        assert f"border:2px solid {pair_colour(tool_id)}" in use_card
        assert f"border:2px solid {pair_colour(tool_id)}" in result_card and tool_id in result_card
    assert result_card.count("ERROR") == 1 and "#fde8e8" in result_card
    assert "tool_result ERROR [toolu_B]" in view.text()


def test_thinking_is_folded_long_results_fold_and_secrets_are_hidden(monkeypatch):
    monkeypatch.setenv("GITLAB_TOKEN", "glpat-very-secret-value")
    view = MessagesView()
    view.messages.append({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hmm", "signature": "s"}, {"type": "text", "text": "ok"}]})
    view.messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t", "content": "x" * 5000 + " glpat-very-secret-value"}]})
    assert "<details><summary style='color:#888'>thinking" in view.card_values()[0]
    assert "click to expand" in view.card_values()[1]
    assert "glpat-very-secret-value" not in view.html() + view.text()


def test_appending_costs_one_new_card_and_edits_rerender():
    view = MessagesView()
    view.messages.append({"role": "user", "content": "a"})
    first = view.cards.children[0].children[0]
    view.messages.append({"role": "assistant", "content": "b"})
    assert view.cards.children[0].children[0] is first
    view.messages[0] = {"role": "user", "content": "c"}
    assert "c" in view.card_values()[0] and len(view.card_values()) == 2
    view.messages.clear()
    assert view.card_values() == []


def test_long_histories_are_grouped_so_each_append_touches_a_small_box():
    from course_agent.widgets.messages_view import CHUNK
    view = MessagesView()
    view.messages.extend({"role": "user", "content": str(i)} for i in range(CHUNK * 2 + 1))
    assert [len(chunk.children) for chunk in view.cards.children] == [CHUNK, CHUNK, 1]
    assert len(view.card_values()) == CHUNK * 2 + 1


def test_the_reference_loop_feeds_the_view(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    view = MessagesView()
    result = run_agent(sandbox.client(), "Review PR #482", toolbox, system=REVIEW_RULES, observers=[view])
    assert len(view.messages) == len(result.messages) == 6
    assert "stop_reason end_turn" in view.card_values()[-1]


def test_text_repr_is_deterministic(sandbox):
    from review_material import TOOLS, default_answer
    texts = []
    for _ in range(2):
        view = MessagesView(client=sandbox.client())
        view.messages.append({"role": "user", "content": "Review PR #482"})
        lesson_loop(sandbox.client(), view.messages, TOOLS, lambda n, i: default_answer(n, i)[0])
        texts.append(view._repr_mimebundle_()["text/plain"])
    assert texts[0] == texts[1]


def test_clicking_approve_answers_once():
    approver = WidgetApprover(timeout=5, auto="")
    verdicts = []
    worker = threading.Thread(target=lambda: verdicts.append(approver(REQUEST)))
    worker.start()
    while not approver.prompts:
        time.sleep(0.01)
    prompt = approver.prompts[0]
    assert "merge_pr" in prompt.question.value and "&quot;pr&quot;: 485" in prompt.question.value
    prompt.approve_button.click()
    prompt.deny_button.click()
    worker.join(5)
    assert verdicts[0].approved is True and verdicts[0].by == "you (clicked Approve)"
    assert prompt.approve_button.disabled and prompt.deny_button.disabled
    assert "Approved" in prompt.status.value and prompt.verdict.approved


def test_clicking_deny():
    approver = WidgetApprover(timeout=5, auto="")
    worker = threading.Thread(target=lambda: approver(REQUEST))
    worker.start()
    while not approver.prompts:
        time.sleep(0.01)
    approver.prompts[0].deny_button.click()
    worker.join(5)
    assert approver.prompts[0].verdict.approved is False and "Denied" in approver.prompts[0].status.value


def test_no_click_in_time_means_deny():
    verdict = WidgetApprover(timeout=0.1, auto="")(REQUEST)
    assert (verdict.approved, verdict.by) == (False, "timeout")


@pytest.mark.parametrize("answer", ["approve", "deny"])
def test_auto_answer_uses_the_same_prompt(monkeypatch, answer):
    monkeypatch.setenv("COURSE_AGENT_AUTO_APPROVE", answer)
    approver = WidgetApprover()
    verdict = approver(REQUEST)
    assert verdict.approved is (answer == "approve")
    assert repr(approver.prompts[0]).endswith(f"by COURSE_AGENT_AUTO_APPROVE={answer})")


def test_stepper_advances_one_call_per_click(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    stepper = Stepper(lambda observers: run_agent(sandbox.client(), "Review PR #482", toolbox,
                                                  system=REVIEW_RULES, observers=observers)).start()
    for expected in (1, 2, 3):
        deadline = time.monotonic() + 5
        while len(stepper.steps) < expected and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        assert len(stepper.steps) == expected  # waiting for Next, not running ahead
        assert f"Request {expected}" in stepper.request_pane.value
        stepper.next_button.click()
    stepper.join(5)
    assert [s["stop_reason"] for s in stepper.steps] == ["tool_use", "tool_use", "end_turn"]
    assert stepper.steps[0]["action"].startswith("append the response whole, run 1 tool call(s) — get_diff(pr=482)")
    assert [s["new_messages"] for s in stepper.steps] == [1, 2, 2]
    assert "done" in stepper.status.value and len(stepper.view.messages) == 6


def test_stepper_plays_by_itself(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    stepper = Stepper(lambda observers: run_agent(sandbox.client(), "Review PR #999", toolbox,
                                                  system=REVIEW_RULES, observers=observers), delay=0.01)
    stepper.play_button.value = True
    stepper.start().join(10)
    assert [s["stop_reason"] for s in stepper.steps] == ["tool_use", "end_turn"]
