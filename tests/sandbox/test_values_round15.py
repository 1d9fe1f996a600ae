"""Round 15 of issue #37: forced calls take the prompt's own values in the forms a fresh blind probe found missed.

Each class is checked as a rule, in other people's schema styles (camelCase and snake_case names, descriptions in
either language, nested objects, arrays of objects, enums, formats) and in both languages; the held-out prompts are
worded apart from the probe's. Every forced input validates against its schema, and what the prompt does not state
is said in the text (the field and the value assumed)."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import forced, tool

S = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}
FLAG = {"type": "boolean"}
PROPERTY = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def said_assumed(text: str, field: str) -> bool:
    """The response's text names the field as one it assumed (either language)."""
    return bool(re.search(rf"\b{re.escape(field)}\b", text))


# ---------------------------------------------------------------- 1. a list in prose for an optional array

_EMAILS = ["lena@corp.example", "raj.p@mail.example", "tom_k@site.example", "ivanova@post.example"]
_LABELS = ["backend", "regression", "ux", "billing", "mobile", "срочно", "сеть", "касса"]


@PROPERTY
@given(field=st.sampled_from(["invitees", "attendeeEmails", "guest_emails", "participants"]),
       emails=st.lists(st.sampled_from(_EMAILS), min_size=2, max_size=3, unique=True),
       ru=st.booleans())
def test_property_invitees_written_after_with_fill_an_optional_array(client, field, emails, ru):
    spec = tool("schedule_meeting", "Schedule a meeting.", {
        "topic": S, field: {"type": "array", "items": {"type": "string", "format": "email"},
                            "description": "E-mails of the people invited" if not ru else "Почта приглашённых"}},
        required=["topic"])
    listed = ", ".join(emails[:-1]) + (" и " if ru else " and ") + emails[-1]
    prompt = f"Назначь встречу про бюджет и пригласи {listed}." if ru else \
        f"Set up a meeting about the budget with {listed}."
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input.get(field) == emails


@PROPERTY
@given(field=st.sampled_from(["labels", "tags", "tagList", "issue_labels"]),
       labels=st.lists(st.sampled_from(_LABELS), min_size=2, max_size=3, unique=True),
       cue=st.sampled_from(["labelled", "labeled", "tagged", "с метками", "с тегами"]))
def test_property_labels_after_labelled_or_tagged_fill_an_optional_array(client, field, labels, cue):
    spec = tool("open_issue", "Open an issue in the tracker.", {"title": S, field: {"type": "array", "items": S}},
                required=["title"])
    joint = " и " if cue.startswith("с ") else " and "
    listed = ", ".join(labels[:-1]) + joint + labels[-1]
    prompt = f"Заведи задачу «Падает экспорт» {cue} {listed}." if cue.startswith("с ") else \
        f"File an issue \"Export crashes\" {cue} {listed}."
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input.get(field) == labels


# ---------------------------------------------------------------- 2. a noun for a field whose word is not written

@pytest.mark.parametrize("props, prompt, field, want", [
    ({"activity": {"type": "string", "description": "What kind of exercise, e.g. run or ride"}, "distance_km": NUM},
     "Log a 12 km ride for me.", "activity", "ride"),
    ({"sport": {"type": "string", "description": "Type of workout"}, "minutes": INT},
     "Add a 30 minute row to my log.", "sport", "row"),
    ({"type": {"type": "string", "description": "Вид тренировки"}, "durationMin": INT},
     "Тренировка: плавание, 45 минут.", "type", "плавание"),
])
def test_a_noun_beside_a_quantity_is_the_kind_a_field_asks_for(client, props, prompt, field, want):
    tool_input, text = forced(client, prompt, tool("log_workout", "Record a workout.", props))
    assert tool_input[field] == want and not said_assumed(text, field)


# ---------------------------------------------------------------- 3. free text stops at the other fields' values

