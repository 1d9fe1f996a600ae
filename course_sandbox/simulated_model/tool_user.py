"""The general tool user: what the simulated model does with the learner's own tools (a
calculator, get_weather, an order lookup, a structured-extraction tool), beside the reviewer.

With tool_choice auto it calls the tools that fit the request (several calls when the request
names several items), asks for what it is missing, then answers from the results. Forced
(any / tool) it always calls, with an input valid against the tool's schema. Everything is
decided from the request alone, so the same request always gets the same reply.
"""

import json
import re
from dataclasses import dataclass, field, replace

from ..conversation import Turn
from ..request import Request
from ..words import words
from . import (
    answers,
    assumptions,
    compound,
    derived,
    item_lists,
    needs,
    plans,
    result_conditions,
    side_effects,
    situation_values,
    situations,
    slots,
    stated,
    tickers,
    tool_roles,
)
from .history import Call, calls, task_turn
from .reply import NewId, Reply, text_reply, tool_reply
from .schema_instance import MISSING, instance, is_valid
from .slots import Evidence, RequestHints, kind_of
from .words import overlap, stem, stems, tokens

FIT = 2
"""A tool fits a request at this score: one word of its name, or two of its description, or
a value only it can take (an e-mail, an expression…)."""
MAX_CALLS = 10
"""Calls per task before the model stops and answers with what it has."""
MAX_PARALLEL = 5
_SPECIFIC = {"domain", "phone", "plate", "email", "url", "uuid", "date", "datetime", "expression", "path", "symbol",
             "currency"}
_LISTABLE = {"place", "id", "email", "name", "symbol", "path", "url", "date", "uuid"}
_ONLY_FROM_THE_USER = {"domain", "term", "phone", "plate", "address", "product", "place", "id", "email", "name",
                       "symbol", "path", "url", "uuid",
                       "date", "datetime", "expression", "currency", "timezone"}
"""Kinds of input a model must not invent (whose order? which city?); a confidence or a count it may."""


_IMAGE_WORDS = re.compile(r"image|picture|photo|screenshot|scan|label|receipt|изображ|картин|фото|снимок", re.I)


_FINISHING = re.compile(r"(?:^|_|-)(?:final|answer|respond|response|reply|finish|done|complete|output)(?:_|-|$)", re.I)
"""A tool that hands the answer back (final_answer, respond_to_user), for forced tool use after results."""
_TALKS_TO_USER = re.compile(r"(?:^|_|-)(?:reply|respond|answer|message|text|talk|say)(?:_|-)(?:to_)?(?:the_)?user|"
                            r"(?:to|with)_(?:the_)?user$|^(?:reply|respond|say|chat)(?:_|$)", re.I)
"""A tool that speaks to the user (send_text_to_user, reply_to_user, message_user): what tool_choice any calls for
small talk, when the best-fitting other tool would need a value the message does not give."""


@dataclass
class Plan:
    """What the model will do next: call these tools, or ask the user for what is missing; and the
    steps that act on those calls' results once they are back (plans.py)."""

    uses: list[tuple[str, dict]]
    missing: tuple[str, list[str]] | None = None
    later: list[plans.LaterStep] = field(default_factory=list)


def respond(request: Request, turns: list[Turn], new_id: NewId, lang: str) -> Reply | None:
    """The reply of tool_choice auto, or None when no tool fits and none was called (chat answers).

    Only tools the request allows are called (side_effects: no cancel_order for a status question),
    never the same call twice in a conversation (a call that failed in an earlier task may be tried
    again), and once the tool the question is about has answered, it answers.
    """
    offered = tool_roles.custom_tools(request)
    task = task_turn(turns).text()
    tools = side_effects.allowed(offered, task)
    needed = None if side_effects.what_if(task) else needs.pick(  # "What happens if I report…?" runs nothing
        [t for t in offered if side_effects.action(t) is None], task)
    if needed is not None and needed not in tools:  # "Is it icy on the roads…?": road_conditions reads, unnamed so
        tools = [*tools, needed]
    names = {t.name for t in offered}
    history = [c for c in calls(turns) if c.name in names]
    answered = [c for c in history if c.result is not None]
    ids = {c.id for c in history}
    earlier = [c for c in calls(turns, whole=True)
               if c.name in names and c.id not in ids and c.result is not None and not c.is_error]
    evidence = slots.read(task, lang)
    if not history:
        picked = _picked_from_listed(tools, earlier, evidence)
        if picked:
            return _call(picked, lang, new_id)
    if len(history) < MAX_CALLS:
        plan = plan_request(tools, evidence)
        if not plan.uses and not plan.missing and _gives_values(evidence):
            plan = plan_calls(tools, _with_earlier_words(evidence, turns))
        plan = _for_need(offered, tools, plan, evidence)
        plan = _for_situation(offered, tools, plan, evidence)
        image = bool(task_turn(turns).of_type("image"))
        if image and not plan.uses:
            plan = _for_image(tools, plan, evidence)
        uses = _next_calls(tools, plan, evidence, answered + earlier, task, lang)
        uses = _with_results(tools, uses, task, lang, answered)
        uses = _not_waiting(tools, uses, task)
        read = [(c.name, c.input) for c in answered + earlier if not c.is_error]
        uses = [u for u in uses if not _borrowed_id(tools, read, u)]  # never the id a listing took for another field
        uses = _not_back(plan, uses, answered)
        if uses:
            notes = [] if image else _notes(offered, uses, task, lang)
            return _call(uses, lang, new_id, image, notes)
        if plan.missing and not answered:
            return _ask(*plan.missing, lang=lang)
        if not answered:
            planned = {_key(*u) for u in plan.uses}
            answered = [c for c in earlier if _key(c.name, c.input) in planned]
    if answered:
        said = answers.answer(answered, task, lang)
        notes = [n for step in (plan.later if len(history) < MAX_CALLS else []) if isinstance(step, derived.DerivedStep)
                 for n in [step.note(answered, lang)] if n]
        if notes:
            said = "\n".join(notes) + "\n\n" + said
        held = held_back_note(offered, task, lang, in_general=False)
        if held:
            said = held + "\n\n" + said
        if len(history) < MAX_CALLS and any(step.unmet(answered) for step in plan.later):
            said = words(lang, "I could not tell which of the listed items you meant, so I acted on none of them; "
                               "tell me which ones and I will.") + "\n\n" + said
        elif len(history) < MAX_CALLS and any(isinstance(step, plans.LaterStep) and step.matched_none(answered)
                                              for step in plan.later):
            said = words(lang, "None of the listed items matched what you asked for, so I acted on none of them.") \
                + "\n\n" + said
        return text_reply(said, reasoning=words(lang, "The tools answered; I'll report what they returned."))
    if not history:
        wanted = _wanted_action(offered, tools, evidence)
        if wanted:
            return _ask(*wanted, lang=lang)
    return None


def _for_situation(offered: list[tool_roles.ToolSpec], tools: list[tool_roles.ToolSpec], plan: Plan,
                   evidence: Evidence) -> Plan:
    """A situation the request describes without naming a tool ("my cat hasn't eaten for two days", «в номере течёт
    душ») calls the one tool that remedies it (situations.py), an action included: describing the trouble is the ask.
    The plan stands when the request's own words name a tool it calls, when it has several steps, and when the
    request only asks about an action or keeps the model's hands off it (then only a reader may be the remedy)."""
    if plan.later or len({name for name, _ in plan.uses}) > 1:
        return plan
    current = plan.uses[0][0] if plan.uses else (plan.missing[0] if plan.missing else None)
    pick = situations.remedy(offered, evidence.text)
    if pick is None or pick.name == current or (current is not None and _named_by_its_words(
            next(t for t in offered if t.name == current), evidence.text, pick)):
        return plan
    if pick not in tools and (side_effects.hands_off(evidence.text) or side_effects.asks_about(evidence.text)
                              or side_effects.what_if(evidence.text) or side_effects.general_question(evidence.text)):
        return plan
    missing = missing_inputs(pick, evidence)
    if missing:
        return Plan([], (pick.name, missing))
    return Plan([(pick.name, tool_input(pick, evidence))])


