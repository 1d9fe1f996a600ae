"""How the live messages view scales: time to append N messages (50, 200, 500), one card each.

Each card renders its text as Markdown and colours the code of tool inputs and results (a diff
here), as in a real review; the first card also pays for making the Markdown renderer and loading
Pygments' lexers once (printed separately: the "first card").

Appending adds one HTML child to a VBox, so the cost per message should not grow with the
history: the target is a total cost linear in N, i.e. the 500/50 ratio near 10 (printed).
Measured in the kernel process without a browser (the frontend adds one view per new child).
Printed twice: as a learner's kernel runs it, and with Python's cyclic garbage collector paused
during the appends. The difference is the collector's full passes, whose cost grows with the
number of live objects in the process (every widget is many objects), not work the view does.

Run: python benchmarks/bench_widgets.py [--repeat 5]
"""

import argparse
import gc
import statistics
import subprocess
import sys
import time

from course_agent.widgets import MessagesView


def history(n: int) -> list[dict]:
    messages = []
    for i in range(n):
        if i % 2 == 0:
            content = [{"type": "tool_result", "tool_use_id": f"toolu_{i - 1}", "content": "diff --git a/x b/x\n" * 20}]
            messages.append({"role": "user", "content": content if i else "Review PR #482"})
        else:
            messages.append({"role": "assistant", "content": [
                {"type": "text",
                 "text": f"Reading **the next file**: `shop/f{i}.py`, then:\n\n- its callers\n- its tests"},
                {"type": "tool_use", "id": f"toolu_{i}", "name": "read_file", "input": {"path": f"shop/f{i}.py"}}]})
    return messages


def seconds_to_append(n: int) -> float:
    messages = history(n)
    view = MessagesView()
    started = time.perf_counter()
    for message in messages:
        view.messages.append(message)
    return time.perf_counter() - started


def first_card_ms() -> float:
    """A fresh interpreter's first Markdown card: the lazy set-up (markdown-it, Pygments) included."""
    code = ("import time\nfrom course_agent.widgets import MessagesView\nview = MessagesView()\n"
            "started = time.perf_counter()\n"
            "view.messages.append({'role': 'assistant', 'content': [{'type': 'text', 'text': '- a `b`'}, "
            "{'type': 'tool_use', 'id': 't', 'name': 'read_file', 'input': {'path': 'a.py'}}]})\n"
            "view.messages.append({'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 't', "
            "'content': 'def f():\\n    return 1\\n'}]})\n"
            "print((time.perf_counter() - started) * 1000)")
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def measure(repeat: int, collector: bool) -> None:
    print("with the garbage collector on:" if collector else "with the garbage collector paused:")
    medians = {}
    for n in (50, 200, 500):
        samples = []
        for _ in range(repeat):
            gc.collect()
            if not collector:
                gc.disable()
            try:
                samples.append(seconds_to_append(n))
            finally:
                gc.enable()
        medians[n] = statistics.median(samples)
        print(f"  {n:4d} messages: {medians[n] * 1000:8.1f} ms total, {medians[n] / n * 1000:.3f} ms per message")
    ratio = medians[500] / medians[50]
    print(f"  ratio 500/50: {ratio:.1f} (linear would be 10; target <= 15): {'PASS' if ratio <= 15 else 'MISS'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    firsts = sorted(first_card_ms() for _ in range(3))
    print(f"first card in a fresh kernel (Markdown renderer and lexers made once): {firsts[1]:.1f} ms (median of 3)")
    measure(args.repeat, collector=True)
    measure(args.repeat, collector=False)


if __name__ == "__main__":
    main()