@pytest.mark.parametrize("prompt, want", [
    ("Post a reminder to water the plants every week, starting Friday.", "water the plants"),
    ("Напоминай мне поливать цветы каждую неделю, начиная с пятницы.", "поливать цветы"),
])
def test_a_message_leaves_the_recurrence_and_start_to_their_fields(client, prompt, want):
    spec = tool("schedule_reminder", "Schedule a recurring reminder.", {
        "message": S, "repeat": {"type": "string", "enum": ["daily", "weekly", "monthly"]},
        "startDate": {"type": "string", "format": "date"}})
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input["repeat"] == "weekly"
    assert want in tool_input["message"]
    assert not re.search(r"every|week|каждую|недел|starting|начиная", tool_input["message"], re.I)


# ---------------------------------------------------------------- 4. recurrence words to enum options

_RECURRENCES = {"daily": ["каждый день", "ежедневно", "every day", "daily"],
                "weekly": ["каждую неделю", "еженедельно", "раз в неделю", "every week"],
                "biweekly": ["fortnightly", "every other week", "every two weeks", "раз в две недели"],
                "monthly": ["каждый месяц", "ежемесячно", "раз в месяц", "every month"],
                "yearly": ["раз в год", "ежегодно", "каждый год", "every year", "annually"]}


@PROPERTY
@given(meaning=st.sampled_from(sorted(_RECURRENCES)), k=st.integers(0, 3),
       field=st.sampled_from(["frequency", "repeat", "recurrence", "schedule_interval"]),
       style=st.sampled_from(["lower", "upper", "every"]))
def test_property_recurrence_words_pick_their_option_in_either_language(client, meaning, k, field, style):
    said = _RECURRENCES[meaning][k]
    options = {"lower": ["daily", "weekly", "biweekly", "monthly", "yearly"],
               "upper": ["DAILY", "WEEKLY", "BIWEEKLY", "MONTHLY", "YEARLY"],
               "every": ["every_day", "every_week", "every_two_weeks", "every_month", "every_year"]}[style]
    spec = tool("add_bill", "Add a recurring bill.", {"payee": S, field: {"type": "string", "enum": options}})
    ru = bool(re.search(r"[а-я]", said))
    prompt = f"Добавь платёж за интернет, {said}." if ru else f"Add the internet bill, paid {said}."
    tool_input, text = forced(client, prompt, spec)
    want = options[["daily", "weekly", "biweekly", "monthly", "yearly"].index(meaning)]
    assert tool_input[field] == want and not said_assumed(text, field)


# ---------------------------------------------------------------- 5. unit words to from/to options

@pytest.mark.parametrize("props, prompt, want", [
    ({"amount": NUM, "fromUnit": {"type": "string", "enum": ["km", "mi", "kg", "lb"]},
      "toUnit": {"type": "string", "enum": ["km", "mi", "kg", "lb"]}},
     "How many miles is a 42.2 km run?", {"amount": 42.2, "fromUnit": "km", "toUnit": "mi"}),
    ({"quantity": NUM, "source_unit": {"type": "string", "enum": ["kilograms", "pounds", "celsius", "fahrenheit"]},
      "target_unit": {"type": "string", "enum": ["kilograms", "pounds", "celsius", "fahrenheit"]}},
     "Сколько килограммов в 150 фунтах?", {"quantity": 150, "source_unit": "pounds", "target_unit": "kilograms"}),
    ({"value": NUM, "from": {"type": "string", "enum": ["C", "F", "K"]},
      "to": {"type": "string", "enum": ["C", "F", "K"]}},
     "Переведи 30 градусов Цельсия в Фаренгейты.", {"value": 30, "from": "C", "to": "F"}),
    ({"value": NUM, "from": {"type": "string", "enum": ["C", "F", "K"]},
      "to": {"type": "string", "enum": ["C", "F", "K"]}},
     "What is 451°F in celsius?", {"value": 451, "from": "F", "to": "C"}),
])
def test_units_named_in_words_or_signs_go_to_from_and_to(client, props, prompt, want):
    tool_input, text = forced(client, prompt, tool("convert", "Convert between units.", props))
    assert tool_input == want