def _for_need(offered: list[tool_roles.ToolSpec], tools: list[tool_roles.ToolSpec], plan: Plan,
              evidence: Evidence) -> Plan:
    """An everyday need the request says without naming a tool ("Is it cold in Helsinki?", «Сколько стоит доллар?»)
    reaches the one tool for it (needs.py), when the plan fits no tool or one that serves none of the needs said and
    that the request's own words do not name («Холодно в Мурманске?» is no question for «Курсы валют на сегодня»,
    whatever «сегодня» shares). No tool for the need: no call, and the caller answers in text."""
    if plan.later or len({name for name, _ in plan.uses}) > 1:
        return plan
    current = plan.uses[0][0] if plan.uses else (plan.missing[0] if plan.missing else None)
    tool = next((t for t in tools if t.name == current), None)
    said = {w for w in overlap(stems(evidence.text), stems(tool.name)) if not side_effects.verb(w)} if tool else set()
    if tool is not None and (not needs.serves_none(tool, evidence.text) or said
                             or overlap(evidence.request_stems, stems(tool.name)) - _GENERIC):
        return plan  # the request's own words name it ("what time is it" and get_current_time)
    # a tool that is no action may answer, whatever the question's form ("Do I need a coat…?" keeps hands off:
    # weather_lookup reads), unless the request names its verb ("What happens if I report…?": report_missed_delivery)
    pick = needs.pick([t for t in offered if t in tools or (side_effects.action(t) is None and not
                                                            side_effects.talked_about(t, evidence.text))],
                      evidence.text)
    if pick is None:
        searched = _searched(tools, evidence) if tool is None else None
        return searched or (plan if tool is None else Plan([]))
    missing = missing_inputs(pick, evidence)
    return Plan([], (pick.name, missing)) if missing else Plan([(pick.name, tool_input(pick, evidence))])


_WEB_TOOL = re.compile(r"\b(?:web|internet|online|google|bing|up-to-date)\b|интернет|в сети", re.I)
_WORLD_QUESTION = re.compile(r"\?\s*$|\b(?:latest|recent)\s+news\b|(?<!\w)последн\w*\s+новост", re.I)
_SMALL_TALK = re.compile(r"\bhow are you\b|\bwhat'?s up\b|(?<!\w)как (?:дела|жизнь|поживаешь)", re.I)
_SEARCH_FOR = re.compile(r"^\s*(?:please\s+|пожалуйста,?\s+)?(?:(?:search|look up|find)(?:\s+(?:the\s+web|online|"
                         r"the\s+internet))?\s+for|google(?:\s+for)?)\s+|^\s*(?:найди|поищи)(?:\s+в\s+интернете)?\s+",
                         re.I)
"""The command before what is searched for: "Search the web for …", "Google …", «Поищи в интернете …»."""


def _searched(tools: list[tool_roles.ToolSpec], evidence: Evidence) -> Plan | None:
    """A question about the world that no other tool answers ("Who won the 2026 Monaco Grand Prix?", «Последние новости
    о Сбере?») goes to a general web search tool, with the question as its query (never "search the web for…")."""
    web = next((t for t in tools if _WEB_TOOL.search(f"{t.name} {t.description}") and side_effects.action(t) is None
                and re.search(r"search|look|find|поиск|ищ|найд", f"{t.name} {t.description}", re.I)), None)
    text = evidence.text.strip()
    if web is None or not (_WORLD_QUESTION.search(text) or _SEARCH_FOR.match(text)) or _SMALL_TALK.search(text):
        return None
    query = _SEARCH_FOR.sub("", text).strip()  # the question as asked, its question mark kept
    prop = next((k for k, v in web.properties().items() if isinstance(v, dict) and v.get("type") == "string"), None)
    if prop is None or not query:
        return None
    return Plan([(web.name, {**tool_input(web, evidence), prop: query})])


def _without_the_command(given: dict, task: str) -> dict:
    """A query that took the whole request ("Search the web for hiking trails near Zurich") holds what is searched for
    only: "hiking trails near Zurich"."""
    whole = task.strip()
    query = _SEARCH_FOR.sub("", whole).strip()
    if not query or query == whole:
        return dict(given)
    return {k: query if isinstance(v, str) and v.strip() in (whole, whole.rstrip(".!?")) else v
            for k, v in given.items()}


def _named_by_its_words(tool: tool_roles.ToolSpec, text: str, rather_than: tool_roles.ToolSpec) -> bool:
    """Whether the request's own words (not the everyday concepts they suggest) name the tool by a word the other
    tool's name does not hold: "book a table" names book_table; "my seminar" names neither of get_seminar_attendance
    and check_seminar_availability more than the other."""
    named = {w for w in overlap(stems(text), stems(tool.name)) if len(w) >= 3 and not side_effects.verb(w)} - _GENERIC
    other = f"{rather_than.name} {rather_than.description}"
    # a Russian description's nouns in English by their everyday domain («лодки»: boat), an English one's as written
    # (its "heating" is no "weather")
    return bool(named - overlap(named, stems(other, synonyms=not other.isascii())))


def held_back_note(offered: list[tool_roles.ToolSpec], task: str, lang: str, in_general: bool = True) -> str:
    """The one sentence that says which action tools fitting the request were held back because it asks for no
    action, and how to ask for it; "" for any other request. Two meanings, one mechanism:
    - a question about an action ("What would happen if I cancelled policy HO-4471?", «Как работает отмена записи
      A-551?»): "You asked about it, not for it…";
    - with `in_general`, a curious question in general ("Just curious, how do people return a jacket?", «Просто
      интересно, как оформляют возврат?»): "You asked in general…" — said plainly, never "none of my tools does it".
    """
    if not offered:
        return ""
    acting = [t for t in offered if side_effects.action(t) is not None]
    if side_effects.asks_about(task):
        held = [t.name for t in side_effects.questioned(offered, task)][:3]
        if not held and side_effects.what_if(task):  # "What would happen if I froze…": an irregular form of the verb
            held = [t.name for t in rank(acting, slots.read(task, lang))][:3]
        if held:
            return words(lang, "You asked about it, not for it, so I have not used {tools}: nothing has been done. If "
                               "you want it done, ask me to do it in so many words and I will.", tools=", ".join(held))
    if in_general and side_effects.hands_off(task):
        held = [t.name for t in rank(offered, slots.read(task, lang)) if t in acting][:3]
        if held:
            return words(lang, "You asked in general, so I have not used {tools}: it would act, and you did not ask "
                               "me to. I have no general advice to give: I work offline. If you want something done, "
                               "ask me plainly and I will do it.", tools=", ".join(held))
    return ""


