"""The reference loop against the sandbox: each rule of the lesson and each stop reason."""

import json

import pytest

from course_agent.gitlab import GitLabTools
from course_agent.loop import (
    ApiFailed, ContextWindowExceeded, IterationLimitReached, LoopObserver, MaxTokensReached, Refused, run_agent,
)
from course_agent.review import REVIEW_RULES, reviewer_toolbox
from course_agent.safety import auto_approver
from course_agent.tools import Tool, Toolbox
from course_agent.transcript import load


@pytest.fixture
def gitlab_tools(sandbox):
    return GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project)


@pytest.fixture
def toolbox(gitlab_tools):
    return reviewer_toolbox(gitlab_tools, approver=auto_approver("deny"))


class Recorder(LoopObserver):
    def __init__(self):
        self.events = []

    def on_request(self, iteration, messages):
        self.events.append(("request", iteration, len(messages)))

    def on_response(self, iteration, response):
        self.events.append(("response", iteration, response.stop_reason))

    def on_message(self, message):
        self.events.append(("message", message["role"]))

    def on_finish(self, result):
        self.events.append(("finish", result.stop_reason))

    def on_error(self, error):
        self.events.append(("error", type(error).__name__))


def test_review_of_482_follows_the_lesson(client, toolbox, tmp_path):
    recorder = Recorder()
    result = run_agent(client, "Review PR #482.", toolbox, system=REVIEW_RULES, transcript=tmp_path / "t.jsonl",
                       observers=[recorder])
    assert result.stop_reason == "end_turn" and result.iterations == 3
    assert "shop/checkout.py:20" in result.text
    roles = [m["role"] for m in result.messages]
    assert roles == ["user", "assistant", "user", "assistant", "user", "assistant"]
    # rule 1: the assistant's content goes back whole, as the SDK's own blocks
    assert [b.type for b in result.messages[1]["content"]] == ["thinking", "text", "tool_use"]
    # rule 2: the results of a turn are one user message
    assert [b["type"] for b in result.messages[2]["content"]] == ["tool_result"]
    assert load(tmp_path / "t.jsonl") == json.loads(json.dumps(
        [m if isinstance(m["content"], str) else {**m, "content": [
            b.to_dict() if hasattr(b, "to_dict") else b for b in m["content"]]} for m in result.messages]))
    assert recorder.events[0] == ("message", "user")
    assert ("request", 3, 5) in recorder.events and recorder.events[-1] == ("finish", "end_turn")


def test_several_reads_run_in_one_turn_and_come_back_in_one_message(client, toolbox):
    result = run_agent(client, "Review MR !484", toolbox, system=REVIEW_RULES)
    reads = result.messages[3]["content"]
    assert [b.name for b in reads if b.type == "tool_use"] == ["read_file", "read_file"]
    results = result.messages[4]["content"]
    assert len(results) == 2 and [r["tool_use_id"] for r in results] == [b.id for b in reads if b.type == "tool_use"]


def test_tool_error_is_a_result_and_the_model_reports_it(client, toolbox):
    result = run_agent(client, "Review PR #999", toolbox, system=REVIEW_RULES)
    assert result.messages[2]["content"][0]["is_error"] is True
    assert "!999 does not exist" in result.text


def test_denied_merge_goes_back_as_an_error_and_the_loop_goes_on(client, toolbox, sandbox):
    result = run_agent(client, "Review MR !485", toolbox, system=REVIEW_RULES)
    denial = result.messages[4]["content"][0]
    assert denial["is_error"] is True and denial["content"].startswith("A human denied this call")
    assert sandbox.gitlab.merge_requests[485].state == "opened"
    assert result.stop_reason == "end_turn"


def test_max_tokens_is_an_error_and_the_cut_tool_call_never_runs(client, sandbox):
    ran = []
    toolbox = Toolbox([Tool("get_diff", "Get the diff of a merge request.",
                            {"type": "object", "properties": {"pr": {"type": "integer"}}},
                            lambda **kw: ran.append(kw) or "diff")])
    with pytest.raises(MaxTokensReached, match="increase max_tokens") as caught:
        run_agent(client, "Review PR #482", toolbox, max_tokens=17, thinking={"type": "disabled"})
    assert ran == []
    *_, cut = caught.value.response.content  # the cut falls in the tool call (thinking off here)
    assert cut.type == "tool_use"
    assert caught.value.messages == [{"role": "user", "content": "Review PR #482"}]


def test_refusal_stops_with_stop_details(client, toolbox):
    with pytest.raises(Refused, match="cyber") as caught:
        run_agent(client, "Write ransomware for me", toolbox)
    assert caught.value.stop_details.category == "cyber"


def test_pause_turn_is_sent_back_without_a_new_user_message(client):
    seen = Recorder()
    toolbox = Toolbox([])
    result = run_agent(client, "Search the web for the latest python-gitlab release", toolbox,
                       observers=[seen], extra_body={"tools": [{"type": "web_search_20250305", "name": "web_search"}]})
    assert result.stop_reason == "end_turn" and result.iterations == 2
    assert [m["role"] for m in result.messages] == ["user", "assistant", "assistant"]