# ---------------------------------------------------------------- 6. yes/no stated, or said as assumed

_YES = [("attending", "Count me in for the launch party, EV-88 — RSVP yes."),
        ("attending", "Подтверди моё участие во встрече EV-88."),
        ("includeVat", "Bill the order EV-88 including VAT."),
        ("with_vat", "Выстави счёт по заказу EV-88 с НДС."),
        ("gift_wrap", "Ship order EV-88 gift wrapped, please."),
        ("notify", "Отмени заказ EV-88 и уведоми клиента.")]


@PROPERTY
@given(case=st.sampled_from(_YES), described=st.booleans())
def test_property_a_yes_the_prompt_states_is_true(client, case, described):
    field, prompt = case
    flag = {"type": "boolean", "description": "Whether to do it"} if described else FLAG
    spec = tool("handle", "Handle an order or an event.", {"ref": S, field: flag})
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input[field] is True


@PROPERTY
@given(field=st.sampled_from(["urgent", "sendCopy", "is_private", "notify_owner"]), ru=st.booleans())
def test_property_an_unstated_flag_is_said_as_assumed(client, field, ru):
    spec = tool("create_note", "Create a note.", {"text": S, field: FLAG})
    prompt = "Создай заметку: купить батарейки." if ru else "Make a note: buy batteries."
    tool_input, text = forced(client, prompt, spec)
    assert isinstance(tool_input[field], bool)
    assert said_assumed(text, field) and str(tool_input[field]).lower() in text.lower()


# ---------------------------------------------------------------- 7. Russian nouns and adjectives for enum options

_RU_OPTIONS = [("mode", ["heat", "cool", "dry", "fan"], "Поставь кондиционер на охлаждение.", "cool"),
               ("mode", ["cool", "heat", "dry", "fan"], "Включи обогрев в спальне.", "heat"),
               ("travelClass", ["economy", "business", "first"], "Нужен билет бизнес-класса до Перми.", "business"),
               ("fare_class", ["business", "economy", "first"], "Купи эконом до Казани.", "economy"),
               ("seat_class", ["business", "first", "economy"], "Возьми место в экономе.", "economy"),
               ("priority", ["high", "low", "medium"], "Приоритет низкий, срок не горит.", "low")]


@PROPERTY
@given(case=st.sampled_from(_RU_OPTIONS), described=st.booleans())
def test_property_a_russian_word_for_an_option_is_taken_and_not_called_a_placeholder(client, case, described):
    field, options, prompt, want = case
    schema = {"type": "string", "enum": options, **({"description": "Выбранный вариант"} if described else {})}
    tool_input, text = forced(client, prompt, tool("set_option", "Set an option.", {field: schema}))
    assert tool_input[field] == want and not said_assumed(text, field)


# ---------------------------------------------------------------- 8. a street named before its kind or number

@pytest.mark.parametrize("prompt, line1, city", [
    ("Доставь на Литейный проспект, 15, Санкт-Петербург.", "Литейный проспект, 15", "Санкт-Петербург"),
    ("Адрес: Тверская улица, 7, Москва.", "Тверская улица, 7", "Москва"),
    ("Deliver to Abbey Road 3, London.", "Abbey Road 3", "London"),
])
def test_a_street_before_its_kind_word_or_number_is_line_one(client, prompt, line1, city):
    spec = tool("deliver", "Deliver a parcel.", {"address": {"type": "object", "properties": {
        "line1": S, "city": S, "country": S}, "required": ["line1", "city"]}})
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input["address"]["line1"] == line1 and tool_input["address"]["city"] == city


# ---------------------------------------------------------------- 9. a house number is no quantity

