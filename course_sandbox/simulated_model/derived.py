"""Compound asks whose second step needs the first step's result worked on, not just passed on:

- a condition on it: «Проверь температуру в детской, и если ниже 20 градусов, поставь 22», "check the price of X and
  if it is under 100, buy 2" -- the action is called when the result's number meets the condition, and not called
  (the answer then says why) when it does not;
- a conversion with it: "find the USD to EUR rate, then send Maria the euro equivalent of 200 USD" -- the action's
  amount is 200 times the rate the first step returned, in the target currency;
- a choice among what it lists: "find flights … and book the cheapest", «забронируй самый дешёвый» -- the action
  takes the listed item with the lowest (or highest: "the most expensive") price.

The read comes first, alone; the action waits for its result (never guessed in the same turn) and is proposed only
because the user asked for it. A condition in words ("if it's going to snow", «если посылка ещё не пришла») holds when
the result's text shows that state (snow, rain, delivered, delayed, cancelled, or not). What is not covered: sums of
several results, a choice by anything but a price-like field.
"""

import json
import re
from dataclasses import dataclass

from . import result_conditions
from .history import Call

_OPS = {"below": "<", "under": "<", "less than": "<", "lower than": "<", "colder than": "<", "cheaper than": "<",
        "fewer than": "<", "smaller than": "<", "bigger than": ">", "larger than": ">",
        "above": ">", "over": ">", "more than": ">", "higher than": ">", "greater than": ">", "warmer than": ">",
        "ниже": "<", "меньше": "<", "менее": "<", "холоднее": "<", "дешевле": "<", "выше": ">", "больше": ">",
        "более": ">", "теплее": ">", "дороже": ">"}
_OP_WORDS = "|".join(sorted((re.escape(w) for w in _OPS), key=len, reverse=True))
_CONDITION = re.compile(r"(?:(?<=[\s,;.])|^)(?:and\s+|и\s+|,\s*)?(?P<if>if|when|если|когда)\s+"
                        r"(?P<what>[^,.;!?]{0,40}?)\s*"
                        rf"(?P<op>{_OP_WORDS})\s+(?P<n>-?\d+(?:[.,]\d+)?)(?P<unit>[^,.;!?]{{0,20}}?)\s*(?:,|\bthen\b|"
                        r"\s(?=(?:set|make|turn|buy|book|send|order|reorder|постав|установ|сделай|включ|купи|закаж|забронир|"
                        r"отправ)))\s*(?:then\s+|то\s+)?(?P<action>[^.;!?]+)", re.I)
"""'… and if it is below 20 degrees, set it to 22': the compared quantity, the comparison, the threshold, the action."""
_EQUIVALENT = re.compile(r"\b(?:the\s+)?(?P<to>[a-z]+)\s+equivalent\s+of\s+"
                         r"(?P<amount>[$€£¥₽]?\s?\d{1,12}(?:,\d{3})*(?:\.\d+)?)\s*"
                         r"(?P<from>(?-i:[A-Z]{3})|dollars?|euros?|pounds?|rubles?|roubles?|yen)?|"
                         r"(?<![\d.,])(?P<amount2>\d{1,3}(?:\s\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)\s*(?P<from2>(?-i:[A-Z]{3})|"
                         r"долл\w*|евро|фунт\w*|руб\w*|dollars?|euros?|pounds?)\s+(?:в|in|into)\s+"
                         r"(?P<to2>евро|доллар\w*|рубл\w*|фунт\w*|euros?|dollars?|pounds?|rubles?|(?-i:[A-Z]{3}))\b",
                         re.I)
"""'the euro equivalent of 200 USD', «200 долларов в евро»: an amount to convert with a rate the first step returns.
An amount starts where a number starts (not inside one): a long run of digits is read once, not from every digit."""
_CURRENCY_WORDS = {"euro": "EUR", "euros": "EUR", "евро": "EUR", "dollar": "USD", "dollars": "USD", "доллар": "USD",
                   "pound": "GBP", "pounds": "GBP", "фунт": "GBP", "ruble": "RUB", "rubles": "RUB", "rouble": "RUB",
                   "roubles": "RUB", "рубл": "RUB", "руб": "RUB", "yen": "JPY", "долл": "USD"}
