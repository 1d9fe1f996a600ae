"""Answers without tools: small questions, a review of a pasted diff, and the honest
"I have no hands" when asked to act on something it cannot see."""

import re

from ..words import N_, words
from . import arithmetic, number_words
from .diff_reading import parse_changes
from .reply import Reply, text_reply
from .reviewer import compose_review, mr_number, review_number

_COUNT_ASK = re.compile(r"\bcount\b|\b(?:list|write(?: out)?|say|name|enumerate|print)\b\W+(?:all\W+)?(?:the\W+)?"
                        r"(?:numbers|integers|digits)\b|\bnumbers\s+from\b|посчитай|сосчитай|считай|перечисли|"
                        r"(?:назови|напиши|выпиши)\s+(?:все\s+)?(?:числа|цифры)", re.I)
"""A request to count or to list numbers: "Count to 10", "List the numbers from 1 to 10", «Посчитай до десяти»."""
_FROM_TO = re.compile(r"(\d{1,6})\s*(?:to|through|thru|until|till|up to|до|по|-|–|—|\.\.)\s*(\d{1,6})", re.I)
_UP_TO = re.compile(r"(?:\bto|through|until|till|up to|\bдо|\bпо)\s+(\d{1,6})\b", re.I)
_ONE = re.compile(r"\b(?:one|один|одного|единицы)\b", re.I)
"""A count's "one", which number_words leaves a word (elsewhere it is more often a pronoun)."""


def _count_asked(task: str) -> range | None:
    """The numbers a request asks to count, whether it names both ends (from 1 to 10) or only the last (to ten)."""
    asked = _COUNT_ASK.search(task)
    if asked is None:
        return None
    rest = number_words.digits(_ONE.sub("1", task[asked.start():]))
    both = _FROM_TO.search(rest)
    if both:
        first, last = int(both.group(1)), int(both.group(2))
        if 0 <= first - last < 1000:  # counting down: from 10 to 1
            return range(first, last - 1, -1)
    else:
        only_last = _UP_TO.search(rest)
        if only_last is None:
            return None
        first, last = 1, int(only_last.group(1))
    return range(first, last + 1) if 0 <= last - first < 1000 else None
_EXPLAIN = re.compile(r"explain|in detail|essay|tell me about|расскажи|объясни|подробно", re.I)
_QUESTION = re.compile(r"^\s*(what|who|whom|whose|when|where|which|why|how|is|are|does|do|can|какой|какая|какое|"
                       r"какие|какова|каков|кто|что|когда|где|почему|сколько|как)\b\W*\w+\W+\w+", re.I)
"""A question about the world (three words or more, starting with a question word)."""
_ITEM = re.compile(r"\b(?!(?:is|are|was|about|of|on|for|the|a|an|my|me)\b)([a-z]{3,})\s+#?[A-Za-z]*-?\d[\w-]*", re.I)
"""A concrete item the request names ("booking X-42"): asked about it with tools that fit nothing, the answer says no
tool reads it, never the agent loop's lecture that "tell me about" asks for otherwise."""
_GREETING = re.compile(r"^\s*(hi|hello|hey|привет|здравствуй)", re.I)
_THANKS = re.compile(r"^\W*(?:(?:ok(?:ay)?|great|perfect|cool|good|nice|super)\W+)?(?:thanks|thank you|thx|ty|cheers|"
                     r"that'?s all|that is all|all good|спасибо|благодарю|это вс[её]|вс[её],? спасибо)\b", re.I)
"""A short thank-you or goodbye at the end of a conversation: a short courteous close."""
_WANTS_REVIEW = re.compile(r"review|check|merge request|pull request|\bMR\b|\bPR\b|провер|ревью|реквест", re.I)
_LIVE = re.compile(r"https?://|\bwww\.|\b(?:open|visit|browse|go to|load|check|look (?:up|at))\s+(?:the\s+)?"
                   r"(?:site|website|page|web ?page|url|link|feed)\b|\b(?:online|on the (?:internet|web|net)|"
                   r"right now|at the moment|currently|live (?:score|data|price|feed|status|stream)s?|latest|"
                   r"today'?s|breaking|headlines?|news)\b|"
                   r"(?<!\w)(?:сайт\w*|страниц\w*|ссылк\w*|в интернете|в сети|онлайн|прямо сейчас|сейчас|"
                   r"сегодня\w*|последн\w*|свеж\w*|новост\w*|курс\w* (?:валют|биткоин|доллар|евро|рубл|акци)\w*|"
                   r"бирж\w*|котировк\w*)(?!\w)", re.I)
"""An ask for something only the network has (a web page, the news, a price right now, «курс прямо сейчас»): the
plain "I can't, I am offline", not the sandbox's canned introduction."""
_CAPITALS = {"france": ("Paris", "Париж"), "франци": ("Paris", "Париж"),
             "russia": ("Moscow", "Москва"), "росси": ("Moscow", "Москва")}

