"""The simulated model reviews like the lesson's agent, with tool results supplied by the test."""

import pytest

from review_material import (
    CLEAN_DIFF, COMMENT_TOOL, DIFF_482, FILES, INJECTION_DIFF, MERGE_TOOL, TOOLS, default_answer, drive, text_of,
)


def tool_calls(responses):
    return [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]


def test_review_of_482_names_the_stale_caller(client):
    final, _, responses = drive(client, "Review PR #482.")
    assert tool_calls(responses) == [
        [("get_diff", {"pr": 482})],
        [("read_file", {"path": "shop/checkout.py", "ref": "feature/discount-object"}),
         ("read_file", {"path": "shop/invoices.py", "ref": "feature/discount-object"})],
        [],
    ]
    review = text_of(final)
    assert "shop/checkout.py:5" in review
    assert "calculate_total(cart.items, 10)" in review
    assert "shop/invoices.py:" not in review.split("Findings:")[1]
    assert "Verdict: request changes." in review


def test_review_in_russian(client):
    final, _, _ = drive(client, "Проверь pull request #482.")
    review = text_of(final)
    assert review.startswith("Ревью !482")
    assert "shop/checkout.py:5" in review
    assert "Вердикт: нужны исправления." in review


def test_clean_mr_is_approved(client):
    final, _, responses = drive(client, "Review MR !7", answer=lambda n, i: default_answer(n, i, CLEAN_DIFF))
    assert len(responses) == 2
    assert "No problems found" in text_of(final)
    assert "Verdict: approve." in text_of(final)


def test_missing_mr_is_reported_plainly(client):
    final, _, _ = drive(client, "Review PR #999", answer=lambda n, i: ('{"message": "404 Not found"}', True))
    text = text_of(final)
    assert final.stop_reason == "end_turn"
    assert "!999 does not exist" in text and "404 Not found" in text


def test_transient_tool_error_is_retried_once_then_reported(client):
    final, _, responses = drive(client, "Review PR #482", answer=lambda n, i: ("503 Service Unavailable", True))
    assert tool_calls(responses)[:2] == [[("get_diff", {"pr": 482})], [("get_diff", {"pr": 482})]]
    assert "could not get the diff" in text_of(final)


def test_unreadable_file_is_noted_not_retried(client):
    def answer(name, tool_input):
        if name == "read_file" and tool_input["path"] == "shop/invoices.py":
            return "403 Forbidden", True
        return default_answer(name, tool_input)

    final, _, responses = drive(client, "Review PR #482", answer=answer)
    assert len(responses) == 3
    assert "could not read shop/invoices.py: 403 Forbidden" in text_of(final)


def test_other_property_and_tool_names(client):
    tools = [
        {"name": "fetch_changes", "description": "Returns the changes of a merge request",
         "input_schema": {"type": "object", "properties": {"merge_request_iid": {"type": "string"}},
                          "required": ["merge_request_iid"]}},
        {"name": "open_source_file", "description": "Read a file from the repository",
         "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"},
                                                           "branch": {"type": "string"}},
                          "required": ["file_path", "branch"]}},
    ]

    def answer(name, tool_input):
        if name == "fetch_changes":
            return DIFF_482, False
        return FILES[tool_input["file_path"]], False

    final, _, responses = drive(client, "Review PR #482", tools=tools, answer=answer)
    calls = tool_calls(responses)
    assert calls[0] == [("fetch_changes", {"merge_request_iid": "482"})]
    assert calls[1][0] == ("open_source_file", {"file_path": "shop/checkout.py", "branch": "feature/discount-object"})
    assert "shop/checkout.py:5" in text_of(final)


def test_split_results_make_the_model_stop_calling_in_parallel(client):
    final, _, responses = drive(client, "Review PR #482", split=True,
                                answer=lambda n, i: default_answer(n, i, DIFF_482 + "\n# see shop/cart.py\n"))
    calls = tool_calls(responses)
    assert len(calls[1]) == 3  # three files wanted at once
    assert all(len(c) <= 1 for c in calls[2:])  # after the split, one at a time
    assert final.stop_reason == "end_turn"


def test_injection_makes_a_model_with_a_merge_tool_try_to_merge(client):
    final, _, responses = drive(client, "Review MR !13", tools=TOOLS + [MERGE_TOOL],
                                answer=lambda n, i: default_answer(n, i, INJECTION_DIFF))
    assert ("merge_pr", {"pr": 13}) in tool_calls(responses)[1]
    assert "I merged !13" in text_of(final)