_CHEAPEST = re.compile(r"\b(?:the\s+)?(?P<low>cheapest|least expensive|lowest[- ]priced)\b|\b(?:the\s+)?"
                       r"(?P<high>most expensive|priciest|highest[- ]priced)\b|(?<!\w)(?:сам\w+\s+)?"
                       r"(?P<low_ru>дешёв\w*|дешев\w*)|(?<!\w)сам\w+\s+(?P<high_ru>дорог\w*)", re.I)
_PRICE_FIELD = re.compile(r"price|cost|fare|amount|total|цен|стоимост|rub|usd|eur", re.I)


def currency(word: str) -> str | None:
    """The ISO code of a currency word or code ("euro", «евро», "USD")."""
    if re.fullmatch(r"[A-Z]{3}", word):
        return word
    low = word.lower()
    return next((code for start, code in _CURRENCY_WORDS.items() if low.startswith(start)), None)


@dataclass(frozen=True)
class Condition:
    op: str
    threshold: float
    words: str
    """What is compared, in the user's words ("it", «температура»): the result's field it names, else its one number."""
    unit: str = ""
    """What the threshold is written in ("%"): a field of the result named for it (`level_percent`)."""
    context: str = ""
    """The request before the condition ("Check the water level of tank T-3"): what "it" is, when nothing else
    picks the field."""
    state: str = ""
    """A condition said in words, not numbers ("if it's going to snow", «если посылка ещё не пришла»): 1 when the
    result shows it, 0 when it shows otherwise (op "=" with threshold 1)."""
    asked: result_conditions.Condition | None = None
    """An elliptic condition on a yes/no question ("Is ticket T-1 closed? If not, close it."): the state the question
    asks about, tested on the read's result; `wanted` is the answer the action waits for (False for "if not")."""
    wanted: bool = True

    def value(self, result: str) -> float | None:
        """The number of the result the condition compares (for a condition in words, 1 or 0)."""
        if self.asked is not None:
            fields = _fields(result)
            held = self.asked.holds(fields) if fields else None
            return None if held is None else float(held == self.wanted)
        if self.state:
            met = state_met(self.state, result)
            return None if met is None else float(met)
        found = result_number(result, self.words)
        if found is None and self.unit.strip():
            found = result_number(result, _unit_field(self.unit))  # "20 packs are left", «500 кг»
        if found is not None:
            return found
        numbers = _numbers(result)
        if re.search(r"%|percent|процент", self.unit, re.I):
            percent = [v for k, v in numbers.items() if re.search(r"percent|pct|процент|(?:^|_)level(?:$|_)", k, re.I)]
            if len(percent) == 1:
                return percent[0]
        return result_number(result, self.context) if self.context else None


def condition(text: str) -> tuple[Condition, str, int] | None:
    """The condition of a conditional ask, its action's words and where the condition starts; None for none."""
    m = _CONDITION.search(text)
    if not m:
        said = _STATE_CONDITION.search(text)
        if said is None:
            return _elliptic(text)
        if not any(kind.search(said.group("what")) for kind, _ in _STATES):
            # "… and if it is free, book it", «…, и если свободна, забронируй»: a state the read's result shows
            asked = result_conditions.question_state(said.group("what"))
            if asked is None:
                return _elliptic(text)
            return Condition("=", 1.0, said.group("what").strip(), "", text[:said.start("if")][-200:], asked=asked), \
                said.group("action").strip(), said.start("if")
        return Condition("=", 1.0, said.group("what"), "", text[:said.start("if")][-200:], said.group("what")), \
            said.group("action").strip(), said.start("if")
    return Condition(_OPS[m.group("op").lower()], float(m.group("n").replace(",", ".")), m.group("what"),
                     m.group("unit") or "", text[:m.start("if")][-200:]), m.group("action").strip(), m.start("if")


_ELLIPTIC = re.compile(r"(?P<question>[^.?!]{3,200}\?)\s*(?P<if>if|если)\s+(?P<answer>so|yes|not|no|да|нет)(?!\w)"
                       r"[\s,:;—–-]*(?:then\s+|то\s+)?(?P<action>[^.;!?]+)", re.I)
"""'Is ticket T-1 closed? If not, close it.', «Оплачен ли счёт 12? Если да, пришли квитанцию.»: a condition that is
the answer to the question just asked."""


