"""`course-agent review --post` in a GitLab CI merge-request pipeline: the job's predefined
variables are enough, merges are refused, exit codes map to job results, the token stays secret."""

import json
import subprocess
import sys
from pathlib import Path

import gitlab
import pytest
import yaml

from course_agent import ci_env, cli
from course_agent.publish import SUMMARY_MARKER
from course_sandbox import Sandbox

import unset_settings

ROOT = Path(__file__).resolve().parent.parent
CI_TOKEN = "ci-masked-token-4f9a2c7e1b"
"""Shaped like no known key: only registering it as a secret can hide it."""


@pytest.fixture(scope="module")
def sandbox():
    sb = Sandbox()
    sb.gitlab_token = CI_TOKEN  # the demo GitLab accepts this token, as a real one accepts a project token
    with sb:
        yield sb


def ci_environment(sb, iid="482", **extra):
    """A merge-request pipeline's variables, pointing at the sandbox (model and GitLab)."""
    env = unset_settings.environment()
    env.update({"GITLAB_CI": "true", "CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
                "CI_SERVER_URL": sb.gitlab_url, "CI_PROJECT_ID": "7", "CI_PROJECT_PATH": "course/shop",
                "CI_MERGE_REQUEST_IID": iid, "COURSE_AGENT_GITLAB_TOKEN": CI_TOKEN,
                "ANTHROPIC_BASE_URL": sb.anthropic_base_url, "ANTHROPIC_API_KEY": sb.api_key})
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run_job(tmp_path, env, *args):
    return subprocess.run([sys.executable, "-m", "course_agent.cli", "review", *args, "--post",
                           "--transcript", str(tmp_path / "run.jsonl")],
                          capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path,
                          stdin=subprocess.DEVNULL)


def merge_request(sb, iid):
    return gitlab.Gitlab(sb.gitlab_url, private_token=CI_TOKEN).projects.get(7).mergerequests.get(iid)


def everything_written(done, tmp_path):
    files = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.jsonl"))
    return done.stdout + done.stderr + files


def test_the_job_reviews_its_merge_request_with_no_flag_but_post(sandbox, tmp_path):
    for run in range(2):
        done = run_job(tmp_path, ci_environment(sandbox, "483"))
        assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Posted the review on !483.")
    mr = merge_request(sandbox, 483)
    assert sum(SUMMARY_MARKER in n.body for n in mr.notes.list(get_all=True)) == 1
    assert "using the GitLab at" not in done.stderr  # client.gitlab_settings() was not asked
    assert CI_TOKEN not in everything_written(done, tmp_path)


def test_inline_comments_from_ci_and_the_token_never_shows(sandbox, tmp_path):
    done = run_job(tmp_path, ci_environment(sandbox, "484", CI_PROJECT_ID=None))  # the path is enough
    assert done.returncode == 0, done.stderr
    assert "Inline comments on: shop/tax.py:11." in done.stdout
    discussions = merge_request(sandbox, 484).discussions.list(get_all=True)
    assert [d.attributes["notes"][0]["position"]["new_line"] for d in discussions
            if d.attributes["notes"][0].get("position")] == [11]
    assert CI_TOKEN not in everything_written(done, tmp_path)


def test_merges_are_refused_in_ci_whatever_the_approval_says(sandbox, tmp_path):
    done = run_job(tmp_path, ci_environment(sandbox, "485", COURSE_AGENT_AUTO_APPROVE="approve"))
    assert done.returncode == 0, done.stderr
    assert "nobody can be asked here (GitLab CI)" in done.stdout
    assert sandbox.gitlab.merge_requests[485].state == "opened"
    audit = [json.loads(line) for line in (tmp_path / "run.audit.jsonl").read_text().splitlines()]
    assert [(a["tool"], a["decision"]) for a in audit if a["tool"] == "merge_pr"] == [("merge_pr", "denied")]


@pytest.mark.parametrize("force, args, code, words", [
    ("refusal", [], cli.EXIT_REFUSED, "the model refused to continue"),
    (None, ["--max-iterations", "1"], cli.EXIT_ITERATIONS, "no answer after 1 iteration (the cap)"),
])
def test_refusal_and_the_cap_are_the_exit_codes_the_job_allows(sandbox, tmp_path, force, args, code, words):
    if force:
        sandbox.force(force)
    done = run_job(tmp_path, ci_environment(sandbox, "486"), *args)
    assert done.returncode == code and words in done.stderr.splitlines()[-1]
    job = list(yaml.safe_load_all((ROOT / "templates" / "review.yml").read_text()))[1]["course-agent-review"]
    assert code in job["allow_failure"]["exit_codes"]


