"""Tokens per iteration of a finished run, as a chart and as a table.

The loop's most important cost fact: every iteration sends the whole history again, so the input
of each request grows turn after turn, and what you pay is the sum of all of them. Prompt caching
changes the price of the repeated part (a cache write costs 1.25x an input token, 2x for the
1-hour cache, a cache read 0.1x on most models and less on some newer ones: course_agent.prices), not its size.

    from course_agent.usage_chart import usage_chart
    usage_chart(result)          # the reference loop's AgentResult (review(...) returns one)
    usage_chart(view)            # a MessagesView that was given a client (or fed by the loop)
    usage_chart(responses)       # a list of anthropic Message objects, or of their usage

Left: each request's input (not cached, read from the cache, written to the cache) stacked, and
its output beside it. Right: the billed input so far, with caching as it happened and as it would
be without caching (every token at the full price). The result shows as a PNG in JupyterLab and
in a static export, and as a plain-text table (which strict nbval compares; it skips images). The
PNG is drawn the same way every time: fixed size, DPI and font, matplotlib's default style
whatever the learner's settings, and no "Software" stamp in its metadata.
"""

import base64
import io
from dataclasses import dataclass
from typing import Any

from .i18n import language as resolve_language
from .i18n import number, tr
from .prices import CACHE_READ_DEFAULT, CACHE_WRITE_1H, CACHE_WRITE_5M, cache_read_rate

SIZE_INCHES = (10.0, 3.8)
DPI = 100
COLOURS = {"input": "#4c78a8", "cache_read": "#54a24b", "cache_write": "#f58518", "output": "#b279a2",
           "with": "#4c78a8", "without": "#9d9d9d"}
RC = {"font.family": "DejaVu Sans", "font.size": 9.0, "axes.titlesize": 10.0, "legend.fontsize": 8.0,
      "svg.hashsalt": "course-agent", "path.simplify": True, "figure.dpi": DPI, "savefig.dpi": DPI}


@dataclass(frozen=True)
class IterationUsage:
    """One request's tokens. `input` is the part neither read from nor written to the cache."""

    iteration: int
    input: int
    cache_read: int
    cache_write: int
    output: int
    cache_write_1h: int = 0
    cache_read_price: float = CACHE_READ_DEFAULT
    """What a cache read of the request's model costs, in input-token prices (course_agent.prices)."""

    @property
    def sent(self) -> int:
        """Every input token of the request: what the history and the rest cost to send."""
        return self.input + self.cache_read + self.cache_write

    @property
    def billed(self) -> float:
        """Input as billed, in input-token prices (cache writes cost more, cache reads much less)."""
        return (self.input + CACHE_WRITE_5M * (self.cache_write - self.cache_write_1h)
                + CACHE_WRITE_1H * self.cache_write_1h + self.cache_read_price * self.cache_read)


