"""The Messages-API examples of the installed SDK's source distribution run unchanged against the sandbox.

Each example is a program a learner could copy from the SDK's repository; it runs in a process of its own,
pointed at a sandbox by ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, exactly as it would run against the API.
It must exit 0, and the sandbox must not have answered any of its requests with a 4xx (tests/sdk_examples/).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from course_sandbox import Sandbox

EXAMPLES = Path(__file__).resolve().parent.parent / "sdk_examples"
FIRST = ["messages.py", "messages_stream.py", "thinking.py", "thinking_stream.py", "tools.py", "tools_stream.py",
         "images.py", "structured_outputs.py", "structured_outputs_streaming.py"]
SECOND = ["tools_runner.py", "tools_runner_deferred_streaming.py", "tools_runner_search_tool.py", "web_search.py",
          "web_search_stream.py", "fallbacks.py", "message_threads.py", "memory/basic.py"]


def run(example: str, *args: str, stdin: str = "", cwd: Path = EXAMPLES) -> None:
    with Sandbox(record=True) as sandbox:
        env = {**os.environ, "ANTHROPIC_BASE_URL": sandbox.anthropic_base_url, "ANTHROPIC_API_KEY": sandbox.api_key}
        for name in ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"):
            env.pop(name, None)
        done = subprocess.run([sys.executable, str(EXAMPLES / example), *args], env=env, input=stdin,
                              capture_output=True, text=True, timeout=180, cwd=cwd)
        refused = [(e.method, e.path, e.status, e.reply) for e in sandbox.exchanges if 400 <= e.status < 500]
    assert done.returncode == 0, done.stderr[-3000:]
    assert sandbox.exchanges, f"{example} sent nothing"
    assert not refused, refused


def test_every_example_of_the_sdk_is_either_run_or_left_out_on_purpose():
    found = {str(p.relative_to(EXAMPLES)) for p in EXAMPLES.rglob("*.py")}
    assert found == {*FIRST, *SECOND, "batch_results.py"}


class TestFirstHalf:
    @pytest.mark.parametrize("example", FIRST)
    def test_the_example_runs_unchanged(self, example):
        run(example, stdin="")


class TestSecondHalf:
    @pytest.mark.parametrize("example", SECOND)
    def test_the_example_runs_unchanged(self, example, tmp_path):
        # in a directory of its own: the memory example keeps its memories under the working directory
        run(example, stdin="Please remember that my name is Ada.\n/exit\n", cwd=tmp_path)


def test_the_deferred_streaming_example_reaches_its_approval_step():
    """"List the files in /tmp/demo, then delete the ones that end in .log": list_files runs, then the
    model proposes delete_file for app.log (and nothing else), and the example asks before running it."""
    with Sandbox(record=True) as sandbox:
        env = {**os.environ, "ANTHROPIC_BASE_URL": sandbox.anthropic_base_url, "ANTHROPIC_API_KEY": sandbox.api_key}
        done = subprocess.run([sys.executable, str(EXAMPLES / "tools_runner_deferred_streaming.py")], env=env,
                              input="n\n", capture_output=True, text=True, timeout=180, cwd=EXAMPLES)
    assert done.returncode == 0, done.stderr[-3000:]
    asked = done.stdout.split("The model wants to run:", 1)[1]
    assert "delete_file({'path': '/tmp/demo/app.log'})" in asked and "notes.txt" not in asked
    assert "Stopped before running them." in asked


def test_batch_results_reads_a_batch_made_here():
    """batch_results.py takes a batch id: one is made first, through the same sandbox's batch API."""
    with Sandbox(record=True) as sandbox:
        batch = sandbox.client().messages.batches.create(requests=[{"custom_id": "one", "params": {
            "model": "claude-opus-5", "max_tokens": 100, "messages": [{"role": "user", "content": "Hello"}]}}])
        env = {**os.environ, "ANTHROPIC_BASE_URL": sandbox.anthropic_base_url, "ANTHROPIC_API_KEY": sandbox.api_key}
        done = subprocess.run([sys.executable, str(EXAMPLES / "batch_results.py"), batch.id], env=env,
                              capture_output=True, text=True, timeout=180, cwd=EXAMPLES)
        refused = [(e.path, e.status) for e in sandbox.exchanges if 400 <= e.status < 500]
    assert done.returncode == 0, done.stderr[-3000:]
    assert "custom_id='one'" in done.stdout or "'one'" in done.stdout
    assert not refused, refused
