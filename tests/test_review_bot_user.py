"""`course-agent review` tried the way a new user (or a stranger's acceptance script) tries it: the
command run against the sandbox in a shell or a pipeline, the notes counted with python-gitlab."""

import subprocess
import sys
from pathlib import Path

import gitlab
import pytest

from course_agent import batch_review
from course_agent import transcript as transcripts
from course_agent.cli import main
from course_agent.gitlab import GitLabTools
from course_agent.publish import INLINE_MARKER, SUMMARY_MARKER, inline_key

import unset_settings


@pytest.fixture
def sandbox(own_shared_sandbox):
    return own_shared_sandbox


def mr_of(sb, pr):
    return gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project).mergerequests.get(pr)


def pipeline(sb, **extra):
    """A GitLab CI job's variables pointing at the sandbox; GITLAB_URL/GITLAB_PROJECT unset."""
    env = unset_settings.environment()
    env.update({"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_SERVER_URL": sb.gitlab_url,
                "CI_PROJECT_ID": "7", "CI_MERGE_REQUEST_IID": "482", "COURSE_AGENT_GITLAB_TOKEN": sb.gitlab_token,
                "ANTHROPIC_BASE_URL": sb.anthropic_base_url, "ANTHROPIC_API_KEY": sb.api_key})
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def job(tmp_path, env, *args):
    return subprocess.run([sys.executable, "-m", "course_agent.cli", "review", *args, "--post",
                           "--transcript", str(tmp_path / "job.jsonl")], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)


# ---------------------------------------------------------------- --post, run after run

def test_a_reply_written_with_the_bots_own_account_is_kept_and_resolved(sandbox):
    """Someone runs the command with their own token and answers one of its inline comments in the web
    page: the reply carries no marker, so it is a person's; the stale discussion is resolved, not deleted."""
    mr = mr_of(sandbox, 487)
    stale = inline_key("shop/checkout.py", 16)
    GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project, idempotent=True).publisher.inline(
        mr, "shop/checkout.py", 16, "an old finding")
    [discussion] = mr.discussions.list(get_all=True)
    discussion.notes.create({"body": "Not a bug: the cart is never empty here."})  # same token, same account
    assert main(["review", "487", "--post", "--transcript", "a.jsonl"]) == 0
    kept = mr.discussions.get(discussion.id).attributes["notes"]
    assert [n["body"] for n in kept][1] == "Not a bug: the cart is never empty here."
    assert INLINE_MARKER.format(key=stale) in kept[0]["body"] and kept[0]["resolved"] is True


def test_a_stale_comment_nobody_answered_is_still_removed(sandbox):
    mr = mr_of(sandbox, 487)
    GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project, idempotent=True).publisher.inline(
        mr, "shop/checkout.py", 16, "an old finding")
    assert main(["review", "487", "--post", "--transcript", "a.jsonl"]) == 0
    bodies = [d.attributes["notes"][0]["body"] for d in mr.discussions.list(get_all=True)]
    assert not any(INLINE_MARKER.format(key=inline_key("shop/checkout.py", 16)) in b for b in bodies)
    assert sum(SUMMARY_MARKER in b for b in bodies) == 1