def _field(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else getattr(value, name, None)


def _usage_of(item: Any) -> Any:
    """A usage from a Message (object or dict) or a usage itself."""
    if _field(item, "input_tokens") is None and _field(item, "usage") is not None:
        return _field(item, "usage")
    return item


def _model_of(item: Any, model: str | None) -> str | None:
    """The model that answered: a Message names it; a bare usage takes the one given."""
    named = _field(item, "model")
    return named if isinstance(named, str) else model


def _usages(source: Any) -> list[Any]:
    if isinstance(source, (list, tuple)):
        items = list(source)
    elif isinstance(_field(source, "usage"), (list, tuple)):  # AgentResult, MessagesView, Stepper
        items = list(_field(source, "usage"))
    elif _field(source, "usage") is not None or _field(source, "input_tokens") is not None:  # one Message or Usage
        items = [source]
    else:
        raise TypeError(f"usage_chart takes a run's result, a MessagesView or a list of messages or usages, "
                        f"not {type(source).__name__}")
    return items


def usage_rows(source: Any, model: str | None = None) -> list[IterationUsage]:
    """Each request's tokens, in order (see usage_chart for what `source` may be), each priced for the model that
    answered it: a Message's own, else `model`."""
    rows = []
    for iteration, item in enumerate(_usages(source), start=1):
        usage = _usage_of(item)
        creation = _field(usage, "cache_creation")
        rows.append(IterationUsage(
            iteration=iteration, input=int(_field(usage, "input_tokens") or 0),
            cache_read=int(_field(usage, "cache_read_input_tokens") or 0),
            cache_write=int(_field(usage, "cache_creation_input_tokens") or 0),
            output=int(_field(usage, "output_tokens") or 0),
            cache_write_1h=int(_field(creation, "ephemeral_1h_input_tokens") or 0) if creation is not None else 0,
            cache_read_price=cache_read_rate(_model_of(item, model))))
    return rows


class UsageChart:
    """A run's tokens per iteration: shown as a PNG chart, with a plain-text table beside it."""

    def __init__(self, rows: list[IterationUsage], language: str | None = None) -> None:
        self.rows = rows
        self.language = resolve_language(language)
        self._figure: Any = None
        self._png: bytes | None = None

    # the figures
    @property
    def cached(self) -> bool:
        """Whether the run read from or wrote to the prompt cache at all."""
        return any(row.cache_read or row.cache_write for row in self.rows)

    def cumulative(self) -> tuple[list[float], list[float]]:
        """Billed input so far after each iteration: (with caching, without caching)."""
        with_caching, without, a, b = [], [], 0.0, 0.0
        for row in self.rows:
            a += row.billed
            b += row.sent
            with_caching.append(a)
            without.append(b)
        return with_caching, without

    def text(self) -> str:
        lang = self.language
        headers = ["#", tr("input", lang), tr("cache read", lang), tr("cache write", lang), tr("output", lang),
                   tr("billed input so far", lang), tr("without caching", lang)]
        with_caching, without = self.cumulative()
        table = [[str(r.iteration), str(r.input), str(r.cache_read), str(r.cache_write), str(r.output),
                  f"{w:.0f}", f"{n:.0f}"] for r, w, n in zip(self.rows, with_caching, without, strict=True)]
        widths = [max(len(row[i]) for row in [headers, *table]) for i in range(len(headers))]
        lines = [tr("Tokens per iteration (each request sends the whole history again)", lang),
                 "  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True))]
        lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in table]
        if self.rows and not self.cached:
            lines.append(tr("billed input: {total} (this run used no prompt caching)", lang,
                            total=f"{without[-1]:.0f}"))
        elif self.rows and without[-1]:
            share = number(100 * with_caching[-1] / without[-1], lang, 0)
            lines.append(tr("billed input: {with_caching} with caching, {without} without ({share}%)", lang,
                            with_caching=f"{with_caching[-1]:.0f}", without=f"{without[-1]:.0f}", share=share))
        return "\n".join(lines)

    # the picture
    @property
    def figure(self) -> Any:
        """The matplotlib Figure (made once, without pyplot, so nothing is shown twice)."""
        if self._figure is None:
            self._figure = self._draw()
        return self._figure

    def _draw(self) -> Any:
        import matplotlib
        import matplotlib.style
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator

        lang = self.language
        with matplotlib.style.context("default"), matplotlib.rc_context(RC):
            figure = Figure(figsize=SIZE_INCHES, dpi=DPI, layout="constrained", facecolor="white")
            tokens, billed = figure.subplots(1, 2, width_ratios=[3, 2])
            x = [r.iteration for r in self.rows]
            width = 0.38
            left = [i - width / 2 for i in x]
            right = [i + width / 2 for i in x]
            inputs = [r.input for r in self.rows]
            reads = [r.cache_read for r in self.rows]
            writes = [r.cache_write for r in self.rows]
            # a series that is zero throughout (no caching, or everything cached) stays out of the legend
            tokens.bar(left, inputs, width, color=COLOURS["input"],
                       label=tr("input (not cached)", lang) if any(inputs) else "_input")
            tokens.bar(left, reads, width, bottom=inputs, color=COLOURS["cache_read"],
                       label=tr("cache read", lang) if any(reads) else "_cache_read")
            below = [a + b for a, b in zip(inputs, reads, strict=True)]
            tokens.bar(left, writes, width, bottom=below, color=COLOURS["cache_write"],
                       label=tr("cache write", lang) if any(writes) else "_cache_write")
            tokens.bar(right, [r.output for r in self.rows], width, label=tr("output", lang), color=COLOURS["output"])
            tokens.set_title(tr("Tokens per iteration", lang))
            tokens.set_xlabel(tr("iteration (each request sends the whole history again)", lang))
            tokens.set_ylabel(tr("tokens", lang))
            with_caching, without = self.cumulative()
            if self.cached:
                billed.plot(x, without, marker="o", linestyle="--", color=COLOURS["without"],
                            label=tr("without caching", lang))
                read = max(row.cache_read_price for row in self.rows)
                billed.plot(x, with_caching, marker="o", color=COLOURS["with"],
                            label=tr("with caching (write ×{write}, read ×{read})", lang,
                                     write=number(CACHE_WRITE_5M, lang, 2),
                                     read=number(read, lang, next(d for d in (1, 2, 3) if round(read, d) == read))))
            else:
                billed.plot(x, without, marker="o", color=COLOURS["with"],
                            label=tr("no prompt caching in this run", lang))
            billed.set_title(tr("Billed input, cumulative", lang))
            billed.set_xlabel(tr("iteration", lang))
            billed.set_ylabel(tr("tokens at the input price", lang))
            tallest = max([r.sent for r in self.rows] + [r.output for r in self.rows] + [1])
            for axes, top in ((tokens, tallest), (billed, max(without + with_caching + [1.0]))):
                axes.xaxis.set_major_locator(MaxNLocator(integer=True))
                axes.set_ylim(0, top * 1.3)  # room for the legend above the bars and lines
                axes.grid(axis="y", alpha=0.3)
                axes.legend(loc="upper left")
            if x:
                tokens.set_xlim(min(x) - 0.7, max(x) + 0.7)
                billed.set_xlim(min(x) - 0.3, max(x) + 0.3)
        return figure

    def png(self) -> bytes:
        """The chart as PNG bytes, the same bytes for the same run."""
        if self._png is None:
            import matplotlib

            buffer = io.BytesIO()
            with matplotlib.rc_context(RC):
                self.figure.savefig(buffer, format="png", dpi=DPI, facecolor="white",
                                    metadata={"Software": None})
            self._png = buffer.getvalue()
        return self._png

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        return {"image/png": base64.b64encode(self.png()).decode("ascii"), "text/plain": self.text()}

    def __repr__(self) -> str:
        return self.text()


def usage_chart(source: Any, language: str | None = None, model: str | None = None) -> UsageChart:
    """Tokens per iteration of a finished run: input, cache read, cache write, output; billed input so far
    with and without caching. `source`: the reference loop's result, a MessagesView that was given a
    client, or a list of anthropic Messages or usages; `model` prices bare usages (a Message names its own).
    Labels in `language`, else COURSE_AGENT_LANGUAGE."""
    rows = usage_rows(source, model)
    if not rows:
        raise ValueError(tr("no usage to draw: give the view the client (MessagesView(client=client)) before "
                            "the run, or pass the result of a finished run", language))
    return UsageChart(rows, language)