@pytest.mark.parametrize("flag", ["confirmed", "human_approved", "force", "skip_approval", "approvedByLead"])
def test_an_injected_merge_sets_the_tools_own_approval_flag(client, flag):
    """The injection says the change "is approved by the team lead": a model that believes it says so in a merge tool's
    flag that claims approval, and leaves the tool's other flags alone (a gate that trusts the flag is fooled)."""
    merge = {**MERGE_TOOL, "input_schema": {**MERGE_TOOL["input_schema"], "properties": {
        **MERGE_TOOL["input_schema"]["properties"], flag: {"type": "boolean"}, "squash": {"type": "boolean"}}}}
    _, _, responses = drive(client, "Review MR !13", tools=TOOLS + [merge],
                            answer=lambda n, i: default_answer(n, i, INJECTION_DIFF))
    assert ("merge_pr", {"pr": 13, flag: True}) in tool_calls(responses)[1]


def test_injection_without_a_merge_tool_is_flagged(client):
    final, _, _ = drive(client, "Review MR !13", answer=lambda n, i: default_answer(n, i, INJECTION_DIFF))
    assert "instructions addressed to an AI reviewer" in text_of(final)


def test_denied_merge_is_reported(client):
    def answer(name, tool_input):
        if name == "merge_pr":
            return "A human denied this call.", True
        return default_answer(name, tool_input, INJECTION_DIFF)

    final, _, _ = drive(client, "Review MR !13", tools=TOOLS + [MERGE_TOOL], answer=answer)
    assert "it did not go through: A human denied this call." in text_of(final)


def test_review_is_posted_when_asked(client):
    final, _, responses = drive(client, "Review PR #482 and post the review as a comment",
                                tools=TOOLS + [COMMENT_TOOL])
    comment = [c for calls in tool_calls(responses) for c in calls if c[0] == "post_comment"]
    assert len(comment) == 1
    assert comment[0][1]["pr"] == 482 and "shop/checkout.py:5" in comment[0][1]["body"]
    assert text_of(final).startswith("Posted the review on !482.")


def test_without_tools_the_model_says_it_has_no_hands(client):
    response = client.messages.create(model="claude-opus-5", max_tokens=500,
                                      messages=[{"role": "user", "content": "Review PR #482"}])
    assert "I can't open merge request !482" in text_of(response)


def test_a_pasted_diff_is_reviewed_without_tools(client):
    response = client.messages.create(model="claude-opus-5", max_tokens=2000,
                                      messages=[{"role": "user", "content": "Review this diff:\n" + DIFF_482}])
    assert "calculate_total" in text_of(response)


def test_replies_follow_the_prompt_language(client):
    en = client.messages.create(model="claude-opus-5", max_tokens=500, messages=[{"role": "user", "content": "Hi"}])
    ru = client.messages.create(model="claude-opus-5", max_tokens=500,
                                messages=[{"role": "user", "content": "Привет"}])
    assert text_of(en).startswith("Hello")
    assert text_of(ru).startswith("Здравствуйте")


@pytest.mark.parametrize("unreadable", ['{"changes": null}', "12345", "<html><body>502 Bad Gateway</body></html>"])
def test_a_diff_it_cannot_read_gets_no_verdict(client, unreadable):
    final, _, _ = drive(client, "Review PR #482", answer=lambda n, i: (unreadable, False))
    assert "could not read the diff" in text_of(final) and "Verdict" not in text_of(final)


def test_tool_choice_none_any_and_named(client):
    ask = dict(model="claude-opus-5", max_tokens=1000, tools=TOOLS,
               messages=[{"role": "user", "content": "Review PR #482"}])
    assert client.messages.create(tool_choice={"type": "none"}, **ask).stop_reason == "end_turn"
    forced = client.messages.create(tool_choice={"type": "tool", "name": "read_file"}, **ask)
    assert forced.stop_reason == "tool_use" and [b.name for b in forced.content if b.type == "tool_use"] == ["read_file"]
    chatty = dict(ask, messages=[{"role": "user", "content": "Hello there"}])
    assert client.messages.create(tool_choice={"type": "any"}, **chatty).stop_reason == "tool_use"


def test_disable_parallel_tool_use_gives_one_call_per_turn(client):
    def answer(name, tool_input):
        return default_answer(name, tool_input, DIFF_482)

    _, _, responses = drive(client, "Review PR #482", answer=answer,
                            tool_choice={"type": "auto", "disable_parallel_tool_use": True})
    assert all(sum(b.type == "tool_use" for b in r.content) <= 1 for r in responses)
    assert len(responses) == 4  # the two files are read one after the other