def _picked_from_listed(tools: list[tool_roles.ToolSpec], earlier: list[Call],
                        evidence: Evidence) -> list[tuple[str, dict]]:
    """A later message that names items an earlier listing returned ("Grant a day of leave to Ana and Cy." after
    list_staff gave E1 Ana, E2 Ben, E3 Cy): one call per named item, with the id the listing holds for it, never a
    question for an id the results already give. An item is named by a value that tells it from the others (a
    name, not the team all of them share), as a whole word of the message; [] when no tool's required inputs are
    all in the named items."""
    listed: list[dict] = []
    for call in earlier[::-1]:
        data = slots._structured(call.result or "")
        if isinstance(data, dict):
            data = next((v for v in data.values() if isinstance(v, list)), None)
        if isinstance(data, list) and len(data) >= 2 and all(isinstance(item, dict) for item in data):
            listed = data[:200]
            break
    if not listed:
        return []
    text = evidence.text.casefold()
    shared = {k for k in listed[0] if all(str(item.get(k)) == str(listed[0].get(k)) for item in listed)}

    def named(item: dict) -> bool:
        return any(isinstance(v, str) and len(v) >= 2 and k not in shared
                   and re.search(rf"(?<!\w){re.escape(v.casefold())}(?!\w)", text) for k, v in item.items())

    chosen = [item for item in listed if named(item)]
    if not chosen or len(chosen) == len(listed):
        return []
    for tool in rank(tools, evidence):
        required = _required(tool)
        if not required or set(required) <= shared or not all(all(p in item for p in required) for item in chosen):
            continue
        uses = [(tool.name, {p: item[p] for p in required}) for item in chosen[:MAX_PARALLEL]]
        if all(is_valid(tool.schema, tool_input_) for _, tool_input_ in uses):
            return uses
    return []


_NEED = re.compile(r"\b(?:i|we)\s+(?:really\s+)?(?:need|want|would like|'d like|am looking for|'m looking for)\b|"
                   r"\b(?:looking for|in need of)\b|(?<!\w)(?:хочу|хотим|хотел\w*|нужн\w*|нужен|ищу|ищем)(?!\w)", re.I)


def _wanted_action(offered: list[tool_roles.ToolSpec], allowed: list[tool_roles.ToolSpec],
                   evidence: Evidence) -> tuple[str, list[str]] | None:
    """A vague ask for what an action tool does ("I need a hotel room.", «Хочу забронировать столик.») that states
    none of its inputs: the tool and what it lacks, to ask for in plain words; never a call made up for it. None
    when a tool the request allows fits, or the ask gives the action's inputs (then it is no vague ask)."""
    if not _NEED.search(evidence.text) or rank(allowed, evidence):
        return None
    for tool in rank([t for t in offered if t not in allowed], evidence) or rank(offered, evidence):
        missing = missing_inputs(tool, evidence)
        if missing:
            return tool.name, missing
    return None


def _next_calls(tools: list[tool_roles.ToolSpec], plan: Plan, evidence: Evidence, answered: list[Call],
                task: str, lang: str) -> list[tuple[str, dict]]:
    """The planned calls not made yet; else calls that needed a value only a result could give
    (`list_orders` needs the customer_id that `get_customer` returned). None once such a call
    has answered: even a client that resends only the last exchange gets an answer, not a loop."""
    done = {_key(c.name, c.input) for c in answered}
    if plan.later and answered and not [u for u in plan.uses if _key(*u) not in done]:
        return _unique_uses([u for step in plan.later for u in step.calls(answered) if _key(*u) not in done])
    needs_results = [t for t in rank(tools, evidence) if missing_inputs(t, evidence)]
    waiting = {t.name for t in needs_results}
    if any(c.name in waiting and not c.is_error for c in answered):
        return []
    uses = [u for u in plan.uses if _key(*u) not in done]
    if uses or not answered:
        return uses
    chained = slots.read(task, lang, [c.result or "" for c in answered if not c.is_error])
    # an id a listing gave never carries a tool whose verb no one said on to act ("Which of my bills are past due?"
    # lists; scrap_invoice(INV-1) was nobody's ask)
    asked_for = [t for t in needs_results if not side_effects.unasked_actor(t, task)]
    return [u for u in plan_calls(asked_for, chained).uses if _key(*u) not in done]


def _waits_for(tools: list[tool_roles.ToolSpec], before: list[tuple[str, dict]], use: tuple[str, dict],
               task: str) -> bool:
    """Whether a call needs what an earlier call of the same batch returns: it carries a placeholder (the duration
    that get_video_info will give), or an id of the thing an earlier call creates (`survey_id` after create_survey)."""
    tool = next((t for t in tools if t.name == use[0]), None)
    if tool is None or not before:
        return False
    readers = [t for t in tools if t.name in {name for name, _ in before} and side_effects.action(t) is None]
    return (bool(readers) and bool(assumptions.assumed(tool, use[1], task))) \
        or _id_of_created(tools, [name for name, _ in before], use)


def _id_of_created(tools: list[tool_roles.ToolSpec], before: list[str], use: tuple[str, dict]) -> bool:
    """Whether the call takes the id of a thing an earlier call creates (`survey_id` after create_survey)."""
    created = set()
    for name in before:
        made = next((t for t in tools if t.name == name), None)
        if made is not None and side_effects.action(made) in ("create", "write", "book", "start", "submit"):
            created |= {w for w in tokens(name)[1:] if len(w) >= 3}
    ids = [k for k in use[1] if re.search(r"(?:^|_)id$|Id$", k)]
    return any(w in tokens(k) for k in ids for w in created)


def _not_waiting(tools: list[tool_roles.ToolSpec], uses: list[tuple[str, dict]], task: str) -> list[tuple[str, dict]]:
    """A step-by-step request's calls that need nothing from the others: a call that needs an earlier call's result
    waits for it (the next turn makes it, with that result) instead of going out in the same batch with a
    placeholder."""
    ready: list[tuple[str, dict]] = []
    for k, use in enumerate(uses):
        if not ready or not (_waits_for(tools, uses[:k], use, task) or _borrowed_id(tools, uses[:k], use)):
            ready.append(use)
    return ready


_ID_FIELD = re.compile(r"(?:^|_)(?:id|number|no|code|ref|reference)$|(?:Id|Number)$")


def _borrowed_id(tools: list[tool_roles.ToolSpec], before: list[tuple[str, dict]], use: tuple[str, dict]) -> bool:
    """Whether an action of the batch takes, as the id of what it acts on, the id a reader of the same batch takes
    for something else ("list my claims on policy P-1, then cancel the ones still open": never cancel_claim with
    claim_id P-1 beside list_claims(policy_id P-1)). Such a call waits for the reader's results."""
    tool = next((t for t in tools if t.name == use[0]), None)
    if tool is None or side_effects.action(tool) is None:
        return False
    for name, given in before:
        reader = next((t for t in tools if t.name == name), None)
        if reader is None or side_effects.action(reader) is not None:
            continue
        if any(_ID_FIELD.search(key) and isinstance(value, str) and value
               and any(other != key and _ID_FIELD.search(other) and value == seen for other, seen in given.items())
               for key, value in use[1].items()):
            return True
    return False


def _not_back(plan: Plan, uses: list[tuple[str, dict]], answered: list[Call]) -> list[tuple[str, dict]]:
    """Never an earlier step again once a later one has answered: a client that resends only the last exchange
    (the later step's call and result) gets an answer, not the first step anew and a loop."""
    order = [name for name, _ in plan.uses]
    done = [order.index(c.name) for c in answered if c.name in order]
    if not done:
        return uses
    last = max(done)
    return [u for u in uses if u[0] not in order or order.index(u[0]) >= last]


def _with_results(tools: list[tool_roles.ToolSpec], uses: list[tuple[str, dict]], task: str, lang: str,
                  answered: list[Call]) -> list[tuple[str, dict]]:
    """A waiting call made once the results it waited for are back: its placeholders (and an id of a thing the
    results name) filled from them, when they give fewer placeholders."""
    results = [c.result or "" for c in answered if not c.is_error]
    if not results or not uses:
        return uses
    evidence = slots.read(task, lang, results)
    filled = []
    for name, given in uses:
        tool = next((t for t in tools if t.name == name), None)
        if tool is None or not (assumptions.assumed(tool, given, task)
                                or _id_of_created(tools, [c.name for c in answered], (name, given))):
            filled.append((name, given))  # a call that waited for nothing keeps its input (the cheapest one chosen)
            continue
        again = tool_input(tool, evidence)
        better = len(assumptions.assumed(tool, again, task)) < len(assumptions.assumed(tool, given, task)) or (
            any(k in evidence.named and again.get(k) == evidence.named[k] != given.get(k) for k in again))
        filled.append((name, again if better else given))
    done = {_key(c.name, c.input) for c in answered}
    return [u for u in _unique_uses(filled) if _key(*u) not in done]  # never a call already made, whatever its form


