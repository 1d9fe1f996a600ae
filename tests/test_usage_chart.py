"""The usage chart: tokens per iteration of a finished run, from any of the things a notebook has at hand;
the same PNG every time (so a saved notebook does not change for nothing), labels in English or Russian."""

import base64
import struct
import zlib

import matplotlib
import pytest
from anthropic.types import Usage

from course_agent.gitlab import GitLabTools
from course_agent.loop import run_agent
from course_agent.review import REVIEW_RULES, reviewer_toolbox
from course_agent.usage_chart import DPI, SIZE_INCHES, IterationUsage, usage_chart, usage_rows
from course_agent.widgets import MessagesView, Stepper

USAGES = [
    Usage(input_tokens=10, output_tokens=28, cache_creation_input_tokens=1309, cache_read_input_tokens=0),
    Usage(input_tokens=5, output_tokens=79, cache_creation_input_tokens=611, cache_read_input_tokens=1309),
    Usage(input_tokens=0, output_tokens=310, cache_creation_input_tokens=278, cache_read_input_tokens=1920),
]


def png_chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + data)
        chunks.append((kind, data))
        at += 12 + length
    return chunks


@pytest.fixture
def toolbox(sandbox):
    return reviewer_toolbox(GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project))


def test_rows_and_the_cumulative_billed_input():
    chart = usage_chart(USAGES, language="en")
    assert chart.rows[1] == IterationUsage(iteration=2, input=5, cache_read=1309, cache_write=611, output=79)
    assert [row.sent for row in chart.rows] == [1319, 1925, 2198]  # each request sends the whole history again
    with_caching, without = chart.cumulative()
    assert without == [1319, 3244, 5442]
    assert with_caching == pytest.approx([10 + 1.25 * 1309, 1646.25 + 5 + 1.25 * 611 + 130.9,
                                          1646.25 + 899.65 + 1.25 * 278 + 192.0])
    lines = chart.text().splitlines()
    assert lines[0] == "Tokens per iteration (each request sends the whole history again)"
    assert lines[1].split() == ["#", "input", "cache", "read", "cache", "write", "output", "billed", "input", "so",
                                "far", "without", "caching"]
    assert lines[2].split() == ["1", "10", "0", "1309", "28", "1646", "1319"]
    assert lines[-1] == "billed input: 3085 with caching, 5442 without (57%)"


def test_one_hour_cache_writes_cost_twice_the_input_price():
    usage = {"input_tokens": 0, "output_tokens": 1, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 300,
             "cache_creation": {"ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 200}}
    assert usage_rows([usage])[0].billed == 1.25 * 100 + 2 * 200


def test_from_the_reference_loops_result(sandbox, toolbox):
    result = run_agent(sandbox.client(), "Review PR #482", toolbox, system=REVIEW_RULES)
    chart = usage_chart(result)
    assert len(chart.rows) == result.iterations == 3
    assert [r.output for r in chart.rows] == [u.output_tokens for u in result.usage]
    assert [r.sent for r in chart.rows] == sorted(r.sent for r in chart.rows)  # the history only grows


def test_from_a_view_that_watched_the_learners_client(sandbox):
    from review_material import TOOLS, default_answer
    client = sandbox.client()
    view = MessagesView(client=client)
    view.messages.append({"role": "user", "content": "Review PR #482"})
    responses = []
    for _ in range(5):
        response = client.messages.create(model="claude-opus-5", max_tokens=4000, tools=TOOLS, messages=view.messages)
        responses.append(response)
        view.messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        view.messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": default_answer(b.name, b.input)[0]}
            for b in response.content if b.type == "tool_use"]})
    assert usage_rows(view) == usage_rows(responses) == usage_rows([r.usage for r in responses])
    assert len(usage_rows(view)) == len(responses) == 3
    assert usage_rows([r.to_dict() for r in responses]) == usage_rows(responses)


def test_from_a_stepper(sandbox, toolbox):
    stepper = Stepper(lambda observers: run_agent(sandbox.client(), "Review PR #999", toolbox,
                                                  system=REVIEW_RULES, observers=observers), delay=0.01)
    stepper.play_button.value = True
    stepper.start().join(20)
    assert len(usage_chart(stepper).rows) == 2