def test_a_house_number_is_no_quantity_and_extras_after_with_fill_the_array(client):
    spec = tool("order_food", "Order food for delivery.", {
        "deliveryAddress": S, "qty": {"type": "integer", "minimum": 1},
        "extras": {"type": "array", "items": S}}, required=["deliveryAddress", "qty"])
    tool_input, _ = forced(client, "Send a large pizza to 42 Elm Street with ham, pineapple and jalapenos.", spec)
    assert tool_input["qty"] == 1 and tool_input["extras"] == ["ham", "pineapple", "jalapenos"]


# ---------------------------------------------------------------- 11. Russian names that end in a soft sign

@pytest.mark.parametrize("prompt, want", [
    ("Создай карточку клиента: Игорь Соколов, igor@firm.example.", "Игорь Соколов"),
    ("Запиши нового клиента — Любовь Орлова.", "Любовь Орлова"),
    ("Новый клиент: Дарья Лебедь.", "Дарья Лебедь"),
])
def test_a_russian_name_ending_in_a_soft_sign_is_whole(client, prompt, want):
    spec = tool("add_customer", "Add a customer.", {"customerName": S, "email": S}, required=["customerName"])
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input["customerName"] == want


# ---------------------------------------------------------------- 12. quoted text after a cue word of its meaning

@pytest.mark.parametrize("field, described, prompt, want", [
    ("memo", "Назначение платежа", "Отправь 1200 Олегу, комментарий «за билеты».", "за билеты"),
    ("paymentReference", "Purpose of the transfer", "Переведи 800, назначение «Аренда за май».", "Аренда за май"),
    ("note", "What the payment is for", "Pay 45 to Sam, purpose “pizza night”.", "pizza night"),
])
def test_quoted_text_after_a_purpose_word_goes_to_its_field(client, field, described, prompt, want):
    spec = tool("send_money", "Send money.", {"amount": NUM, field: {"type": "string", "description": described}})
    tool_input, _ = forced(client, prompt, spec)
    assert tool_input[field] == want


# ---------------------------------------------------------------- 13. order lines from prose

def test_order_lines_from_prose_fill_an_array_of_objects(client):
    spec = tool("bill", "Bill a customer.", {"customer": S, "items": {"type": "array", "items": {
        "type": "object", "properties": {"name": S, "qty": NUM, "price": NUM, "currency": S},
        "required": ["name", "qty", "price"]}}})
    tool_input, _ = forced(client, "Bill Orbit Ltd for 5 licences at €20 each and 2 days of training at 400.", spec)
    lines = tool_input["items"]
    assert [(line["qty"], line["price"]) for line in lines] == [(5, 20), (2, 400)]
    assert "licence" in lines[0]["name"] and "training" in lines[1]["name"]


# ---------------------------------------------------------------- 10. a company after "from"/"at" behind a label

@pytest.mark.parametrize("props, prompt, want", [
    ({"name": S, "company": S}, "New lead: Maria Costa from Northwind Traders.",
     {"name": "Maria Costa", "company": "Northwind Traders"}),
    ({"contactName": S, "organisation": S}, "Log a contact — Ben Ode at Fabrikam.",
     {"contactName": "Ben Ode", "organisation": "Fabrikam"}),
    ({"fullName": S, "companyName": S}, "Новый лид: Игорь Петров из ООО «Вектор».",
     {"fullName": "Игорь Петров", "companyName": "ООО «Вектор»"}),
])
def test_a_company_after_from_or_at_is_the_company_and_the_person_stays_whole(client, props, prompt, want):
    tool_input, _ = forced(client, prompt, tool("add_lead", "Add a sales lead.", props))
    assert tool_input == want


# ---------------------------------------------------------------- the second probes (the lead's 14-28)

