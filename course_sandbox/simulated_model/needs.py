"""Everyday needs, matched to the tool that answers them: "Is it cold in Helsinki right now?" needs a weather tool,
«Сколько стоит доллар?» an exchange rate, "Where can I stay in Lisbon?" a hotel search, though none of them names a
tool. A fallback for automatic tool use when the request's own words fit no tool, or fit one only by a word any
tool could hold ("today" in «Курсы валют на сегодня»).

A bilingual lexicon (_NEEDS_TABLE): for each need, what a person says when they have it (English words, compared by
their stem, and Russian word beginnings; a phrase with spaces is searched as written) and the words a tool for it is
named or described with (English words, compared whole or plural, and Russian beginnings; "!" ends a whole
Russian word). Every offered tool is
scored by the needs it shares with the request: a need in its name counts 3, one only in its description 2. The best
is picked only when it scores 2 or more and beats every other tool by 2 or more; an action is never picked for a
question that only asks to know (side_effects decides). A learner can still tell in advance which tool it will pick.
"""

import re

from . import side_effects
from .everyday import composing
from .tool_roles import ToolSpec
from .words import stem, tokens

_NEEDS_TABLE = """
weather = cold colder chilly freezing frost frosty hot hotter warm warmer coat coats jacket scarf gloves mittens boots \
    hat beanie raincoat umbrella rain rainy snow snowy sunny sunshine windy wind storm stormy foggy humid heatwave \
    degrees weather forecast sunscreen shorts sweater jumper wellies \
    холодн холода холодов холоде мороз морозн тепл жарк жара зонт дожд ливн снег снеж куртк пальт шапк шарф перчатк \
    варежк сапог ветр ветер! погод прогноз солнечн гроза грозы грозой туман градус \
    | weather forecast forecasts conditions meteo precipitation temperature temperatures temp wind humidity \
    погод прогноз метео осадк температур ветер! ветра влажност
time = hour hours clock timezone o'clock midnight late early awake asleep \
    времени врем поздно рано полноч \
    | clock clocks time timezone timezones tz zone local \
    часов пояс
fx = dollar dollars euro euros yen pound rouble roubles ruble rubles yuan franc currency currencies exchange usd eur \
    gbp jpy rub cny \
    доллар евро рубл юан иен фунт франк валют обмен \
    | exchange currency currencies fx forex rate rates \
    валют курс обмен
translation = translate translation italian spanish french german chinese japanese portuguese polish dutch turkish \
    arabic korean greek \
    по-испанск по-английск по-французск по-немецк по-итальянск по-китайск по-японск по-португальск \
    по-польск по-турецк \
    | translate translation translator translates language languages \
    перев язык
stocks = shares share ticker nasdaq nyse portfolio trading \
    акци бирж котировк торгу \
    | stock stocks share shares ticker tickers equity equities \
    акци котировк бирж
calendar = free busy calendar agenda diary meetings \
    свобод занят календар встреч планы \
    | calendar availability busy slots agenda schedule \
    календар свобод окн
reminders = remind reminder reminders forget \
    напомн напоминан забыть забуду \
    | remind reminder reminders \
    напомн напоминан
news = news headlines happening world latest \
    новост событи мире \
    | news headlines articles \
    новост
directions = drive driving walk walking route directions far distance commute journey \
    добрат доехат дойти доех ехать езды ехат маршрут далеко расстояни \
    | directions route routes routing distance navigation travel journey eta \
    маршрут расстояни навигац добрат поездк
restaurants = hungry starving eat bite restaurant restaurants cafe diner sushi pizza burger brunch takeaway \
    поесть поест голод ресторан кафе! кафешк перекус пообедать поужинать позавтракать суши пицц \
    | restaurant restaurants cafe cafes cafés dining eatery eateries cuisine \
    ресторан кафе поесть
hotels = stay hotel hotels hostel overnight accommodation motel room rooms \
    переночев ночлег гостиниц отел хостел остановит жильё жилье \
    | hotel hotels accommodation lodging hostel motel rooms \
    гостиниц отел жиль ночлег
rides = taxi taxis cab cabs uber lyft ride chauffeur \
    такси трансфер водител подвез подвезт \
    | taxi taxis cab cabs ride rides driver drivers chauffeur \
    такси трансфер водител
flights = fly flying flight flights plane airline airfare \
    лететь полет полёт рейс самолет самолёт перелет перелёт авиабилет улет улетет \
    | flight flights airline airlines airfare \
    рейс авиа перелёт перелет
parcels = parcel package shipment tracking delivery courier shipped arrived \
    посылк отправлени трек доставк курьер \
    | tracking shipment shipments parcel parcels package packages delivery deliveries courier \
    посылк отправлен трек доставк
money = money balance afford broke savings budget \
    денег деньг баланс бюджет накоплен \
    | balance balances budget \
    баланс
spending = spent spend spending expenses transactions \
    потрат трат расход \
    | spending expenses transactions \
    расход трат
recipes = cook cooking bake baking recipe recipes \
    приготов рецепт испеч свар пожар \
    | recipe recipes cooking dish dishes \
    рецепт блюд
music = song songs music listen playlist album band singer \
    песн музык послуша альбом певиц певец \
    | music song songs album albums artist artists playlist \
    музык песн
movies = movie movies film films cinema cinemas showtimes \
    кино фильм сеанс кинотеатр афиш \
    | movie movies film films cinema cinemas showtimes \
    кино фильм сеанс афиш
sports = win won lose beat score scores match game played \
    сыграл выиграл проиграл победил матч игра \
    | score scores match matches results sports team teams \
    матч спорт
definitions = mean meaning means definition define \
    значит значени определени толкован \
    | definition definitions define dictionary meaning \
    толков словар значени
units = miles mile kilometres kilometers km feet foot inches inch centimetres centimeters cm kilos kilo kg \
    lbs ounces ounce grams litres liters gallons gallon fahrenheit celsius convert \
    сантиметр метр! метра метров метре километр фут дюйм миль килограм грамм литр галлон \
    | convert conversion unit units measurement measurements \
    единиц конверт
nutrition = calories calorie protein carbs fat sugar nutrition kcal \
    калори белк жир углевод ккал \
    | calories nutrition nutrients nutritional protein macros \
    калори питательн белк
health = sore fever headache cough ache aches hurts pain symptom symptoms nausea dizzy rash throat \
    болит боль температур кашель кашля тошнит голов горло насморк сыпь симптом заболел простуд \
    | symptom symptoms health medical diagnosis doctor doctors clinic physician gp \
    симптом здоров медицин врач доктор клиник поликлиник терапевт
transit = bus buses tram trams metro subway train trains underground stop station \
    автобус трамва метро! электричк поезд маршрутк остановк станци \
    | bus buses tram trams transit departures train trains metro \
    автобус трамва электричк поезд! поезда поездов пригородн метро!
air = air smog pollution polluted aqi smoke \
    воздух смог загрязн дым \
    | air aqi pollution \
    воздух загрязн
roads = icy ice slippery gritted gritting snowplough snowplow roads road motorway highway \
    гололёд гололед гололедиц скользк дорог трасс \
    | road roads highway highways motorway \
    дорог трасс
traffic = traffic jam jams jammed congestion congested gridlock \
    пробк затор загруженн \
    | traffic congestion \
    пробк загруженн
"""
"""One need a line: `name = what a person says | what a tool for it is named or described with`."""


