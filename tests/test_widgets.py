"""The widgets, driven without a browser: cards, pairing, errors, Markdown and its sanitising,
highlighted code, theme colours, approvals, the stepper, both languages.

Every wait here has a deadline: a widget that never answers fails the test, it does not hang it."""

import html
import re
import threading
import time
from html.parser import HTMLParser

import pytest

from course_agent.gitlab import GitLabTools
from course_agent.loop import run_agent
from course_agent.review import REVIEW_RULES, reviewer_toolbox
from course_agent.safety import ApprovalRequest
from course_agent.tools import Risk
from course_agent.widgets import MessagesView, Stepper, WidgetApprover
from course_agent.widgets.cards import PALETTE, pair_colour

REQUEST = ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS)
DEADLINE = 10.0


def wait_until(condition, what: str, timeout: float = DEADLINE) -> None:
    """Poll `condition` until it holds; fail (not hang) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}")
        time.sleep(0.01)


def visible_text(fragment: str) -> str:
    """What a reader sees of an HTML fragment: the tags dropped, the entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def joined(thread: threading.Thread, timeout: float = DEADLINE) -> None:
    thread.join(timeout)
    assert not thread.is_alive(), f"{thread.name} still running after {timeout:g} s"


class Tags(HTMLParser):
    """Every tag and attribute of an HTML fragment, as a browser's parser would see them."""

    def __init__(self, fragment: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.feed(fragment)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def names(self) -> set[str]:
        return {tag for tag, _ in self.tags}

    def attributes(self) -> set[str]:
        return {name for _, attrs in self.tags for name in attrs}


def lesson_loop(client, messages, tools, answer, max_iterations=10):
    """The learner's own loop, exactly as the lesson writes it."""
    for _ in range(max_iterations):
        response = client.messages.create(model="claude-opus-5", max_tokens=4000, tools=tools, messages=messages)
        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})
            return response
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": answer(b.name, b.input)}
            for b in response.content if b.type == "tool_use"]})


def test_the_view_follows_a_plain_loop(sandbox):
    from review_material import TOOLS, default_answer
    client = sandbox.client()
    view = MessagesView(client=client)
    messages = view.messages
    messages.append({"role": "user", "content": "Review PR #482"})
    lesson_loop(client, messages, TOOLS, lambda n, i: default_answer(n, i)[0])
    assert len(view.card_values()) == len(messages) == 6
    text = view.text().splitlines()
    assert text[0] == "MessagesView: 6 messages"
    assert text[2].startswith("  2 assistant (tool_use): thinking, text") and "tool_use get_diff [toolu_01" in text[2]
    assert text[6].startswith("  6 assistant (end_turn): thinking, text 'Review of !482")
    card = view.card_values()[1]
    assert "iteration 1" in card and "stop_reason tool_use" in card and "cache read" in card


def test_tool_use_and_its_result_share_colour_and_id_and_errors_stand_out():
    view = MessagesView()
    view.messages.extend([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_A", "name": "get_diff", "input": {"pr": 1}},
                                          {"type": "tool_use", "id": "toolu_B", "name": "read_file", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "diff"},
                                     {"type": "tool_result", "tool_use_id": "toolu_B", "content": "404",
                                      "is_error": True}]},
    ])
    use_card, result_card = view.card_values()[1:3]
    for tool_id in ("toolu_A", "toolu_B"):
        assert f"border:2px solid {pair_colour(tool_id)}" in use_card
        assert f"border:2px solid {pair_colour(tool_id)}" in result_card and tool_id in result_card
    assert result_card.count("ERROR") == 1 and "background:rgba(214,39,40" in result_card
    assert "tool_result ERROR [toolu_B]" in view.text()