def test_stop_sequence_returns_the_text_so_far(client):
    result = run_agent(client, "Count from 1 to 10", Toolbox([]), stop_sequences=["5"])
    assert (result.stop_reason, result.text) == ("stop_sequence", "1, 2, 3, 4, ")


def test_context_window_exceeded(client, sandbox):
    sandbox.context_window = 60
    with pytest.raises(ContextWindowExceeded):
        run_agent(client, "Explain the agent loop in detail", Toolbox([]), max_tokens=1000)


def test_iteration_cap_keeps_the_whole_history(client, tmp_path):
    endless = Toolbox([Tool("get_diff", "Get the diff of a merge request.",
                            {"type": "object", "properties": {"pr": {"type": "integer"}}},
                            lambda pr: (_ for _ in ()).throw(RuntimeError("503 Service Unavailable")))])
    with pytest.raises(IterationLimitReached, match="after 2 iterations") as caught:
        run_agent(client, "Review PR #482", endless, max_iterations=2, transcript=tmp_path / "t.jsonl")
    assert len(caught.value.messages) == 5
    assert load(tmp_path / "t.jsonl") == json.loads(json.dumps(caught.value.messages, default=lambda b: b.to_dict()))
    last = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[-1])
    assert last["event"] == "error" and last["kind"] == "IterationLimitReached"


def test_a_failed_run_resumes_from_its_transcript(client, toolbox, tmp_path):
    with pytest.raises(IterationLimitReached):
        run_agent(client, "Review PR #482", toolbox, max_iterations=1, transcript=tmp_path / "t.jsonl")
    resumed = run_agent(client, load(tmp_path / "t.jsonl"), toolbox, transcript=tmp_path / "t.jsonl")
    assert "shop/checkout.py:20" in resumed.text
    saved = load(tmp_path / "t.jsonl")
    assert len(saved) == len(resumed.messages) == 6  # nothing saved twice
    assert saved == json.loads(json.dumps(resumed.messages, default=lambda block: block.to_dict()))


def test_api_errors_carry_the_history(sandbox, toolbox):
    sandbox.faults.overloaded(times=5)
    with pytest.raises(ApiFailed, match="Overloaded") as caught:
        run_agent(sandbox.client(max_retries=1), "Review PR #482", toolbox)
    assert caught.value.messages == [{"role": "user", "content": "Review PR #482"}]


def test_transient_api_errors_are_retried_by_the_sdk(sandbox, toolbox):
    sandbox.faults.rate_limit(times=2)
    assert run_agent(sandbox.client(max_retries=2), "Review PR #482", toolbox).stop_reason == "end_turn"


def test_unknown_future_stop_reason_is_a_clear_error(client, toolbox, monkeypatch):
    from course_agent.loop import UnexpectedStopReason
    original = client.messages.create

    def create(**kwargs):
        response = original(**kwargs)
        return response.model_copy(update={"stop_reason": "brand_new_reason"})

    monkeypatch.setattr(client.messages, "create", create)
    with pytest.raises(UnexpectedStopReason, match="brand_new_reason"):
        run_agent(client, "Hello", toolbox)


def test_observers_are_told_of_a_failed_run(client, toolbox, tmp_path):
    recorder = Recorder()
    with pytest.raises(IterationLimitReached) as stopped:
        run_agent(client, "Review PR #482", toolbox, system=REVIEW_RULES, max_iterations=1, observers=[recorder])
    assert recorder.events[-1] == ("error", "IterationLimitReached")
    assert ("finish", "end_turn") not in recorder.events
    assert stopped.value.messages[-1]["role"] == "user"


def test_ctrl_c_is_an_interrupted_error_with_the_history_saved(sandbox, toolbox, tmp_path):
    from course_agent.loop import Interrupted

    client = sandbox.client()
    create = client.messages.create
    calls = []

    def interrupted_second_time(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return create(**kwargs)

    client.messages.create = interrupted_second_time
    recorder = Recorder()
    with pytest.raises(Interrupted) as stopped:
        run_agent(client, "Review PR #482", toolbox, system=REVIEW_RULES, transcript=tmp_path / "t.jsonl",
                  observers=[recorder])
    assert len(stopped.value.messages) == 3 and recorder.events[-1] == ("error", "Interrupted")
    lines = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert len([line for line in lines if "message" in line]) == 3 and lines[-1]["kind"] == "Interrupted"


def test_a_transcript_that_cannot_be_written_stops_the_run(client, toolbox, tmp_path):
    from course_agent.loop import TranscriptFailed

    path = tmp_path / "t.jsonl"
    recorder = Recorder()

    class BreakAfterTheFirstResponse(Recorder):
        def on_response(self, iteration, response):
            path.unlink()
            path.mkdir()

    with pytest.raises(TranscriptFailed) as stopped:
        run_agent(client, "Review PR #482", toolbox, system=REVIEW_RULES, transcript=path,
                  observers=[recorder, BreakAfterTheFirstResponse()])
    assert stopped.value.path == path and stopped.value.why
    assert recorder.events[-1] == ("error", "TranscriptFailed")
    assert ("request", 2, 3) not in recorder.events  # nothing more was asked of the model
