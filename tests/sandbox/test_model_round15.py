"""Round 15 of the simulated model (issue #37, stop 66): automatic tool use for everyday needs. With two to four tools
on offer and tool_choice auto (or absent), a question that names no tool ("Is it cold in Helsinki right now?",
«Сколько стоит доллар?») reaches the tool whose own name and description say what that need is answered with, in
tools written in other people's styles (getCurrentWeather, weather_lookup, fetch_forecast, descriptions in Russian),
with the values the question gives; nothing fits, honest text and no call; a question that only asks to know never
runs an action. Properties compose a question from a need's everyday words and a tool from that need's tool words.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
N = {"type": "number"}
D = {"type": "string", "format": "date"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def opt(name: str, description: str, props: dict, required: list[str] | None = None) -> dict:
    """A tool whose inputs are optional unless `required` says otherwise: a question may leave them out."""
    return tool(name, description, props, [] if required is None else required)


# tools in other people's styles, one need each
WEATHER_EN = tool("getCurrentWeather", "Returns current conditions (temperature, wind, precipitation) for a city.",
                  {"city": S})
WEATHER_LOOKUP = tool("weather_lookup", "Look up temperature and conditions for a location.", {"location": S})
FORECAST_RU = tool("fetch_forecast", "Прогноз погоды на несколько дней для города.", {"city": S})
CLOCK = tool("world_clock", "Current local time in a given IANA time zone.", {"tz": S})
CLOCK_RU = tool("tz_now", "Текущее время в часовом поясе.", {"zone": S})
FX = tool("getExchangeRate", "Exchange rate between two currencies.", {"base": S, "quote": S})
FX_RU = opt("currency_rates", "Курсы валют на сегодня.", {"base": S, "quote": S})
TRANSLATE = tool("translateText", "Translate a text into a target language.", {"text": S, "target_lang": S})
TRANSLATE_RU = tool("perevodchik", "Перевести фразу на другой язык.", {"text": S, "target": S})
STOCK = tool("get_stock_quote", "Latest share price for a ticker symbol.", {"symbol": S})
STOCK_RU = opt("market_price", "Котировки акций на бирже.", {"ticker": S})
CALENDAR = opt("check_availability", "Free/busy slots in the user's calendar for a date.", {"date": D})
CALENDAR_RU = opt("calendar_free_slots", "Свободные окна в календаре на день.", {"date": D})
REMINDER = tool("create_reminder", "Set a reminder for the user.", {"text": S, "when": S})
NEWS = opt("get_headlines", "Top news headlines, optionally on a topic.", {"topic": S})
NEWS_RU = opt("novosti_dnya", "Свежие новости по теме.", {"topic": S})
DIRECTIONS = tool("get_directions", "Route and travel time between two places.", {"origin": S, "destination": S})
ROUTE_RU = tool("route_planner", "Построить маршрут из точки А в точку Б.", {"origin": S, "destination": S})
FOOD = opt("find_restaurants", "Search restaurants and cafes near a place, by cuisine.", {"near": S, "cuisine": S},
           ["near"])
FOOD_RU = opt("search_places_to_eat", "Кафе и рестораны поблизости.", {"near": S})
HOTELS = opt("search_hotels", "Find hotel rooms in a city.", {"city": S, "check_in": D}, ["city"])
HOTELS_RU = opt("hotel_search", "Поиск гостиниц в городе.", {"city": S}, ["city"])
FLIGHTS = opt("flight_search", "Search flights between two cities on a date.", {"origin": S, "destination": S,
                                                                               "date": D}, ["origin", "destination"])
PARCEL = tool("track_shipment", "Tracking events for a tracking number.", {"tracking_number": S})
PARCEL_RU = tool("parcel_status", "Где сейчас отправление по трек-номеру.", {"track": S})
BALANCE = opt("get_account_balance", "Current balance of the user's bank account.", {})
SPENDING = opt("spending_summary", "Расходы по категориям за месяц.", {"month": S})
RECIPES = opt("recipe_finder", "Find recipes that use the given ingredients.", {"ingredients": S})
RECIPES_RU = opt("poisk_receptov", "Рецепты блюд из заданных продуктов.", {"ingredients": S})
MUSIC = opt("search_tracks", "Search songs by artist or title.", {"query": S})
MOVIES = opt("movie_showtimes", "Showtimes for films at cinemas in a city.", {"city": S, "movie": S}, ["city"])
MOVIES_RU = opt("kinoafisha", "Афиша кинотеатров: сеансы фильмов.", {"city": S})
SCORES = opt("live_scores", "Latest match results and scores for a team.", {"team": S}, ["team"])
DEFINE = tool("define_word", "Dictionary definition of a word.", {"word": S})
DEFINE_RU = tool("tolkovy_slovar", "Толкование слова по словарю.", {"word": S})
UNITS = opt("convert_units", "Convert a value from one unit of measurement to another.",
            {"value": N, "from_unit": S, "to_unit": S})
NUTRITION = opt("nutrition_facts", "Calories, protein, fat and carbs of a food.", {"food": S}, ["food"])
SYMPTOMS = opt("symptom_checker", "Possible causes of the symptoms a person describes.", {"symptoms": S})
TRANSIT = opt("next_departures", "Next buses and trams from a stop.", {"stop": S})
TRAINS_RU = opt("raspisanie_elektrichek", "Расписание электричек до станции.", {"station": S})
AIR = opt("air_quality_index", "Air quality (AQI) for a city.", {"city": S}, ["city"])
TRAFFIC = opt("traffic_conditions", "Current traffic congestion on a road.", {"road": S})
TRAFFIC_RU = opt("probki", "Загруженность дорог: пробки сейчас.", {"road": S})

# (question, the offered tools, the tool wanted (the first offered, always), values it must take; None: the tool
# needs a value the question does not give, and asks for it)
FRESH = [
    ("Is it cold in Helsinki right now?", [WEATHER_EN, STOCK, TRANSLATE], {"city": "Helsinki"}),
    ("Do I need a coat in Boston tomorrow?", [WEATHER_LOOKUP, FOOD], {"location": "Boston"}),
    ("Will it be hot in Madrid on Saturday?", [FORECAST_RU, HOTELS, NEWS], {"city": "Madrid"}),
    ("What hour is it in Tokyo?", [CLOCK, WEATHER_EN], {}),
    ("How many yen do I get for a dollar?", [FX, UNITS, STOCK], {}),
    ("How do you say 'good morning' in Italian?", [TRANSLATE, DEFINE], {}),
    ("How are TSLA shares doing today?", [STOCK, NEWS], {"symbol": "TSLA"}),
    ("Am I free on Thursday afternoon?", [CALENDAR, REMINDER], {}),
    ("What's happening in the world today?", [NEWS, WEATHER_EN, CLOCK], {}),
    ("How long is the drive from Leeds to York?", [DIRECTIONS, HOTELS], {}),
    ("I'm starving, where can I grab a bite near Soho?", [FOOD, MUSIC, UNITS], {}),
    ("Where can I stay in Lisbon next weekend?", [HOTELS, FLIGHTS], {"city": "Lisbon"}),
    ("Can I fly from Berlin to Rome on Friday?", [FLIGHTS, HOTELS, WEATHER_EN], {}),
    ("My headphones haven't shown up yet, tracking 1Z999AA10123456784 - any news?", [PARCEL, BALANCE], {}),
    ("How much money have I got left this month?", [BALANCE, RECIPES], {}),
    ("What can I cook with eggs and spinach?", [RECIPES, MOVIES], {}),
    ("What's on at the cinema in Leeds tonight?", [MOVIES, SCORES], {"city": "Leeds"}),
    ("Did Arsenal win last night?", [SCORES, MOVIES, DEFINE], {"team": "Arsenal"}),
    ("How many miles is 10 kilometres?", [UNITS, FX], {}),
    ("My throat is sore and I have a fever - what could it be?", [SYMPTOMS, NUTRITION], {}),
    ("When's the next tram from Central Station?", [TRANSIT, FLIGHTS], {}),
    ("Is the air safe for a run in Delhi today?", [AIR, WEATHER_EN], {"city": "Delhi"}),
    ("Is the M25 jammed right now?", [TRAFFIC, DIRECTIONS], {}),
    ("Холодно сегодня в Мурманске?", [FORECAST_RU, FX_RU, TRANSLATE], {"city": "Мурманск"}),
    ("Нужна ли в Питере куртка на выходных?", [WEATHER_LOOKUP, FOOD_RU], {"location": "Питер"}),
    ("Сколько сейчас времени в Нью-Йорке?", [CLOCK_RU, WEATHER_LOOKUP], {}),
    ("Сколько стоит доллар?", [FX_RU, STOCK_RU], {}),
    ("Как по-испански будет «спасибо»?", [TRANSLATE_RU, DEFINE_RU], {}),
    ("Почём сейчас акции Сбера?", [STOCK_RU, FX_RU], {}),
    ("Свободен ли я в пятницу после обеда?", [CALENDAR_RU, REMINDER], {}),
    ("Что нового в мире?", [NEWS_RU, FORECAST_RU], {}),
    ("Как добраться от Московского вокзала до Эрмитажа?", [ROUTE_RU, HOTELS_RU], {}),
    ("Где поесть рядом с Арбатом?", [FOOD_RU, RECIPES_RU], {}),
    ("Где переночевать в Казани?", [HOTELS_RU, ROUTE_RU], {"city": "Казань"}),
    ("Сколько я потратил в этом месяце?", [SPENDING, NEWS_RU], {}),
    ("Что приготовить из курицы и риса?", [RECIPES_RU, FOOD_RU], {}),
    ("Что идёт в кино сегодня вечером в Перми?", [MOVIES_RU, SCORES], {"city": "Пермь"}),
    ("Как сыграл вчера «Спартак»?", [SCORES, NEWS_RU], {}),
    ("Что значит слово «эмпатия»?", [DEFINE_RU, TRANSLATE_RU], {"word": "эмпатия"}),
    ("Сколько сантиметров в одном футе?", [UNITS, FX_RU], {}),
    ("Сколько калорий в гречке?", [NUTRITION, RECIPES_RU], None),
    ("Когда ближайшая электричка до Клина?", [TRAINS_RU, FLIGHTS], {}),
    ("Можно ли сегодня гулять с ребёнком в Челябинске, воздух нормальный?", [AIR, TRAFFIC_RU], {"city": "Челябинск"}),
    ("Большие сейчас пробки на МКАД?", [TRAFFIC_RU, ROUTE_RU], {}),
    ("Где сейчас моя посылка RA123456789RU?", [PARCEL_RU, SPENDING], {}),
    ("Горло болит и температура, что это может быть?", [SYMPTOMS, NUTRITION], {}),
]


@pytest.mark.parametrize("question, tools, values", FRESH, ids=[q for q, _, _ in FRESH])
def test_an_everyday_question_reaches_the_tool_for_its_need(client, question, tools, values):
    for order in (tools, tools[::-1]):
        response = ask(client, question, order)
        calls = uses(response)
        if values is None:  # the tool's required value is not one the question gives: it is asked for, by the tool
            assert not calls and tools[0]["name"] in text_of(response), (question, calls, text_of(response))
            continue
        assert [name for name, _ in calls] == [tools[0]["name"]], (question, calls, text_of(response))
        (_, tool_input), = calls
        assert validates(tools[0], tool_input)
        assert values.items() <= tool_input.items(), tool_input


# (question, offered tools none of which is for its need)
NO_FIT = [
    ("Is it cold in Helsinki right now?", [STOCK, TRANSLATE]),
    ("Do I need a coat in Boston tomorrow?", [FOOD, HOTELS]),
    ("What hour is it in Tokyo?", [FX, NEWS]),
    ("How many yen do I get for a dollar?", [UNITS, RECIPES]),
    ("Am I free on Thursday afternoon?", [STOCK, PARCEL]),
    ("How long is the drive from Leeds to York?", [HOTELS, NUTRITION]),
    ("What can I cook with eggs and spinach?", [MOVIES, TRAFFIC]),
    ("Did Arsenal win last night?", [DEFINE, AIR]),
    ("How many calories are in a banana?", [SCORES, CLOCK]),
    ("When's the next tram from Central Station?", [SPENDING, TRANSLATE]),
    ("Холодно сегодня в Мурманске?", [FX_RU, TRANSLATE_RU]),
    ("Сколько стоит доллар?", [RECIPES_RU, MOVIES_RU]),
    ("Свободен ли я в пятницу после обеда?", [STOCK_RU, HOTELS_RU]),
    ("Что нового в мире?", [UNITS, CALENDAR_RU]),
    ("Как добраться от Московского вокзала до Эрмитажа?", [NUTRITION, DEFINE_RU]),
    ("Где поесть рядом с Арбатом?", [CLOCK_RU, FX_RU]),
    ("Сколько калорий в гречке?", [TRAFFIC_RU, SCORES]),
    ("Что значит слово «эмпатия»?", [FORECAST_RU, PARCEL_RU]),
    ("Расскажи анекдот про программистов.", [FORECAST_RU, FX_RU, NEWS_RU]),
    ("Write a limerick about a cold cat.", [WEATHER_EN, RECIPES]),
]


@pytest.mark.parametrize("question, tools", NO_FIT, ids=[q for q, _ in NO_FIT])
def test_a_question_no_offered_tool_is_for_gets_text(client, question, tools):
    response = ask(client, question, tools)
    assert not uses(response) and response.stop_reason == "end_turn", (question, uses(response))
    assert text_of(response)


# a question that only asks to know, with an action of the same need on offer: the action is never run
KNOW_ONLY = [
    ("Do I have anything on Friday?", [REMINDER, CALENDAR], "check_availability"),
    ("Have I set any reminders for tomorrow?", [REMINDER], None),
    ("Is a room free in Riga on 2026-12-20?", [tool("book_hotel_room", "Book a hotel room in a city.", {"city": S}),
                                                HOTELS], "search_hotels"),
    ("Сколько у меня денег на карте?", [tool("pay_bill", "Оплатить счёт с карты.", {"amount": N}), BALANCE],
     "get_account_balance"),
]


@pytest.mark.parametrize("question, tools, wanted", KNOW_ONLY, ids=[q for q, _, _ in KNOW_ONLY])
def test_a_question_to_know_runs_no_action(client, question, tools, wanted):
    calls = [name for name, _ in uses(ask(client, question, tools))]
    assert calls == ([wanted] if wanted else []), (question, calls)


# --- A. a question that only asks to look acts on nothing, and its status words filter the listing --------------

BILLS = [{"invoice_id": "INV-1", "status": "overdue", "amount": 120}, {"invoice_id": "INV-2", "status": "paid",
                                                                        "amount": 80}]
LOOKS = [("Which of my bills are past due?", "overdue"), ("Какие счета просрочены?", "overdue"),
         ("Do I have any overdue invoices?", "overdue"), ("Show me my unpaid bills.", "open"),
         ("Какие у меня неоплаченные счета?", "open"), ("Any invoices still past due this month?", "overdue")]
DESTROYERS = [("void_invoice", "Void an invoice."), ("delete_invoice", "Delete an invoice permanently."),
              ("cancel_invoice", "Cancel an invoice."), ("scrap_invoice", "Scrap an invoice for good."),
              ("annul_invoice", "Аннулировать счёт."), ("invoice_void", "Voids the invoice.")]


def _bills(name, tool_input):
    return (json.dumps(BILLS), False) if name == "list_invoices" else ("done", False)


@PROPERTY
@given(look=st.sampled_from(LOOKS), destroyer=st.sampled_from(DESTROYERS), first=st.booleans(),
       options=st.sampled_from([["draft", "open", "paid", "overdue"], ["overdue", "open", "paid"]]))
def test_property_a_look_only_question_lists_and_acts_on_nothing(client, look, destroyer, first, options):
    said, status = look
    lister = tool("list_invoices", "List invoices, optionally filtered by status.",
                  {"status": {"type": "string", "enum": options}}, [])
    tools = [lister, tool(*destroyer, {"invoice_id": S})]
    final, responses = drive(client, said, tools if first else tools[::-1], _bills)
    calls = [c for r in responses for c in uses(r)]
    assert calls == [("list_invoices", {"status": status})], (said, destroyer, calls)
    assert final.stop_reason == "end_turn"


@pytest.mark.parametrize("said", ["List my invoices, then void the overdue ones.",
                                  "Покажи счета и аннулируй просроченные."])
def test_control_an_asked_destroyer_still_acts_on_the_listed_match(client, said):
    tools = [tool("list_invoices", "List invoices.", {}, []),
             tool("void_invoice" if said.isascii() else "annul_invoice", "Void an invoice.", {"invoice_id": S})]
    _, responses = drive(client, said, tools, _bills)
    acted = [i for r in responses for n, i in uses(r) if n != "list_invoices"]
    assert acted == [{"invoice_id": "INV-1"}], (said, acted)


# --- D. a need said by its gear, a flight code or a language ---------------------------------------------------

FLIGHT_STATUS = tool("flight_status", "Current status of a flight.", {"flight": S})
GET_WEATHER = tool("get_weather", "Get the current weather in a given location.", {"location": S})
TRANSLATOR = tool("translate", "Translate text to a target language.", {"text": S, "target_language": S})
GEAR = [("Will I need gloves in Chicago tonight?", [GET_WEATHER, FLIGHT_STATUS], {"location": "Chicago"}),
        ("Should I bring boots to Oslo tomorrow?", [GET_WEATHER, TRANSLATOR], {"location": "Oslo"}),
        ("Нужна ли шапка в Омске?", [GET_WEATHER, TRANSLATOR], {"location": "Омск"}),
        ("Is BA283 going to be late?", [FLIGHT_STATUS, GET_WEATHER], {"flight": "BA283"}),
        ("Will LH 400 be on time?", [FLIGHT_STATUS, GET_WEATHER], {"flight": "LH400"}),
        ("SU1402 опоздает?", [FLIGHT_STATUS, GET_WEATHER], {"flight": "SU1402"}),
        ("What's 'cheese' in French?", [TRANSLATOR, GET_WEATHER], {"text": "cheese", "target_language": "French"}),
        ("Как будет «спасибо» по-японски?", [TRANSLATOR, GET_WEATHER], {"text": "спасибо",
                                                                       "target_language": "Japanese"}),
        ("Как по-итальянски «до свидания»?", [TRANSLATOR, GET_WEATHER], {"text": "до свидания",
                                                                          "target_language": "Italian"})]


@pytest.mark.parametrize("question, tools, values", GEAR, ids=[q for q, _, _ in GEAR])
def test_gear_a_flight_code_or_a_language_says_the_need(client, question, tools, values):
    assert uses(ask(client, question, tools)) == [(tools[0]["name"], values)]


# --- properties: a question composed from a need's words reaches a tool made of that need's words ----------------

NEED_WORDS = {  # need: (questions, nouns a tool for it is named with, its descriptions in English and Russian)
    "weather": (["Is it freezing outside today?", "Do I need an umbrella tomorrow?", "Will it be sunny at the weekend?",
                 "Будет ли снег на выходных?", "Холодно ли сейчас на улице?"],
                ["weather", "forecast", "conditions"], ["Current weather conditions for a place.",
                                                        "Прогноз погоды по городу."]),
    "fx": (["How many euros is a dollar today?", "What's the pound worth in yen?", "Какой сейчас курс евро?",
            "Сколько стоит юань?"], ["exchange_rate", "currency", "fx_rate"],
           ["Currency exchange rates.", "Курс обмена валют."]),
    "time": (["What time is it in Sydney?", "Который час в Токио?"], ["clock", "timezone", "local_time"],
             ["Local time in a time zone.", "Местное время в часовом поясе."]),
    "translation": (["How do you say 'bread' in Spanish?", "Как по-французски «хлеб»?"], ["translation", "translator"],
                    ["Translate text between languages.", "Перевод текста на другой язык."]),
    "hotels": (["Where can I stay in Porto?", "Где переночевать в Твери?"], ["hotels", "accommodation"],
               ["Search hotels in a city.", "Поиск гостиниц в городе."]),
    "restaurants": (["I'm hungry, any sushi nearby?", "Где бы поесть недалеко?"], ["restaurants", "dining"],
                    ["Restaurants near a place.", "Рестораны и кафе рядом."]),
    "movies": (["Which films are on at the cinema tonight?", "Какие фильмы идут в кино?"],
               ["showtimes", "movies", "cinema"], ["Film showtimes at nearby cinemas.", "Сеансы в кинотеатрах."]),
    "news": (["What's new in the world?", "Что нового в мире?"], ["headlines", "news"],
             ["Latest news headlines.", "Свежие новости."]),
    "traffic": (["Is there much traffic on the A1?", "Есть ли пробки на Садовом?"], ["traffic"],
                ["Road congestion right now.", "Пробки на дорогах."]),
    "air": (["How polluted is the air in Delhi?", "Какой сейчас воздух в Москве?"], ["air_quality", "aqi"],
            ["Air pollution index.", "Качество воздуха."]),
    "nutrition": (["How many calories are in an apple?", "Сколько белка в твороге?"], ["nutrition", "calories"],
                  ["Nutrition facts for a food.", "Калорийность продуктов."]),
    "definitions": (["What does 'serendipity' mean?", "Что значит «ностальгия»?"], ["dictionary", "definition"],
                    ["Definitions of words.", "Толковый словарь."]),
    "sports": (["Did Chelsea win yesterday?", "Как сыграл «Зенит»?"], ["scores", "match_results"],
               ["Football match results.", "Результаты матчей."]),
    "units": (["How many inches is 30 centimetres?", "Сколько метров в миле?"], ["unit_converter", "conversion"],
              ["Convert between units of measure.", "Конвертер единиц измерения."]),
}
STYLES = ["get_{}", "fetch_{}", "{}_lookup", "{}", "get{}", "lookup{}"]


@st.composite
def need_tool(draw, need: str) -> dict:
    """A reader for the need, named and described in one of several styles."""
    _, nouns, descriptions = NEED_WORDS[need]
    noun, style = draw(st.sampled_from(nouns)), draw(st.sampled_from(STYLES))
    camel = "".join(part.capitalize() for part in noun.split("_"))
    name = style.format(camel if "{}" in style and not style.startswith("{}") and "_" not in style else noun)
    return opt(name, draw(st.sampled_from(descriptions)), {"query": S})


@st.composite
def need_case(draw, own: bool) -> tuple[str, dict | None, list[dict]]:
    """A question of one need, and tools of other needs (and, when `own`, one tool for it among them)."""
    need = draw(st.sampled_from(sorted(NEED_WORDS)))
    others = draw(st.lists(st.sampled_from(sorted(set(NEED_WORDS) - {need})), min_size=1, max_size=3, unique=True))
    question = draw(st.sampled_from(NEED_WORDS[need][0]))
    rivals = [draw(need_tool(other)) for other in others]
    mine = draw(need_tool(need)) if own else None
    tools = rivals + [mine] if mine else rivals
    shift = draw(st.integers(0, 3)) % len(tools)
    return question, mine, tools[shift:] + tools[:shift]


@PROPERTY
@given(case=need_case(own=True))
def test_property_a_need_reaches_its_tool_in_any_style(client, case):
    question, mine, tools = case
    if len({t["name"] for t in tools}) < len(tools):
        return
    calls = uses(ask(client, question, tools))
    assert [name for name, _ in calls] == [mine["name"]], (question, [t["name"] for t in tools], calls)


@PROPERTY
@given(case=need_case(own=False))
def test_property_no_tool_of_the_need_no_call(client, case):
    question, _, tools = case
    response = ask(client, question, tools)
    assert not uses(response), (question, [t["name"] for t in tools], uses(response))
    assert response.stop_reason == "end_turn" and text_of(response)


# --- G. files listed, then the ones changed before a date deleted: no reviewer, no guessed target -----------------

FILES = [{"path": "/data/a.csv", "modified": "2026-10-15"}, {"path": "/data/b.csv", "modified": "2026-11-20"},
         {"path": "/data/c.csv", "modified": "2026-09-01T10:00:00Z"}]
LISTERS = [("list_directory", "List files in a directory with their size and time of last changes."),
           ("list_files", "Список файлов каталога с датой изменения."), ("list_files", "List the files in a folder.")]
DELETERS = [("delete_file", "Delete a file."), ("delete_file", "Удалить файл."), ("remove_file", "Remove a file.")]
BEFORE = ["List the files in /data, then delete the ones modified before 2026-11-01.",
          "Покажи файлы в /data и удали те, что изменены раньше 2026-11-01.",
          "Show the files in /data and delete those that were changed before 2026-11-01."]


def _files(name, tool_input):
    return (json.dumps(FILES), False) if name.startswith("list") else ("deleted", False)


@PROPERTY
@given(lister=st.sampled_from(LISTERS), deleter=st.sampled_from(DELETERS), said=st.sampled_from(BEFORE))
def test_property_files_changed_before_a_date_are_deleted_and_no_others(client, lister, deleter, said):
    tools = [tool(*lister, {"path": S}), tool(*deleter, {"path": S})]
    final, responses = drive(client, said, tools, _files)
    calls = [c for r in responses for c in uses(r)]
    assert calls == [(lister[0], {"path": "/data"}), (deleter[0], {"path": "/data/a.csv"}),
                     (deleter[0], {"path": "/data/c.csv"})], (said, calls)
    assert "!2026" not in text_of(final) and final.stop_reason == "end_turn"


# --- K. one weak shared word picks no tool; H. a condition on the result's number --------------------------------

PLUG = tool("get_plug_status", "Status of a smart plug: on/off and power draw.", {"plug_id": S})


@pytest.mark.parametrize("said", ["Get me a taxi to the airport.", "Book a taxi to the airport for 6am.",
                                  "Закажи такси в аэропорт."])
@pytest.mark.parametrize("tools", [[PLUG, GET_WEATHER], [tool("set_thermostat", "Set the temperature.",
                                                               {"degrees": {"type": "integer"}}), PLUG]])
def test_a_taxi_with_no_ride_tool_calls_nothing(client, said, tools):
    response = ask(client, said, tools)
    assert not uses(response) and "plug_id" not in text_of(response), (said, uses(response))


STOCK_CHECK = tool("check_stock", "How many units of an item are in stock.", {"item": S})
REORDER = tool("reorder_item", "Reorder units of an item from the supplier.", {"item": S,
                                                                                "quantity": {"type": "integer"}})


@PROPERTY
@given(left=st.integers(0, 30), said=st.sampled_from([
    "Check the stock of printer paper; if fewer than 10 are left, reorder 50.",
    "Проверь остаток бумаги для принтера и если осталось меньше 10, закажи 50."]))
def test_property_a_reorder_waits_for_the_count_and_runs_only_below_it(client, left, said):
    def answer(name, tool_input):
        return (json.dumps({"item": "printer paper", "units": left}), False) if name == "check_stock" else ("ok", False)
    final, responses = drive(client, said, [STOCK_CHECK, REORDER], answer)
    assert [n for n, _ in uses(responses[0])] == ["check_stock"]
    ordered = [i["quantity"] for r in responses for n, i in uses(r) if n == "reorder_item"]
    assert ordered == ([50] if left < 10 else []), (said, left, ordered)
    assert final.stop_reason == "end_turn"


# --- B, C. a condition in words waits for the result and acts only when the result shows it -----------------------

FORECAST_TOOL = tool("get_forecast", "Weather forecast for a city.", {"city": S})
SEND_TEXT = tool("send_text", "Send a text message.", {"to": S, "message": S})
TRACK_PARCEL = tool("track_parcel", "Status of a parcel by its tracking number.", {"tracking_number": S})
# (the ask, its tools, a result that meets the condition, one that does not)
WORD_CONDITIONS = [
    ("Check the forecast for Oslo, and if it's going to snow, text Anna at +4712345678 to bring boots.",
     [FORECAST_TOOL, SEND_TEXT], {"city": "Oslo", "condition": "snow"}, {"city": "Oslo", "condition": "sunny"}),
    ("Check tomorrow's forecast for Oslo and if it will rain, text +4712345678 'take an umbrella'.",
     [FORECAST_TOOL, SEND_TEXT], {"condition": "light rain", "chance_of_rain": 90},
     {"condition": "clear", "chance_of_rain": 5}),
    ("Проверь посылку RA123456789RU, и если она ещё не пришла, напиши Анне на +79161234567, что посылка задерживается.",
     [TRACK_PARCEL, SEND_TEXT], {"status": "in transit"}, {"status": "delivered"}),
    ("Если посылка RA123456789RU ещё не пришла, напиши Анне на +79161234567, что она задерживается.",
     [TRACK_PARCEL, SEND_TEXT], {"status": "в пути"}, {"status": "доставлена"}),
    ("Посмотри прогноз в Омске, и если будет снег, отправь Ивану на +79161234567 «возьми сапоги».",
     [FORECAST_TOOL, SEND_TEXT], {"city": "Омск", "condition": "снег"}, {"city": "Омск", "condition": "ясно"}),
]


@PROPERTY
@given(case=st.sampled_from(WORD_CONDITIONS), met=st.booleans(), first=st.booleans())
def test_property_a_condition_in_words_waits_and_acts_only_when_met(client, case, met, first):
    said, tools, yes, no = case
    result = yes if met else no

    def answer(name, tool_input):
        return (json.dumps(result, ensure_ascii=False), False) if name != "send_text" else ("sent", False)
    final, responses = drive(client, said, tools if first else tools[::-1], answer)
    assert [n for n, _ in uses(responses[0])] == [tools[0]["name"]], (said, uses(responses[0]))
    sent = [i for r in responses for n, i in uses(r) if n == "send_text"]
    assert len(sent) == (1 if met else 0), (said, result, sent)
    assert final.stop_reason == "end_turn" and (met or "send_text" in text_of(final))


# --- J. a weather tool that never says "weather"; a symptom and a doctor's tool -----------------------------------

CONDITIONS = tool("current_conditions", "Temperature, wind and precipitation now, for a place.", {"place": S})
DOCTOR = opt("find_doctor", "Подобрать врача по симптомам.", {"symptoms": S})
BOOK_GP = opt("book_gp_appointment", "Запись на приём к терапевту в поликлинике.", {"date": D})


@pytest.mark.parametrize("question, tools, wanted", [
    ("Do I need an umbrella in Leeds today?", [CONDITIONS, STOCK], "current_conditions"),
    ("Нужны ли сегодня сапоги в Перми?", [CONDITIONS, FX_RU], "current_conditions"),
    ("Горло болит третий день, к кому попасть?", [DOCTOR, FX_RU], "find_doctor"),
    ("Горло болит третий день, к кому попасть?", [BOOK_GP, FX_RU], None),  # a question books nothing
])
def test_a_need_reaches_a_tool_that_says_it_in_other_words(client, question, tools, wanted):
    assert [name for name, _ in uses(ask(client, question, tools))] == ([wanted] if wanted else []), question


# --- F. tool_choice any and small talk: a reply to the user, never a greeting in an identifier ----------------------

TO_USER = tool("send_text_to_user", "Send a text message to the user.", {"text": S})
CUSTOMER = tool("get_customer_info", "Look up a customer's info by username.", {"username": S})


@pytest.mark.parametrize("said, wanted", [("Hey there! How are you?", "send_text_to_user"),
                                          ("Привет! Как дела?", "send_text_to_user"),
                                          ("Hi, my username is jdoe42, what's my plan?", "get_customer_info")])
@pytest.mark.parametrize("first", [True, False])
def test_any_with_small_talk_replies_to_the_user(client, said, wanted, first):
    tools = [TO_USER, CUSTOMER] if first else [CUSTOMER, TO_USER]
    (name, tool_input), = uses(ask(client, said, tools, tool_choice={"type": "any"},
                                   system="Ask for the username before looking anything up."))
    assert name == wanted, (said, name, tool_input)
    assert "username" not in tool_input or tool_input["username"] == "jdoe42"
    assert name != "send_text_to_user" or len(tool_input["text"].split()) > 3


# --- E. a question about the world with a general web search tool on offer ----------------------------------------

WEB = tool("web_search", "Retrieve up-to-date information by searching the web.", {"query": S})
CALCULATOR = tool("calculator", "Evaluate an arithmetic expression.", {"expression": S})


@pytest.mark.parametrize("said, query", [
    ("Who won the 2026 Monaco Grand Prix?", "Who won the 2026 Monaco Grand Prix?"),
    ("What's the latest news about Nvidia?", "What's the latest news about Nvidia?"),
    ("Кто выиграл чемпионат мира по хоккею в 2026 году?", "Кто выиграл чемпионат мира по хоккею в 2026 году?"),
    ("Последние новости о Сбере?", "Последние новости о Сбере?"),
    ("Hey, how are you?", None), ("Tell me a joke.", None)])
def test_a_question_about_the_world_goes_to_the_web_search_tool(client, said, query):
    calls = uses(ask(client, said, [WEB, CALCULATOR]))
    assert calls == ([("web_search", {"query": query})] if query else []), (said, calls)
