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
import warnings

from . import review_command

# The exit codes, importable from here as ever (templates/review.yml and scripts read them).
from .exit_codes import (  # noqa: F401
    EXIT_API,
    EXIT_AUTH,
    EXIT_INTERRUPTED,
    EXIT_ITERATIONS,
    EXIT_NO_SUCH_MR,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_STOPPED,
    EXIT_USAGE,
    SOFT_FAILURES,
)
from .exit_codes import say as _say
from .i18n import language, tr

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


# ---------------------------------------------------------------- sandbox

def _sandbox(args: argparse.Namespace, lang: str) -> int:
    from .client import sandbox_class

    try:
        Sandbox = sandbox_class()
    except RuntimeError as lean:  # the reviewer alone is installed: no sandbox without the course's extras
        _say("course-agent sandbox: " + str(lean))
        return EXIT_USAGE
    from course_sandbox.server import is_loopback

    if not is_loopback(args.host):
        _say(tr("WARNING: {host} is not a loopback address. Anyone who can reach this machine can use the sandbox: "
                "its key is printed when it starts and travels in clear text (plain HTTP), and it runs git for "
                "whoever sends that key.", lang,
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


# ---------------------------------------------------------------- classroom-link

def _origin() -> str | None:
    """The checkout's `origin`, when it is an address a hub can clone (http/https)."""
    import subprocess

    try:
        found = subprocess.run(["git", "config", "--get", "remote.origin.url"], capture_output=True, text=True,
                               timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    url = found.stdout.strip()
    return url if url.startswith(("http://", "https://")) else None


def _classroom_link(args: argparse.Namespace, lang: str) -> int:
    from .classroom import nbgitpuller_link

    if not args.hub.startswith(("http://", "https://")):
        _say("course-agent classroom-link: " + tr("the hub's address must start with http:// or https://, got {hub!r}",
                                                  lang, hub=args.hub))
        return EXIT_USAGE
    repo = args.repo or _origin()
    if not repo:
        _say("course-agent classroom-link: " + tr("name the course's repository with --repo (an https address the "
                                                  "hub can clone): this checkout's origin is not one", lang))
        return EXIT_USAGE
    try:
        print(nbgitpuller_link(args.hub, repo, args.branch, args.language or lang))
    except ValueError as error:
        _say("course-agent classroom-link: " + str(error))
        return EXIT_USAGE
    return EXIT_OK


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
                  "6 refusal, 7 API error that may pass (an outage, overload, a rate limit), 8 stopped otherwise "
                  "(the API rejected the request, max_tokens, context window, transcript not writable), "
                  "130 interrupted (Ctrl-C)", lang))
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
    reviewer.set_defaults(run=review_command.run)
    link = commands.add_parser(
        "classroom-link", language=lang,
        help=tr("print the nbgitpuller link that puts the course into each learner's home on a JupyterHub and "
                "opens notebook 1", lang))
    link.add_argument("--hub", required=True, help=tr("the hub's address, e.g. https://hub.example.org", lang))
    link.add_argument("--repo", help=tr("the course's git repository (default: this checkout's origin, when it is "
                                        "an https address)", lang))
    link.add_argument("--branch", default="main", help=tr("the branch to pull (default main)", lang))
    link.add_argument("--language", choices=["en", "ru"], default=None,
                      help=tr("the notebooks' language (default: COURSE_AGENT_LANGUAGE or the locale)", lang))
    link.set_defaults(run=_classroom_link)
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
