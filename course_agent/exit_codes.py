"""How a `course-agent` run ends: its exit code and, when it is not a success, the one line on stderr
that says why (the command's contract, see cli.py)."""

import sys

from .i18n import ntr, tr

(EXIT_OK, EXIT_USAGE, EXIT_NO_SUCH_MR, EXIT_AUTH, EXIT_ITERATIONS, EXIT_REFUSED, EXIT_API,
 EXIT_STOPPED) = 0, 2, 3, 4, 5, 6, 7, 8
EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report a process ended by SIGINT (128 + 2)."""


def say(line: str) -> None:
    """One line on stderr, secrets masked."""
    from .redaction import redact

    print(redact(line), file=sys.stderr, flush=True)


def failure(result_messages: list, error: Exception | None, *, pr: int, max_iterations: int,
            lang: str) -> tuple[int, str] | None:
    """The exit code and one-line reason for a run that did not produce a review."""
    import anthropic

    from .loop import (
        ApiFailed,
        ContextWindowExceeded,
        Interrupted,
        IterationLimitReached,
        MaxTokensReached,
        Refused,
        TranscriptFailed,
    )

    if isinstance(error, Interrupted):
        return EXIT_INTERRUPTED, tr("interrupted (Ctrl-C); the transcript keeps everything up to here", lang)
    if isinstance(error, TranscriptFailed):
        reason = tr("could not save to the transcript {path} ({why}); the run stopped so that nothing it did "
                    "goes unrecorded", lang, path=error.path, why=error.why)
        if error.unsaved:
            reason += ". " + tr("Not saved: {results}", lang, results="; ".join(error.unsaved))
        return EXIT_STOPPED, reason
    for message in result_messages:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if isinstance(block, dict) and block.get("is_error"):
                failure = gitlab_failure(str(block.get("content", "")), pr, lang)
                if failure is not None:
                    return failure
    if error is None:
        return None
    if isinstance(error, ApiFailed):
        cause = error.__cause__
        if isinstance(cause, anthropic.AuthenticationError):
            return EXIT_AUTH, tr("the Anthropic API rejected the key (401): check ANTHROPIC_API_KEY", lang)
        if isinstance(cause, anthropic.APIStatusError) and 400 <= cause.status_code < 500 \
                and not isinstance(cause, anthropic.RateLimitError):  # the same request fails again: no retry
            return EXIT_STOPPED, tr("the API rejected the request ({status}); sent again it fails again: {detail}",
                                    lang, status=cause.status_code, detail=cause)
        return EXIT_API, tr("the API call failed: {detail}", lang, detail=cause if cause is not None else error)
    if isinstance(error, IterationLimitReached):
        return EXIT_ITERATIONS, ntr("no answer after {n} iteration (the cap); the transcript keeps the whole history",
                                    "no answer after {n} iterations (the cap); the transcript keeps the whole history",
                                    max_iterations, lang)
    if isinstance(error, Refused):
        details = error.stop_details
        category = getattr(details, "category", None) or "?"
        return EXIT_REFUSED, tr("the model refused to continue (category: {category}); retrying will not help",
                                lang, category=category)
    if isinstance(error, MaxTokensReached):
        return EXIT_STOPPED, tr("the answer was cut at max_tokens (any cut-off tool call was not run)", lang)
    if isinstance(error, ContextWindowExceeded):
        return EXIT_STOPPED, tr("the conversation no longer fits the model's context window", lang)
    return EXIT_STOPPED, tr("the run stopped: {detail}", lang, detail=error)


def gitlab_failure(text: str, pr: int | None, lang: str) -> tuple[int, str] | None:
    """The exit code and reason when a GitLab tool's error says the run cannot go on: no such merge
    request or project, or a rejected token. It matches the words GitLabTools._call writes, not any
    "401" or "!48...": a line number or another merge request's number is no failure."""
    if pr is not None and text.startswith(f"merge request !{pr}: not found"):
        return EXIT_NO_SUCH_MR, tr("merge request !{pr}: not found (GitLab answered 404)", lang, pr=pr)
    if text.startswith("project ") and ": not found" in text:
        return EXIT_NO_SUCH_MR, _no_such_project(text.split(": not found")[0][len("project "):], lang)
    if "(401 Unauthorized)" in text:
        return EXIT_AUTH, _token_rejected(lang)
    return None


def _no_such_project(project: str, lang: str) -> str:
    from . import ci_env

    if ci_env.in_ci():
        return tr("project {project}: not found at this GitLab (404): check CI_SERVER_URL and the project "
                  "(CI_MERGE_REQUEST_PROJECT_ID, else CI_PROJECT_ID; or COURSE_AGENT_GITLAB_URL and "
                  "COURSE_AGENT_GITLAB_PROJECT), and that the token's account is a member", lang, project=project)
    return tr("project {project}: not found at this GitLab (404): check GITLAB_URL and GITLAB_PROJECT, and that "
              "the token's account is a member", lang, project=project)


def _token_rejected(lang: str) -> str:
    """Which variable to check: in CI, the one the token came from."""
    from . import ci_env

    variable = ci_env.token_variable() or "GITLAB_TOKEN"
    return tr("GitLab rejected the token (401 Unauthorized): check {variable}", lang, variable=variable)


SOFT_FAILURES = (EXIT_ITERATIONS, EXIT_REFUSED)
"""Outcomes a pipeline shows as a warning, not a failure (templates/review.yml: allow_failure: exit_codes)."""


def worst(codes: list[int]) -> int:
    """One exit code for several reviews: any hard failure wins over the iteration cap or a refusal."""
    failed = [code for code in codes if code != EXIT_OK]
    hard = [code for code in failed if code not in SOFT_FAILURES]
    return (hard or failed or [EXIT_OK])[0]