_LOOP = [
    N_("An agent is not a different kind of API. It is the same messages.create call, made in a loop."),
    N_("Between two calls your code does what the model asked for: it runs a tool and sends back the result."),
    N_("The model itself only reads text and writes text. It cannot open a file, call GitLab or run a test."),
    N_("So you describe the available tools. When the model needs one, it answers with a tool_use block "
       "instead of prose, and stop_reason says tool_use."),
    N_("Your code runs the tool, appends the model's whole answer to the history, then a user message with "
       "every tool_result of that turn, and calls the model again."),
    N_("The model reads the results and decides what comes next: another tool, or the final answer with "
       "stop_reason end_turn."),
    N_("Nobody knows in advance how many rounds that takes. The model chooses the order of the steps; that "
       "is what makes it an agent rather than a workflow."),
    N_("Because the count is unknown, a real loop needs a cap on iterations, and every stop reason needs a "
       "deliberate answer in code."),
]
"""The agent loop in a few sentences, for a learner who asks the model to explain it (sandbox.po: Russian)."""


_REVIEW_ASKED = re.compile(r"\breview|merge request|pull request|\bMR\b|\bPR\b|\bdiff\b|ревью|реквест|\bМР\b", re.I)
"""A review asked by name: "check the tank T-5" or «проверь уровень в баке T-5» is no merge request !5."""


def _asked_mr(task: str) -> str | None:
    """The merge request a text asks about: one named as such (!5, MR 5), or a bare number in a request for a
    review ("Review 12, please"), never a number that belongs to a code (T-5, vid-88) or a quantity."""
    named = review_number(task)
    if named:
        return named
    if not _REVIEW_ASKED.search(task):
        return None
    bare = re.search(r"(?<![\w.,%-])(\d{1,7})(?![\w.,%-])", task)
    return bare.group(1) if bare else None


def respond(task: str, lang: str, tools: list[str] | None = None) -> Reply:
    """A plain answer. With tools on offer that fit nothing in the request, it says so plainly, naming them, rather
    than the sandbox's canned introduction."""
    if "@@" in task and ("+++" in task or "diff --git" in task):
        changes = parse_changes(task[task.find("diff --git") if "diff --git" in task else 0:])
        return text_reply(compose_review(lang, mr_number(task) or "?", changes, [], [], False, can_read=False))
    if _WANTS_REVIEW.search(task) and _asked_mr(task):
        number = _asked_mr(task)
        return text_reply(words(lang, "I can't open merge request !{number}. I only read and write text: I have no "
                                      "access to GitLab, files or the network. Paste the diff here, or give me a "
                                      "tool that fetches it, and I will review it.",
                                      number=number),
                          reasoning=words(lang, "I have no tools, so I cannot fetch the MR."))
    numbers = _count_asked(task)
    if numbers:
        return text_reply(", ".join(str(n) for n in numbers))
    computed = arithmetic.find(task)
    if computed:
        if computed.value is None:
            return text_reply(words(lang, "{expression}: division by zero is undefined.",
                                          expression=computed.expression))
        return text_reply(computed.shown())
    lowered = task.lower()
    for key, (en, ru) in _CAPITALS.items():
        if key in lowered and re.search(r"capital|столиц", lowered):
            return text_reply(words(lang, "The capital is {city}.", city=ru if lang == "ru" else en))
    explain = _EXPLAIN.search(task)
    item = _ITEM.search(task) if tools and (explain or "?" in task or _QUESTION.search(task)) else None
    if explain and item is None:
        return text_reply("\n\n".join(words(lang, sentence) for sentence in _LOOP))
    if item is not None and lang != "ru":  # "Tell me about booking X-42" with only cancel_booking on offer
        return text_reply(f"I can't look that up: no tool here reads a {item.group(1).lower()} (I have only "
                          f"{', '.join(tools[:8])}), and on my own I work offline and know nothing of "
                          f"{item.group(0)}. Give me a tool that reads it and I will use it.")
    if _THANKS.search(task) and len(task) <= 80 and "?" not in task:
        return text_reply(words(lang, "You're welcome! Ask again whenever you need something."))
    if _GREETING.search(task):
        return text_reply(words(lang, "Hello! I'm the course sandbox's simulated model. How can I help?"))
    if tools:
        return text_reply(_none_fits(lang, tools))
    if _QUESTION.search(task):
        return text_reply(words(lang, "I can't know that: I'm the course sandbox's simulated model, not a real one. "
                                      "I have no knowledge of the world beyond a few canned answers and no live "
                                      "data. Give me a tool that looks it up, or use the real API for questions "
                                      "like this."))
    if _LIVE.search(task):
        return text_reply(words(lang, "I can't do that: I work offline, with no access to the internet, web pages "
                                      "or live data, and no tool here fetches them. Give me a tool that does (a web "
                                      "search, a page fetch) and I will use it."))
    return text_reply(words(lang, "I'm the course sandbox's simulated model: I answer offline and always the same "
                                  "way. Ask me to review a merge request and give me tools to fetch it, or ask me "
                                  "to explain the agent loop."))


def _none_fits(lang: str, tools: list[str]) -> str:
    """The honest answer when no offered tool does what the request asks: what it cannot do, and with what."""
    listed = ", ".join(tools[:8]) + (", …" if len(tools) > 8 else "")
    if lang == "ru":
        return (f"Этого я сделать не могу: ни один из моих инструментов ({listed}) для этого не подходит, "
                f"а сам я — модель-имитация учебной песочницы: работаю без сети и ничего не знаю о мире, "
                f"кроме того, что вернут инструменты. Если у вас есть инструмент для этого, дайте его мне, "
                f"и я им воспользуюсь.")
    return (f"I can't do that: none of the tools I have ({listed}) does it, and on my own, as the sandbox's "
            f"simulated model, I work offline and know nothing of the world beyond what tools return. Give me a "
            f"tool that does it and I will use it.")
