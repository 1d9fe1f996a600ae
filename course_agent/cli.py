"""The `course-agent` command."""

import argparse
import signal
import sys
import threading

from .sandbox import Sandbox


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="course-agent", description="The agent-loop course's companion command.")
    commands = parser.add_subparsers(dest="command", required=True)
    sandbox = commands.add_parser("sandbox", help="serve the offline sandbox (Messages API) until Ctrl-C")
    sandbox.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sandbox.add_argument("--port", type=int, default=0, help="port to listen on (default: a free one)")
    sandbox.set_defaults(run=_sandbox)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