def forced_call(tools: list[tool_roles.ToolSpec], name: str | None, turns: list[Turn], new_id: NewId, lang: str,
                review_number: str | None = None) -> Reply | None:
    """tool_choice any / tool: one call, to the named tool or the best-fitting one, valid input.

    A merge request number the task names goes where the reviewer would put it (tool_roles.fill).
    """
    task = task_turn(turns).text()
    evidence = slots.read(task, lang)
    answered = [c for c in calls(turns) if c.result is not None]
    tool = next((t for t in tools if t.name == name), None) if name else _forced_choice(tools, task, evidence, answered)
    if tool is None:
        return None
    if answered and _FINISHING.search(tool.name):
        said = answers.answer(answered, task, lang).split("\n")[0]
        for key in ("answer", "final_answer", "response", "reply", "text", "message", "result", "summary", "output"):
            evidence.named.setdefault(key, said)
    if not answered and _TALKS_TO_USER.search(tool.name) and name is None:  # small talk: a greeting back
        for key in ("text", "message", "body", "content", "reply", "response"):
            evidence.named[key] = words(lang, "Hello! I'm the course sandbox's simulated model. How can I help?")
    seeds = tool_roles.fill(tool, number=review_number) if review_number else None
    filled = tool_input(tool, evidence, seeds=seeds)
    use = {"type": "tool_use", "id": new_id("toolu_01"), "name": tool.name, "input": filled}
    notes = _notes([tool], [(tool.name, filled)], task, lang)
    return Reply([*({"type": "text", "text": note} for note in notes), use], "tool_use", notes=notes)


def _notes(tools: list[tool_roles.ToolSpec], uses: list[tuple[str, dict]], task: str, lang: str) -> list[str]:
    """What each call assumed, said plainly (assumptions.py): every call that carries a placeholder says so."""
    notes = []
    for name, tool_input_ in uses:
        tool = next((t for t in tools if t.name == name), None)
        guessed = assumptions.assumed(tool, tool_input_, task) if tool else {}
        if guessed:
            notes.append(assumptions.note(tool, guessed, lang))
        notes += assumptions.dated(tool_input_, task, lang)
    return list(dict.fromkeys(notes))


def _forced_choice(tools: list[tool_roles.ToolSpec], task: str, evidence: Evidence,
                   answered: list[Call]) -> tool_roles.ToolSpec | None:
    """tool_choice any: the best-fitting tool the request allows; once results came back, a tool
    that gives the answer (final_answer, respond…), else one whose call is not a repeat."""
    allowed = side_effects.allowed(tools, task)
    if answered:
        made = {_key(c.name, c.input) for c in answered}
        finishing = [t for t in allowed if _FINISHING.search(t.name)]
        fresh = [t for t in rank(allowed, evidence) + allowed if _key(t.name, tool_input(t, evidence)) not in made]
        if finishing or fresh:
            return (finishing or fresh)[0]
    ranked = rank(allowed, evidence) or ([] if allowed and side_effects.hands_off(task) else rank(tools, evidence))
    remedy = situations.remedy(tools, task)
    if remedy is not None and (remedy in allowed or not side_effects.hands_off(task)) and not (
            ranked and _named_by_its_words(ranked[0], task, remedy)):
        return remedy  # "the shower is leaking in room 12": the repair request, though no word names it
    talker = next((t for t in tools if _TALKS_TO_USER.search(t.name)), None)  # a reply changes nothing
    if talker is not None and (not ranked or (ranked[0] is not talker and missing_inputs(ranked[0], evidence))):
        return talker  # "Hey there! How are you?": a reply to the user, never get_customer_info(username=<greeting>)
    if ranked:
        return ranked[0]
    # forced, a tool is called even when none fits well: the one the request's words come closest to (one word of
    # «Заказать такси.» for «Вызови такси…»), never simply the first one listed
    closest = max(allowed or tools, key=lambda t: score(t, evidence), default=None)
    return closest if closest is not None and score(closest, evidence) > 0 else (allowed or tools or [None])[0]


def tool_input(tool: tool_roles.ToolSpec, evidence: Evidence, start: dict[str, int] | None = None,
               seeds: dict | None = None) -> dict:
    """An input valid against the tool's input_schema, filled from the user's words where they fit."""
    value = instance(tool.schema, _hints(tool, evidence, start), fixed=seeds)
    if not isinstance(value, dict) or not is_valid(tool.schema, value, tool.schema):
        fallback = instance(tool.schema)
        value = fallback if isinstance(fallback, dict) else {}
    value = stated.corrected(tool, value, evidence.text)  # a value the user stated wins over a placeholder
    return _in_other_words(tool, value, evidence.text)


def _in_other_words(tool: tool_roles.ToolSpec, value: dict, text: str) -> dict:
    """Where a placeholder stands, a value the request states in another form (situation_values): "in the office"
    for a `zone`, "halfway" for a percent, "tomorrow's spin class" for a `class_name`, what went wrong for an
    `issue`."""
    plain = instance(tool.schema)
    plain = plain if isinstance(plain, dict) else {}
    out = _without_the_command(value, text)
    for prop, schema in tool.properties().items():
        symbol = tickers.ticker(text) if isinstance(schema, dict) and kind_of(prop, schema) == "symbol" else None
        if symbol and out.get(prop) == plain.get(prop) and is_valid(tool.schema, {**out, prop: symbol}, tool.schema):
            out[prop] = symbol  # "How is Apple trading today?": AAPL
        if isinstance(schema, dict) and kind_of(prop, schema) == "place" and isinstance(out.get(prop), str):
            city = situation_values.city_nominative(out[prop], text, slots._nominative)  # «из Перми»: Пермь
            if city != out[prop] and is_valid(tool.schema, {**out, prop: city}, tool.schema):
                out[prop] = city
                continue
        if prop in out and out[prop] != plain.get(prop) and not situation_values.misplaced(
                prop, schema, out[prop], text) and not situation_values.misnamed(prop, schema, out[prop], text) \
                and not situation_values.reflagged(prop, schema, out[prop], text):
            continue
        found = situation_values.value_for(prop, schema, text)
        if found is not None and is_valid(tool.schema, {**out, prop: found}, tool.schema):
            out[prop] = found
    return out


def rank(tools: list[tool_roles.ToolSpec], evidence: Evidence, loose: bool = True) -> list[tool_roles.ToolSpec]:
    """The tools that fit the request, best first (ties keep the order they were given in). A tool whose own
    description alone holds a content word of the request that no other tool's words hold ("my sink is leaking" for
    a tool that "dispatches a plumber for leaks") fits too, after those that fit by more."""
    scored = [(score(t, evidence), i, t) for i, t in enumerate(tools)]
    fit = [t for s, i, t in sorted(scored, key=lambda x: (-x[0], x[1])) if s >= FIT]
    if fit or not loose:  # not loose: a part of a compound ask is an ask of its own only by the usual fit
        return fit
    return [t for s, i, t in scored if s <= 1 and _described_only(t, tools, evidence)][:1]


_GENERIC = frozenset(stem(w) for w in """
user users data item items information info value values name names time record records list lists detail details
result results request requests thing things service services system account accounts number numbers status type
types message messages text given specific current new existing optional required field fields option options
""".split())
"""Words so many tools' descriptions use that one of them alone ties a request to no tool."""