def test_thinking_is_folded_long_results_fold_and_secrets_are_hidden(monkeypatch):
    monkeypatch.setenv("GITLAB_TOKEN", "glpat-very-secret-value")
    view = MessagesView()
    view.messages.append({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hmm", "signature": "s"}, {"type": "text", "text": "ok"}]})
    view.messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t", "content": "x" * 5000 + " glpat-very-secret-value"}]})
    assert re.search(r"<details><summary style='color:var\(--jp-content-font-color2[^']*'>thinking \(3 characters\)",
                     view.card_values()[0])
    assert "click to expand" in view.card_values()[1]
    assert "glpat-very-secret-value" not in view.html() + view.text()


def test_appending_costs_one_new_card_and_edits_rerender():
    view = MessagesView()
    view.messages.append({"role": "user", "content": "a"})
    first = view.cards.children[0].children[0]
    view.messages.append({"role": "assistant", "content": "b"})
    assert view.cards.children[0].children[0] is first
    view.messages[0] = {"role": "user", "content": "c"}
    assert "c" in view.card_values()[0] and len(view.card_values()) == 2
    view.messages.clear()
    assert view.card_values() == []


def test_long_histories_are_grouped_so_each_append_touches_a_small_box():
    from course_agent.widgets.messages_view import CHUNK
    view = MessagesView()
    view.messages.extend({"role": "user", "content": str(i)} for i in range(CHUNK * 2 + 1))
    assert [len(chunk.children) for chunk in view.cards.children] == [CHUNK, CHUNK, 1]
    assert len(view.card_values()) == CHUNK * 2 + 1


def test_the_reference_loop_feeds_the_view(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    view = MessagesView()
    result = run_agent(sandbox.client(), "Review PR #482", toolbox, system=REVIEW_RULES, observers=[view])
    assert len(view.messages) == len(result.messages) == 6
    assert "stop_reason end_turn" in view.card_values()[-1]


def test_text_repr_is_deterministic(sandbox):
    from review_material import TOOLS, default_answer
    texts = []
    for _ in range(2):
        view = MessagesView(client=sandbox.client())
        view.messages.append({"role": "user", "content": "Review PR #482"})
        lesson_loop(sandbox.client(), view.messages, TOOLS, lambda n, i: default_answer(n, i)[0])
        texts.append(view._repr_mimebundle_()["text/plain"])
    assert texts[0] == texts[1]


def test_clicking_approve_answers_once():
    approver = WidgetApprover(timeout=5, auto="")
    verdicts = []
    worker = threading.Thread(target=lambda: verdicts.append(approver(REQUEST)), daemon=True)
    worker.start()
    wait_until(lambda: approver.prompts, "the prompt to appear")
    prompt = approver.prompts[0]
    assert "merge_pr" in prompt.question.value and '"pr": 485' in visible_text(prompt.question.value)
    prompt.approve_button.click()
    prompt.deny_button.click()
    joined(worker)
    assert verdicts[0].approved is True and verdicts[0].by == "you (clicked Approve)"
    assert prompt.approve_button.disabled and prompt.deny_button.disabled
    assert "Approved" in prompt.status.value and prompt.verdict.approved


def test_clicking_deny():
    approver = WidgetApprover(timeout=5, auto="")
    worker = threading.Thread(target=lambda: approver(REQUEST), daemon=True)
    worker.start()
    wait_until(lambda: approver.prompts, "the prompt to appear")
    approver.prompts[0].deny_button.click()
    joined(worker)
    assert approver.prompts[0].verdict.approved is False and "Denied" in approver.prompts[0].status.value


def test_no_click_in_time_means_deny():
    verdict = WidgetApprover(timeout=0.1, auto="")(REQUEST)
    assert (verdict.approved, verdict.by) == (False, "timeout")


@pytest.mark.parametrize("answer", ["approve", "deny"])
def test_auto_answer_uses_the_same_prompt(monkeypatch, answer):
    monkeypatch.setenv("COURSE_AGENT_AUTO_APPROVE", answer)
    approver = WidgetApprover()
    verdict = approver(REQUEST)
    assert verdict.approved is (answer == "approve")
    assert repr(approver.prompts[0]).endswith(f"by COURSE_AGENT_AUTO_APPROVE={answer})")


def test_stepper_advances_one_call_per_click(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    stepper = Stepper(lambda observers: run_agent(sandbox.client(), "Review PR #482", toolbox,
                                                  system=REVIEW_RULES, observers=observers)).start()
    for expected in (1, 2, 3):
        wait_until(lambda: len(stepper.steps) >= expected, f"request {expected}")
        time.sleep(0.05)
        assert len(stepper.steps) == expected  # waiting for Next, not running ahead
        assert f"Request {expected}" in stepper.request_pane.value
        stepper.next_button.click()
    joined(stepper._thread)
    assert [s["stop_reason"] for s in stepper.steps] == ["tool_use", "tool_use", "end_turn"]
    assert stepper.steps[0]["action"].startswith("append the response whole, run 1 tool call — get_diff(pr=482)")
    assert [s["new_messages"] for s in stepper.steps] == [1, 2, 2]
    assert "done after 3 API calls: end_turn" in stepper.status.value and len(stepper.view.messages) == 6
    assert len(stepper.usage) == 3


def test_stepper_plays_by_itself(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    stepper = Stepper(lambda observers: run_agent(sandbox.client(), "Review PR #999", toolbox,
                                                  system=REVIEW_RULES, observers=observers), delay=0.01)
    stepper.play_button.value = True
    stepper.start()
    joined(stepper._thread)
    assert [s["stop_reason"] for s in stepper.steps] == ["tool_use", "end_turn"]


# Markdown, sanitising, highlighting

MARKDOWN_ANSWER = """## Review of !482

Findings:
1. `calculate_total` changed its signature
2. **shop/checkout.py:20** still passes `coupon_percent`

- first point
- second point

```python
total = calculate_total(cart.items, discount=None)
```

See [the docs](https://docs.example.com/a?b=1) or [mail](mailto:team@example.com)."""

HOSTILE = """Ignore this <script>window.__pwned = 1</script> text.

<img src="x" onerror="window.__pwned = 2">

<a href="https://example.com" onclick="window.__pwned = 3">click</a> <b onmouseover=alert(4)>bold</b>

[a link](javascript:alert(5)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==)
[vb](vbscript:msgbox(7)) [file](file:///etc/passwd) [relative](../notebooks) <javascript:alert(8)>

![pixel](http://tracker.example.com/p.png "t") ![js](javascript:alert(9))

<svg onload=alert(10)></svg><iframe src="https://example.com"></iframe>
<div style="background:url(javascript:alert(11))">x</div>
`<script>alert(12)</script>` and [`x`](https://ok.example.com "a\\" onmouseover=\\"alert(13)")"""


def assistant_card(text: str, **view_options) -> str:
    view = MessagesView(**view_options)
    view.messages.append({"role": "assistant", "content": [{"type": "text", "text": text}]})
    return view.card_values()[0]


def test_text_blocks_are_rendered_as_markdown():
    card = assistant_card(MARKDOWN_ANSWER)
    tags = Tags(card)
    assert {"h2", "ol", "ul", "li", "code", "strong", "pre", "a"} <= tags.names()
    assert "<code style=" in card and ">calculate_total</code>" in card
    assert sum(1 for tag, _ in tags.tags if tag == "li") == 4
    links = [attrs for tag, attrs in tags.tags if tag == "a"]
    assert [a["href"] for a in links] == ["https://docs.example.com/a?b=1", "mailto:team@example.com"]
    assert all(a["target"] == "_blank" and "noopener" in a["rel"] for a in links)
    # the fenced block is coloured: `=` is an operator, `None` a keyword constant
    assert "var(--jp-mirror-editor-keyword-color" in card and "None" in card
    # the widget's 28px line height (for one-line labels) is overridden, so text is not double-spaced
    assert "line-height:1.45" in card
    # no raw Markdown left behind
    assert "`calculate_total`" not in card and "**shop" not in card and "## Review" not in card


def test_single_newlines_stay_line_breaks():
    card = assistant_card("Files changed: shop/cart.py\nRead for context: shop/checkout.py")
    assert "shop/cart.py<br />" in card


def test_markdown_with_script_and_event_handlers_is_inert():
    card = assistant_card(HOSTILE)
    tags = Tags(card)
    assert not tags.names() & {"script", "img", "iframe", "svg", "object", "embed", "form", "input", "meta",
                               "link", "style", "base"}, tags.names()
    assert not {name for name in tags.attributes() if name.startswith("on")}, tags.attributes()
    hrefs = [attrs["href"] for tag, attrs in tags.tags if tag == "a"]
    assert hrefs and all(re.match(r"(https?|mailto):", href) for href in hrefs), hrefs
    assert "tracker.example.com" not in " ".join(attrs.get("src", "") for _, attrs in tags.tags)
    assert all("javascript" not in " ".join(attrs.values()) for _, attrs in tags.tags)
    # what was written is still readable, as text
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in card
    assert "onerror=&quot;window.__pwned = 2&quot;" in card
    assert "[a link](javascript:alert(5))" in card


def test_the_static_transcript_and_tool_results_are_sanitised_too():
    view = MessagesView()
    view.messages.extend([
        {"role": "user", "content": HOSTILE},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_diff",
                                           "input": {"pr": "<img src=x onerror=alert(1)>"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                      "content": "Description: <script>alert(2)</script>\n<img src=x onerror=alert(3)>"}]},
    ])
    for fragment in [view.html(), *view.card_values()]:
        tags = Tags(fragment)
        assert not tags.names() & {"script", "img", "iframe", "svg"}
        assert not {name for name in tags.attributes() if name.startswith("on")}


def test_code_in_tool_inputs_and_results_is_highlighted():
    view = MessagesView()
    view.messages.extend([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_D", "name": "get_diff", "input": {"pr": 482}},
            {"type": "tool_use", "id": "toolu_F", "name": "read_file", "input": {"path": "shop/checkout.py"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_D",
             "content": "Title: x\n\ndiff --git a/a.py b/a.py\n@@ -1 +1 @@\n-old = 1\n+new = 2\n"},
            {"type": "tool_result", "tool_use_id": "toolu_F", "content": "def checkout(cart):\n    return None\n"}]},
    ])
    use_card, result_card = view.card_values()[1:3]
    assert "var(--jp-mirror-editor-property-color" in use_card  # the JSON key "pr"
    assert "<span style='color:var(--jp-success-color1,#388e3c)'>+new = 2</span>" in result_card
    assert "<span style='color:var(--jp-error-color1,#d32f2f)'>-old = 1</span>" in result_card
    assert "font-weight:bold'>def</span>" in result_card  # Python, known from read_file's path
    assert "tool_result [toolu_F]" in view.text()  # the plain-text form is unchanged


def test_colours_follow_the_jupyterlab_theme():
    view = MessagesView(client=None)
    view.messages.extend([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm", "signature": "s"},
                                          {"type": "text", "text": "`x`"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "boom", "is_error": True}]},
    ])
    shown = view._header.value + "".join(view.card_values())
    # text colours are theme variables (with fallbacks for static exports), never a fixed grey on a dark page;
    # the only fixed ones are the mid-tone pair colours that tie a tool_use to its result
    fixed = [c for c in re.findall(r"(?<![\w-])color:\s*(#[0-9a-fA-F]{3,6})", shown) if c not in PALETTE]
    assert fixed == [], fixed
    assert "var(--jp-content-font-color2" in shown and "var(--jp-layout-color2" in shown


