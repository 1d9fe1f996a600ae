"""`course-agent review --all-open [--batch] [--resume DIR]`: every open merge request, the
batch driver's rules (the same as run_agent's), resumable transcripts, the bill at half price."""

import re
from pathlib import Path

import gitlab
import pytest

from course_agent import client as client_module
from course_agent import transcript as transcripts
from course_agent.batch_review import resume_loops, run_batches, start_loops
from course_agent.cli import EXIT_ITERATIONS, EXIT_OK, EXIT_STOPPED, main
from course_agent.config import model_id
from course_agent.gitlab import GitLabTools
from course_agent.publish import SUMMARY_MARKER
from course_agent.review import REVIEW_RULES, reviewer_toolbox

OPEN = [482, 483, 484, 485, 486, 487]


@pytest.fixture
def sandbox(own_shared_sandbox):
    return own_shared_sandbox


def project(sb):
    return gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project)


def billed_line(err: str) -> tuple[float, float]:
    match = re.search(r"billed for \d+ reviews: ([\d.]+) input tokens, ([\d.]+) output tokens", err)
    return float(match.group(1)), float(match.group(2))


def reviews_printed(out: str) -> dict[int, str]:
    parts = re.split(r"^=== !(\d+) ===\n", out, flags=re.M)[1:]
    return {int(pr): text.strip() for pr, text in zip(parts[::2], parts[1::2])}


def assert_replays(sb, path: Path) -> None:
    """The transcript is a valid Messages conversation: the API accepts it as `messages`, with the next user
    turn after it (it ends with the model's answer, and today's models take no assistant prefill)."""
    messages = [*transcripts.load(path), {"role": "user", "content": "Thank you."}]
    tools = GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project).tools()
    counted = sb.client().messages.count_tokens(model=model_id(), system=REVIEW_RULES, messages=messages,
                                                tools=[t.to_param() for t in tools])
    assert counted.input_tokens > 0


def test_all_open_in_batches_matches_one_at_a_time_at_half_the_price(sandbox, capsys):
    assert main(["review", "--all-open", "--transcript", "one-by-one"]) == EXIT_OK
    one_by_one = capsys.readouterr()
    sandbox.clear_cache()  # the same start for both: nothing cached
    assert main(["review", "--all-open", "--batch", "--transcript", "batched"]) == EXIT_OK
    batched = capsys.readouterr()
    assert list(reviews_printed(batched.out)) == OPEN
    same = {pr: text for pr, text in reviews_printed(batched.out).items() if pr != 485}
    assert same == {pr: text for pr, text in reviews_printed(one_by_one.out).items() if pr != 485}
    assert "no terminal to ask on" in reviews_printed(one_by_one.out)[485]  # asked, and nobody answered
    assert "[round 1] !482: tool_use -> get_diff(pr=482)" in batched.err
    assert "[round 2] !483: end_turn" in batched.err
    assert "(Message Batches: half price)" in batched.err and "(one request at a time)" in one_by_one.err
    batch_input, batch_output = billed_line(batched.err)
    alone_input, alone_output = billed_line(one_by_one.err)
    # the same requests (but !485's refusal, worded for batch mode), at half the price
    assert 0.45 * alone_input < batch_input < 0.55 * alone_input
    assert 0.45 * alone_output < batch_output < 0.55 * alone_output
    for pr in OPEN:
        assert transcripts.finished(Path("batched") / f"review-{pr}.jsonl")
        assert_replays(sandbox, Path("batched") / f"review-{pr}.jsonl")
    # no --post: nothing written; merges refused in batch mode, without asking anyone
    assert all(mr.notes.list(get_all=True) == [] for mr in project(sandbox).mergerequests.list(get_all=True))
    assert "nobody can be asked here (batch mode)" in reviews_printed(batched.out)[485]
    assert sandbox.gitlab.merge_requests[485].state == "opened"


def test_one_batch_per_round_with_every_unfinished_review(sandbox, capsys):
    assert main(["review", "--all-open", "--batch", "--post"]) == EXIT_OK
    rounds = sorted({int(n) for n in re.findall(r"^\[round (\d+)\]", capsys.readouterr().err, flags=re.M)})
    batches = list(sandbox.client().messages.batches.list())
    assert len(batches) == len(rounds) == rounds[-1]
    assert [b.request_counts.succeeded for b in reversed(batches)][0] == len(OPEN)