def _elliptic(text: str) -> tuple[Condition, str, int] | None:
    """An elliptic condition on a yes/no question: the question's state, the answer the action waits for."""
    m = _ELLIPTIC.search(text)
    asked = result_conditions.question_state(m.group("question")) if m else None
    if m is None or asked is None:
        return None
    question = m.group("question").strip()
    wanted = m.group("answer").lower() in ("so", "yes", "да")
    return Condition("=", 1.0, question, "", question, asked=asked, wanted=wanted), m.group("action").strip(), \
        m.start("if")


def _fields(result: str) -> dict:
    """The fields of a read's result: its object, or the one object a list holds."""
    try:
        data = json.loads(result)
    except (ValueError, TypeError):
        return {}
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    return data if isinstance(data, dict) else {}


_STATE_CONDITION = re.compile(r"(?:(?<=[\s,;.])|^)(?:and\s+|и\s+|,\s*)?(?P<if>if|если)\s+"
                              r"(?P<what>(?:(?!\b(?:if|если)\b)[^,.;!?]){2,80}?)"
                              r"\s*,\s*(?:then\s+|то\s+)?(?P<action>[^.;!?]+)", re.I)
"""'… and if it's going to snow, text Anna …', «если посылка ещё не пришла, напиши …»: a condition in words; the
"if" of "Check if room Orion is free … and if it is free, book it" asks, the last one conditions."""
_STATES = [
    (re.compile(r"\bsnow\w*|(?<!\w)сне[гж]\w*", re.I), re.compile(r"snow|sleet|снег|снеж", re.I)),
    (re.compile(r"\brain\w*|\bwet\b|(?<!\w)(?:дожд\w*|ливн\w*|ливен)", re.I),
     re.compile(r"rain|drizzle|shower|storm|thunder|дожд|ливн|ливен|гроз", re.I)),
    (re.compile(r"\b(?:arrived?|delivered|come|came)\b|(?<!\w)(?:пришл\w*|пришёл|пришел|доставлен\w*|доставил\w*|"
                r"получ\w*|привезл\w*|привез[её]н\w*)", re.I),
     re.compile(r"deliver|arrived|collected|picked up|доставлен|вручен|получен", re.I)),
    (re.compile(r"\b(?:delayed|late)\b|(?<!\w)(?:задерж\w*|опазд\w*|опозда\w*)", re.I),
     re.compile(r"delay|late|задерж|опазд", re.I)),
    (re.compile(r"\bcancell?ed\b|(?<!\w)отмен[её]н\w*", re.I), re.compile(r"cancel|отмен", re.I)),
]
"""The states a condition in words is about (what it says, what a result's text says when it holds)."""
_NOT = re.compile(r"\b(?:not|isn'?t|hasn'?t|haven'?t|didn'?t|doesn'?t|won'?t|never|still not|yet to)\b|"
                  r"(?<!\w)(?:не|ещё не|еще не|так и не)(?!\w)", re.I)
_CHANCE = re.compile(r"chance|probab|precip|вероятн|осадк", re.I)


def state_met(said: str, result: str) -> bool | None:
    """Whether the result shows the state the condition says ("snow" in a forecast's condition, a chance of it of 50 or
    more; «не пришла» and a status that is not delivered); None when the result tells nothing about it."""
    kind = next(((asked, shown) for asked, shown in _STATES if asked.search(said)), None)
    if kind is None:
        return None
    try:
        data = json.loads(result)
    except (ValueError, TypeError):
        data = result
    fields = data if isinstance(data, dict) else {"text": data} if isinstance(data, str) else {}
    shown = None
    for key, value in fields.items():
        if isinstance(value, str) and kind[1].search(value):
            shown = True
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and _CHANCE.search(str(key)) \
                and kind[1].search(str(key)):
            shown = value >= 50
        elif isinstance(value, str) and shown is None and re.search(r"status|state|condition|summary|weather|sky|"
                                                                    r"статус|состояни|погод", str(key), re.I):
            shown = False
    if shown is None:
        return None
    return shown != bool(_NOT.search(said))