@pytest.mark.parametrize("extra, words", [
    ({"COURSE_AGENT_GITLAB_TOKEN": None}, "set a masked CI/CD variable COURSE_AGENT_GITLAB_TOKEN"),
    ({"ANTHROPIC_API_KEY": None, "ANTHROPIC_BASE_URL": None}, "set a masked CI/CD variable ANTHROPIC_API_KEY"),
    ({"CI_MERGE_REQUEST_IID": None}, "which merge request?"),
])
def test_a_job_missing_a_variable_is_a_setup_error_in_one_line(sandbox, tmp_path, extra, words):
    done = run_job(tmp_path, ci_environment(sandbox, **extra))
    assert done.returncode == cli.EXIT_USAGE
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr


def test_the_template_runs_the_review_in_merge_request_pipelines_only():
    job = list(yaml.safe_load_all((ROOT / "templates" / "review.yml").read_text()))[1]["course-agent-review"]
    assert 'course-agent review "$CI_MERGE_REQUEST_IID" --post' in "\n".join(job["script"])
    assert job["rules"][-1]["if"].startswith('$CI_PIPELINE_SOURCE == "merge_request_event" && ')  # tests/test_ci_pipelines.py
    assert sorted(job["allow_failure"]["exit_codes"]) == sorted(cli.SOFT_FAILURES)
    docs = (ROOT / "docs" / "gitlab-ci.md").read_text()
    assert "COURSE_AGENT_GITLAB_TOKEN" in docs and "ANTHROPIC_API_KEY" in docs and "include:" in docs


def test_the_ci_variables_outside_and_inside_a_pipeline():
    assert ci_env.pipeline_gitlab({"CI_SERVER_URL": "https://gitlab.example.com"}) is None
    inside = {"GITLAB_CI": "true", "CI_SERVER_URL": "https://gitlab.example.com", "CI_PROJECT_ID": "42",
              "CI_PROJECT_PATH": "group/shop", "GITLAB_TOKEN": "t0ken-value", "CI_MERGE_REQUEST_IID": "17"}
    assert ci_env.pipeline_gitlab(inside) == ("https://gitlab.example.com", "t0ken-value", "42")
    # GITLAB_URL and GITLAB_PROJECT are common names another tool's variables may have: in CI only the
    # COURSE_AGENT_ ones move the review (and its token) to another GitLab or project
    assert ci_env.pipeline_gitlab({**inside, "GITLAB_URL": "https://other.example.com", "GITLAB_PROJECT": "a/b",
                                   "COURSE_AGENT_GITLAB_TOKEN": "preferred"}) == \
        ("https://gitlab.example.com", "preferred", "42")
    assert ci_env.pipeline_gitlab({**inside, "COURSE_AGENT_GITLAB_URL": "https://other.example.com",
                                   "COURSE_AGENT_GITLAB_PROJECT": "a/b"}) == \
        ("https://other.example.com", "t0ken-value", "a/b")
    assert ci_env.merge_request_iid(inside) == 17
    assert ci_env.merge_request_iid({**inside, "CI_MERGE_REQUEST_IID": "x"}) is None
    assert ci_env.merge_request_iid({"CI_MERGE_REQUEST_IID": "17"}) is None  # not in CI


def test_the_ci_token_is_a_secret_from_the_moment_it_is_read():
    """The job-level checks above pass only if nothing echoes the token; this one fails if the token read
    from the masked variable is not registered as a secret."""
    import secrets

    from course_agent import ci_env
    from course_agent.redaction import redact

    token = "ci-" + secrets.token_hex(12)  # shaped like no known key, so only registration hides it
    line = f"GitLab said: bad token {token}"
    assert token in redact(line)  # not known yet
    ci_env.pipeline_gitlab({"GITLAB_CI": "true", "CI_SERVER_URL": "https://gitlab.example", "CI_PROJECT_ID": "7",
                            "COURSE_AGENT_GITLAB_TOKEN": token})
    assert token not in redact(line) and token[:8] not in redact(line)
