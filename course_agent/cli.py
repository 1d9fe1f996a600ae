"""The `course-agent` command.

Its contract: every outcome is an exit code and, when it is not a success, one line on stderr
saying why; never a traceback. Setup problems (bad numbers, an unwritable runs directory, an
invalid COURSE_AGENT_* variable) are exit 2 before anything runs; Ctrl-C is exit 130 with the
transcript holding everything up to that moment. It speaks the learner's language
(COURSE_AGENT_LANGUAGE=ru), --help included.
"""

import argparse
import contextlib
import math
import os
import signal
import sys
import threading
import time
import warnings
from pathlib import Path

from .i18n import language, ntr, number, tr

EXIT_OK, EXIT_USAGE, EXIT_NO_SUCH_MR, EXIT_AUTH, EXIT_ITERATIONS, EXIT_REFUSED, EXIT_API, EXIT_STOPPED = 0, 2, 3, 4, 5, 6, 7, 8
EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report a process ended by SIGINT (128 + 2)."""
MAX_ITERATIONS_LIMIT = 1000


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump) and exit 2."""

    def __init__(self, *args, language: str = "en", **kwargs) -> None:
        self.language = language
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {tr('error', self.language)}: {message}\n")


@contextlib.contextmanager
def _argparse_speaks(lang: str):
    """argparse's own words ("usage:", "options", its error messages) from our catalogue."""
    saved = argparse._, argparse.ngettext
    argparse._ = lambda text: tr(text, lang)
    argparse.ngettext = lambda singular, plural, n: tr(singular if n == 1 else plural, lang)
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


def _whole_number(lang: str, low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                tr("must be a whole number from {low} to {high}, got {value!r}", lang, low=low, high=high, value=text))
        return value
    parse.__name__ = "number"
    return parse


def _seconds(lang: str, high: float):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 < value <= high):
            raise argparse.ArgumentTypeError(
                tr("must be a number of seconds above 0 and at most {high}, got {value!r}", lang, high=int(high),
                   value=text))
        return value
    parse.__name__ = "seconds"
    return parse


def _say(line: str) -> None:
    from .redaction import redact

    print(redact(line), file=sys.stderr, flush=True)


# ---------------------------------------------------------------- sandbox

def _sandbox(args: argparse.Namespace, lang: str) -> int:
    from course_sandbox import Sandbox
    from course_sandbox.server import is_loopback

    if not is_loopback(args.host):
        _say(tr("WARNING: {host} is not a loopback address. Anyone who can reach this machine can use the sandbox: "
                "its key is printed when it starts and is no secret, and it runs git for whoever connects.", lang,
                host=args.host))
        if not args.allow_remote:
            _say("course-agent sandbox: " + tr("refusing to listen on {host}; add --allow-remote if that is "
                                               "really what you want", lang, host=args.host))
            return EXIT_USAGE
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # said above, in the learner's language
            sandbox = Sandbox(args.host, args.port).start()
    except OSError as error:
        _say("course-agent sandbox: " + tr("cannot listen on {host}:{port}: {reason}", lang, host=args.host,
                                           port=args.port, reason=error.strerror or error))
        return EXIT_USAGE
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())  # before the address is out: a stop stops cleanly
    for name, value in sandbox.env().items():
        print(f"export {name}={value}")
    sys.stdout.flush()
    _say("# " + tr("course sandbox serving on {url}; Ctrl-C to stop", lang, url=sandbox.url))
    try:
        while not stopped.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        sandbox.stop()
    return EXIT_OK


# ---------------------------------------------------------------- review

def _failure(result_messages: list, error: Exception | None, pr: int, max_iterations: int,
             lang: str) -> tuple[int, str] | None:
    """The exit code and one-line reason for a run that did not produce a review."""
    import anthropic

    from .loop import (ApiFailed, ContextWindowExceeded, Interrupted, IterationLimitReached, MaxTokensReached,
                       Refused, TranscriptFailed)

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
                failure = _gitlab_failure(str(block.get("content", "")), pr, lang)
                if failure is not None:
                    return failure
    if error is None:
        return None
    if isinstance(error, ApiFailed):
        cause = error.__cause__
        if isinstance(cause, anthropic.AuthenticationError):
            return EXIT_AUTH, tr("the Anthropic API rejected the key (401): check ANTHROPIC_API_KEY", lang)
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