def test_the_png_is_the_same_every_time_whatever_the_learners_style():
    first = usage_chart(USAGES, language="en").png()
    with matplotlib.rc_context({"lines.linewidth": 7, "font.size": 20, "axes.facecolor": "black"}):
        again = usage_chart(USAGES, language="en").png()
    assert first == again
    chunks = png_chunks(first)
    width, height = struct.unpack(">II", chunks[0][1][:8])
    assert (width, height) == (int(SIZE_INCHES[0] * DPI), int(SIZE_INCHES[1] * DPI))
    text = b"".join(data for kind, data in chunks if kind in (b"tEXt", b"iTXt", b"zTXt"))
    assert b"Software" not in text and b"matplotlib" not in text.lower()


def test_in_a_notebook_it_shows_a_png_and_a_text_table():
    chart = usage_chart(USAGES, language="en")
    bundle = chart._repr_mimebundle_()
    assert set(bundle) == {"image/png", "text/plain"}
    assert base64.b64decode(bundle["image/png"]) == chart.png()
    assert bundle["text/plain"] == chart.text() == repr(chart)
    assert chart.figure is chart.figure and len(chart.figure.axes) == 2


def test_labels_in_russian(monkeypatch):
    chart = usage_chart(USAGES, language="ru")
    assert chart.text().splitlines()[0] == "Токены по итерациям (каждый запрос заново отправляет всю историю)"
    assert chart.text().splitlines()[-1] == "оплачиваемый вход: 3085 с кэшированием, 5442 без него (57\u00a0%)"
    tokens, billed = chart.figure.axes
    assert tokens.get_title() == "Токены по итерациям" and billed.get_title() == "Оплачиваемый вход, нарастающим итогом"
    assert billed.get_ylabel() == "токены по цене входа"
    assert [t.get_text() for t in billed.get_legend().get_texts()] == [
        "без кэширования", "с кэшированием (запись ×1,25, чтение ×0,1)"]
    assert [t.get_text() for t in tokens.get_legend().get_texts()] == [
        "вход (без кэша)", "чтение из кэша", "запись в кэш", "выход"]
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert usage_chart(USAGES).language == "ru" and usage_chart(USAGES, "en").language == "en"
    assert usage_chart(USAGES, language="ru").png() != usage_chart(USAGES, language="en").png()


def test_nothing_to_draw_is_a_clear_error():
    with pytest.raises(ValueError, match=r"MessagesView\(client=client\)"):
        usage_chart(MessagesView())
    with pytest.raises(TypeError, match="not int"):
        usage_chart(42)


def test_a_run_without_caching_says_so_and_draws_one_line():
    plain = [Usage(input_tokens=n, output_tokens=20, cache_creation_input_tokens=0, cache_read_input_tokens=0)
             for n in (564, 1144, 1381)]
    chart = usage_chart(plain, language="en")
    assert not chart.cached and chart.cumulative() == ([564, 1708, 3089], [564, 1708, 3089])
    assert chart.text().splitlines()[-1] == "billed input: 3089 (this run used no prompt caching)"
    tokens, billed = chart.figure.axes
    assert [t.get_text() for t in tokens.get_legend().get_texts()] == ["input (not cached)", "output"]
    assert [t.get_text() for t in billed.get_legend().get_texts()] == ["no prompt caching in this run"]
    assert usage_chart(plain, language="ru").text().splitlines()[-1] == (
        "оплачиваемый вход: 3089 (в этом запуске кэширование промпта не использовалось)")


def test_cache_reads_are_priced_per_model_from_one_table():
    """A read costs 0.1x on Opus 5 (the course's model) and 0.05x on Opus 5.5 (course_agent.prices, whose source
    docs/facts.md names): a Message prices itself by its model, a bare usage by the model given."""
    from course_agent import batch_review
    from course_agent.prices import CACHE_READ, cache_read_rate
    from course_agent.usage_chart import usage_rows

    usage = {"input_tokens": 100, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 0, "output_tokens": 5}
    assert cache_read_rate("claude-opus-5") == 0.1 and cache_read_rate(None) == 0.1
    assert cache_read_rate("claude-opus-5-5") == 0.05 and cache_read_rate("claude-fable-5-1") == 0.025
    assert usage_rows([usage])[0].billed == 100 + 0.1 * 1000
    assert usage_rows([usage], "claude-opus-5-5")[0].billed == 100 + 0.05 * 1000
    assert usage_rows([{"model": "claude-sonnet-5-5", "usage": usage}], "claude-opus-5")[0].billed == 150
    assert batch_review.billed([usage], batch=True, model="claude-mythos-5-1")[0] == 0.5 * (100 + 25)
    assert set(CACHE_READ) <= set(__import__("course_sandbox.models", fromlist=["KNOWN_MODELS"]).KNOWN_MODELS)
