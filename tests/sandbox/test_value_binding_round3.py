"""Round 3 of issue #37: the classes an independent black-box probe found missed (34/50), as properties over generated
tools and prompts, not the probe's own wording. Every forced input validates against its schema and carries each
value the prompt states for its field:

1. values the prompt states in other forms: a name after "to" ("rename X to Y"), a city inside an address written
   with its words, items with quantities and units, currencies in words, a time range, "Room 4B";
2. labelled and quoted values go to the field their label names ("subject …", "body …", «в чат …», "assign to …");
3. the tool whose words fit the request, with tool_choice any and in everyday questions (money, a taxi);
4. a compound ask whose second step needs the first step's result waits for it and carries it;
5. Russian collective numerals and with/without flags («двое гостей», «с НДС»);
6. a Russian list after its label («теги: …»);
and date-times keep no invented offset where the prompt or the schema states one, or the schema allows none."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

S = {"type": "string"}
PROPERTY = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def forced(client, spec: dict, prompt: str, choice: str = "tool", others: list | None = None) -> tuple[str, dict, str]:
    picked = {"type": "tool", "name": spec["name"]} if choice == "tool" else {"type": "any"}
    tools = [*(others or []), spec]
    response = ask(client, prompt, tools, tool_choice=picked)
    [(name, tool_input)] = uses(response)
    called = next(t for t in tools if t["name"] == name)
    assert validates(called, tool_input)
    return name, tool_input, text_of(response)


# ------------------------------------------------------------------ 2. labelled and quoted values

_TITLES = ["Contract v3", "Quarterly review", "Lunch on Friday", "Server move", "Budget 2027", "Team offsite",
           "Новый договор", "План на март", "Отпуск летом"]
_TEXTS = ["Please review the draft by Friday.", "The build is green again.", "See you at the gate.",
          "Все документы в общей папке.", "Встреча переносится на среду."]
_HANDLES = ["jdoe", "mkhan", "alee42", "p_ivanova", "sam.r"]
_CHATS = ["Семья", "Работа", "Дача", "Friends", "Book club"]


@PROPERTY
@given(subject=st.sampled_from(_TITLES), body=st.sampled_from(_TEXTS), order=st.booleans(),
       quotes=st.sampled_from(['"{}"', "«{}»", "“{}”"]))
def test_property_a_subject_and_a_body_each_take_the_value_their_label_names(client, subject, body, order, quotes):
    spec = tool("send_email", "Send an email.", {"to": {"type": "string", "format": "email"}, "subject": S, "body": S})
    pieces = [f"subject {quotes.format(subject)}", f"body {quotes.format(body)}"]
    prompt = "Email kim@corp.io, " + ", ".join(pieces if order else pieces[::-1]) + "."
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == {"to": "kim@corp.io", "subject": subject, "body": body}, prompt


@PROPERTY
@given(title=st.sampled_from(_TITLES), handle=st.sampled_from(_HANDLES), lead=st.sampled_from(["assign to", "assign it to",
                                                                                               "assignee:"]))
def test_property_a_bare_handle_after_its_label_is_the_assignee_not_the_quoted_title(client, title, handle, lead):
    spec = tool("create_issue", "Create an issue in the tracker.",
                {"title": {"type": "string", "description": "Issue title"},
                 "assignee": {"type": "string", "description": "Username of the assignee"}})
    prompt = f'Open a ticket titled "{title}", {lead} {handle}.'
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == {"title": title, "assignee": handle}, prompt


@PROPERTY
@given(chat=st.sampled_from(_CHATS), said=st.sampled_from(["я буду дома в 19:00", "ужин готов", "опоздаю на 10 минут"]))
def test_property_a_chat_named_in_quotes_is_the_chat_and_the_message_is_what_follows(client, chat, said):
    spec = tool("send_message", "Отправить сообщение в мессенджере.",
                {"chat": {"type": "string", "description": "Название чата"},
                 "text": {"type": "string", "description": "Текст сообщения"}})
    prompt = f"Напиши в чат «{chat}», что {said}."
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input["chat"] == chat, prompt
    assert said in tool_input["text"].lower() and chat not in tool_input["text"], prompt


@PROPERTY
@given(topic=st.sampled_from(["Budget Review", "Hiring Plan", "Vendor Audit", "Roadmap Sync"]),
       minutes=st.sampled_from([15, 30, 45, 90]))
def test_property_a_topic_is_what_the_meeting_is_about_not_the_whole_prompt(client, topic, minutes):
    spec = tool("schedule_meeting", "Schedule a meeting.", {"topic": S, "duration_minutes": {"type": "integer"}})
    prompt = f"Set up a {minutes}-minute meeting about {topic} next week."
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == {"topic": topic, "duration_minutes": minutes}, prompt


@pytest.mark.parametrize(("prompt", "field", "wanted"), [
    ("Send $45.20 to lena.k@example.org for the concert tickets.", "note", "concert tickets"),
    ("Напомни мне оплатить интернет 25.03.2026 в 9:15.", "text", "оплатить интернет"),
])
def test_a_free_text_field_takes_the_requests_own_words_not_the_whole_request(client, prompt, field, wanted):
    props = {"recipient_email": {"type": "string", "format": "email"}, "amount": {"type": "number"}, "note": S} \
        if field == "note" else {"text": S, "remind_at": {"type": "string", "format": "date-time"}}
    _, tool_input, _ = forced(client, tool("do_it", "Do it.", props), prompt)
    assert tool_input[field] == wanted


@pytest.mark.parametrize(("field", "prompt"), [("query", "Find cheap flights to Rome in May."),
                                               ("question", "What is the capital of France?"),
                                               ("prompt", "Draw a cat riding a bike in Paris.")])
def test_a_query_or_a_question_takes_the_request_as_asked(client, field, prompt):
    _, tool_input, _ = forced(client, tool("search", "Search the web.", {field: S}), prompt)
    assert tool_input == {field: prompt}


def test_an_optional_cc_the_prompt_fills_is_filled(client):
    spec = tool("send_email", "Send an email.", {"to": {"type": "array", "items": {"type": "string", "format": "email"}},
                                                  "cc": {"type": "array", "items": {"type": "string", "format": "email"}},
                                                  "subject": S, "body": S}, required=["to", "subject", "body"])
    _, tool_input, _ = forced(client, spec, 'Email sam@corp.io and priya@corp.io, cc legal@corp.io, subject "v3", '
                                            'body "Please review."')
    assert tool_input == {"to": ["sam@corp.io", "priya@corp.io"], "cc": ["legal@corp.io"], "subject": "v3",
                          "body": "Please review."}


# ------------------------------------------------------------------ 1. values in other forms

_FILES = [  # no two alike: one file renamed to another name
"report_2026_Q1.docx", "notes-final.md", "budget.xlsx", "photo_001.jpg", "draft2.pdf"]


@PROPERTY
@given(old=st.sampled_from(_FILES), new=st.sampled_from(_FILES), folder=st.sampled_from(["/home/kim", "/srv/docs"]))
def test_property_a_new_name_after_to_is_taken_whole(client, old, new, folder):
    spec = tool("rename_file", "Rename a file.", {"path": {"type": "string", "description": "Current path of the file"},
                                                  "new_name": {"type": "string", "description": "New file name"}})
    prompt = f"Rename {folder}/{old} to {new}."
    _, tool_input, text = forced(client, spec, prompt)
    assert tool_input == {"path": f"{folder}/{old}", "new_name": new}, prompt
    assert "placeholder" not in text


_CITIES = ["Казань", "Самара", "Тверь", "Пермь"]


@PROPERTY
@given(city=st.sampled_from(_CITIES), street=st.sampled_from(["Баумана", "Ленина", "Гагарина"]),
       house=st.integers(1, 120), index=st.integers(100000, 999999))
def test_property_a_russian_address_written_with_its_words_is_taken_apart(client, city, street, house, index):
    spec = tool("create_shipment", "Оформить отправку посылки.", {
        "recipient_name": S,
        "address": {"type": "object", "properties": {
            "city": {"type": "string", "description": "Город"},
            "street_address": {"type": "string", "description": "Улица и дом"},
            "postal_code": {"type": "string", "pattern": r"^\d{6}$"}}, "required": ["city", "street_address",
                                                                                    "postal_code"]}})
    prompt = f"Отправь посылку. Получатель — Иван Сидоров, город {city}, улица {street}, дом {house}, индекс {index}."
    _, tool_input, _ = forced(client, spec, prompt)
    address = tool_input["address"]
    assert address["city"] == city and address["postal_code"] == str(index), prompt
    assert street in address["street_address"] and str(house) in address["street_address"], prompt


_GROCERIES = [("2 кг картофеля", "картофеля", 2, "kg"), ("1,5 л молока", "молока", 1.5, "l"),
              ("6 шт. яиц", "яиц", 6, "pcs"), ("300 г сыра", "сыра", 300, "g"), ("2 kg of potatoes", "potatoes", 2, "kg"),
              ("3 l milk", "milk", 3, "l"), ("12 pcs eggs", "eggs", 12, "pcs")]


@PROPERTY
@given(items=st.lists(st.sampled_from(_GROCERIES), min_size=2, max_size=4, unique_by=lambda item: item[1]),
       russian=st.booleans())
def test_property_each_measured_item_is_its_own_object_with_its_name_amount_and_unit(client, items, russian):
    spec = tool("order_groceries", "Order groceries.", {"items": {"type": "array", "items": {
        "type": "object", "properties": {"name": S, "quantity": {"type": "number"},
                                         "unit": {"type": "string", "enum": ["kg", "g", "l", "pcs"]}},
        "required": ["name", "quantity", "unit"]}}})
    joint = " и " if russian else " and "
    prompt = ("Закажи продукты: " if russian else "Order groceries: ") + ", ".join(i[0] for i in items[:-1]) \
        + joint + items[-1][0] + "."
    _, tool_input, text = forced(client, spec, prompt)
    assert tool_input["items"] == [{"name": name, "quantity": amount, "unit": unit} for _, name, amount, unit in items], \
        prompt
    assert "placeholder" not in text and "заглушк" not in text


_MONEY_WORDS = [("доллара", "USD"), ("евро", "EUR"), ("рубля", "RUB"), ("юаня", "CNY"), ("dollar", "USD"),
                ("euro", "EUR"), ("pound", "GBP"), ("yen", "JPY")]


@PROPERTY
@given(pair=st.lists(st.sampled_from(_MONEY_WORDS), min_size=2, max_size=2, unique_by=lambda m: m[1]))
def test_property_currencies_named_in_words_fill_iso_4217_fields(client, pair):
    (base_word, base), (quote_word, quote) = pair
    spec = tool("get_exchange_rate", "Current exchange rate.", {"base": {"type": "string", "description": "ISO 4217 code"},
                                                                "quote": {"type": "string", "description": "ISO 4217 code"}})
    russian = bool(re.search(r"[а-я]", base_word + quote_word))
    prompt = f"Какой курс {base_word} к {quote_word}?" if russian else f"What is the {base_word} to {quote_word} rate?"
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == {"base": base, "quote": quote}, prompt


@PROPERTY
@given(day=st.integers(1, 28), start=st.sampled_from(["09:00", "10:00", "13:30"]),
       end=st.sampled_from(["14:00", "15:45", "17:30"]), room=st.sampled_from(["Room 4B", "Room 12", "Hall C"]))
def test_property_a_time_range_gives_the_start_and_the_end_and_a_numbered_room_stays_whole(client, day, start, end, room):
    spec = tool("create_event", "Create a calendar event.", {
        "title": S, "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
        "location": {"type": "string", "description": "Where it takes place"}})
    prompt = f'Schedule "Planning" on 2026-04-{day:02d} from {start} to {end} in {room}.'
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input["start"].startswith(f"2026-04-{day:02d}T{start}"), prompt
    assert tool_input["end"].startswith(f"2026-04-{day:02d}T{end}"), prompt
    assert tool_input["location"] == room and tool_input["title"] == "Planning", prompt


@pytest.mark.parametrize(("said", "offset"), [("Europe/Berlin time", "+01:00"), ("New York time", "-04:00"),
                                              ("UTC", "Z"), ("по московскому времени", "+03:00")])
def test_a_date_time_takes_the_offset_of_the_zone_the_prompt_states(client, said, offset):
    spec = tool("schedule_meeting", "Schedule a meeting.", {"start_time": {"type": "string", "format": "date-time"}})
    _, tool_input, _ = forced(client, spec, f"Set up a meeting on March 9, 2026 at 3:30 PM, {said}.")
    assert tool_input == {"start_time": f"2026-03-09T15:30:00{offset}"}


def test_a_date_time_gets_no_invented_offset_where_the_schema_allows_none(client):
    spec = tool("create_reminder", "Create a reminder.", {
        "text": S, "remind_at": {"type": "string", "description": "When, ISO 8601 date and time"}})
    _, tool_input, _ = forced(client, spec, "Remind me to pay the rent on 25.03.2026 at 9:15.")
    assert tool_input["remind_at"] == "2026-03-25T09:15:00"


# ------------------------------------------------------------------ 5. Russian numerals and flags

_COLLECTIVES = [("двое", 2), ("трое", 3), ("четверо", 4), ("пятеро", 5)]


@PROPERTY
@given(guests=st.sampled_from(_COLLECTIVES), first=st.integers(1, 20), nights=st.integers(1, 7))
def test_property_a_collective_numeral_is_the_guests_and_the_days_are_dates(client, guests, first, nights):
    spec = tool("book_hotel", "Забронировать гостиницу.", {
        "city": S, "check_in": {"type": "string", "format": "date"}, "check_out": {"type": "string", "format": "date"},
        "guests": {"type": "integer", "description": "Число гостей", "minimum": 1}})
    word, count = guests
    prompt = f"Забронируй отель в Казани с {first} по {first + nights} июля 2026 года, {word} гостей."
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == {"city": "Казань", "check_in": f"2026-07-{first:02d}",
                          "check_out": f"2026-07-{first + nights:02d}", "guests": count}, prompt


@PROPERTY
@given(included=st.booleans(), russian=st.booleans(), amount=st.integers(1, 900).map(lambda n: n * 1000))
def test_property_with_or_without_sets_the_flag_its_description_names(client, included, russian, amount):
    spec = tool("issue_invoice", "Issue an invoice.", {
        "client": S, "amount": {"type": "number"},
        "vat_included": {"type": "boolean", "description": "Сумма включает НДС" if russian else "Amount includes VAT"}})
    mark = ("с НДС" if included else "без НДС") if russian else ("with VAT" if included else "without VAT")
    prompt = f"Выстави счёт ООО «Вектор» на {amount} ₽ {mark}." if russian \
        else f"Invoice Vector Ltd for {amount} EUR {mark}."
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input["vat_included"] is included and tool_input["amount"] == amount, prompt


# ------------------------------------------------------------------ 6. a list after its label

@PROPERTY
@given(tags=st.lists(st.sampled_from(["клиент", "VIP", "Москва", "партнёр", "опт"]), min_size=2, max_size=4,
                     unique=True))
def test_property_a_russian_list_after_its_label_is_the_tags(client, tags):
    spec = tool("create_contact", "Создать контакт в CRM.", {
        "first_name": S, "last_name": S, "email": {"type": "string", "format": "email"},
        "tags": {"type": "array", "items": S, "description": "Теги контакта"}})
    listed = ", ".join(tags[:-1]) + " и " + tags[-1]
    prompt = f"Добавь в CRM контакт: Анна Петрова, почта anna@example.ru, теги: {listed}."
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input["tags"] == tags, prompt
    assert (tool_input["first_name"], tool_input["last_name"]) == ("Анна", "Петрова")


# ------------------------------------------------------------------ 3. the tool that fits

_UNRELATED = [tool("find_restaurant", "Найти ресторан.", {"cuisine": S, "city": S}),
              tool("get_weather", "Get the weather forecast for a city.", {"city": S}),
              tool("search_recipes", "Search cooking recipes.", {"query": S})]


@PROPERTY
@given(other=st.sampled_from(_UNRELATED), first=st.booleans(),
       prompt=st.sampled_from(["Вызови такси от улицы Ленина, 5 до аэропорта Пулково.",
                               "Закажи такси от вокзала до гостиницы «Азимут».",
                               "Get me a taxi from 5 Main Street to the airport."]))
def test_property_with_tool_choice_any_the_tool_whose_words_fit_is_called(client, other, first, prompt):
    taxi = tool("book_taxi", "Заказать такси.", {"pickup_address": {"type": "string", "description": "Откуда"},
                                                  "destination_address": {"type": "string", "description": "Куда"}})
    tools = [other, taxi] if first else [taxi, other]
    response = ask(client, prompt, tools, tool_choice={"type": "any"})
    [(name, tool_input)] = uses(response)
    assert name == "book_taxi" and validates(taxi, tool_input), prompt
    assert "example" not in json.dumps(tool_input), prompt


@pytest.mark.parametrize("question", ["Сколько у меня осталось денег на карте?", "How much money is left on my card?",
                                      "What's my balance?", "Какой у меня баланс?"])
def test_an_everyday_money_question_uses_the_balance_tool_it_is_offered(client, question):
    balance = tool("get_account_balance", "Получить баланс счёта клиента банка.",
                   {"account": {"type": "string", "enum": ["card", "savings"]}})
    response = ask(client, question, [_UNRELATED[1], balance, _UNRELATED[2]])
    assert [name for name, _ in uses(response)] == ["get_account_balance"]


@pytest.mark.parametrize(("question", "account"), [("Сколько денег на сберегательном счёте?", "savings"),
                                                   ("How much do I have in savings?", "savings"),
                                                   ("Хватит ли денег на карте на аренду?", "card")])
def test_a_balance_question_names_its_account(client, question, account):
    balance = tool("get_account_balance", "Get the balance of a bank account.",
                   {"account": {"type": "string", "enum": ["card", "savings"]}})
    assert uses(ask(client, question, [_UNRELATED[1], balance])) == [("get_account_balance", {"account": account})]


@pytest.mark.parametrize("said", ["Write a birthday card for my mom.", "I left my card at the restaurant, what now?",
                                  "My salary came in today, I'm happy!", "Show me Paris on the map."])
def test_a_money_word_outside_a_question_about_an_amount_calls_no_balance_tool(client, said):
    balance = tool("get_account_balance", "Get the balance of a bank account.",
                   {"account": {"type": "string", "enum": ["card", "savings"]}})
    response = ask(client, said, [_UNRELATED[1], balance])
    assert uses(response) == [] and text_of(response)


def test_a_money_question_without_a_money_tool_still_gets_honest_text(client):
    response = ask(client, "Сколько у меня осталось денег на карте?", _UNRELATED)
    assert uses(response) == [] and text_of(response)


# ------------------------------------------------------------------ 4. a step that needs an earlier result

_SOURCES = [("get_weather", "Get the current weather for a city.", {"city": S}, "the weather in Oslo", "the forecast",
             "Oslo: light snow, -3 °C"),
            ("get_stock_price", "Get the latest price of a stock.", {"ticker": S}, "the price of ACME", "the price",
             "ACME: 41.20 USD"),
            ("get_order_status", "Look up an order's status.", {"order_id": S}, "the status of order 5512", "it",
             "Order 5512: shipped")]


@PROPERTY
@given(source=st.sampled_from(_SOURCES), verb=st.sampled_from(["Check", "Look up", "Get"]),
       link=st.sampled_from(["and then", ", then", "and"]))
def test_property_a_message_carrying_a_result_waits_for_it_and_carries_it(client, source, verb, link):
    name, description, props, what, pointer, result = source
    mail = tool("send_email", "Send an email.", {"to": {"type": "string", "format": "email"}, "subject": S, "body": S})
    prompt = f"{verb} {what} {link} email {pointer} to kari@nordic.no.".replace(" , ", ", ")
    seen: list[list[str]] = []

    def answer(tool_name, tool_input):
        return (result if tool_name == name else "sent"), False

    final, responses = drive(client, prompt, [tool(name, description, props), mail], answer)
    seen = [[b.name for b in r.content if b.type == "tool_use"] for r in responses]
    assert seen[0] == [name], (prompt, seen)
    sent = [b.input for r in responses for b in r.content if b.type == "tool_use" and b.name == "send_email"]
    assert len(sent) == 1 and result in sent[0]["body"] and sent[0]["to"] == "kari@nordic.no", (prompt, sent)
    assert final.stop_reason == "end_turn"


@PROPERTY
@given(verb=st.sampled_from(["tag each of them as", "tag them all as", "tag each one as"]),
       tag=st.sampled_from(["priority", "vip", "follow-up"]), string_ids=st.booleans())
def test_property_tag_each_of_them_acts_on_every_item_the_search_returned(client, verb, tag, string_ids):
    ids = ["c11", "c14"] if string_ids else [11, 14]
    search = tool("search_contacts", "Search CRM contacts.", {"company": S})
    add_tag = tool("add_tag", "Add a tag to a contact.", {"contact_id": S if string_ids else {"type": "integer"},
                                                          "tag": S})
    prompt = f'Find all contacts at Globex, then {verb} "{tag}".'

    def answer(tool_name, tool_input):
        if tool_name == "search_contacts":
            return json.dumps([{"id": ids[0], "name": "Hank Scorpio"}, {"id": ids[1], "name": "Mindy Simmons"}]), False
        return "ok", False

    _, responses = drive(client, prompt, [search, add_tag, tool("delete_contact", "Delete a contact.",
                                                                {"contact_id": {"type": "integer"}})], answer)
    calls = [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]
    assert calls[0] == [("search_contacts", {"company": "Globex"})], calls
    tagged = [c for turn in calls[1:] for c in turn]
    assert tagged == [("add_tag", {"contact_id": i, "tag": tag}) for i in ids], (prompt, calls)


def test_a_closing_text_reads_naturally_for_a_result_keyed_by_its_subject(client):
    weather = tool("get_weather", "Get the current weather for a city.", {"city": S})
    final, _ = drive(client, "What's the weather in Oslo?", [weather],
                     lambda name, tool_input: ("Oslo: light snow, -3 °C", False))
    said = text_of(final)
    assert "Oslo: light snow" in said and "oslo of Oslo" not in said


# ------------------------------------------------------------------ values a command sets, handles, #channels

_COMMANDS = [  # (tool, its properties, the prompt, the fields it sets), each over two generated values
    ("rename_channel", ["channel", "new_name"], "Rename the channel #{} to {}.",
     ["general", "random", "ops-team"], ["team-chat", "announcements", "dev2"]),
    ("update_ticket", ["ticket_id", "status"], "Set the status of ticket {} to {}.",
     ["PROJ-12", "WEB-7", "API-301"], ["blocked", "done", "in_review"]),
    ("create_task", ["title", "owner"], 'Create a task "{}" for owner {}.', _TITLES, ["bsmith", "jdoe42", "a.lee"]),
]


@PROPERTY
@given(command=st.sampled_from(_COMMANDS), data=st.data())
def test_property_a_value_a_command_sets_or_a_login_after_its_word_goes_to_its_field(client, command, data):
    """"rename … to team-chat" for `new_name` (the channel keeps the old name), "set the status … to blocked" for
    `status`, "owner bsmith" for `owner`."""
    name, props, prompt, firsts, seconds = command
    first, second = data.draw(st.sampled_from(firsts)), data.draw(st.sampled_from(seconds))
    _, tool_input, _ = forced(client, tool(name, "Do it.", dict.fromkeys(props, S)), prompt.format(first, second))
    assert tool_input == dict(zip(props, [first, second], strict=True)), prompt.format(first, second)


def test_a_hashtag_channel_before_a_quoted_message_is_the_channel(client):
    spec = tool("send_message", "Send a chat message.", {"channel": {"type": "string", "description": "Channel name"},
                                                         "text": S})
    _, tool_input, _ = forced(client, spec, 'Post in the #ops channel: "Deploy finished at 14:05".')
    assert tool_input == {"channel": "ops", "text": "Deploy finished at 14:05"}


@pytest.mark.parametrize(("spec", "prompt", "wanted"), [
    (tool("create_task", "Создать задачу.", {"title": S, "assignee": {"type": "string", "description": "Исполнитель"},
                                              "due": {"type": "string", "format": "date"}}),
     "Создай задачу «Позвонить юристу», исполнитель — petrov, срок 3 апреля 2026.",
     {"title": "Позвонить юристу", "assignee": "petrov", "due": "2026-04-03"}),
    (tool("update_task", "Обновить задачу.", {"task_id": S, "status": S}), "Поставь статус задачи TASK-5 на «готово».",
     {"task_id": "TASK-5", "status": "готово"}),
    (tool("book_hotel", "Book a hotel.", {"city": S, "guests": {"type": "integer"}, "nights": {"type": "integer"}}),
     "Book a hotel in Lisbon for three nights, two guests.", {"city": "Lisbon", "guests": 2, "nights": 3}),
    (tool("add_note", "Add a note to a contact.", {"contact": S, "note": S}),
     "Add a note to Maria Lopez: prefers calls after 5pm.", {"contact": "Maria Lopez", "note": "prefers calls after 5pm"}),
    (tool("send_message", "Отправить сообщение.", {"channel": S, "text": S}),
     "Отправь в канал #general сообщение «Релиз готов».", {"channel": "general", "text": "Релиз готов"}),
    (tool("create_event", "Create an event.", {"title": S, "location": S}), 'Create "Demo" in Conference Room B.',
     {"title": "Demo", "location": "Conference Room B"}),
])
def test_labels_in_either_language_and_counted_nouns_go_to_their_fields(client, spec, prompt, wanted):
    """A label before a value («исполнитель — petrov») is no cue for the value before it; "3 nights" is the nights'
    even after "for"; a note is what its colon opens."""
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == wanted


@pytest.mark.parametrize(("prompt", "tools", "listed", "wanted"), [
    ("Search for open bugs in project API and assign each of them to jdoe.",
     [tool("search_issues", "Search issues.", {"project": S}),
      tool("assign_issue", "Assign an issue.", {"issue_key": S, "assignee": S})],
     [{"key": "API-1"}, {"key": "API-2"}],
     [("assign_issue", {"issue_key": "API-1", "assignee": "jdoe"}), ("assign_issue", {"issue_key": "API-2",
                                                                                      "assignee": "jdoe"})]),
    ("Find all invoices for Acme, then mark each of them as paid.",
     [tool("search_invoices", "Search invoices.", {"customer": S}),
      tool("mark_paid", "Mark an invoice as paid.", {"invoice_id": S})],
     [{"id": "INV-1"}, {"id": "INV-7"}], [("mark_paid", {"invoice_id": "INV-1"}), ("mark_paid", {"invoice_id": "INV-7"})]),
])
def test_an_action_on_each_listed_item_carries_the_value_the_ask_gives_it(client, prompt, tools, listed, wanted):
    _, responses = drive(client, prompt, tools, lambda name, tool_input: (
        json.dumps(listed) if name.startswith("search") else "ok", False))
    calls = [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]
    assert len(calls[0]) == 1 and [c for turn in calls[1:] for c in turn] == wanted, calls


@pytest.mark.parametrize("prompt", ['Schedule "Sync" on 2026-04-02 from 10 to 11:30.',
                                    'Schedule "Sync" on 2026-04-02, 10:00-11:30.',
                                    "Поставь «Sync» 2 апреля 2026 с 10 до 11:30."])
def test_a_range_of_clock_times_in_any_form_gives_the_start_and_the_end(client, prompt):
    spec = tool("create_event", "Create an event.", {"title": S, "start": {"type": "string", "format": "date-time"},
                                                     "end": {"type": "string", "format": "date-time"}})
    _, tool_input, _ = forced(client, spec, prompt)
    assert (tool_input["title"], tool_input["start"][:16], tool_input["end"][:16]) == (
        "Sync", "2026-04-02T10:00", "2026-04-02T11:30")
    assert not re.search(r"[+-]11:30$", tool_input["start"])  # "10:00-11:30" is a range, not a zone's offset


_LABELLED_FIELDS = [("subject", "Email subject", "subject", "тема"), ("body", "Message body", "body", "текст"),
                    ("title", "Title", "title", "название"), ("folder", "Folder name", "folder", "папка"),
                    ("project", "Project name", "project", "проект"), ("category", "Category", "category", "категория"),
                    ("comment", "Comment", "comment", "комментарий"), ("chat", "Chat name", "chat", "чат"),
                    ("label", "Label", "label", "метка"), ("room", "Room name", "room", "комната")]
_LABELLED_VALUES = ["Alpha plan", "Q3 numbers", "Blue Fern", "Night shift", "Draft two", "Север", "Отчёт за май", "Кухня"]


@PROPERTY
@given(fields=st.lists(st.sampled_from(_LABELLED_FIELDS), min_size=2, max_size=4, unique=True),
       values=st.permutations(_LABELLED_VALUES), russian=st.booleans(), quotes=st.sampled_from(['"{}"', "«{}»"]))
def test_property_each_quoted_value_goes_to_the_field_its_label_names(client, fields, values, russian, quotes):
    """Any set of fields named in English, labelled in the prompt in English or in Russian, in any order: each field
    takes the quote right after its label (and a number word inside a quote stays a word: "Draft two")."""
    said = ", ".join(f"{f[3] if russian else f[2]} {quotes.format(v)}" for f, v in zip(fields, values, strict=False))
    prompt = ("Сделай это: " if russian else "Do this: ") + said + "."
    spec = tool("do_it", "Do it.", {f[0]: {"type": "string", "description": f[1]} for f in fields})
    _, tool_input, _ = forced(client, spec, prompt)
    assert tool_input == {f[0]: v for f, v in zip(fields, values, strict=False)}, prompt


@pytest.mark.parametrize(("prompt", "tools", "result", "later"), [
    ("Найди контакты компании «Ромашка» и добавь каждому тег «VIP».",
     [tool("search_contacts", "Найти контакты.", {"company": S}),
      tool("add_tag", "Добавить тег контакту.", {"contact_id": S, "tag": S})],
     json.dumps([{"id": "c1", "name": "Анна"}, {"id": "c2", "name": "Олег"}]),
     [("add_tag", {"contact_id": "c1", "tag": "VIP"}), ("add_tag", {"contact_id": "c2", "tag": "VIP"})]),
    ("Узнай курс доллара и отправь его в чат «Финансы».",
     [tool("get_exchange_rate", "Курс валюты.", {"base": {"type": "string", "description": "Код ISO 4217"}}),
      tool("send_message", "Отправить сообщение в чат.", {"chat": S, "text": S})],
     "USD/RUB: 92.4", [("send_message", {"chat": "Финансы", "text": "USD/RUB: 92.4"})]),
    ("Summarize the file /docs/plan.md and then email the summary to lee@corp.io.",
     [tool("read_file", "Read a file.", {"path": S}),
      tool("send_email", "Send an email.", {"to": {"type": "string", "format": "email"}, "body": S})],
     "Plan: ship v2 in May.", [("send_email", {"to": "lee@corp.io", "body": "Plan: ship v2 in May."})]),
])
def test_a_later_step_on_what_the_first_returned_waits_for_it(client, prompt, tools, result, later):
    """«добавь каждому», «отправь его», "email the summary": the second step runs in the next turn, on the result."""
    _, responses = drive(client, prompt, tools, lambda name, tool_input: (result if name == tools[0]["name"] else "ok",
                                                                          False))
    calls = [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]
    assert [name for name, _ in calls[0]] == [tools[0]["name"]], calls
    assert [c for turn in calls[1:] for c in turn] == later, calls


_READS_FIRST = ["Email kari@nordic.no the forecast for Oslo.", "Send kari@nordic.no the weather in Oslo.",
                "Отправь на kari@nordic.no прогноз погоды в Осло."]
_SENDS_AT_ONCE = ['Email kari@nordic.no "See you in Oslo on Friday."',
                  "Email kari@nordic.no saying the forecast for Oslo looks fine."]


@pytest.mark.parametrize(("prompt", "first", "carries"), [
    *((prompt, "get_weather", True) for prompt in _READS_FIRST),
    *((prompt, "send_email", False) for prompt in _SENDS_AT_ONCE),
    ("Check the weather in Oslo, but don't email anyone.", "get_weather", False)])
def test_one_ask_that_sends_what_another_tool_reads_reads_it_first(client, prompt, first, carries):
    """The e-mail waits for the weather and carries it; an ask that gives its own text sends that at once; one that
    forbids the e-mail sends none."""
    weather = tool("get_weather", "Get the current weather for a city.", {"city": S})
    mail = tool("send_email", "Send an email.", {"to": {"type": "string", "format": "email"}, "subject": S, "body": S})
    _, responses = drive(client, prompt, [weather, mail], lambda name, tool_input: (
        "Oslo: light snow" if name == "get_weather" else "sent", False))
    calls = [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]
    assert [name for name, _ in calls[0]] == [first], calls
    sent = [tool_input for turn in calls for name, tool_input in turn if name == "send_email"]
    if "don't" in prompt:
        assert sent == []
    else:
        assert len(sent) == 1 and sent[0]["to"] == "kari@nordic.no" and ("Oslo: light snow" == sent[0]["body"]) is carries