def _gitlab_failure(text: str, pr: int | None, lang: str) -> tuple[int, str] | None:
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
        return tr("project {project}: not found at this GitLab (404): check CI_SERVER_URL and CI_PROJECT_ID (or "
                  "GITLAB_URL and GITLAB_PROJECT), and that the token's account is a member", lang, project=project)
    return tr("project {project}: not found at this GitLab (404): check GITLAB_URL and GITLAB_PROJECT, and that "
              "the token's account is a member", lang, project=project)


def _token_rejected(lang: str) -> str:
    """Which variable to check: in CI, the one the token came from."""
    from . import ci_env

    variable = ci_env.token_variable() or "GITLAB_TOKEN"
    return tr("GitLab rejected the token (401 Unauthorized): check {variable}", lang, variable=variable)


SOFT_FAILURES = (EXIT_ITERATIONS, EXIT_REFUSED)
"""Outcomes a pipeline shows as a warning, not a failure (ci/review.gitlab-ci.yml: allow_failure: exit_codes)."""


def _worst(codes: list[int]) -> int:
    """One exit code for several reviews: any hard failure wins over the iteration cap or a refusal."""
    failed = [code for code in codes if code != EXIT_OK]
    hard = [code for code in failed if code not in SOFT_FAILURES]
    return (hard or failed or [EXIT_OK])[0]


def _writable(paths: list[Path]) -> None:
    """Create the runs directory and open each file for appending: OSError if that cannot be done."""
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8"):
            pass


def _finish_posting(gitlab_tools, pr: int, lang: str) -> None:
    """After a posted review: our earlier inline comments it no longer makes are removed (or resolved)."""
    from .tools import ToolError

    try:
        cleaned = gitlab_tools.finish_review(pr)
    except ToolError as error:
        _say(f"course-agent review: !{pr}: " + tr("could not clean up earlier inline comments: {error}", lang,
                                                 error=error))
        return
    if cleaned:
        _say(tr("!{pr}: earlier inline comments no longer reported, removed (or resolved where someone replied): "
                "{places}", lang, pr=pr, places=", ".join(cleaned)))