def _described_only(tool: tool_roles.ToolSpec, tools: list[tool_roles.ToolSpec], evidence: Evidence) -> bool:
    """Whether a content word of the request (4+ letters, stemmed, in either language) is in this tool's description
    and in no other tool's name or description: the request's everyday words tie it to this tool alone."""
    said = tokens(evidence.text)
    joined = {stem(a + b) for a, b in zip(said, said[1:], strict=False) if len(a) >= 3 and len(b) >= 3}
    described = stems(tool.description)
    literal = stems(evidence.text)  # the request's own words, not the everyday concepts they suggest
    own = (overlap(literal, described) | (joined & described)) - _GENERIC  # "hair cut": a haircut
    own = {w for w in own if len(w) >= 4}
    if len(own) != 1 or overlap(literal, stems(tool.name)):
        return False
    others = set().union(*(stems(f"{t.name} {t.description}") for t in tools if t is not tool)) if len(tools) > 1 \
        else set()
    return not overlap(own, others)


def score(tool: tool_roles.ToolSpec, evidence: Evidence) -> int:
    """Words of the request in the tool's name (2 each) and description (1 each), plus up to 2 for
    required inputs the request holds values for (an e-mail for `email`, a city for `location`)."""
    name_hits = overlap(evidence.request_stems, stems(tool.name))
    description_hits = overlap(evidence.request_stems, stems(tool.description)) - name_hits
    bonus = 0
    worded = bool(name_hits or description_hits)
    for prop, schema in _required(tool).items():
        kind = kind_of(prop, schema)
        if kind in _SPECIFIC and evidence.of(kind):
            bonus += 2
        elif kind in ("place", "id", "name") and evidence.of(kind) and worded:
            bonus += 1  # a city or a name any tool could take: only beside a word of the tool's own
        elif kind == "id" and slots.ids_after_nouns(evidence.text, prop, str(schema.get("description") or "")):
            bonus += 1  # "resolve incident x7f3k": an id right after the noun the property names
        elif slots.pattern_finds(schema, evidence.text):
            bonus += 2
    if bonus < 2 and _names_an_option(tool, evidence.text):
        bonus += 2
    return 2 * len(name_hits) + len(description_hits) + min(bonus, 2)


def _names_an_option(tool: tool_roles.ToolSpec, text: str) -> bool:
    """Whether the request names one of the tool's own enum options, a word of five letters or more, in any case
    («запиши меня на стрижку» for a service enum holding «стрижка»): a value only that tool takes. Short and
    everyday options (low, high, text, json) name nothing."""
    for schema in tool.properties().values():
        if not isinstance(schema, dict):
            continue
        items = schema.get("items")
        options = schema.get("enum") or (items.get("enum") if isinstance(items, dict) else None)
        if not isinstance(options, list):
            continue
        named = [o for o in options if isinstance(o, str) and len(o) >= 5 and o.casefold() not in _PLAIN_OPTIONS]
        if named and item_lists.enum_items(named, text):
            return True
    return False


_PLAIN_OPTIONS = {"medium", "small", "large", "normal", "urgent", "other", "default", "public", "private", "active",
                  "closed", "opened", "pending", "daily", "weekly", "monthly", "yearly", "standard", "basic", "email",
                  "markdown", "plain", "summary", "short", "detailed", "brief", "celsius", "fahrenheit", "metric",
                  "imperial", "positive", "negative", "neutral", "mixed", "ascending", "descending", "first", "latest"}
"""Options many tools share and requests say in passing ("a short summary", "the latest"): no sign of one tool."""


def plan_calls(tools: list[tool_roles.ToolSpec], evidence: Evidence) -> Plan:
    """The calls the request asks for: the best tool it can fill, tools for other things it names,
    and one call per item when it names several (two cities, three order ids)."""
    ranked = rank(tools, evidence)
    if not ranked:
        return Plan([])
    fillable = [t for t in ranked if not missing_inputs(t, evidence)]
    if not fillable:
        return Plan([], (ranked[0].name, missing_inputs(ranked[0], evidence)))
    top = score(fillable[0], evidence)
    acting = [t for t in fillable if score(t, evidence) == top and side_effects.action(t) is not None]
    if acting and side_effects.action(fillable[0]) is None:
        # tools the request fits equally: the action it asks for («Запиши меня на сдачу плазмы…»), not a lookup
        fillable = [acting[0], *(t for t in fillable if t is not acting[0])]
    chosen = [fillable[0]]
    # words that name the first tool, or describe what it works on ("the files" of list_dir), name no other tool:
    # "list the files in /tmp/x" asks for a listing, not for remove_file on /tmp/x
    covered = set(stems(fillable[0].name)) | set(stems(fillable[0].description))
    said = stems(evidence.text)  # the request's own words: a word an everyday domain adds names no second tool
    each_word = [stems(word) for word in tokens(evidence.text)]
    for tool in fillable[1:]:
        hits = overlap(evidence.request_stems & said, stems(tool.name))
        if hits and not overlap(hits, covered) and _a_word_of_its_own(each_word, tool, covered):
            chosen.append(tool)
            covered |= stems(tool.name)
    uses: list[tuple[str, dict]] = []
    for tool in chosen:
        uses += [(tool.name, tool_input(tool, evidence, start)) for start in _items(tool, evidence)]
    return Plan(_unique_uses(uses))


def _a_word_of_its_own(each_word: list[set[str]], tool: tool_roles.ToolSpec, covered: set[str]) -> bool:
    """A word of the request names this tool and none of the first one's words: one Russian verb whose English
    meanings name two tools («удали»: delete and remove) is one ask, for the first tool only, never a second
    destructive call on the same id."""
    name = stems(tool.name)
    return any(overlap(meant, name) and not overlap(meant, covered) for meant in each_word)


def plan_request(tools: list[tool_roles.ToolSpec], evidence: Evidence) -> Plan:
    """The calls for a request that may hold several asks: each part of a compound question gets
    its own tool and its own values (compound.py); a request with one ask is planned whole."""
    def fits(text: str) -> bool:
        return bool(rank(tools, slots.read(text, evidence.lang), loose=False))

    asks = compound.parts(evidence.text, fits)
    worked = _derived_plan(tools, evidence, asks)
    if worked is not None:
        return worked
    if len(asks) > 1:
        # each part may use only the actions its own words ask for: "show the files in /var/log/app, then delete
        # the ones…" deletes in the second part only, never the directory the first part names
        parts: list[Plan] = []
        for ask in asks:
            offered = side_effects.allowed(tools, ask)
            called = {p.uses[0][0] for p in parts if p.uses}
            if called and plans.selection(ask) is not None and plans.conditions(ask, False)[0]:
                # "…, then cancel the ones Bob booked": a part that points back at what an earlier part listed
                # acts on it; the earlier part's reader is not called again for the words it shares
                offered = [t for t in offered if t.name not in called] or offered
            parts.append(plan_calls(offered, slots.read(ask, evidence.lang)))
        firsts = {p.uses[0][0] if p.uses else p.missing[0] for p in parts if p.uses or p.missing}
        if len(firsts) > 1:  # a part that plans nothing ("printer paper to the list") is no ask of its own
            later: list = [*_later_steps(tools, asks, parts, evidence.lang), *_result_steps(tools, asks, parts)]
            waiting = {step.tool for step in later if isinstance(step, plans.ResultStep)}
            parts = [replace(p, uses=[u for u in p.uses if u[0] not in waiting]) for p in parts]
            parts = [_named_only_the_owner(p, ask, evidence.lang) if any(
                isinstance(step, plans.LaterStep) and step.tool == (p.uses[0][0] if p.uses else "") for step in later)
                else p for p, ask in zip(parts, asks, strict=False)]
            parts = [_with_whole_request(tools, p, evidence, later) for p in parts]
            uses = _unique_uses([u for p in parts for u in p.uses])
            missing = [p.missing for p in parts if p.missing and p.missing[0] not in {s.tool for s in later}]
            return Plan(uses, None if uses or not missing else missing[0], later)
    return _list_first(tools, evidence, _read_first(tools, evidence, plan_calls(tools, evidence)))