def test_batch_post_twice_leaves_one_review_per_merge_request(sandbox):
    for run in range(2):
        assert main(["review", "--all-open", "--batch", "--post", "--transcript", f"run{run}"]) == EXIT_OK
    for mr in project(sandbox).mergerequests.list(state="opened", get_all=True):
        assert sum(SUMMARY_MARKER in n.body for n in mr.notes.list(get_all=True)) == 1
        places = [d.attributes["notes"][0]["position"]["new_line"] for d in mr.discussions.list(get_all=True)
                  if d.attributes["notes"][0].get("position")]
        assert len(places) == len(set(places)) == {482: 1, 484: 1, 487: 1}.get(mr.iid, 0)


def test_capped_reviews_resume_from_their_transcripts(sandbox, capsys):
    assert main(["review", "--all-open", "--batch", "--post", "--max-iterations", "2",
                 "--transcript", "runs"]) == EXIT_ITERATIONS
    err = capsys.readouterr().err
    assert "!482: no answer after 2 iterations (the cap)" in err
    unfinished = [pr for pr in OPEN if not transcripts.finished(Path("runs") / f"review-{pr}.jsonl")]
    assert unfinished == OPEN
    before = {pr: transcripts.load(Path("runs") / f"review-{pr}.jsonl") for pr in OPEN}

    assert main(["review", "--all-open", "--batch", "--post", "--resume", "runs"]) == EXIT_OK
    resumed = capsys.readouterr()
    assert set(reviews_printed(resumed.out)) == set(OPEN)
    for pr in OPEN:
        path = Path("runs") / f"review-{pr}.jsonl"
        after = transcripts.load(path)
        assert after[:len(before[pr])] == before[pr]  # continued, not started again
        assert transcripts.finished(path)
        assert_replays(sandbox, path)
    assert sum(SUMMARY_MARKER in n.body for n in project(sandbox).mergerequests.get(482).notes.list(get_all=True)) == 1
    # a third run has nothing left to do
    assert main(["review", "--all-open", "--batch", "--resume", "runs"]) == EXIT_OK
    assert reviews_printed(capsys.readouterr().out) == {}


def test_a_response_whose_tools_never_ran_gets_them_run_on_resume(sandbox, tmp_path):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project), post=True)
    loops = run_batches(sandbox.client(), start_loops([483], tmp_path, post=True, language="en"), toolbox,
                        max_iterations=1, progress=lambda line: None)
    assert loops[0].error is not None  # the cap, after get_diff ran
    path = tmp_path / "review-483.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # as if the process had died before the results were saved
    [loop] = resume_loops(tmp_path, toolbox)
    assert [m["role"] for m in loop.messages] == ["user", "assistant", "user"]
    assert loop.messages[-1]["content"][0]["type"] == "tool_result"
    run_batches(sandbox.client(), [loop], toolbox, progress=lambda line: None)
    assert loop.result is not None and loop.result.text.startswith("Posted the review on !483.")
    assert_replays(sandbox, path)


def test_a_loop_that_fails_ends_alone_and_a_paused_turn_is_sent_again(sandbox, tmp_path):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    loops = start_loops([482, 483], tmp_path, post=False, language="en")
    sandbox.force("max_tokens", "pause_turn")  # the first two answers of the first batch
    lines: list[str] = []
    run_batches(sandbox.client(), loops, toolbox, progress=lines.append)
    assert "!482: stopped: the answer was cut at max_tokens" in lines[0]
    assert lines[1] == "[round 1] !483: pause_turn"
    assert loops[0].error is not None and loops[1].result is not None
    saved = transcripts.entries(tmp_path / "review-483.jsonl")
    assert [e.get("stop_reason") for e in saved if "message" in e][1] == "pause_turn"
    assert loops[1].result.text.startswith("Review of !483")


def test_an_errored_request_ends_its_review_with_the_api_error(sandbox, tmp_path, capsys):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    [loop] = start_loops([486], tmp_path, post=False, language="en")
    loops = run_batches(sandbox.client(), [loop], toolbox, model="claude-no-such-model", progress=lambda line: None)
    assert "the batch request failed (errored)" in str(loops[0].error)
    events = [e for e in transcripts.entries(tmp_path / "review-486.jsonl") if e.get("event") == "error"]
    assert events and events[0]["kind"] == "ApiFailed"