def _review(args: argparse.Namespace, lang: str) -> int:
    from . import ci_env
    from .gitlab import GitLabTools
    from .safety import AuditLog, auto_approver, console_approver, resolve_approval
    from .settings import Settings

    def fail(code: int, reason: str) -> int:
        _say(f"course-agent review: {reason}")
        return code

    if args.batch and not args.all_open:
        return fail(EXIT_USAGE, tr("--batch reviews every open merge request: use it with --all-open", lang))
    if args.resume and not args.batch:
        return fail(EXIT_USAGE, tr("--resume continues a batch run: use it with --all-open --batch", lang))
    if args.all_open and args.pr is not None:
        return fail(EXIT_USAGE, tr("give a merge request's number or --all-open, not both", lang))
    pr = args.pr if args.pr is not None else ci_env.merge_request_iid()
    if pr is None and not args.all_open:
        source = Settings.from_env().ci_pipeline_source or ""
        if ci_env.in_ci() and source != "merge_request_event":
            return fail(EXIT_USAGE, tr("which merge request? This pipeline (CI_PIPELINE_SOURCE={source}) is not a "
                                       "merge-request pipeline, so CI_MERGE_REQUEST_IID is not set: run the job "
                                       "only with rules: - if: $CI_PIPELINE_SOURCE == \"merge_request_event\", or "
                                       "give the number", lang, source=source or "?"))
        return fail(EXIT_USAGE, tr("which merge request? Give its number, or --all-open (in a merge-request "
                                   "pipeline, CI_MERGE_REQUEST_IID says)", lang))
    try:
        Settings.from_env().check()  # every COURSE_AGENT_* value, before anything runs
        answer, source = resolve_approval(args.approval)
        ci_env.check_model_access(lang=lang)
        pipeline = ci_env.pipeline_gitlab(lang=lang)
    except (ValueError, RuntimeError) as bad:
        return fail(EXIT_USAGE, str(bad))
    # Where nobody can answer an approval request, merges are refused by the policy itself.
    nobody_to_ask = tr("GitLab CI", lang) if ci_env.in_ci() else tr("batch mode", lang) if args.batch else ""
    if answer == "ask" and not nobody_to_ask:
        approver = console_approver(args.timeout)
    else:
        approver = auto_approver("deny" if answer == "ask" else answer, source)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    if args.all_open:
        directory = Path(args.resume or args.transcript or f"course-agent-runs/all-open-{stamp}")
        files = [directory / "audit.jsonl"]
    else:
        transcript = Path(args.transcript or f"course-agent-runs/review-{pr}-{stamp}.jsonl")
        files = [transcript, transcript.with_suffix(".audit.jsonl")]
    if args.resume and not directory.is_dir():
        return fail(EXIT_USAGE, tr("nothing to resume: {path} is not a directory of transcripts", lang,
                                   path=directory))
    try:
        _writable(files)
    except OSError as error:
        return fail(EXIT_USAGE, tr("cannot write the transcript {path}: {reason}", lang, path=files[0],
                                   reason=error.strerror or error))
    try:
        gitlab_tools = GitLabTools(*pipeline, idempotent=args.post) if pipeline else GitLabTools(idempotent=args.post)
        from .review import reviewer_toolbox

        toolbox = reviewer_toolbox(gitlab_tools, approver=approver, audit=AuditLog(files[-1]), post=args.post,
                                   nobody_to_ask=nobody_to_ask)
        if args.all_open:
            return _review_all(args, lang, gitlab_tools, toolbox, directory)
        return _review_one(args, lang, pr, gitlab_tools, toolbox, transcript, files[-1])
    except (RuntimeError, ValueError) as bad_setup:  # e.g. half-set GITLAB_* variables
        return fail(EXIT_USAGE, str(bad_setup))


def _review_one(args: argparse.Namespace, lang: str, pr: int, gitlab_tools, toolbox, transcript: Path,
                audit_path: Path) -> int:
    from .loop import AgentError
    from .progress import ProgressPrinter
    from .redaction import redact
    from .review import review

    error: AgentError | None = None
    try:
        result = review(pr, toolbox=toolbox, post=args.post, language=args.language or lang,
                        max_iterations=args.max_iterations, transcript=transcript,
                        observers=[ProgressPrinter(language=lang)])
        messages = result.messages
    except AgentError as failed:
        error, messages, result = failed, failed.messages, None
    _say(tr("transcript: {transcript}  audit log: {audit}", lang, transcript=transcript, audit=audit_path))
    failure = _failure(messages, error, pr, args.max_iterations, lang)
    if failure is not None:
        _say(f"course-agent review: {failure[1]}")
        return failure[0]
    if args.post:
        _finish_posting(gitlab_tools, pr, lang)
    print(redact(result.text), flush=True)
    return EXIT_OK


