"""Numbers written in words, as digits: "six people" -> "6 people", "two hundred and fifty euros" -> "250 euros",
«на четырёх человек» -> «на 4 человек», for slots.py's readers of counts, money and quantities.

Only cardinals are read. A lone "one" stays a word ("the one that ends in .log", "one of them") unless what
it counts follows ("one night"), and a lone «один» stays too: there it is more often a pronoun than a count.
"A dozen" is 12, "three dozen" 36.
"""

import re

_EN_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
             "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
             "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
             "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_RU_STEMS = [  # (stem, value): the case endings follow the stem
    ("одиннадцат", 11), ("двенадцат", 12), ("тринадцат", 13), ("четырнадцат", 14), ("пятнадцат", 15),
    ("шестнадцат", 16), ("семнадцат", 17), ("восемнадцат", 18), ("девятнадцат", 19), ("двадцат", 20),
    ("тридцат", 30), ("сорок", 40), ("пятьдесят", 50), ("пятидесят", 50), ("шестьдесят", 60), ("шестидесят", 60),
    ("семьдесят", 70), ("семидесят", 70), ("восемьдесят", 80), ("восьмидесят", 80), ("девяност", 90),
    ("двест", 200), ("двухсот", 200), ("трист", 300), ("трехсот", 300), ("трёхсот", 300), ("четырест", 400),
    ("четырехсот", 400), ("четырёхсот", 400), ("пятьсот", 500), ("пятисот", 500), ("шестьсот", 600),
    ("семьсот", 700), ("восемьсот", 800), ("девятьсот", 900), ("ста", 100), ("сто", 100),
    ("тысяч", 1000), ("миллион", 1_000_000),
    ("два", 2), ("две", 2), ("двух", 2), ("двум", 2), ("тр", 3), ("четыр", 4), ("четвер", 4),
    ("пят", 5), ("шест", 6), ("сем", 7), ("восем", 8), ("восьм", 8), ("девят", 9), ("десят", 10)]
_RU_WORD = {"два", "две", "двух", "двум", "двумя", "три", "трёх", "трех", "трём", "трем", "тремя", "четыре",
            "четырёх", "четырех", "четырём", "четырем", "четырьмя", "пять", "пяти", "пятью", "шесть", "шести",
            "шестью", "семь", "семи", "семью", "восемь", "восьми", "восемью", "девять", "девяти", "девятью",
            "десять", "десяти", "десятью", "сто", "ста", "сорок", "сорока", "девяносто", "девяноста"}
"""The short Russian numerals whole: a stem as short as «тр» or «сем» would take «трава», «семья»."""

_WORD = re.compile(r"[A-Za-zА-Яа-яЁё]+")
_ONE_OF = re.compile(r"\s+(?:hours?|minutes?|seconds?|day|night|week|month|year|person|guest|adult|child|kid|seat|room|"
                     r"ticket|item|unit|piece|pack|box|bottle|bag|star|passenger|dollar|euro|pound|kilo\w*|mile|table|"
                     r"large|small|medium|extra|copy|serving|pizza|coffee)\b", re.I)
"""What a lone "one" counts when it is a number: "one night", "one large pizza" (not "the one that…")."""
_DOZEN = re.compile(r"\b(?:(a|one)|(\d+))\s+dozen\b", re.I)


def _english(word: str) -> int | None:
    return _EN_UNITS.get(word, _EN_SCALES.get(word))


_RU_COLLECTIVE = {"двое": 2, "трое": 3, "четверо": 4, "пятеро": 5, "шестеро": 6, "семеро": 7, "восьмеро": 8,
                  "девятеро": 9, "десятеро": 10}
"""Collective numerals in the nominative, for people: «двое гостей», «трое взрослых» (their other cases, «на
пятерых», are spoken_values' party sizes)."""


def _russian(word: str) -> int | None:
    if word in _RU_COLLECTIVE:
        return _RU_COLLECTIVE[word]
    if word.startswith("четверг"):
        return None  # a Thursday («в четверг»), not «четверо»
    if word in _RU_WORD or len(word) >= 5:
        for stem, value in _RU_STEMS:
            if word.startswith(stem) and (len(stem) >= 5 or word in _RU_WORD or stem in ("тысяч", "сорок")):
                return value
    return None