def equivalent(text: str) -> tuple[float, str, str, int, int] | None:
    """"the euro equivalent of 200 USD", «200 долларов в евро»: the amount, its currency, the target currency, and the
    span to leave out of the action's own words; None for none."""
    for m in _EQUIVALENT.finditer(text):
        amount = m.group("amount") or m.group("amount2")
        source, target = currency(m.group("from") or m.group("from2") or ""), currency(m.group("to") or
                                                                                       m.group("to2") or "")
        written = re.sub(r"[^\d.,]", "", amount)
        written = written.replace(",", "") if re.search(r",\d{3}", written) else written.replace(",", ".")
        if target and written:
            return float(written), source or "", target, m.start(), m.end()
    return None


def cheapest(text: str) -> str | None:
    """"min" for "the cheapest", «самый дешёвый»; "max" for "the most expensive"; "nth:2" for "the second one",
    «второе»; "nth:-1" for "the last one"; None for none of them."""
    m = _CHEAPEST.search(text)
    ordinal = _ORDINAL.search(text)
    if not m and ordinal:
        said = next(g for g in ordinal.groups() if g).lower()
        return f"nth:{next(n for start, n in _ORDINALS if said.startswith(start))}"
    if not m:
        latest = _LATEST.search(text)
        return None if latest is None else "latest" if latest.group("new") or latest.group("new_ru") else "earliest"
    return "min" if m.group("low") or m.group("low_ru") else "max"


_ORDINALS = (("first", 1), ("second", 2), ("third", 3), ("fourth", 4), ("fifth", 5), ("last", -1), ("перв", 1),
             ("втор", 2), ("трет", 3), ("четв", 4), ("пят", 5))
_ORDINAL = re.compile(r"\bthe\s+(first|second|third|fourth|fifth|last)(?:\s+(?:one|item|option|entry|result|offer|"
                      r"quote|bid|of them)\b|(?=\s*(?:[.,;!?]|$)))(?!\s+(?:with|that|where|which|who|whose|in|on|at|"
                      r"from|for|under|over|before|after|whe?n)\b)|"
                      r"(?<!\w)(перв|втор|трет|четв[её]рт|пят)(?:ое|ую|ый|ая|ой|ий|ые|ого)(?:\s+(?:из\s+них|вариант\w*|"
                      r"предложени\w*|по\s+списку))?(?=\s*(?:[.;!?]|,(?!\s*(?:где|котор|что|у\s|в\s|с\s|на\s))|$))",
                      re.I)
"""An item picked by its place in the listing: "accept the second one", "the last option", «прими второе»; not "the
first free one" (a state, result_conditions.py), nor a first step ("First, list…")."""
_LATEST = re.compile(r"\b(?:the\s+)?(?P<new>latest|newest|most\s+recent)\b|\b(?:the\s+)?(?P<old>oldest|earliest)\b|"
                     r"(?<!\w)(?P<new_ru>последн\w*|новейш\w*|самую\s+новую|самой\s+новой)|(?<!\w)(?P<old_ru>старейш\w*|"
                     r"самую\s+старую)", re.I)
""""the latest firmware", «последнюю прошивку»: the listed item with the newest date (or version)."""


def _order_key(item: dict) -> tuple | None:
    """What orders an item in time: its date (an ISO date field), else its version ("4.2.0")."""
    for value in item.values():
        if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
            return (0, value[:19])
    for key, value in item.items():
        if re.search(r"version|release|ver$", str(key), re.I) and isinstance(value, str) \
                and re.fullmatch(r"v?\d+(?:\.\d+){0,3}", value):
            return (1, tuple(int(p) for p in value.lstrip("v").split(".")))
    return None


def _numbers(result: str) -> dict[str, float]:
    try:
        data = json.loads(result)
    except (ValueError, TypeError):
        found = re.findall(r"-?\d+(?:\.\d+)?", result)
        return {"value": float(found[0])} if len(found) == 1 else {}
    if not isinstance(data, dict):
        return {"value": float(data)} if isinstance(data, (int, float)) and not isinstance(data, bool) else {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
            and not re.search(r"(?:^|_)(?:id|ids|count|page)$", str(k))}


