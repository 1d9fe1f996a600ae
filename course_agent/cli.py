"""The `course-agent` command."""

import argparse
import signal
import sys
import threading
import time
from pathlib import Path

import anthropic

from .sandbox import Sandbox

EXIT_OK, EXIT_USAGE, EXIT_NO_SUCH_MR, EXIT_AUTH, EXIT_ITERATIONS, EXIT_REFUSED, EXIT_API, EXIT_STOPPED = 0, 2, 3, 4, 5, 6, 7, 8


def _sandbox(args: argparse.Namespace) -> int:
    try:
        sandbox = Sandbox(args.host, args.port).start()
    except OSError as error:
        print(f"course-agent sandbox: cannot listen on {args.host}:{args.port}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    for name, value in sandbox.env().items():
        print(f"export {name}={value}")
    sys.stdout.flush()
    print(f"# course sandbox serving on {sandbox.url}; Ctrl-C to stop", file=sys.stderr, flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        sandbox.stop()
    return 0


def _failure(result_messages: list, error: Exception | None) -> tuple[int, str] | None:
    """The exit code and one-line reason for a run that did not produce a review."""
    from .loop import ApiFailed, IterationLimitReached, Refused

    for message in result_messages:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if isinstance(block, dict) and block.get("is_error"):
                text = str(block.get("content", ""))
                if text.startswith("merge request !") and "not found" in text:
                    return EXIT_NO_SUCH_MR, text
                if "401" in text:
                    return EXIT_AUTH, text
    if error is None:
        return None
    if isinstance(error, ApiFailed):
        cause = error.__cause__
        if isinstance(cause, anthropic.AuthenticationError):
            return EXIT_AUTH, "the Anthropic API rejected the key (401): check ANTHROPIC_API_KEY"
        return EXIT_API, str(error)
    if isinstance(error, IterationLimitReached):
        return EXIT_ITERATIONS, str(error)
    if isinstance(error, Refused):
        return EXIT_REFUSED, str(error)
    return EXIT_STOPPED, str(error)


def _review(args: argparse.Namespace) -> int:
    from .loop import AgentError
    from .progress import ProgressPrinter
    from .redaction import redact
    from .review import review, reviewer_toolbox
    from .safety import AuditLog, auto_approver, console_approver

    stamp = time.strftime("%Y%m%d-%H%M%S")
    transcript = Path(args.transcript or f"course-agent-runs/review-{args.pr}-{stamp}.jsonl")
    audit_path = transcript.with_suffix(".audit.jsonl")
    transcript.parent.mkdir(parents=True, exist_ok=True)
    approver = {"ask": console_approver(args.timeout), "approve": auto_approver("approve"),
                "deny": auto_approver("deny")}[args.approval]
    progress = ProgressPrinter()
    error: AgentError | None = None
    try:
        toolbox = reviewer_toolbox(approver=approver, audit=AuditLog(audit_path))
        result = review(args.pr, toolbox=toolbox, post=args.post, language=args.language,
                        max_iterations=args.max_iterations, transcript=transcript, observers=[progress])
        messages = result.messages
    except AgentError as failed:
        error, messages, result = failed, failed.messages, None
    except RuntimeError as bad_setup:  # e.g. half-set GITLAB_* variables
        print(f"course-agent review: {redact(str(bad_setup))}", file=sys.stderr)
        return EXIT_USAGE
    print(f"transcript: {transcript}  audit log: {audit_path}", file=sys.stderr)
    failure = _failure(messages, error)
    if failure is not None:
        code, reason = failure
        print(f"course-agent review: {redact(reason)}", file=sys.stderr)
        return code
    print(redact(result.text))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="course-agent", description="The agent-loop course's companion command.")
    commands = parser.add_subparsers(dest="command", required=True)
    sandbox = commands.add_parser("sandbox", help="serve the offline sandbox (Messages API) until Ctrl-C")
    sandbox.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sandbox.add_argument("--port", type=int, default=0, help="port to listen on (default: a free one)")
    sandbox.set_defaults(run=_sandbox)
    reviewer = commands.add_parser(
        "review", help="review a merge request (the sandbox's demo GitLab, or GITLAB_URL/TOKEN/PROJECT)",
        epilog="exit codes: 0 done, 2 bad setup, 3 no such merge request, 4 authentication, 5 iteration cap, "
               "6 refusal, 7 API error, 8 stopped otherwise (max_tokens, context window)")
    reviewer.add_argument("pr", type=int, help="the merge request's number, e.g. 482")
    reviewer.add_argument("--post", action="store_true", help="post the review as a comment on the MR")
    reviewer.add_argument("--approval", choices=["ask", "approve", "deny"], default="ask",
                          help="who answers when the agent wants to merge: ask on the terminal (default; "
                               "no answer in --timeout seconds means no), or always approve / deny")
    reviewer.add_argument("--timeout", type=float, default=120, help="seconds to wait for an answer (default 120)")
    reviewer.add_argument("--max-iterations", type=int, default=20, help="cap on API calls (default 20)")
    reviewer.add_argument("--transcript", help="where to save the messages (JSONL); default course-agent-runs/")
    reviewer.add_argument("--language", choices=["en", "ru"], default="en", help="language of the task")
    reviewer.set_defaults(run=_review)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