def _value(word: str) -> int | None:
    lowered = word.lower()
    return _english(lowered) if lowered.isascii() else _russian(lowered)


def _total(values: list[int]) -> int:
    total, current = 0, 0
    for value in values:
        if value in (100,) and current:
            current *= value
        elif value >= 1000:
            total += (current or 1) * value
            current = 0
        else:
            current += value
    return total + current


def digits(text: str) -> str:
    """The text with each run of number words written as one number in digits ("twenty-five" -> "25",
    "a hundred" -> "100", "a dozen" -> "12", "two thousand five hundred" -> "2500")."""
    text = _spoken_counts(text)
    out: list[str] = []
    position = 0
    tokens = list(_WORD.finditer(text))
    i = 0
    while i < len(tokens):
        token = tokens[i]
        value = _value(token.group(0))
        if value is None:
            i += 1
            continue
        run, values, j = [token], [value], i + 1
        while j < len(tokens):
            gap = text[run[-1].end():tokens[j].start()]
            word = tokens[j].group(0).lower()
            following = _value(word)
            if following is not None and re.fullmatch(r"[ -]", gap):
                run.append(tokens[j])
                values.append(following)
                j += 1
                continue
            if word in ("and", "и") and gap == " " and values[-1] in (100, 1000, 1_000_000) and j + 1 < len(tokens) \
                    and _value(tokens[j + 1].group(0)) is not None \
                    and text[tokens[j].end():tokens[j + 1].start()] == " ":
                run.append(tokens[j + 1])
                values.append(_value(tokens[j + 1].group(0)) or 0)
                j += 2
                continue
            break
        start = run[0].start()
        before = text[max(0, start - 2):start].lower()
        if len(values) == 1 and values[0] in (100, 1000) and before == "a " \
                and (start < 3 or not text[start - 3].isalnum()):
            start -= 2  # "a hundred", "a dozen"
        lone_one = len(values) == 1 and token.group(0).lower() == "one" and not _ONE_OF.match(text, run[-1].end())
        if lone_one or (len(values) == 1 and values[0] in _EN_SCALES.values() and before != "a ") \
                or _in_a_name(text, start, run[-1].end()) or _a_proper_name(text, start, run[-1].end()):
            i = j
            continue
        out.append(text[position:start])
        out.append(str(_total(values)))
        position = run[-1].end()
        i = j
    out.append(text[position:])
    said = _DOZEN.sub(lambda m: str(12 * (int(m.group(2)) if m.group(2) else 1)), "".join(out))
    return _BARE_HOUR.sub(lambda m: f"{m.group(1)}{int(m.group(2))}:00{m.group(3)}", _CLOCK.sub(_clock, said))


def _a_proper_name(text: str, start: int, end: int) -> bool:
    """Whether capitalised number words begin a proper name mid-sentence ("for Two Rivers Co", «в Семь Ветров»)."""
    if not text[start].isupper() or not re.match(r"\s+[A-ZА-ЯЁ][a-zа-яё]", text[end:]):
        return False
    return bool(re.search(r"[\w,:;)]\s+$", text[:start]))  # not the first word of the text or of a sentence


_NAME_JOINT = re.compile(r"[^\W_][._@/][^\W_]")


def _in_a_name(text: str, start: int, end: int) -> bool:
    """Whether the words start:end are part of a name written with dots, @, / or _ ("one-two.io", "eighteen-aaa.com",
    "ten@mail.org", "docs/three"): a host, an address or a path keeps its words as written."""
    left = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    right = min((i for i in (text.find(" ", end), text.find("\n", end)) if i != -1), default=len(text))
    return bool(_NAME_JOINT.search(text[left:right].rstrip(".,!?;:)»\"'")))


_BARE_HOUR = re.compile(r"(\b(?:from|between)\s+|(?<!\w)с\s+)(\d{1,2})(\s+(?:to|till|until|and|до|по)\s+\d{1,2}:\d{2})",
                        re.I)
"""An hour with no minutes that starts a range of clock times: "from 10 to 11:30", «с 10 до 11:30» (10:00)."""