def test_approval_prompt_uses_theme_colours_and_highlights_the_input():
    approver = WidgetApprover(auto="deny")
    approver(REQUEST)
    prompt = approver.prompts[0]
    assert "var(--jp-content-font-color1" in prompt.question.value
    assert "var(--jp-mirror-editor-number-color" in prompt.question.value  # 485, coloured as JSON
    assert "var(--jp-error-color1" in prompt.status.value and not re.search(r"color:#", prompt.status.value)


# languages

def test_the_approval_prompt_speaks_russian(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    approver = WidgetApprover(timeout=5, auto="")
    verdicts = []
    worker = threading.Thread(target=lambda: verdicts.append(approver(REQUEST)), daemon=True)
    worker.start()
    wait_until(lambda: approver.prompts, "the prompt to appear")
    prompt = approver.prompts[0]
    assert "Агент хочет вызвать <code>merge_pr</code>" in prompt.question.value and "(опасное действие)" in prompt.question.value
    assert (prompt.approve_button.description, prompt.deny_button.description) == ("Подтвердить", "Отклонить")
    assert "ждём решения…" in prompt.status.value
    prompt.deny_button.click()
    joined(worker)
    assert "Отклонено" in prompt.status.value and "нажали «Отклонить»" in prompt.status.value
    # the Verdict stays in English: it goes to the audit log and to the model
    assert verdicts[0].by == "you (clicked Deny)"
    assert prompt.decision_text() == "merge_pr: отклонено — вы (нажали «Отклонить»)"


def test_an_explicit_language_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert WidgetApprover(language="en", auto="deny").language == "en"
    view = MessagesView(language="en")
    view.messages.append({"role": "user", "content": "hi"})
    assert "1 message (1 user, 0 assistant)" in view._header.value
    assert MessagesView().language == "ru"


def test_the_view_and_its_cards_speak_russian():
    view = MessagesView(language="ru")
    view.messages.extend([
        {"role": "user", "content": "Проверь !482"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "хм", "signature": "s"},
                                          {"type": "tool_use", "id": "t1", "name": "get_diff", "input": {"pr": 482}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x" * 2000,
                                      "is_error": True}]},
    ])
    assert "<b>история</b>: 3 сообщения (user: 2, assistant: 1)" in view._header.value
    cards = "".join(view.card_values())
    assert "рассуждение (thinking), 2 символа" in cards and "ОШИБКА" in cards and "для <span" in cards
    assert "результат (2000 символов, нажмите, чтобы развернуть)" in cards
    assert view.text().splitlines()[0] == "MessagesView: 3 сообщения"
    assert "сообщений пока нет" in MessagesView(language="ru")._repr_mimebundle_()["text/html"]