_THEN = re.compile(r",?\s+(?:and then|and|then|и затем|и потом|затем|потом|а потом|и)\s+|,\s+", re.I)


def _derived_plan(tools: list[tool_roles.ToolSpec], evidence: Evidence, asks: list[str]) -> Plan | None:
    """A read, then an action on its result worked on (derived.py): a condition («и если ниже 20 градусов, поставь
    22»), a conversion ("the euro equivalent of 200 USD") or a choice ("book the cheapest"). The read is called now;
    the action waits for its result. None when the request asks for no such thing, or no tools fit its two parts."""
    text = evidence.text
    then: list[str] = []
    asked_if = derived.condition(text)
    converted = derived.equivalent(text)
    how = derived.cheapest(text)
    if asked_if is not None:
        read_text, action_text = text[:asked_if[2]].rstrip(" ,;и").rstrip(), asked_if[1]
        # «Если посылка RA… ещё не пришла, напиши …»: the condition first, so it says what to read
        read_text = read_text or asked_if[0].words
    elif (converted is not None or how is not None) and len(asks) > 1:
        read_text, action_text = asks[0], " ".join(asks[1:])
        chosen = next((k for k, ask in enumerate(asks) if derived.cheapest(ask) or derived.equivalent(ask)), None)
        acted = None if chosen is None else max(chosen, 1)  # "Find the cheapest hotel … and book it, then email…"
        if acted is not None and acted < len(asks) - 1:
            # "…, book the cheapest and e-mail the booking reference to me@…": a step that sends on the action's result
            action_text, then = asks[acted], asks[acted + 1:]
    elif converted is not None or how is not None:
        cut = next((m for m in _THEN.finditer(text) if any(
            side_effects.action(t) is not None and side_effects.asked(t, text[m.end():]) for t in tools)), None)
        if cut is None:
            return None
        read_text, action_text = text[:cut.start()], text[cut.end():]
    else:
        return None
    readers = [t for t in tools if side_effects.action(t) is None]
    read_plan = plan_calls(readers, slots.read(read_text, evidence.lang))
    if not read_plan.uses:
        return None
    if asked_if is not None and derived.negated(action_text):
        return Plan(read_plan.uses[:1])  # "…, and if it is below 5, don't reorder": the read, and nothing done
    # the action: a tool the action's words ask for, other than the read (a verb side_effects does not know, such as
    # "reorder", still names its tool)
    actions = [t for t in tools if t.name != read_plan.uses[0][0]
               and (side_effects.action(t) is not None or asked_if is not None)]
    own = slots.read(action_text, evidence.lang)
    acting = [t for t in rank(actions, own) or rank(actions, evidence) if side_effects.asked(t, action_text)]
    if not acting:
        return None
    tool, read_use = acting[0], read_plan.uses[0]
    given = tool_input(tool, own)
    hints = _hints(tool, own)
    properties = {k: v for k, v in tool.properties().items() if isinstance(v, dict)}
    inherited = tuple(k for k, sub in properties.items() if not hints.wanted(k, sub) and k in read_use[1])
    fixed = {k: v for k, v in given.items() if k not in inherited}
    rate = amount_field = currency_field = None
    pick = None
    if asked_if is None and converted is not None:
        amount_field = next((k for k, sub in properties.items() if "number" in slots._types(sub)
                             or "integer" in slots._types(sub)), None)
        currency_field = next((k for k, sub in properties.items() if kind_of(k, sub) == "currency"), None)
        rate = (converted[0], converted[1], converted[2])
        if amount_field is None:
            return None
    if asked_if is None and converted is None and how is not None:
        guessed = [k.split(".")[0] for k in assumptions.assumed(tool, given, action_text) if k.split(".")[0] in
                   properties]
        prop = next((k for k in missing_inputs(tool, own)), None) or next(iter(guessed), None) or next(
            (k for k in properties if re.search(r"(?:^|_)id$", k)), None)  # the input the words leave to a guess
        if prop is None:
            return None
        fixed.pop(prop, None)
        pick = (how, prop)
    step = derived.DerivedStep(tool.name, read_use[0], tuple(fixed.items()), inherited,
                               asked_if[0] if asked_if else None, rate, amount_field, currency_field, pick)
    return Plan(read_plan.uses[:1], later=[step, *_sent_on_after(tools, tool, then, evidence.lang)])


def _sent_on_after(tools: list[tool_roles.ToolSpec], source: tool_roles.ToolSpec, asks: list[str],
                   lang: str) -> list[plans.ResultStep]:
    """The asks after a chosen action that send on what it returned ("…and e-mail the booking reference to me@…"):
    each waits for that action's result; none when an ask is anything else."""
    steps = []
    for ask in asks:
        offered = [t for t in side_effects.allowed(tools, ask) if t.name != source.name]
        planned = plan_calls(offered, slots.read(ask, lang))
        step = _sends_on(tools, planned.uses[0], ask, source, chained=True) if planned.uses else None
        if step is None:
            return []
        steps.append(replace(step, words=ask))
    return steps


def _with_whole_request(tools: list[tool_roles.ToolSpec], part: Plan, evidence: Evidence,
                        later: list[plans.LaterStep]) -> Plan:
    """A part that lacks what an earlier part names ("check order A-1, then cancel it") takes it from
    the whole request, unless it acts on an earlier part's results (a later step)."""
    if part.uses or not part.missing or part.missing[0] in {step.tool for step in later}:
        return part
    tool = next(t for t in tools if t.name == part.missing[0])
    if missing_inputs(tool, evidence):
        return part
    return Plan([(tool.name, tool_input(tool, evidence))])


def _later_steps(tools: list[tool_roles.ToolSpec], asks: list[str], parts: list[Plan],
                 lang: str) -> list[plans.LaterStep]:
    """The parts that act on an earlier part's results ("then delete the ones that end in .log"):
    a tool that lacks one input (or several, one of them named like what the earlier tool lists: the others are
    the earlier call's own, "the applicants for job J-204 … invite everyone …"), words that point back, and an
    earlier part that calls a tool."""
    steps = []
    for k, (ask, part) in enumerate(zip(asks, parts, strict=False)):
        earlier = [p.uses[0][0] for p in parts[:k] if p.uses]
        keeps = plans.selection(ask)
        part = _named_only_the_owner(part, ask, lang)
        if part.uses or not part.missing or not earlier or keeps is None:
            continue
        tool = next(t for t in tools if t.name == part.missing[0])
        lacking = part.missing[1]
        if len(lacking) > 1:
            # the input the listed items give is the one named like what the earlier tool lists (`applicant_id`
            # after list_applicants); the others are the earlier call's own (`job_id`)
            source = stems(re.sub(r"^(?:get|list|search|find|fetch|show|read|pull)_?", "", earlier[-1]))
            named = [key for key in lacking if overlap(stems(re.sub(r"_?(?:id|ids|key|number)$", "", key)), source)]
            if len(named) != 1:
                continue
            lacking = named
        prop = lacking[0]
        own = slots.read(ask, lang)
        fixed = {key: value for key, value in tool_input(tool, own).items()
                 if key != prop and key not in part.missing[1]}
        hints = _hints(tool, own)
        inherited = tuple(key for key, schema in tool.properties().items()
                          if key != prop and isinstance(schema, dict) and not hints.wanted(key, schema))
        conds, unreadable = plans.conditions(ask, bool(keeps))
        field_word = plans.field_of(ask)
        if not keeps and not conds and not unreadable and k:
            # "find Pelevin's books that are in stock and put them on hold": the earlier ask's condition selects
            # which of its results "them" are
            conds = plans.conditions(asks[k - 1], False)[0]
        if steps and not keeps and not conds and not unreadable and steps[-1].after == earlier[-1]:
            # "…then decline the ones with standup in the title and email their organiser": the same ones
            keeps, conds, field_word = steps[-1].keeps, steps[-1].conditions, steps[-1].field
        schema = tool.properties().get(prop) if isinstance(tool.properties().get(prop), dict) else {}
        types = schema.get("type") if isinstance(schema.get("type"), str) else "string"
        steps.append(plans.LaterStep(tool.name, prop, earlier[-1], keeps, tuple(fixed.items()), field_word,
                                     conds, unreadable, inherited, types, kind_of(prop, schema) == "email",
                                     result_conditions.first_only(ask)))
    return steps