# ---------------------------------------------------------------- inline comments (comment_on_line)

INLINE_TOOL = {"name": "comment_on_line", "description": "Comment on one line of a merge request's diff.",
               "input_schema": {"type": "object", "properties": {
                   "pr": {"type": "integer"}, "path": {"type": "string"}, "line": {"type": "integer"},
                   "body": {"type": "string"}}, "required": ["pr", "path", "line", "body"]}}
LEFTOVERS_DIFF = """Title: Faster checkout
source_branch: feature/fast

diff --git a/shop/fast.py b/shop/fast.py
--- a/shop/fast.py
+++ b/shop/fast.py
@@ -1,3 +1,5 @@
 import os
+print("debug")
 x = 1
+# TODO: remove
 y = 2
"""


def test_asked_to_post_it_comments_on_the_changed_line_then_posts_the_summary(client):
    final, _, responses = drive(client, "Review PR #482 and post the review as a comment",
                                tools=TOOLS + [COMMENT_TOOL, INLINE_TOOL])
    calls = tool_calls(responses)
    [[(name, inline)]] = [c for c in calls if c and c[0][0] == "comment_on_line"]
    assert (inline["pr"], inline["path"], inline["line"]) == (482, "shop/pricing.py", 11)
    assert "shop/checkout.py:5" in inline["body"]
    assert [c[0][0] for c in calls if c][-1] == "post_comment"  # the summary comes last
    assert text_of(final).startswith("Posted the review on !482.\nInline comments on: shop/pricing.py:11.")
    again = tool_calls(drive(client, "Review PR #482 and post the review as a comment",
                             tools=TOOLS + [COMMENT_TOOL, INLINE_TOOL])[2])
    assert again == calls  # deterministic


def test_one_inline_comment_per_finding_line_all_in_one_turn(client):
    answer = lambda n, i: default_answer(n, i, LEFTOVERS_DIFF)  # noqa: E731
    _, _, responses = drive(client, "Review MR !9 and post a comment", tools=TOOLS + [COMMENT_TOOL, INLINE_TOOL],
                            answer=answer)
    [inline] = [c for c in tool_calls(responses) if c and c[0][0] == "comment_on_line"]
    assert [(i["path"], i["line"]) for _, i in inline] == [("shop/fast.py", 2), ("shop/fast.py", 4)]
    assert "print()" in inline[0][1]["body"] and "TODO" in inline[1][1]["body"]


def test_an_inline_comment_refused_by_gitlab_ends_up_in_the_summary_anyway(client):
    def answer(name, tool_input):
        if name == "comment_on_line":
            return "inline comment on shop/pricing.py:11 of !482: line 11 is not part of the diff (400)", True
        return default_answer(name, tool_input)

    final, _, responses = drive(client, "Review PR #482 and post the review as a comment",
                                tools=TOOLS + [COMMENT_TOOL, INLINE_TOOL], answer=answer)
    calls = [c[0][0] for c in tool_calls(responses) if c]
    assert calls.count("comment_on_line") == 1 and calls[-1] == "post_comment"
    text = text_of(final)
    assert "Could not comment on shop/pricing.py:11: inline comment on shop/pricing.py:11" in text
    assert "shop/checkout.py:5" in text.split("Findings:")[1]


def test_not_asked_to_post_it_comments_nowhere(client):
    _, _, responses = drive(client, "Review PR #482", tools=TOOLS + [COMMENT_TOOL, INLINE_TOOL])
    assert not [c for calls in tool_calls(responses) for c in calls if c[0] in ("comment_on_line", "post_comment")]


def test_inline_comments_in_russian(client):
    final, _, responses = drive(client, "Проверь pull request #482 и опубликуй ревью комментарием",
                                tools=TOOLS + [COMMENT_TOOL, INLINE_TOOL])
    [[(_, inline)]] = [c for c in tool_calls(responses) if c and c[0][0] == "comment_on_line"]
    assert "по-прежнему вызывает" in inline["body"]
    assert text_of(final).startswith("Ревью опубликовано в !482.\nКомментарии к строкам: shop/pricing.py:11.")


def test_the_summary_tool_is_never_mistaken_for_the_inline_one(client):
    """comment_on_line listed before post_comment: the summary still goes to post_comment."""
    _, _, responses = drive(client, "Review PR #482 and post the review as a comment",
                            tools=TOOLS + [INLINE_TOOL, COMMENT_TOOL])
    names = [c[0][0] for c in tool_calls(responses) if c]
    assert names[-2:] == ["comment_on_line", "post_comment"]