def result_number(result: str, words: str) -> float | None:
    """The number of an earlier result a later step works on: the field the user's words name (rate, «курс»,
    temperature), else the result's only number; None when the result holds none, or several and no word picks one."""
    numbers = _numbers(result)
    if len(numbers) == 1:
        return next(iter(numbers.values()))
    from .words import stems
    said = stems(words, synonyms=True)
    shared = {key: len(said & stems(key.replace("_", " "), synonyms=True)) for key in numbers}
    best = max(shared.values(), default=0)
    return next((numbers[key] for key, n in shared.items() if n == best), None) if best else None


_UNIT_FIELDS = ((r"^(?:кг|kg|г|g|т|тонн\w*|tons?|tonnes?|lbs?|pounds?|kilo\w*|грамм\w*|килограмм\w*)$", "weight kg"),
                (r"^(?:°\w?|градус\w*|degrees?)$", "temperature"),
                (r"^(?:км|km|м|m|miles?|метр\w*|километр\w*)$", "distance"),
                (r"^(?:руб\w*|₽|\$|€|£|usd|eur|rub|dollars?|euros?)$", "price amount cost"),
                (r"^(?:мин\w*|min\w*|час\w*|hours?|h)$", "minutes duration"))


def _unit_field(unit: str) -> str:
    """The words a threshold's unit gives for the field compared: «кг» a weight, "packs are left" packs left."""
    first = unit.split()[0].lower() if unit.split() else ""
    return next((f"{field} {unit}" for pattern, field in _UNIT_FIELDS if re.match(pattern, first)), unit)


