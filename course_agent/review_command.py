"""`course-agent review`: the options checked, the reviewer set up (approvals, audit log,
transcripts), then one merge request reviewed, or every open one (one by one or as batches)."""

import argparse
import time
from pathlib import Path

from .exit_codes import EXIT_INTERRUPTED, EXIT_OK, EXIT_STOPPED, EXIT_USAGE, failure, gitlab_failure, say, worst
from .i18n import ntr, number, tr


def _fail(code: int, reason: str) -> int:
    say(f"course-agent review: {reason}")
    return code


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
        say(f"course-agent review: !{pr}: " + tr("could not clean up earlier inline comments: {error}", lang,
                                                 error=error))
        return
    if cleaned:
        say(tr("!{pr}: earlier inline comments no longer reported, removed (or resolved where someone replied): "
                "{places}", lang, pr=pr, places=", ".join(cleaned)))


def run(args: argparse.Namespace, lang: str) -> int:
    """`course-agent review`: one merge request, or every open one."""
    from . import ci_env
    from .gitlab import GitLabTools
    from .safety import AuditLog, auto_approver, console_approver, resolve_approval
    from .settings import Settings

    if args.batch and not args.all_open:
        return _fail(EXIT_USAGE, tr("--batch reviews every open merge request: use it with --all-open", lang))
    if args.resume and not args.batch:
        return _fail(EXIT_USAGE, tr("--resume continues a batch run: use it with --all-open --batch", lang))
    if args.all_open and args.pr is not None:
        return _fail(EXIT_USAGE, tr("give a merge request's number or --all-open, not both", lang))
    pr = args.pr if args.pr is not None else ci_env.merge_request_iid()
    if pr is None and not args.all_open:
        source = Settings.from_env().ci_pipeline_source or ""
        if ci_env.in_ci() and source != "merge_request_event":
            return _fail(EXIT_USAGE, tr("which merge request? This pipeline (CI_PIPELINE_SOURCE={source}) is not a "
                                       "merge-request pipeline, so CI_MERGE_REQUEST_IID is not set: run the job "
                                       "only with rules: - if: $CI_PIPELINE_SOURCE == \"merge_request_event\", or "
                                       "give the number", lang, source=source or "?"))
        return _fail(EXIT_USAGE, tr("which merge request? Give its number, or --all-open (in a merge-request "
                                   "pipeline, CI_MERGE_REQUEST_IID says)", lang))
    try:
        Settings.from_env().check()  # every COURSE_AGENT_* value, before anything runs
        answer, source = resolve_approval(args.approval)
        ci_env.check_model_access(lang=lang)
        pipeline = ci_env.pipeline_gitlab(lang=lang)
    except (ValueError, RuntimeError) as bad:
        return _fail(EXIT_USAGE, str(bad))
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
        return _fail(EXIT_USAGE, tr("nothing to resume: {path} is not a directory of transcripts", lang,
                                   path=directory))
    try:
        _writable(files)
    except OSError as error:
        return _fail(EXIT_USAGE, tr("cannot write the transcript {path}: {reason}", lang, path=files[0],
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
        return _fail(EXIT_USAGE, str(bad_setup))


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
    say(tr("transcript: {transcript}  audit log: {audit}", lang, transcript=transcript, audit=audit_path))
    stopped = failure(messages, error, pr=pr, max_iterations=args.max_iterations, lang=lang)
    if stopped is not None:
        return _fail(*stopped)
    if args.post:
        _finish_posting(gitlab_tools, pr, lang)
    print(redact(result.text), flush=True)
    return EXIT_OK


def _review_all(args: argparse.Namespace, lang: str, gitlab_tools, toolbox, directory: Path) -> int:
    """Every open merge request: one after another, or (--batch) all at once through the Batches API."""
    from . import batch_review
    from .client import make_client
    from .progress import ProgressPrinter
    from .redaction import redact
    from .tools import ToolError

    if args.resume:
        refused = _not_resumable(args, lang, directory)
        if refused is not None:
            return refused
        loops = batch_review.resume_loops(directory, toolbox)
    else:
        if any(path.stat().st_size for path in batch_review.saved_reviews(directory).values()):
            # A second conversation appended to each file would make neither run's transcript resumable.
            return _fail(EXIT_USAGE, tr("{path} already holds review transcripts: go on with them with --batch "
                                        "--resume {path}, or give another directory", lang, path=directory))
        try:
            prs = gitlab_tools.open_merge_requests()
        except ToolError as error:
            return _fail(*(gitlab_failure(str(error), None, lang) or (EXIT_STOPPED, str(error))))
        loops = batch_review.start_loops(prs, directory, post=args.post, language=args.language or lang) \
            if args.batch else []
    if args.batch:
        try:
            batch_review.run_batches(make_client(), loops, toolbox, max_iterations=args.max_iterations,
                                     progress=say)
        except KeyboardInterrupt:
            again = f"course-agent review --all-open --batch{' --post' if args.post else ''} --resume {directory}"
            return _fail(EXIT_INTERRUPTED, tr("interrupted (Ctrl-C); every transcript is saved, go on with: "
                                              "{command}", lang, command=again))
    else:
        loops = batch_review.review_in_turn(prs, directory, toolbox, post=args.post,
                                            language=args.language or lang, max_iterations=args.max_iterations,
                                            observers=[ProgressPrinter(language=lang)], progress=say)
    codes = []
    for loop in loops:
        stopped = failure(loop.messages, loop.error, pr=loop.pr, max_iterations=args.max_iterations, lang=lang)
        codes.append(stopped[0] if stopped else EXIT_OK)
        if stopped is not None:
            say(f"course-agent review: !{loop.pr}: {stopped[1]}")
            continue
        if args.post:
            _finish_posting(gitlab_tools, loop.pr, lang)
        print(f"=== !{loop.pr} ===\n{redact(loop.result.text)}\n", flush=True)
    from .config import model_id

    billed_input, billed_output = batch_review.billed([u for loop in loops for u in loop.usage], batch=args.batch,
                                                      model=model_id())
    say(tr("transcripts: {directory}", lang, directory=directory))
    say(ntr("billed for {n} review: {input} input tokens, {output} output tokens ({how})",
            "billed for {n} reviews: {input} input tokens, {output} output tokens ({how})", len(loops), lang,
            input=number(billed_input, lang), output=number(billed_output, lang),
            how=tr("Message Batches: half price", lang) if args.batch else tr("one request at a time", lang)))
    return worst(codes)


def _not_resumable(args: argparse.Namespace, lang: str, directory: Path) -> int | None:
    """The exit code when the reviews saved in `directory` cannot (or need not) be resumed, else None."""
    from . import batch_review
    from . import transcript as transcripts

    saved = batch_review.saved_reviews(directory)
    for path in saved.values():
        try:
            transcripts.entries(path)
        except ValueError as bad:  # a line cut short: the process was killed while writing it
            return _fail(EXIT_USAGE, tr("{path} is not a readable transcript ({reason}): remove its last, cut-off "
                                        "line and resume again", lang, path=path, reason=bad))
    if not saved:
        return _fail(EXIT_USAGE, tr("nothing to resume: {path} holds no review transcripts (review-<number>.jsonl)",
                                    lang, path=directory))
    unfinished = {pr: path for pr, path in saved.items() if not transcripts.finished(path)}
    if not unfinished:
        say(tr("every review saved in {path} has finished: nothing to resume", lang, path=directory))
        return EXIT_OK
    if not args.post and any(batch_review.asked_to_post(pr, path) for pr, path in unfinished.items()):
        # Without --post the policy would refuse the very note those reviews were started to post.
        return _fail(EXIT_USAGE, tr("the reviews saved in {path} were started with --post: resume them with --post "
                                    "too", lang, path=directory))
    return None