def _review_all(args: argparse.Namespace, lang: str, gitlab_tools, toolbox, directory: Path) -> int:
    """Every open merge request: one after another, or (--batch) all at once through the Batches API."""
    from . import batch_review
    from . import transcript as transcripts
    from .client import make_client
    from .loop import AgentError, Interrupted
    from .progress import ProgressPrinter
    from .redaction import redact
    from .review import review
    from .tools import ToolError

    if args.resume:
        saved = batch_review.saved_reviews(directory)
        for path in saved.values():
            try:
                transcripts.entries(path)
            except ValueError as bad:  # a line cut short: the process was killed while writing it
                _say("course-agent review: " + tr("{path} is not a readable transcript ({reason}): remove its "
                                                   "last, cut-off line and resume again", lang, path=path,
                                                   reason=bad))
                return EXIT_USAGE
        if not saved:
            _say("course-agent review: " + tr("nothing to resume: {path} holds no review transcripts "
                                               "(review-<number>.jsonl)", lang, path=directory))
            return EXIT_USAGE
        unfinished = [path for path in saved.values() if not transcripts.finished(path)]
        if not unfinished:
            _say(tr("every review saved in {path} has finished: nothing to resume", lang, path=directory))
            return EXIT_OK
        if not args.post and any(batch_review.asked_to_post(path) for path in unfinished):
            # Without --post the policy would refuse the very note those reviews were started to post.
            _say("course-agent review: " + tr("the reviews saved in {path} were started with --post: resume "
                                               "them with --post too", lang, path=directory))
            return EXIT_USAGE
        loops = batch_review.resume_loops(directory, toolbox)
    else:
        if any(path.stat().st_size for path in batch_review.saved_reviews(directory).values()):
            # A second conversation appended to each file would make neither run's transcript resumable.
            _say("course-agent review: " + tr("{path} already holds review transcripts: go on with them with "
                                              "--batch --resume {path}, or give another directory", lang,
                                              path=directory))
            return EXIT_USAGE
        try:
            prs = gitlab_tools.open_merge_requests()
        except ToolError as error:
            code, reason = _gitlab_failure(str(error), None, lang) or (EXIT_STOPPED, str(error))
            _say(f"course-agent review: {reason}")
            return code
        loops = batch_review.start_loops(prs, directory, post=args.post, language=args.language or lang) \
            if args.batch else []
    if args.batch:
        try:
            batch_review.run_batches(make_client(), loops, toolbox, max_iterations=args.max_iterations,
                                     progress=_say)
        except KeyboardInterrupt:
            again = f"course-agent review --all-open --batch{' --post' if args.post else ''} --resume {directory}"
            _say("course-agent review: " + tr("interrupted (Ctrl-C); every transcript is saved, go on with: "
                                              "{command}", lang, command=again))
            return EXIT_INTERRUPTED
        outcomes = [(loop.pr, loop.result, loop.error, loop.messages, loop.usage) for loop in loops]
    else:
        outcomes = []
        for pr in prs:
            _say(f"== !{pr} ==")
            try:
                result = review(pr, toolbox=toolbox, post=args.post, language=args.language or lang,
                                max_iterations=args.max_iterations,
                                transcript=batch_review.transcript_path(directory, pr),
                                observers=[ProgressPrinter(language=lang)])
                outcomes.append((pr, result, None, result.messages, result.usage))
            except AgentError as error:
                outcomes.append((pr, None, error, error.messages, []))
                if isinstance(error, Interrupted):
                    break
    codes = []
    for pr, result, error, messages, _ in outcomes:
        failure = _failure(messages, error, pr, args.max_iterations, lang)
        codes.append(failure[0] if failure else EXIT_OK)
        if failure is not None:
            _say(f"course-agent review: !{pr}: {failure[1]}")
            continue
        if args.post:
            _finish_posting(gitlab_tools, pr, lang)
        print(f"=== !{pr} ===\n{redact(result.text)}\n", flush=True)
    usage = [u for *_, used in outcomes for u in used]
    billed_input, billed_output = batch_review.billed(usage, batch=args.batch)
    _say(tr("transcripts: {directory}", lang, directory=directory))
    _say(ntr("billed for {n} review: {input} input tokens, {output} output tokens ({how})",
             "billed for {n} reviews: {input} input tokens, {output} output tokens ({how})", len(outcomes), lang,
             input=number(billed_input, lang), output=number(billed_output, lang),
             how=tr("Message Batches: half price", lang) if args.batch else tr("one request at a time", lang)))
    return _worst(codes)


# ---------------------------------------------------------------- the command