def _named_only_the_owner(part: Plan, ask: str, lang: str) -> Plan:
    """A part whose only values are the person its listed items belong to ("cancel the ones Bob booked" filled
    `booking_id="Bob"`): no call of its own, but the inputs the person filled are missing, for a later step."""
    people = {c.word for c in plans.conditions(ask, False)[0] if c.kind == "person"}
    people |= {str(c.value) for c in plans.conditions(ask, False)[0] if c.kind == "field"}
    people |= {said for _, said in plans.selection(ask) or ()}  # «отмени уроки с «yoga» в названии»: a filter
    if not people or not part.uses:
        return part
    name, tool_input_ = part.uses[0]
    taken = [key for key, value in tool_input_.items()
             if value in people or any(isinstance(value, str) and value in p.split() for p in people)]
    if not taken:
        return part
    return Plan([], (name, taken))


_TEXTS = re.compile(r"body|text|message|content|note|details|description|summary|report|сообщ|текст", re.I)
_NOT_TEXTS = re.compile(r"subject|title|topic|name|тема|назван", re.I)
_RESULT_WORDS = re.compile(r"\b(?:it|the results?|the answer|what (?:you|it) (?:find|found|get|got|say|says)|"
                           r"the findings|the outcome|the details|the info(?:rmation)?)\b|"
                           r"(?<!\w)(?:результат\w*|ответ|то, что)(?!\w)", re.I)
_SENDS_ON = re.compile(r"\b(?:the|this|that)\s+(?:summary|contents?|text|data|figures?|numbers?|list|report|rate|price|"
                       r"status|results?|forecast|answer|details|info|findings|totals?)\b|"
                       r"(?<!\w)(?:его|её|ее|их|это|сводк\w*|содержимое|итог\w*|результат\w*|данные|прогноз|курс|цен\w*)"
                       r"(?!\w)", re.I)
"""Words with which a later step sends on what an earlier one read: "email the summary", «отправь его в чат»."""
_READ_VERBS = {"get", "list", "search", "find", "fetch", "check", "lookup", "look", "read", "show", "query", "retrieve"}


def _result_steps(tools: list[tool_roles.ToolSpec], asks: list[str], parts: list[Plan]) -> list[plans.ResultStep]:
    """The parts that send on an earlier part's result ("…and then email the forecast to kari@…"): see _sends_on."""
    steps = []
    for k, (ask, part) in enumerate(zip(asks, parts, strict=False)):
        earlier = [p.uses[0][0] for p in parts[:k] if p.uses]
        source = next((t for t in tools if earlier and t.name == earlier[-1]), None)
        step = _sends_on(tools, part.uses[0], ask, source) if k and source and part.uses else None
        if step is not None:
            steps.append(step)
    return steps


def _sends_on(tools: list[tool_roles.ToolSpec], use: tuple[str, dict], ask: str,
              source: tool_roles.ToolSpec, chained: bool = False) -> plans.ResultStep | None:
    """The step that sends on what a reading tool returns: an action whose words point at it (the source's own noun,
    "the forecast" for get_weather, "the summary", "it", «его»), with a text field the ask does not fill itself (no
    quote, no "saying …"). Such a step waits for the result; its text is the result, never the instruction. None
    for any other call."""
    name, given = use
    tool = next((t for t in tools if t.name == name), None)
    if tool is None or tool.name == source.name or side_effects.action(tool) is None \
            or (side_effects.action(source) is not None and not chained):
        return None  # `chained`: the source is an action the user asked for before this one (derived.py)
    # an `<noun>_id` field holds an id whatever its noun: message_id, note_id, reportId are never the text sent on
    texts = tuple(p for p, sub in tool.properties().items() if isinstance(sub, dict) and _TEXTS.search(p)
                  and not _NOT_TEXTS.search(p) and not _ID_FIELD.search(p) and kind_of(p, sub) != "id"
                  and "string" in slots._types(sub) and "enum" not in sub)
    quoted = {next(g for g in m.groups() if g) for m in slots._QUOTED.finditer(ask)}
    if not texts or any(given.get(p) in quoted or slots._free_text(p, str(tool.properties()[p].get("description")
                                                                          or ""), ask) for p in texts):
        return None  # the ask gives the text itself: 'email Kari "See you at 5"', "…saying we are late"
    nouns = " ".join(w for w in re.findall(r"[a-zA-Zа-яА-ЯёЁ]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ",
                                                                          source.name.replace("_", " ")))
                     if w.lower() not in _READ_VERBS)
    own = re.sub(r"\S+@\S+|https?://\S+", " ", ask)
    if not (chained or _RESULT_WORDS.search(own) or _SENDS_ON.search(own)
            or overlap(stems(own, synonyms=True), stems(nouns, synonyms=True))):
        return None  # after a chosen action, what is sent is what it returned ("the confirmation code")
    fixed = tuple((key, value) for key, value in given.items() if key not in texts)
    return plans.ResultStep(tool.name, source.name, fixed, texts)


def _read_first(tools: list[tool_roles.ToolSpec], evidence: Evidence, plan: Plan) -> Plan:
    """One ask whose action sends what another tool would read ("Email kari@… the forecast for Oslo", "Send kari@…
    the weather in Oslo"): the reading first, the action on its result in the next turn (never the instruction as
    the e-mail's body)."""
    actions = [u for u in plan.uses if any(t.name == u[0] and side_effects.action(t) is not None for t in tools)]
    if plan.later or len(actions) != 1:
        return plan
    reads = [u for u in plan.uses if u not in actions]
    planned = [t for u in reads for t in tools if t.name == u[0]]
    for source in [*planned, *rank(tools, evidence), *tools]:
        if side_effects.action(source) is not None or (source not in planned and missing_inputs(source, evidence)):
            continue
        step = _sends_on(tools, actions[0], evidence.text, source)
        if step is not None and overlap(
                evidence.request_stems, stems(f"{source.name} {source.description}", synonyms=True)):
            return Plan(reads if source in planned else [*reads, (source.name, tool_input(source, evidence))],
                        later=[step])
    return plan


def _list_first(tools: list[tool_roles.ToolSpec], evidence: Evidence, plan: Plan) -> Plan:
    """One ask that acts on the items a condition selects ("Cancel the bookings before noon", "cancel every booking
    Bob made") with no ids of its own: the listing first, then the action on the listed items that meet the
    condition (plans.LaterStep), never the action on a made-up id nor the listing alone."""
    if plan.later or any(side_effects.action(t) is not None for u in plan.uses for t in tools if t.name == u[0]):
        return plan
    conds = plans.conditions(evidence.text, False)[0]
    if not conds:
        return plan
    for tool in rank([t for t in side_effects.allowed(tools, evidence.text) if side_effects.action(t) is not None],
                     evidence):
        own = _named_only_the_owner(Plan([(tool.name, tool_input(tool, evidence))]), evidence.text, evidence.lang)
        lacking = own.missing[1] if own.missing else missing_inputs(tool, evidence)
        if len(lacking) != 1:
            continue
        prop = lacking[0]
        noun = re.sub(r"_?(?:id|ids|key|number)$", "", prop)
        acted_on = stems(noun) | stems(f"{noun}s")  # `table_id` is what list_tables lists
        readers = [t for t in tools if side_effects.action(t) is None and not missing_inputs(t, evidence)]
        # the reader named for what the action acts on (list_bookings for booking_id), else the one described so
        # (list_pantry, "List the items in the pantry", for item_id)
        for reader in [*(t for t in readers if overlap(stems(t.name), acted_on)),
                       *(t for t in readers if overlap(stems(t.description), acted_on))][:1]:
            schema = tool.properties().get(prop) if isinstance(tool.properties().get(prop), dict) else {}
            typed = schema.get("type") if isinstance(schema.get("type"), str) else "string"
            step = plans.LaterStep(tool.name, prop, reader.name, (), (), None, conds, False, (), typed,
                                   kind_of(prop, schema) == "email", result_conditions.first_only(evidence.text))
            return Plan([(reader.name, tool_input(reader, evidence))], later=[step])
        return plan
    return plan