_NEEDS: list[tuple[str, frozenset[str], tuple[str, ...], re.Pattern, frozenset[str], tuple[str, ...]]] = []


def _load() -> None:
    for line in re.split(r"\n(?=\w+ = )", _NEEDS_TABLE.replace("\\\n", " ").strip()):
        name, rest = line.split(" = ", 1)
        said, tool_words = rest.split(" | ")
        singles = said.split()
        english = frozenset(stem(w) for w in singles if w.isascii())
        russian = tuple(w for w in singles if not w.isascii())
        phrases = re.compile("|".join(f"(?:{p})" for p in _PHRASES.get(name, ())) or r"(?!x)x", re.I)
        tools = tool_words.split()
        _NEEDS.append((name.strip(), english, russian, phrases, frozenset(w for w in tools if w.isascii()),
                       tuple(w for w in tools if not w.isascii())))


_CODE = r"(?-i:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{1,4}\b"
"""A flight's code as written on a ticket: BA283, LH 400, U2 8123 (its letters in capitals)."""
_PHRASES = {
    "time": (r"\bwhat time\b", r"\bwhat'?s the time\b", r"(?<!\w)который час", r"(?<!\w)сколько (?:сейчас )?времени"),
    "translation": (r"\bhow (?:do|would|can) (?:you|i|we) say\b", r"\bhow to say\b", r"\bwhat'?s the word for\b",
                    r"\bwhat is [\"'«“]?[\w' -]+[\"'»”]? in [A-Z]?[a-z]+ish\b",
                    r"(?<!\w)как (?:будет|сказать|по-[а-яё]+)"),
    "directions": (r"\bget (?:to|from)\b", r"\bhow (?:long|far)\b", r"(?<!\w)как (?:добраться|доехать|дойти)"),
    "calendar": (r"\bam i (?:free|busy|booked)\b", r"\banything on\b", r"(?<!\w)свобод(?:ен|на) ли я"),
    "stocks": (r"\bstock price\b", r"\bshare price\b", r"\bstock market\b"),
    "flights": (r"\b" + _CODE + r"[^.?!]{0,40}\b(?:late|on time|delayed|land|depart|leave)\w*",
                r"\b(?:late|on time|delayed)\b[^.?!]{0,40}\b" + _CODE,
                r"(?<!\w)" + _CODE + r"[^.?!]{0,40}(?:опоздает|опаздывает|вовремя|задерж|вылет|прилет|прилёт)"),
    "news": (r"\bwhat'?s (?:new|happening|going on)\b", r"(?<!\w)что (?:нового|происходит|случилось)"),
    "spending": (r"\bhow much (?:did|have|do) (?:i|we) (?:spend|spent|pay|paid)\b",
              r"(?<!\w)сколько (?:я |мы )?(?:потратил|потратила|потратили|трачу|тратим|ушло)"),
}
"""Needs said by a phrase ("how do you say", «как добраться», "is BA283 going to be late?") rather than a word."""
_load()