def test_usage_errors_of_the_new_flags(sandbox, capsys):
    assert main(["review", "--batch"]) == 2
    assert "use it with --all-open" in capsys.readouterr().err
    assert main(["review", "482", "--all-open"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["review"]) == 2
    assert "which merge request?" in capsys.readouterr().err
    assert main(["review", "--all-open", "--batch", "--resume", "no-such-dir"]) == 2
    assert "nothing to resume" in capsys.readouterr().err


def test_a_failure_among_many_is_the_exit_code_and_the_others_are_printed(sandbox, capsys):
    sandbox.force("max_tokens")
    assert main(["review", "--all-open", "--batch"]) == EXIT_STOPPED
    captured = capsys.readouterr()
    assert "course-agent review: !482: the answer was cut at max_tokens" in captured.err
    assert set(reviews_printed(captured.out)) == set(OPEN) - {482}


def test_a_batch_the_api_refuses_ends_every_review_with_exit_4(sandbox, monkeypatch, capsys):
    monkeypatch.setattr(client_module, "make_client",
                        lambda: sandbox.client(api_key="sk-ant-bad-key-00000", max_retries=0))
    assert main(["review", "--all-open", "--batch", "--transcript", "runs"]) == 4
    err = capsys.readouterr().err
    assert "[round 1] !482: stopped: the API call failed" in err and "rejected the key" in err
    assert "sk-ant-bad-key" not in err
    assert all(not transcripts.finished(Path("runs") / f"review-{pr}.jsonl") for pr in OPEN)


def test_resume_ignores_files_that_are_not_review_transcripts(sandbox, tmp_path):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    start_loops([483], tmp_path, post=False, language="en")
    (tmp_path / "review-483.audit.jsonl").write_text("")
    (tmp_path / "review-notes.jsonl").write_text("")
    assert [loop.pr for loop in resume_loops(tmp_path, toolbox)] == [483]


@pytest.mark.parametrize("failure", [KeyboardInterrupt(), "connection"])
def test_a_batch_left_while_waiting_is_cancelled(failure):
    """Ctrl-C or a failed poll leaves the batch's results unread, and --resume sends the requests again:
    the batch is cancelled, not left running to be paid for twice."""
    import types

    import anthropic
    import httpx

    from course_agent.batch_review import _one_batch

    if failure == "connection":
        failure = anthropic.APIConnectionError(request=httpx.Request("GET", "http://127.0.0.1/v1/messages/batches"))
    cancelled = []

    def retrieve(batch_id):
        raise failure

    batches = types.SimpleNamespace(create=lambda requests: types.SimpleNamespace(id="msgbatch_1"),
                                    retrieve=retrieve, cancel=cancelled.append)
    client = types.SimpleNamespace(messages=types.SimpleNamespace(batches=batches))
    with pytest.raises(type(failure)):
        _one_batch(client, [{"custom_id": "mr-482", "params": {}}], poll=0)
    assert cancelled == ["msgbatch_1"]


@pytest.mark.parametrize("project, token, code, words", [
    ("course/nope", None, 3, "project course/nope: not found at this GitLab (404): check GITLAB_URL and GITLAB_PROJECT"),
    ("course/shop", "glpat-wrong-token-0000", 4, "GitLab rejected the token (401 Unauthorized): check GITLAB_TOKEN"),
])
def test_all_open_without_the_project_or_with_a_bad_token_is_exit_3_or_4(sandbox, monkeypatch, capsys, project,
                                                                         token, code, words):
    """Listing the open merge requests fails as a single review would: the same exit code and reason."""
    monkeypatch.setenv("GITLAB_URL", sandbox.gitlab_url)
    monkeypatch.setenv("GITLAB_TOKEN", token or sandbox.gitlab_token)
    monkeypatch.setenv("GITLAB_PROJECT", project)
    assert main(["review", "--all-open", "--batch", "--transcript", "runs"]) == code
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith(f"course-agent review: {words}")
    assert "glpat-wrong-token" not in err


def test_a_refused_review_is_finished_and_not_sent_again_on_resume(sandbox, tmp_path):
    """A refusal ends the loop for good (retrying the same request gives the same): --resume leaves it,
    while a review cut at max_tokens is picked up again."""
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    loops = start_loops([482, 483], tmp_path, post=False, language="en")
    sandbox.force("refusal", "max_tokens")  # the first two answers of the first batch
    run_batches(sandbox.client(), loops, toolbox, progress=lambda line: None)
    assert "refused" in str(loops[0].error) and loops[1].error is not None
    assert transcripts.finished(tmp_path / "review-482.jsonl")
    assert not transcripts.finished(tmp_path / "review-483.jsonl")
    assert [loop.pr for loop in resume_loops(tmp_path, toolbox)] == [483]