@pytest.mark.parametrize("props, prompt, want", [
    ({"email": S, "newsletterOptIn": FLAG}, "Register ola@site.example, no newsletter please.",
     {"newsletterOptIn": False}),
    ({"amount": NUM, "payee": S}, "Оплати полторы тысячи за интернет.", {"amount": 1500}),
    ({"amount": NUM, "payee": S}, "Переведи три с половиной тысячи за ремонт.", {"amount": 3500}),
    ({"cardNumber": S}, "Заморозь карту 4276 1600 2211 9087.", {"cardNumber": "4276 1600 2211 9087"}),
    ({"room": {"type": "string", "enum": ["kitchen", "bedroom", "nursery"]},
      "mode": {"type": "string", "enum": ["heat", "cool"]}}, "Включи охлаждение в спальне.",
     {"room": "bedroom", "mode": "cool"}),
    ({"ticker": S, "side": {"type": "string", "enum": ["buy", "sell"]}, "shares": INT},
     "Продай 25 акций MSFT.", {"side": "sell", "shares": 25}),
    ({"city": S, "country_code": S, "units": {"type": "string", "enum": ["metric", "imperial"]}},
     "Forecast for Lyon, FR in Fahrenheit.", {"city": "Lyon", "country_code": "FR", "units": "imperial"}),
])
def test_second_probe_values_reach_their_fields_and_are_not_called_placeholders(client, props, prompt, want):
    tool_input, text = forced(client, prompt, tool("act", "Do what is asked.", props))
    assert {k: tool_input.get(k) for k in want} == want
    assert not any(said_assumed(text, field) for field in want)


def test_entities_are_whole_once_each_with_a_kind_from_a_small_list(client):
    spec = tool("extract_entities", "Extract the named entities.", {"entities": {"type": "array", "items": {
        "type": "object", "properties": {"text": S, "entity_type": {"type": "string",
                                                                     "enum": ["PER", "ORG", "LOC", "DATE", "MISC"]},
                                         "context": S}, "required": ["text", "entity_type", "context"]}}})
    tool_input, _ = forced(client, "Satya Nadella of Microsoft met reporters in San Francisco on Friday.", spec)
    found = {(e["text"], e["entity_type"]) for e in tool_input["entities"]}
    assert found == {("Satya Nadella", "PER"), ("Microsoft", "ORG"), ("San Francisco", "LOC"), ("Friday", "DATE")}
    assert all(e["text"] in e["context"] for e in tool_input["entities"])


def test_an_object_that_takes_any_keys_gets_the_pairs_the_prompt_states(client):
    spec = {"name": "record_traits", "description": "Record every characteristic mentioned.",
            "input_schema": {"type": "object", "additionalProperties": True}}
    tool_input, _ = forced(client, "The bike is blue, has 21 gears and costs €640.", spec)
    assert tool_input == {"gears": 21, "price": 640, "currency": "EUR", "color": "blue"}


@pytest.mark.parametrize("props, prompt, want", [
    ({"client": S, "amount": NUM}, "Bill Three Oaks Ltd for 920.", {"client": "Three Oaks Ltd", "amount": 920}),
    ({"orders": {"type": "array", "items": {"type": "object", "properties": {"dish": S, "qty": INT},
                                            "required": ["dish", "qty"]}}},
     "Оформи 3 порции супа и 5 порций плова.", {"orders": [{"dish": "суп", "qty": 3}, {"dish": "плов", "qty": 5}]}),
])
def test_number_words_in_a_name_and_russian_portions(client, props, prompt, want):
    tool_input, _ = forced(client, prompt, tool("order", "Place an order.", props))
    assert tool_input == want


def test_a_count_outside_a_described_range_is_no_score_and_a_list_after_its_own_noun_fills_the_array(client):
    spec = tool("analyse", "Analyse a review.", {
        "confidence": {"type": "number", "description": "Confidence between 0 and 1"}, "folders": {
            "type": "array", "items": S}})
    tool_input, text = forced(client, "Look in the folders Work, Personal and Travel: I own 3 cars and love them.",
                              spec)
    assert 0 <= tool_input["confidence"] <= 1 and said_assumed(text, "confidence")
    assert tool_input["folders"] == ["Work", "Personal", "Travel"]
