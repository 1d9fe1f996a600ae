"""Round 6 of the simulated model (issue #37, stops 58-59), guarded in wordings and domains of its own: everyday
words reach the tool whose description fits; a proper name fills a plain text field (never a placeholder, never a
city for a person); thousands written with spaces are one number, a number one field took is not handed out again,
a field's unit is its last word's; enums are read from everyday words; a compound ask carries an earlier result
into a later step and applies a condition to the listed items; a hands-off question makes no side-effect call; an
ask for live data gets a plain "I work offline"; an empty result is said plainly and nothing is booked. Every call
is checked against its tool's schema."""

import json

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

S = {"type": "string"}
INT = {"type": "integer"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def first_call(client, content, tools, **kw) -> tuple[str, dict]:
    """The first response's one tool call, checked against its tool's schema."""
    response = ask(client, content, tools, **kw)
    calls = uses(response)
    assert response.stop_reason == "tool_use" and len(calls) == 1, (response.stop_reason, calls, text_of(response))
    name, tool_input = calls[0]
    assert validates(next(t for t in tools if t["name"] == name), tool_input)
    return name, tool_input


def all_checked(responses, tools) -> list[tuple[str, dict]]:
    """Every call of a conversation, each checked against its tool's schema."""
    calls = [c for r in responses for c in uses(r)]
    for name, tool_input in calls:
        assert validates(next(t for t in tools if t["name"] == name), tool_input)
    return calls


def unread(what: str):
    """A case in a new wording the round-6 model does not read yet: a finding, kept as a strict xfail."""
    return pytest.mark.xfail(strict=True, reason=f"round 6 does not yet read {what}")


def no_placeholder(tool_input: dict) -> bool:
    return not any(isinstance(v, str) and "example" in v.casefold() for v in tool_input.values())


# --- everyday words to the tool their description fits ---------------------------------------------------------

VET = tool("get_clinic_slots", "Free appointment slots at the veterinary clinic for a pet.", {"species": S}, [])
BINS = tool("get_collection_days", "Waste collection and recycling calendar for a street.", {"street": S}, [])
TRAIN = tool("get_rail_timetable", "Commuter train timetable between two stations.", {"station": S}, [])
POINTS = tool("get_loyalty_balance", "Loyalty points balance of a shopper.", {}, [])
CHARGERS = tool("find_charging_points", "Find free EV charging points near a place.", {"near": S}, [])
DISTRACTORS = [tool("get_weather", "Current weather in a city.", {"city": S}),
               tool("track_order", "Delivery status of an order.", {"order_number": S})]


@pytest.mark.parametrize("question, fitting", [
    ("My puppy has been limping since Tuesday - when could someone look at his paw?", VET),
    ("When do they take the glass bins round here?", BINS),
    ("Do I have enough rewards for a free coffee?", POINTS),
    ("My cat threw up twice today, can someone see her this week?", VET),
    ("Is the 8:05 to Brighton running today?", TRAIN),
    ("My electric car is nearly flat - where can I plug it in around the Central Mall?", CHARGERS),
    ("Котёнок второй день не ест, когда можно к ветеринару?", VET),
    ("Когда у нас вывозят пластик и макулатуру?", BINS),
    ("Во сколько ближайшая электричка?", TRAIN),
    ("Сколько бонусов у меня накопилось?", POINTS),
])
def test_everyday_words_reach_the_tool_whose_description_fits(client, question, fitting):
    """(No request shares a word with its tool's name or description.)"""
    name, _ = first_call(client, question, [*DISTRACTORS, fitting])
    assert name == fitting["name"]


# --- proper names for plain text fields ---------------------------------------------------------------------

TAXI_TO = tool("order_taxi", "Order a taxi to an address.", {"destination": S})
HOURS = tool("get_pool_hours", "Opening hours of a swimming pool.", {"pool": S})
COURT = tool("book_court", "Book a badminton court at a sports centre.", {"centre": S, "date": S}, ["centre"])
INTERVIEW = tool("schedule_interview", "Schedule a job interview for an open position.", {"position": S})
GALLERY = tool("buy_gallery_tickets", "Buy entry tickets for a gallery.", {"gallery": S, "count": INT})
FLOWERS = tool("send_bouquet", "Deliver a bouquet of flowers to a person.",
               {"recipient_name": S, "city": S}, ["recipient_name", "city"])


@pytest.mark.parametrize("question, spec, field, name", [
    ("What time does the Lakeside pool open on Sunday?", HOURS, "pool", "Lakeside"),
    ("Book a badminton court at Northgate Sports Centre.", COURT, "centre", "Northgate Sports Centre"),
    ("Set up an interview for the Lead Mobile Developer position.", INTERVIEW, "position", "Lead Mobile Developer"),
    ("Buy 2 tickets for the Courtauld Gallery.", GALLERY, "gallery", "Courtauld"),
    ("Send a bouquet to Helena Novak in Prague.", FLOWERS, "recipient_name", "Helena Novak"),
    ("Забронируй корт в спорткомплексе «Олимп».", COURT, "centre", "Олимп"),
    ("Отправь букет Ирине Соколовой в Казань.", FLOWERS, "recipient_name", "Ирин"),
    ("Order a taxi to Gatwick Airport.", TAXI_TO, "destination", "Gatwick"),
    ("Закажи такси до аэропорта Внуково.", TAXI_TO, "destination", "Внуково"),
])
def test_a_proper_name_fills_a_plain_text_field(client, question, spec, field, name):
    _, tool_input = first_call(client, question, [spec])
    assert name.casefold() in tool_input[field].casefold() and no_placeholder(tool_input)


@pytest.mark.parametrize("question, city", [
    ("Send a bouquet of roses to Vienna.", "Vienna"),
    ("Please get some flowers delivered in Lisbon.", "Lisbon"),
    ("Отправь букет роз в Самару.", "Самар"),
])
def test_a_city_is_not_a_persons_name(client, question, city):
    response = ask(client, question, [FLOWERS])
    for _, tool_input in uses(response):
        assert validates(FLOWERS, tool_input)
        assert city.casefold() not in tool_input["recipient_name"].casefold() and no_placeholder(tool_input)


# --- numbers: spaced thousands, one field's number not reused, unit from the field's name -------------------------

ODOMETER = tool("log_odometer", "Record a vehicle's odometer reading.", {"vehicle": S, "mileage_km": INT})
STEPS = tool("set_step_goal", "Set the daily step goal.", {"steps": INT})
SALARY = tool("record_offer", "Record a salary offer for a candidate.", {"candidate": S, "annual_salary_eur": INT})
WATER = tool("submit_water_readings", "Submit water meter readings for a flat.",
             {"account": S, "cold_water_m3": INT, "hot_water_m3": INT})
SLEEP = tool("log_sleep", "Log how long I slept.", {"sleep_night_hours": INT})
DATA_CAP = tool("set_data_cap", "Set the monthly mobile data cap.", {"cap_month_gb": INT})
SPENDING = tool("set_spending_limit", "Set a monthly card spending limit.", {"limit_month_rub": INT})
TOPUP = tool("top_up_card", "Top up a transit card.", {"card_number": S, "amount_eur": INT})


@pytest.mark.parametrize("question, spec, expected", [
    ("Log the odometer for the van: 63 450 km.", ODOMETER, {"mileage_km": 63450}),
    ("Set my daily step goal to 12 500.", STEPS, {"steps": 12500}),
    ("Record an offer of 58 000 euros a year for Tomas Berg.", SALARY, {"annual_salary_eur": 58000}),
    ("Передай показания по лицевому счёту 7731: холодная 1 204, горячая 986.", WATER,
     {"account": "7731", "cold_water_m3": 1204, "hot_water_m3": 986}),
    ("Пополни проездной 5521 на 30 евро.", TOPUP, {"card_number": "5521", "amount_eur": 30}),
    ("Submit readings for account 8812: cold water 1 310, hot water 742.", WATER,
     {"account": "8812", "cold_water_m3": 1310, "hot_water_m3": 742}),
    ("Put 15 euros on transit card 9083.", TOPUP, {"card_number": "9083", "amount_eur": 15}),
    ("I slept 7 hours last night, log it.", SLEEP, {"sleep_night_hours": 7}),
    ("Cap my mobile data at 20 GB a month.", DATA_CAP, {"cap_month_gb": 20}),
    ("Поставь лимит трат по карте 25 000 рублей в месяц.", SPENDING, {"limit_month_rub": 25000}),
])
def test_numbers_are_bound_whole_and_to_their_own_field(client, question, spec, expected):
    _, tool_input = first_call(client, question, [spec])
    assert {k: tool_input.get(k) for k in expected} == expected


@pytest.mark.parametrize("question, spec, taken, field", [
    ("Submit water readings for account 90412.", WATER, 90412, "cold_water_m3"),
    ("Top up my transit card 4410.", TOPUP, 4410, "amount_eur"),
    ("Пополни проездной 3307.", TOPUP, 3307, "amount_eur"),
])
def test_a_number_one_field_took_is_not_given_to_another(client, question, spec, taken, field):
    response = ask(client, question, [spec])
    for _, tool_input in uses(response):
        assert validates(spec, tool_input) and tool_input.get(field) != taken


# --- enums from everyday words ------------------------------------------------------------------------------

TAXI = tool("order_taxi", "Order a taxi to an address.",
            {"destination": S, "car_class": {"type": "string", "enum": ["economy", "comfort", "business"]}},
            ["car_class"])
SALON = tool("book_salon", "Book a hair salon service.",
             {"service": {"type": "string", "enum": ["окрашивание", "стрижка", "укладка"]}})
ROOM = tool("book_hotel_room", "Book a hotel room.",
            {"room_type": {"type": "string", "enum": ["семейный", "одноместный", "двухместный"]}})
CLEAN = tool("order_cleaning", "Order a home cleaning.",
             {"kind": {"type": "string", "enum": ["генеральная уборка", "мойка окон", "химчистка мебели"]}})
ROOM_EN = tool("book_hotel_room", "Book a hotel room.",
               {"room_type": {"type": "string", "enum": ["standard", "superior", "suite"]}})
PIZZA = tool("order_pizza", "Order a pizza.",
             {"size": {"type": "string", "enum": ["small", "medium", "large"]},
              "toppings": {"type": "array", "items": {"type": "string", "enum": ["mushrooms", "olives", "ham",
                                                                                  "peppers"]}}}, ["size"])


@pytest.mark.parametrize("question, spec, field, value", [
    ("Вызови такси класса комфорт до вокзала.", TAXI, "car_class", "comfort"),
    ("Закажи такси бизнес до аэропорта Внуково.", TAXI, "car_class", "business"),
    ("Запиши меня на стрижку.", SALON, "service", "стрижка"),
    ("Хочу записаться на укладку.", SALON, "service", "укладка"),
    ("Забронируй в отеле двухместный номер.", ROOM, "room_type", "двухместный"),
    ("Забронируй два одноместных номера в отеле.", ROOM, "room_type", "одноместный"),
    ("Нужен одноместный номер в гостинице на две ночи.", ROOM, "room_type", "одноместный"),
    ("Закажи мойку окон.", CLEAN, "kind", "мойка окон"),
    ("Закажи химчистку мебели в гостиной.", CLEAN, "kind", "химчистка мебели"),
    ("Забронируй в отеле номер супериор.", ROOM_EN, "room_type", "superior"),
    ("A large pizza with olives and ham, please.", PIZZA, "toppings", ["olives", "ham"]),
    ("A medium pizza, please.", PIZZA, "size", "medium"),
])
def test_an_enum_option_is_read_from_everyday_words(client, question, spec, field, value):
    """(No tested option is its enum's first, so a default taken for an unread field cannot pass.)"""
    _, tool_input = first_call(client, question, [spec])
    got = tool_input.get(field)
    assert (sorted(got) if isinstance(value, list) else got) == (sorted(value) if isinstance(value, list) else value)


# --- compound asks ------------------------------------------------------------------------------------------

FIND_DOC = tool("find_document", "Find a document by its title; returns its id.", {"title": S})
SHARE_DOC = tool("share_document", "Share a document with a person by e-mail.",
                 {"document_id": S, "email": {"type": "string", "format": "email"}})
SUBS = tool("list_subscriptions", "List my subscriptions with their monthly price.", {})
CANCEL_SUB = tool("cancel_subscription", "Cancel a subscription.", {"subscription_id": S})
VISITS = tool("list_visits", "List my booked visits with their dates.", {})
CANCEL_VISIT = tool("cancel_visit", "Cancel a booked visit.", {"visit_id": S})
SUB_ITEMS = [{"subscription_id": "sub-1", "name": "Music", "monthly_price": 9.99},
             {"subscription_id": "sub-2", "name": "Video", "monthly_price": 15.49},
             {"subscription_id": "sub-3", "name": "Cloud", "monthly_price": 2.99},
             {"subscription_id": "sub-4", "name": "News", "monthly_price": 12.0}]
VISIT_ITEMS = [{"visit_id": "v-10", "date": "2026-12-14", "place": "dentist"},
               {"visit_id": "v-11", "date": "2026-12-15", "place": "physio"},
               {"visit_id": "v-12", "date": "2026-12-14", "place": "optician"}]


def results(name, tool_input):
    table = {"find_document": {"document_id": "doc-4471", "title": tool_input.get("title")},
             "list_subscriptions": SUB_ITEMS, "list_visits": VISIT_ITEMS}
    return json.dumps(table.get(name, {"ok": True})), False


@pytest.mark.parametrize("question, tools, acting, field, values", [
    ("Find the 'Budget 2027' document, then share it with li.wei@partner.org.", [FIND_DOC, SHARE_DOC],
     "share_document", "document_id", {"doc-4471"}),
    ("Найди документ «Смета ремонта» и поделись им с anna.k@partner.org.", [FIND_DOC, SHARE_DOC],
     "share_document", "document_id", {"doc-4471"}),
    ("List my subscriptions and cancel every one that costs more than 10 euros a month.",
     [SUBS, CANCEL_SUB], "cancel_subscription", "subscription_id", {"sub-2", "sub-4"}),
    ("Show my visits and cancel all that fall on Monday, 14 December 2026.", [VISITS, CANCEL_VISIT],
     "cancel_visit", "visit_id", {"v-10", "v-12"}),
    ("Покажи мои визиты и отмени все, что приходятся на 15 декабря 2026.", [VISITS, CANCEL_VISIT],
     "cancel_visit", "visit_id", {"v-11"}),
])
def test_a_compound_ask_carries_earlier_results_into_later_steps(client, question, tools, acting, field, values):
    final, responses = drive(client, question, tools, results)
    calls = all_checked(responses, tools)
    assert final.stop_reason == "end_turn" and len(responses) <= 6
    assert uses(responses[0])[0][0] == tools[0]["name"]
    acted = [tool_input[field] for name, tool_input in calls if name == acting]
    assert sorted(acted) == sorted(values)


# --- hands off: a curious question acts on nothing ------------------------------------------------------------

ACCOUNTS = tool("list_accounts", "List my online accounts.", {})
DELETE = tool("delete_account", "Permanently delete an online account.", {"account_id": S})
UNSUB = tool("unsubscribe", "Unsubscribe an e-mail address from a newsletter.", {"email": S})
RETURN = tool("return_item", "Start a return for an item of an order.", {"order_number": S})


@pytest.mark.parametrize("question, tools, acting", [
    ("Just curious - how do people usually delete an old social media account?", [ACCOUNTS, DELETE],
     "delete_account"),
    ("How do people unsubscribe from newsletters like this one, in general?", [UNSUB], "unsubscribe"),
    ("Просто интересно: как вообще отменяют подписку?", [SUBS, CANCEL_SUB], "cancel_subscription"),
    ("Just curious, how do people return a jacket that doesn't fit?", [RETURN], "return_item"),
    ("Просто интересно, как обычно оформляют возврат заказа 5512?", [RETURN], "return_item"),
])
def test_a_curious_question_makes_no_side_effect_call(client, question, tools, acting):
    response = ask(client, question, tools)
    assert acting not in [name for name, _ in uses(response)]


# --- offline: live data is not pretended ------------------------------------------------------------------------

OFFLINE = ("offline", "офлайн")
NO_LIVE_DATA = ("no live data", "актуальным данным")
CANNED = ("always the same", "Ask me to review a merge request", "merge request")


@pytest.mark.parametrize("question, said", [
    ("Summarise the article at https://news.example.org/markets/today", OFFLINE),
    ("Check the latest news for me.", OFFLINE),
    ("Открой сайт https://lenta.example.ru и перескажи главное.", OFFLINE),
    ("Проверь курс евро прямо сейчас.", OFFLINE),
    ("What is the EUR to USD exchange rate right now?", OFFLINE + NO_LIVE_DATA),
    ("Какие сегодня главные новости?", OFFLINE + NO_LIVE_DATA),
])
def test_an_offline_ask_for_live_data_gets_plain_text(client, question, said):
    """An ask (imperative) for the web or live data gets the 'I work offline' sentence; a question about live data
    may get the 'I can't know that … no live data' one; never a tool call, never the canned introduction."""
    response = ask(client, question, [])
    text = text_of(response)
    assert response.stop_reason == "end_turn" and not uses(response)
    assert any(s in text.casefold() for s in said) and not any(c in text for c in CANNED), text


# --- an empty result is said plainly; nothing is booked ---------------------------------------------------------

CLASSES = tool("find_classes", "Find yoga classes with free places on a date.", {"date": S}, [])
BOOK_CLASS = tool("book_class", "Book a place in a class.", {"class_id": S})
TABLES = tool("find_tables", "Find free restaurant tables for a time.", {"time": S}, [])
BOOK_TABLE = tool("book_table", "Book a restaurant table.", {"table_id": S})


@pytest.mark.parametrize("question, tools, said", [
    ("Find a yoga class with free places on Saturday and book me in.", [CLASSES, BOOK_CLASS], "found nothing"),
    ("Find a free table for two at 20:00 and book it.", [TABLES, BOOK_TABLE], "found nothing"),
    ("Найди свободный столик на 19:30 и забронируй его.", [TABLES, BOOK_TABLE], "ничего не найдено"),
])
def test_an_empty_result_is_said_plainly_and_nothing_is_booked(client, question, tools, said):
    final, responses = drive(client, question, tools, lambda name, tool_input: ("[]", False))
    calls = all_checked(responses, tools)
    assert final.stop_reason == "end_turn" and [name for name, _ in calls] == [tools[0]["name"]]
    assert said in text_of(final).casefold()