_CLOCK = re.compile(r"\b(half|quarter)\s+(past|to)\s+(\d{1,2})\b(?!:)|"
                    r"\b([1-9]|[1-5]\d)\s+(?:minutes\s+)?(past)\s+(\d{1,2})\b(?!:)", re.I)


def _clock(m: re.Match) -> str:
    """"half past 7" -> "7:30", "quarter to 9" -> "8:45", "10 past 9" -> "9:10"."""
    if m.group(4):  # "10 past 9" -> "9:10"
        return f"{int(m.group(6))}:{int(m.group(4)):02d}"
    hour, minutes = int(m.group(3)), 30 if m.group(1).lower() == "half" else 15
    if m.group(2).lower() == "to":
        hour, minutes = (hour - 1) % 12 or 12, 60 - minutes
    return f"{hour}:{minutes:02d}"


_TOGETHER = {"вдвоём": 2, "вдвоем": 2, "втроём": 3, "втроем": 3, "вчетвером": 4, "впятером": 5, "вшестером": 6,
             "всемером": 7, "ввосьмером": 8}
"""«летим втроём»: how many go together (3 people)."""
_GRADES = re.compile(r"(?<![\w-])(пят[её]рк|четв[её]рк|тройк|двойк)(?:а|у|ой|и|е)?(?![\w-])", re.I)
_GRADE_VALUES = {"пят": 5, "чет": 4, "тро": 3, "дво": 2}
_GRADED = re.compile(r"(?<!\w)(?:постав|оценк|отметк|балл|журнал|получил|получила|исправ|выстав)", re.I)
_KOPECKS = re.compile(r"(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)\s*(руб\w*|р\.|₽)\s*(?:и\s+)?(\d{1,2})\s*"
                      r"(?:коп\w*|к\.)(?!\w)", re.I)
_CENTS = re.compile(r"(?<![\d.,])(\d+)\s*(dollars?|euros?|pounds?)\s*(?:and\s+)?(\d{1,2})\s*(?:cents?|pence|p)\b",
                    re.I)


_SPACES = re.compile("[ \u00a0\u202f]")
_SCALE_WORDS = {"тысяч": 1000, "сот": 100, "сотн": 100, "миллион": 1_000_000, "thousand": 1000, "hundred": 100,
                "million": 1_000_000}
_HALF_MORE = re.compile(r"(?<![\w-])(?:(полтор[аы])|(\d+|[а-яё]+|[a-z]+)\s+(?:с\s+половиной|and\s+a\s+half))\s+"
                        r"(тысяч|сотн|сот|миллион|thousand|hundred|million)(\w*)", re.I)
"""«полторы тысячи» (1500), «полторы сотни» (150), «две с половиной тысячи» (2500), "two and a half thousand"."""


def _half_more(m: re.Match) -> str:
    scale = _SCALE_WORDS[m.group(3).lower()]
    if m.group(1):
        return str(scale * 3 // 2)
    whole = int(m.group(2)) if m.group(2).isdigit() else _value(m.group(2))
    return str(whole * scale + scale // 2) if whole is not None else m.group(0)


def _spoken_counts(text: str) -> str:
    """Counts said without a number: «втроём» (3 человека), a school grade «пятёрку» (5) where the request speaks of
    marks; and money said in two units: «18 400 рублей 50 копеек» is 18400,50 рублей, "12 dollars and 30 cents" is
    12.30 dollars. Not covered: «пара», «десяток», «единица» (too many other meanings)."""
    def together(m: re.Match) -> str:
        n = _TOGETHER[m.group(0).lower()]
        return f"{n} человека" if n < 5 else f"{n} человек"

    text = re.sub(r"(?<![\w-])(?:" + "|".join(_TOGETHER) + r")(?![\w-])", together, text, flags=re.I)
    if _GRADED.search(text):
        text = _GRADES.sub(lambda m: str(_GRADE_VALUES[m.group(1).lower()[:3].replace("ё", "е")]), text)
    text = _HALF_MORE.sub(_half_more, text)
    text = _KOPECKS.sub(lambda m: f"{_SPACES.sub('', m.group(1))},{int(m.group(3)):02d} {m.group(2)}", text)
    return _CENTS.sub(lambda m: f"{m.group(1)}.{int(m.group(3)):02d} {m.group(2)}", text)