def missing_inputs(tool: tool_roles.ToolSpec, evidence: Evidence) -> list[str]:
    """Required inputs the model would have to invent (an order id nobody gave): it asks instead."""
    hints = _hints(tool, evidence)
    missing = []
    for prop, schema in _required(tool).items():
        if any(k in schema for k in ("const", "enum", "default")) or prop.lower() in evidence.named:
            continue
        kind = kind_of(prop, schema)
        paid = kind == "money" and side_effects.action(tool) is not None  # how much to top up, pay, send: ask
        if (kind not in _ONLY_FROM_THE_USER and not paid) or schema.get("type") in ("boolean", "object", "array",
                                                                                    "null"):
            continue
        if hints.value(prop, schema, None) is MISSING and situation_values.value_for(prop, schema, evidence.text) \
                is None and not (kind == "symbol" and tickers.ticker(evidence.text)):
            missing.append(prop)
    return missing


def _for_image(tools: list[tool_roles.ToolSpec], plan: Plan, evidence: Evidence) -> Plan:
    """With an image: the tool the request is about even when its values would have to be read
    from the picture (the model cannot), or else a tool made for images; schema-valid values."""
    named = [t for t in tools if plan.missing and t.name == plan.missing[0]]
    for_images = [t for t in tools if _IMAGE_WORDS.search(f"{t.name} {t.description}")]
    chosen = (named or for_images)[:1]
    return Plan([(t.name, tool_input(t, evidence)) for t in chosen]) if chosen else plan


def fitting(request: Request, text: str, lang: str) -> bool:
    """Whether one of the request's own tools, allowed for these words, fits them."""
    return bool(rank(side_effects.allowed(tool_roles.custom_tools(request), text), slots.read(text, lang)))


def _call(uses: list[tuple[str, dict]], lang: str, new_id: NewId, image: bool = False,
          notes: list[str] | None = None) -> Reply:
    """The calls, with the sentence a model writes before them; with an image, the plain admission
    that offline it cannot read images, so the values are the schema's, not the picture's."""
    tools = list(dict.fromkeys(name for name, _ in uses))
    names = ", ".join(tools)
    listed = names if len(tools) == 1 else f"{', '.join(tools[:-1])} {words(lang, 'and')} {tools[-1]}"
    items = "; ".join(answers.arguments(tool_input_) for _, tool_input_ in uses)
    blind = words(lang, " Offline I cannot read images, so these values are placeholders valid for the tool's "
                        "schema, not values read from your image.") if image else ""
    return tool_reply(
        words(lang, "I'll use {listed} for this.", context="one tool" if len(tools) == 1 else "several tools",
              listed=listed) + blind,
        uses, new_id,
        reasoning=words(lang, "The request fits {names}; calling it with {items}.", names=names, items=items),
        notes=notes,
    )


def _ask(tool: str, missing: list[str], lang: str) -> Reply:
    fields = ", ".join(missing)
    return text_reply(
        words(lang, "To use {tool} I need {fields}, and your message does not say. What is it?",
                    tool=tool, fields=fields),
        reasoning=words(lang, "{tool} fits, but I would have to invent {fields}.", tool=tool, fields=fields),
    )


def _gives_values(evidence: Evidence) -> bool:
    """Whether the message holds something a tool takes (an id, a city…), as "It's ORD-5" does."""
    return any(evidence.of(kind) for kind in _ONLY_FROM_THE_USER)


def _with_earlier_words(evidence: Evidence, turns: list[Turn]) -> Evidence:
    """The evidence with the words of the user's earlier messages, for a reply that only gives a value
    ("And in Tokyo?" after a question about the weather in Paris); the values stay this message's."""
    task = task_turn(turns)
    earlier = " ".join(t.text() for t in turns[: turns.index(task)] if t.role == "user")
    return replace(evidence, request_stems=evidence.request_stems | stems(earlier, synonyms=True))


def _items(tool: tool_roles.ToolSpec, evidence: Evidence) -> list[dict[str, int]]:
    """One start offset per item when the request lists several values of the kind the tool takes once."""
    kinds = [kind_of(p, s if isinstance(s, dict) else {}) for p, s in tool.properties().items()]
    claimed = slots.names(tool.properties())
    taken = [*(evidence.of("venue") if "venue" in claimed else ()), *(evidence.of("name") if "person" in claimed
                                                                      else ())]
    props = [p for p, s in tool.properties().items()]
    for kind in dict.fromkeys(k for k in kinds if k in _LISTABLE):
        found = [v for v in evidence.of(kind) if kind != "place" or v not in taken]  # "at Chez Panisse" is the venue
        if len(found) > 1:  # "rename a.docx to b.md": b.md is the new name's, not a second file to rename
            prop = props[kinds.index(kind)]
            elsewhere = {str(b.value) for name, b in _bound_strongly(tool, evidence).items() if name != prop}
            found = [v for v in found if str(v) not in elsewhere and not any(str(v) in e for e in elsewhere)]
        if kind == "email":  # "…, bcc max@… and eva@…": those are copied, not one call each
            found = slots.copied(props[kinds.index(kind)], found, evidence.text)
        if kinds.count(kind) == 1 and len(found) > 1 and not _takes_a_list_of(tool, kind):
            return [{kind: i} for i in range(min(len(found), MAX_PARALLEL))]
    return [{}]


def _takes_a_list_of(tool: tool_roles.ToolSpec, kind: str) -> bool:
    """Whether the tool takes several values of a kind in one call (`interviewer_emails`: an array of e-mails): then
    the request's several e-mails are one call's, never one call each."""
    for prop, schema in tool.properties().items():
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if isinstance(items, dict) and kind_of(prop, items) == kind:
            return True
    return False


def _bound_strongly(tool: tool_roles.ToolSpec, evidence: Evidence) -> dict:
    """The tool's fields the request's values are bound to by their own words (binding.py)."""
    bound = _hints(tool, evidence).binding()
    return {name: b for name, b in bound.items() if b.strong}


def _hints(tool: tool_roles.ToolSpec, evidence: Evidence, start: dict[str, int] | None = None) -> RequestHints:
    return RequestHints(evidence, start, named=slots.names(tool.properties()), fields=tool.properties())


def _required(tool: tool_roles.ToolSpec) -> dict[str, dict]:
    required = tool.schema.get("required")
    props = tool.properties()
    return {p: props[p] for p in (required if isinstance(required, list) else [])
            if isinstance(p, str) and isinstance(props.get(p), dict)}


def _unique_uses(uses: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    seen: set[str] = set()
    unique = []
    for name, tool_input_ in uses:
        if _key(name, tool_input_) not in seen:
            seen.add(_key(name, tool_input_))
            unique.append((name, tool_input_))
    return unique


def _key(name: str, tool_input_: dict) -> str:
    return name + json.dumps(tool_input_, sort_keys=True, ensure_ascii=False, default=str)