def _parser(lang: str) -> argparse.ArgumentParser:
    parser = _Parser(prog="course-agent", description=tr("The agent-loop course's companion command.", lang),
                     language=lang)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sandbox = commands.add_parser("sandbox", language=lang,
                                  help=tr("serve the offline sandbox (Messages API, demo GitLab) until Ctrl-C", lang))
    sandbox.add_argument("--host", default="127.0.0.1",
                         help=tr("address to listen on (default 127.0.0.1, this machine only)", lang))
    sandbox.add_argument("--port", type=_whole_number(lang, 0, 65535), default=0,
                         help=tr("port to listen on (default: a free one)", lang))
    sandbox.add_argument("--allow-remote", action="store_true",
                         help=tr("confirm that a non-loopback --host is intended (anyone who can reach it can use "
                                 "the sandbox)", lang))
    sandbox.set_defaults(run=_sandbox)
    reviewer = commands.add_parser(
        "review", language=lang,
        help=tr("review a merge request (the sandbox's demo GitLab, or GITLAB_URL/TOKEN/PROJECT)", lang),
        epilog=tr("exit codes: 0 done, 2 bad setup, 3 no such merge request, 4 authentication, 5 iteration cap, "
                  "6 refusal, 7 API error, 8 stopped otherwise (max_tokens, context window, transcript not "
                  "writable), 130 interrupted (Ctrl-C)", lang))
    reviewer.add_argument("pr", type=_whole_number(lang, 1, 2**31 - 1), nargs="?", default=None,
                          help=tr("the merge request's number, e.g. 482 (in a merge-request pipeline, default "
                                  "CI_MERGE_REQUEST_IID)", lang))
    reviewer.add_argument("--post", action="store_true",
                          help=tr("post the review on the MR: a summary note and inline comments; a second run "
                                  "updates them (without --post, the agent may not write)", lang))
    reviewer.add_argument("--all-open", action="store_true",
                          help=tr("review every open merge request (the exit code is the most serious outcome)",
                                  lang))
    reviewer.add_argument("--batch", action="store_true",
                          help=tr("with --all-open: send the reviews' requests through the Message Batches API, "
                                  "at half price (merges are refused: nobody is there to approve)", lang))
    reviewer.add_argument("--resume", metavar="DIR",
                          help=tr("with --all-open --batch: continue the unfinished reviews saved in DIR", lang))
    reviewer.add_argument("--approval", choices=["ask", "approve", "deny"], default=None,
                          help=tr("who answers when the agent wants to merge: ask on the terminal (no answer in "
                                  "--timeout seconds means no), or always approve / deny. Default: "
                                  "COURSE_AGENT_AUTO_APPROVE if set, else ask", lang))
    reviewer.add_argument("--timeout", type=_seconds(lang, 24 * 3600), default=120,
                          help=tr("seconds to wait for an answer (default 120)", lang))
    reviewer.add_argument("--max-iterations", type=_whole_number(lang, 1, MAX_ITERATIONS_LIMIT), default=20,
                          help=tr("cap on API calls (default 20)", lang))
    reviewer.add_argument("--transcript", help=tr("where to save the messages (JSONL); default course-agent-runs/",
                                                  lang) + " " + tr("(with --all-open: a directory)", lang))
    reviewer.add_argument("--language", choices=["en", "ru"], default=None,
                          help=tr("language of the task (default: COURSE_AGENT_LANGUAGE or the locale)", lang))
    reviewer.set_defaults(run=_review)
    return parser


def _leave_now(code: int) -> None:
    """After Ctrl-C: clean up (stop the sandbox, remove temporary directories) and exit at once,
    without waiting for tool calls still running in other threads."""
    import atexit

    try:
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()
    finally:
        os._exit(code)


def _no_final_collections() -> None:
    """The command's work is done: spare the exit CPython's last garbage collections. While it tears the
    interpreter down it walks every object again (~500,000 with the SDK loaded): 0.5–0.9 s after the
    review had been printed (benchmarks/bench_cli.py). Everything the command opened is closed by now;
    exit handlers still run (the sandbox stops, temporary directories go), and what is left the OS frees."""
    import gc

    gc.freeze()


def main(argv: list[str] | None = None) -> int:
    try:
        lang = language()
    except ValueError as error:
        print(f"course-agent: {error}", file=sys.stderr)
        return EXIT_USAGE
    code = EXIT_OK
    try:
        with _argparse_speaks(lang):
            parser = _parser(lang)
            try:
                args = parser.parse_args(argv)
            except SystemExit as stop:
                return stop.code if isinstance(stop.code, int) else EXIT_USAGE
        code = args.run(args, lang)
        return code
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
        _say("course-agent: " + tr("interrupted (Ctrl-C)", lang))
        return code
    finally:
        if argv is None:  # the command itself, about to exit (tests call main(argv) in their own process)
            if code == EXIT_INTERRUPTED:
                _leave_now(code)
            _no_final_collections()


if __name__ == "__main__":
    sys.exit(main())