def said(text: str) -> dict[str, int]:
    """The needs the request says it has, each with its weight: 2 when a phrase says it ("is BA283 going to be
    late?" is about a flight more than about the hour), 1 when a word does."""
    words = tokens(text)
    found = {}
    for name, english, russian, phrases, _, _ in _NEEDS:
        if phrases.search(text):
            found[name] = 2
        elif any(stem(w) in english for w in words if w.isascii()) or any(
                _begins(w, r) for w in words if not w.isascii() for r in russian):
            found[name] = 1
    if found.get("spending") == 2:  # "how much did I spend on restaurants": the restaurants are what was spent on
        return {"spending": 2}
    return found


def _begins(word: str, start: str) -> bool:
    """Whether a Russian word begins with the lexicon's beginning (ё read as е); a beginning with "!" is a whole word
    («метро!» is no «метров»)."""
    word, start = word.replace("ё", "е"), start.replace("ё", "е")
    return word == start[:-1] if start.endswith("!") else word.startswith(start)


def _serves(english: frozenset[str], russian: tuple[str, ...], where: str) -> bool:
    """Whether the tool's name or description (`where`) holds one of a need's tool words."""
    words = tokens(where)
    return any(w in english or (w.endswith("s") and w[:-1] in english) for w in words if w.isascii()) or any(
        _begins(w, r) for w in words if not w.isascii() for r in russian)


def _score(tool: ToolSpec, needs: dict[str, int]) -> int:
    total = 0
    for name, _, _, _, english, russian in _NEEDS:
        if name not in needs:
            continue
        if _serves(english, russian, tool.name):
            total += 3 * needs[name]
        elif _serves(english, russian, tool.description or ""):
            total += 2 * needs[name]
    return total


PICK = 2
"""The score the best tool needs, and its margin over every other."""


def serves_none(tool: ToolSpec, text: str) -> bool:
    """Whether the request says a need and the tool serves none of the needs it says."""
    needs = said(text)
    return bool(needs) and _score(tool, needs) == 0


def pick(tools: list[ToolSpec], text: str) -> ToolSpec | None:
    """The one tool for the need the request says, or None when none clearly is; never an action the request does
    not ask for."""
    needs = said(text)
    if not needs or not tools or composing(text):  # "a poem about rain" is no question for a weather tool
        return None
    scored = sorted(((_score(t, needs), i, t) for i, t in enumerate(tools)), key=lambda x: (-x[0], x[1]))
    best, _, tool = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0
    if best < PICK or best - runner_up < PICK:
        return None
    if side_effects.action(tool) is not None and not side_effects.asked(tool, text):
        return None
    return tool