def test_a_project_gitlab_does_not_know_is_exit_3_not_a_review(sandbox, monkeypatch, capsys):
    monkeypatch.setenv("GITLAB_URL", sandbox.gitlab_url)
    monkeypatch.setenv("GITLAB_TOKEN", sandbox.gitlab_token)
    monkeypatch.setenv("GITLAB_PROJECT", "course/nope")
    assert main(["review", "482", "--transcript", "a.jsonl"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and "project course/nope: not found" in err.splitlines()[-1]
    assert "GITLAB_PROJECT" in err.splitlines()[-1]


# ---------------------------------------------------------------- in a pipeline

def test_a_pipeline_at_a_gitlab_under_a_sub_path_it_cannot_find_fails(sandbox, tmp_path):
    """CI_SERVER_URL with a sub-path the server does not serve: the project is not found, exit 3 (not 0)."""
    done = job(tmp_path, pipeline(sandbox, CI_SERVER_URL=sandbox.gitlab_url + "/gitlab"))
    assert done.returncode == 3, done.stderr
    assert "project 7: not found" in done.stderr.splitlines()[-1] and "CI_SERVER_URL" in done.stderr
    assert not [n for n in mr_of(sandbox, 482).notes.list(get_all=True) if SUMMARY_MARKER in n.body]


def test_a_push_pipeline_says_it_is_not_a_merge_request_pipeline(sandbox, tmp_path):
    done = job(tmp_path, pipeline(sandbox, CI_MERGE_REQUEST_IID=None, CI_PIPELINE_SOURCE="push"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "which merge request?" in done.stderr
    assert "(CI_PIPELINE_SOURCE=push) is not a merge-request pipeline" in done.stderr


def test_a_rejected_token_names_the_variable_it_came_from(sandbox, tmp_path):
    done = job(tmp_path, pipeline(sandbox, COURSE_AGENT_GITLAB_TOKEN="glpat-wrongwrongwrong"))
    assert done.returncode == 4
    assert "check COURSE_AGENT_GITLAB_TOKEN" in done.stderr.splitlines()[-1]
    assert "glpat-wrongwrongwrong" not in done.stdout + done.stderr + (tmp_path / "job.jsonl").read_text()


def test_the_job_twice_with_a_trailing_slash_and_the_path_leaves_one_review(sandbox, tmp_path):
    env = pipeline(sandbox, CI_SERVER_URL=sandbox.gitlab_url + "/", CI_PROJECT_ID=None,
                   CI_PROJECT_PATH="course/shop", COURSE_AGENT_GITLAB_TOKEN=None, GITLAB_TOKEN=sandbox.gitlab_token)
    for _ in range(2):
        assert job(tmp_path, env).returncode == 0
    mr = mr_of(sandbox, 482)
    assert len([n for n in mr.notes.list(get_all=True) if SUMMARY_MARKER in n.body]) == 1
    assert len([d for d in mr.discussions.list(get_all=True) if d.attributes["notes"][0].get("position")]) == 1


# ---------------------------------------------------------------- --all-open --batch --resume

def test_resume_of_a_directory_without_transcripts_is_a_setup_error(sandbox, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["review", "--all-open", "--batch", "--resume", "empty"]) == 2
    assert "holds no review transcripts" in capsys.readouterr().err.splitlines()[-1]


def test_resume_of_a_finished_run_says_there_is_nothing_left(sandbox, capsys):
    assert main(["review", "--all-open", "--batch", "--transcript", "runs"]) == 0
    capsys.readouterr()
    assert main(["review", "--all-open", "--batch", "--resume", "runs"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "has finished: nothing to resume" in err


def test_a_posting_run_resumed_without_post_is_refused_before_anything_runs(sandbox, capsys):
    assert main(["review", "--all-open", "--batch", "--post", "--max-iterations", "1", "--transcript", "runs"]) == 5
    capsys.readouterr()
    assert main(["review", "--all-open", "--batch", "--resume", "runs"]) == 2
    assert "started with --post: resume them with --post too" in capsys.readouterr().err
    assert main(["review", "--all-open", "--batch", "--post", "--resume", "runs"]) == 0
    for pr in (482, 483, 484, 485, 486, 487):
        assert len([n for n in mr_of(sandbox, pr).notes.list(get_all=True) if SUMMARY_MARKER in n.body]) == 1


def test_ctrl_c_in_a_batch_run_says_how_to_go_on(sandbox, monkeypatch, capsys):
    real, calls = batch_review._one_batch, []

    def interrupted_in_round_two(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(batch_review, "_one_batch", interrupted_in_round_two)
    assert main(["review", "--all-open", "--batch", "--post", "--transcript", "runs"]) == 130
    last = capsys.readouterr().err.splitlines()[-1]
    assert "course-agent review --all-open --batch --post --resume runs" in last
    monkeypatch.setattr(batch_review, "_one_batch", real)
    assert main(["review", "--all-open", "--batch", "--post", "--resume", "runs"]) == 0
    for path in sorted(Path("runs").glob("review-*.jsonl")):
        assert transcripts.finished(path)


def positioned(mr):
    return [d for d in mr.discussions.list(get_all=True) if d.attributes["notes"][0].get("position")]


def test_resume_keeps_the_inline_comments_posted_before_the_interruption(sandbox, capsys):
    """!487 comments inline in its second round; stopped there (the cap, as a killed process would), its
    resumed review only posts the summary. The clean-up after it must not take the inline comment the
    same review made before for a stale one."""
    assert main(["review", "--all-open", "--batch", "--post", "--max-iterations", "2", "--transcript", "runs"]) == 5
    assert len(positioned(mr_of(sandbox, 487))) == 1
    capsys.readouterr()
    assert main(["review", "--all-open", "--batch", "--post", "--resume", "runs"]) == 0
    assert "earlier inline comments no longer reported" not in capsys.readouterr().err
    for pr, places in {482: 1, 484: 1, 487: 1}.items():
        assert len(positioned(mr_of(sandbox, pr))) == places
        assert len([n for n in mr_of(sandbox, pr).notes.list(get_all=True) if SUMMARY_MARKER in n.body]) == 1


def test_resume_through_the_python_api_with_a_client_with_options(sandbox, tmp_path):
    from course_agent.batch_review import billed, resume_loops, run_batches, start_loops
    from course_agent.review import reviewer_toolbox

    def toolbox():
        tools = GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project, idempotent=True)
        return tools, reviewer_toolbox(tools, post=True, nobody_to_ask="batch mode")

    client = sandbox.client().with_options(max_retries=4, timeout=60)
    tools, box = toolbox()
    loops = run_batches(client, start_loops([487], tmp_path, post=True, language="en"), box, max_iterations=2,
                        progress=lambda line: None)
    assert type(loops[0].error).__name__ == "IterationLimitReached"
    tools, box = toolbox()  # a new process
    [loop] = run_batches(client, resume_loops(tmp_path, box), box, progress=lambda line: None)
    assert loop.result is not None and tools.finish_review(487) == []
    assert len(positioned(mr_of(sandbox, 487))) == 1
    assert billed(loop.usage, batch=True)[0] > 0


def test_a_new_run_into_a_directory_of_transcripts_is_refused(sandbox, capsys):
    """Appending a second conversation to each review-<iid>.jsonl would make neither run resumable."""
    assert main(["review", "--all-open", "--batch", "--max-iterations", "1", "--transcript", "runs"]) == 5
    before = {path.name: path.read_text() for path in Path("runs").glob("review-*.jsonl")}
    capsys.readouterr()
    for batch in (["--batch"], []):
        assert main(["review", "--all-open", *batch, "--transcript", "runs"]) == 2
        assert "already holds review transcripts" in capsys.readouterr().err.splitlines()[-1]
    assert {path.name: path.read_text() for path in Path("runs").glob("review-*.jsonl")} == before
    assert main(["review", "--all-open", "--batch", "--resume", "runs"]) == 0
    for path in Path("runs").glob("review-*.jsonl"):
        roles = [m["role"] for m in transcripts.load(path)]
        assert all(a != b for a, b in zip(roles, roles[1:])) and transcripts.finished(path)


def test_a_quote_reply_to_the_summary_with_the_same_account_is_not_taken_for_ours(sandbox):
    """GitLab's "Quote reply" copies the note, hidden marker included, and the person writes below it."""
    assert main(["review", "483", "--post", "--transcript", "a.jsonl"]) == 0
    mr = mr_of(sandbox, 483)
    [summary] = [n for n in mr.notes.list(get_all=True) if SUMMARY_MARKER in n.body]
    quoted = "\n".join("> " + line for line in summary.body.splitlines()) + "\n\nI disagree with the verdict."
    mr.notes.create({"body": quoted})
    assert main(["review", "483", "--post", "--transcript", "b.jsonl"]) == 0
    bodies = [n.body for n in mr_of(sandbox, 483).notes.list(get_all=True)]
    assert quoted in bodies
    assert sum(b.rstrip().endswith(SUMMARY_MARKER) for b in bodies) == 1


def test_a_quote_reply_in_a_stale_inline_discussion_is_kept(sandbox):
    mr = mr_of(sandbox, 487)
    GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project, idempotent=True).publisher.inline(
        mr, "shop/checkout.py", 16, "an old finding")
    [discussion] = mr.discussions.list(get_all=True)
    first = discussion.attributes["notes"][0]["body"]
    reply = "\n".join("> " + line for line in first.splitlines()) + "\n\nFixed in the next commit."
    discussion.notes.create({"body": reply})
    assert main(["review", "487", "--post", "--transcript", "a.jsonl"]) == 0
    kept = mr.discussions.get(discussion.id).attributes["notes"]
    assert kept[1]["body"] == reply and kept[0]["resolved"] is True


def test_a_stale_discussion_resolved_once_is_not_reported_again_on_every_run(sandbox, capsys):
    mr = mr_of(sandbox, 487)
    GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project, idempotent=True).publisher.inline(
        mr, "shop/checkout.py", 16, "an old finding")
    [discussion] = mr.discussions.list(get_all=True)
    sandbox.gitlab.notes.reply(sandbox.gitlab.merge_requests[487].discussions, discussion.id, "Fixed, thanks.",
                               "alice")
    assert main(["review", "487", "--post", "--transcript", "a.jsonl"]) == 0
    assert "or resolved where someone replied): shop/checkout.py:16" in capsys.readouterr().err
    assert main(["review", "487", "--post", "--transcript", "b.jsonl"]) == 0
    assert "shop/checkout.py:16" not in capsys.readouterr().err
    kept = mr.discussions.get(discussion.id).attributes["notes"]
    assert len(kept) == 2 and kept[0]["resolved"] is True


@pytest.mark.parametrize("lang, words", [("en", "is not a readable transcript"), ("ru", "не читается как транскрипт")])
def test_resume_with_a_line_cut_short_says_which_file(sandbox, capsys, monkeypatch, lang, words):
    """A process killed while writing a line leaves it cut short: resuming names the file and what to do,
    in the learner's language, instead of a bare JSON error."""
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", lang)
    assert main(["review", "--all-open", "--batch", "--max-iterations", "1", "--transcript", "runs"]) == 5
    with open(Path("runs") / "review-483.jsonl", "a", encoding="utf-8") as transcript:
        transcript.write('{"message": {"role": "assis')
    capsys.readouterr()
    assert main(["review", "--all-open", "--batch", "--resume", "runs"]) == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert "review-483.jsonl" in last and words in last
