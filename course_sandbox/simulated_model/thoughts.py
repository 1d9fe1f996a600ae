"""How much the simulated model thinks before it answers, when its thinking is adaptive or manual.

Adaptive thinking decides per request: a greeting or a one-line question with no tools gets no
thinking at all (the docs: "a simple request can produce no thinking block"); anything with tools,
or longer, does. Effort sets how much: `low` thinks only before a tool call, and each level above
`medium` adds a sentence (so more output tokens are billed). Manual thinking (`enabled`) always thinks.
"""

from ..conversation import Turn
from ..request import Request
from ..words import N_, words
from .history import language, task_turn
from .reply import Reply

_MORE = (
    N_("Let me check that nothing in the request is left out."),
    N_("I should answer only from what I actually know or was given."),
    N_("One more pass over the details before I answer."),
)
_SIMPLE_WORDS = 5
_EXTRA_SENTENCES = {"high": 1, "xhigh": 2, "max": 3}


def thoughts(reply: Reply, request: Request, turns: list[Turn], effort: str, adaptive: bool) -> str | None:
    """The reasoning to show as thinking for this reply, or None when the model does not think."""
    task = task_turn(turns).text()
    lang = language(task)
    calls_tools = any(block["type"] == "tool_use" for block in reply.blocks)
    if adaptive and not calls_tools:
        simple = not request.tools and len(task.split()) <= _SIMPLE_WORDS and len(turns) <= 1
        if simple or effort == "low":
            return None
    base = reply.reasoning or words(lang, "Let me think about how to answer this.")
    more = _MORE[:_EXTRA_SENTENCES.get(effort, 0)]
    return " ".join([base, *(words(lang, sentence) for sentence in more)])