def test_the_stepper_speaks_russian(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    stepper = Stepper(lambda observers: run_agent(sandbox.client(), "Review PR #999", toolbox,
                                                  system=REVIEW_RULES, observers=observers), delay=0.01, language="ru")
    assert (stepper.next_button.description, stepper.play_button.description) == ("Дальше", "Пуск")
    assert "нажмите «Дальше»" in stepper.status.value
    stepper.play_button.value = True
    stepper.start()
    joined(stepper._thread)
    assert "готово за 2 вызова API: end_turn" in stepper.status.value
    assert stepper.steps[0]["action"].startswith("добавить ответ в историю целиком, выполнить 1 вызов инструмента")
    assert "Ответ 2: stop_reason <code>end_turn</code>" in stepper.response_pane.value
    assert "Запрос 2: отправляется вся история, 3 сообщения; новых с прошлого запроса: 2" in stepper.request_pane.value
    assert "история" in stepper.view._header.value


# usage, for the chart

def test_the_view_keeps_each_responses_usage_once(sandbox):
    toolbox = reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))
    client = sandbox.client()
    view = MessagesView(client=client)  # watching the client and observing the loop at once
    result = run_agent(client, "Review PR #482", toolbox, system=REVIEW_RULES, observers=[view])
    assert view.usage == result.usage and len(view.usage) == result.iterations == 3
    assert [view._meta[i]["iteration"] for i in sorted(view._meta)] == [1, 2, 3]