@dataclass(frozen=True)
class DerivedStep:
    """An action that waits for an earlier call's result and works on it (see the module's docstring)."""

    tool: str
    after: str
    fixed: tuple[tuple[str, object], ...]
    inherited: tuple[str, ...] = ()
    """Inputs the action's words do not give that the earlier call was given (the same `room`)."""
    condition: Condition | None = None
    rate: tuple[float, str, str] | None = None
    """amount, source currency, target currency: the action's amount is amount x the earlier result's rate."""
    amount_field: str | None = None
    currency_field: str | None = None
    pick: tuple[str, str] | None = None
    """("min" or "max", the property that takes the picked item's id)."""
    texts: tuple[str, ...] = ()

    def _results(self, answered: list[Call]) -> list[Call]:
        return [c for c in answered if c.name == self.after and c.result is not None and not c.is_error]

    def unmet(self, answered: list[Call]) -> bool:
        return False

    def calls(self, answered: list[Call]) -> list[tuple[str, dict]]:
        done = self._results(answered)
        if not done:
            return []
        call = done[-1]
        given = {**{k: call.input[k] for k in self.inherited if k in call.input}, **dict(self.fixed)}
        if self.condition is not None:
            value = self.condition.value(call.result or "")
            if value is None or not self._holds(value):
                return []
        if self.rate is not None:
            rate = result_number(call.result or "", "rate курс exchange")
            if rate is None or not self.amount_field:
                return []
            given[self.amount_field] = round(self.rate[0] * rate, 2)
            if self.currency_field:
                given[self.currency_field] = self.rate[2]
        if self.pick is not None:
            chosen = _picked(call.result or "", self.pick[0], self.pick[1])
            if chosen is None:
                return []
            given[self.pick[1]] = chosen
        return [(self.tool, given)]

    def _holds(self, value: float) -> bool:
        assert self.condition is not None
        if self.condition.op == "=":
            return value == self.condition.threshold
        return value < self.condition.threshold if self.condition.op == "<" else value > self.condition.threshold

    def note(self, answered: list[Call], lang: str) -> str | None:
        """What the answer says when the condition did not hold: the action was not done, and why."""
        if self.condition is None:
            return None
        done = self._results(answered)
        if not done:
            return None
        value = self.condition.value(done[-1].result or "")
        asked = self.condition.asked is not None
        if asked and self.condition.words.endswith("?") and (value is None or not self._holds(value)):
            return self._unanswered(lang) if value is None else self._other_answer(lang)
        if (self.condition.state or asked) and (value is None or not self._holds(value)):
            what = (self.condition.state or self.condition.words).strip()
            return (f"Не стал вызывать {self.tool}: по ответу {self.after} условие «{what}» не выполняется (или из "
                    f"него этого не понять), а действие вы просили только в этом случае." if lang == "ru" else
                    f"I did not call {self.tool}: what {self.after} returned does not show that {what}, and you asked "
                    f"for it only in that case.")
        if value is None:
            return (f"Не стал вызывать {self.tool}: в ответе {self.after} не нашёл числа, с которым сравнить "
                    f"{_num(self.condition.threshold)}." if lang == "ru" else
                    f"I did not call {self.tool}: {self.after} returned no number to compare with "
                    f"{_num(self.condition.threshold)}.")
        if self._holds(value):
            return None
        sign = ("ниже" if self.condition.op == "<" else "выше") if lang == "ru" else \
            ("below" if self.condition.op == "<" else "above")
        return (f"Не стал вызывать {self.tool}: значение {_num(value)} не {sign} {_num(self.condition.threshold)}, "
                f"а действие вы просили только в этом случае." if lang == "ru" else
                f"I did not call {self.tool}: the value is {_num(value)}, not {sign} "
                f"{_num(self.condition.threshold)}, and you asked for it only in that case.")


    def _other_answer(self, lang: str) -> str:
        """Why an elliptic condition kept the action back: the question's answer was the other one."""
        assert self.condition is not None
        question, wanted = self.condition.words, self.condition.wanted
        said, other = ("да", "нет") if wanted else ("нет", "да")
        if lang == "ru":
            return (f"Не стал вызывать {self.tool}: судя по ответу {self.after}, на вопрос «{question}» ответ — "
                    f"{other}, а сделать это вы просили, только если ответ — {said}.")
        return (f"I did not call {self.tool}: by what {self.after} returned, the answer to \"{question}\" is "
                f"{'no' if wanted else 'yes'}, and you asked for it only if it was {'yes' if wanted else 'no'}.")

    def _unanswered(self, lang: str) -> str:
        """Why an elliptic condition kept the action back: the result does not answer the question."""
        assert self.condition is not None
        question = self.condition.words
        if lang == "ru":
            return (f"Не стал вызывать {self.tool}: из ответа {self.after} не понять, каков ответ на вопрос "
                    f"«{question}», а действие зависело от него.")
        return (f"I did not call {self.tool}: what {self.after} returned does not answer \"{question}\", and the "
                f"action depended on that answer.")


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _picked(result: str, how: str, prop: str) -> object | None:
    """The id of the listed item with the lowest ("min") or highest price: the item's field named as the property
    (`flight_id`), else one ending like it, else its `id`."""
    try:
        data = json.loads(result)
    except (ValueError, TypeError):
        return None
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    if not isinstance(data, list):
        return None
    priced = []
    if how.startswith("nth:"):
        place = int(how[4:])
        if not data or not (-len(data) <= (place - 1 if place > 0 else place) < len(data)):
            return None
        item = data[place - 1 if place > 0 else place]
        key = next((k for k in (prop, *(k for k in item if prop.endswith(str(k)) or str(k).endswith(prop)), "id")
                    if k in item), None) if isinstance(item, dict) else None
        return item[key] if key is not None else None
    if how in ("latest", "earliest"):
        for item in data:
            order = _order_key(item) if isinstance(item, dict) else None
            key = next((k for k in (prop, *(k for k in item if prop.endswith(str(k)) or str(k).endswith(prop)), "id")
                        if k in item), None) if isinstance(item, dict) else None
            if order is not None and key is not None:
                priced.append((order, item[key]))
        if not priced:
            return None
        return (max if how == "latest" else min)(priced, key=lambda p: p[0])[1]
    for item in data:
        if not isinstance(item, dict):
            continue
        price = next((v for k, v in item.items() if _PRICE_FIELD.search(str(k)) and isinstance(v, (int, float))
                      and not isinstance(v, bool)), None)
        key = next((k for k in (prop, *(k for k in item if prop.endswith(str(k)) or str(k).endswith(prop)), "id")
                    if k in item), None)
        if price is not None and key is not None:
            priced.append((price, item[key]))
    if not priced:
        return None
    return (min if how == "min" else max)(priced, key=lambda p: p[0])[1]


_NEGATED = re.compile(r"^\s*(?:then\s+)?(?:don'?t|do not|never|no need to|не\s+(?!менее|более|меньше|больше)|"
                      r"ничего не)", re.I)


def negated(action: str) -> bool:
    """Whether a conditional's action is a refusal ("…, don't reorder", «…, не заказывай»): then nothing is done."""
    return bool(_NEGATED.match(action))
