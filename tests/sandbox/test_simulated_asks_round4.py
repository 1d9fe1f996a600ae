"""Round 4 of issue #37 (probe 56b's classes, with tools and prompts of our own, both languages): every forced input
validates and carries the value the prompt states for its field; the asked action, and no other, is proposed; every
conversation ends.

1. a labelled value goes to the field its label names, at any depth, and not to a neighbour;
2. person names: first/last parts, Russian names in oblique cases in the nominative;
3. numbers in words and units («вчетвером», «четвёрку», «рублей … копеек»), example-shaped ids, alpha-2 countries;
4. compound asks worked on the first result: a condition, a conversion, the cheapest of a listing;
5. everyday words to tools (a stolen card, books on loan, «подбери … дешевле N»)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

S = {"type": "string"}
N = {"type": "number"}
PROPERTY = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def forced(client, spec: dict, prompt: str) -> dict:
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    [(name, tool_input)] = uses(response)
    assert name == spec["name"]
    assert validates(spec, tool_input)
    return tool_input


# ------------------------------------------------------------------ 1. labelled values

_PEOPLE = ["Nadia Okafor", "Lars Berg", "Chen Wei", "Ольга Лис", "Marta Ruiz"]
_REASONS = ["persistent knee pain when climbing stairs", "a rash that keeps coming back",
            "headaches every morning for two weeks", "боль в спине после тренировок"]


@PROPERTY
@given(person=st.sampled_from(_PEOPLE), boss=st.sampled_from(_PEOPLE), written=st.sampled_from(
    ["Their supervisor is {}", "supervisor: {}", "Supervisor name: {}"]))
def test_property_a_nested_object_takes_the_value_its_label_names(client, person, boss, written):
    if person == boss:
        return
    spec = tool("add_contractor", "Register a contractor", {
        "full_name": S, "team": {"type": "string", "enum": ["Ops", "Design", "Legal"]},
        "supervisor": {"type": "object", "properties": {"name": S, "phone": {**S, "description": "Phone number"}},
                       "required": ["name", "phone"]}})
    got = forced(client, spec, f"Register {person} in Design. {written.format(boss)}, phone +44 20 7946 0321.")
    assert got["supervisor"]["name"] == boss
    assert got["full_name"] == person


@PROPERTY
@given(reason=st.sampled_from(_REASONS), label=st.sampled_from(["Reason", "Причина"]))
def test_property_a_labelled_reason_is_the_reason_not_the_ask(client, reason, label):
    spec = tool("book_physio", "Book a physiotherapy session", {
        "patient": S, "reason": {**S, "description": "Why the patient comes"}, "date": {**S, "format": "date"}})
    got = forced(client, spec, f"Book a physio session for Lars Berg on 2027-04-12. {label}: {reason}.")
    assert got["reason"] == reason


@PROPERTY
@given(comment=st.sampled_from(["Хорошая работа", "Нужно повторить тему", "Great essay"]),
       quote=st.sampled_from(["«{}»", '"{}"']))
def test_property_a_labelled_comment_stays_out_of_the_title(client, comment, quote):
    spec = tool("log_review", "Log a code review note", {"title": S, "reviewer_comment": S})
    got = forced(client, spec, f"Log a review titled Parser cleanup, comment: {quote.format(comment)}.")
    assert got["reviewer_comment"] == comment
    assert got["title"] != comment


def test_an_organisation_is_the_payee_and_the_purpose_its_own(client):
    spec = tool("pay_supplier", "Оплатить поставщику", {
        "recipient_name": {**S, "description": "Получатель"}, "memo": {**S, "description": "Назначение платежа"},
        "sum_rub": {**N, "description": "Сумма в рублях"}})
    got = forced(client, spec, "Переведи АО «Северный ветер» 7 250 рублей 30 копеек, назначение: «Аренда за май».")
    assert got["recipient_name"] == "АО «Северный ветер»"
    assert got["memo"] == "Аренда за май"
    assert got["sum_rub"] == 7250.30


@pytest.mark.parametrize("iban", ["GB29 NWBK 6016 1331 9268 19", "FR14 2004 1010 0505 0001 3M02 606"])
def test_an_iban_with_spaces_is_read_whole(client, iban):
    spec = tool("wire", "Wire money", {"iban": {**S, "description": "Beneficiary IBAN"}, "note": S})
    got = forced(client, spec, f"Wire 90 EUR to IBAN {iban} with note 'Deposit'.")
    assert got["iban"] == iban.replace(" ", "")
    assert got["note"] == "Deposit"


def test_an_items_sku_is_not_the_order_number(client):
    spec = tool("exchange_items", "Exchange items of an order", {
        "order_ref": S, "lines": {"type": "array", "items": {"type": "object", "properties": {
            "sku": S, "qty": {"type": "integer"}}, "required": ["sku", "qty"]}}})
    got = forced(client, spec, "Exchange 3 units of SKU MUG-BLU and 1 unit of SKU PLT-WHT from order Q-77120.")
    assert [line["sku"] for line in got["lines"]] == ["MUG-BLU", "PLT-WHT"]


# ------------------------------------------------------------------ 2. person names

_RU_ACCUSATIVE = [("Соколову Марину Андреевну", "Соколова", "Марина"), ("Волкова Игоря Петровича", "Волков", "Игорь"),
                  ("Смирнову Анну Сергеевну", "Смирнова", "Анна")]
_RU_DATIVE = [("Ирине Морозовой", "Ирина Морозова"), ("Сергею Лебедеву", "Сергей Лебедев"),
              ("Наталье Зайцевой", "Наталья Зайцева")]


@pytest.mark.parametrize(("written", "last", "first"), _RU_ACCUSATIVE)
def test_a_russian_name_in_the_accusative_gives_first_and_last_in_the_nominative(client, written, last, first):
    spec = tool("register_visit", "Записать на приём", {"person": {"type": "object", "properties": {
        "surname": {**S, "description": "Фамилия"}, "given_name": {**S, "description": "Имя"}},
        "required": ["surname", "given_name"]}, "date": {**S, "format": "date"}})
    got = forced(client, spec, f"Запиши {written} на 3 апреля 2027.")
    assert (got["person"]["surname"], got["person"]["given_name"]) == (last, first)


@pytest.mark.parametrize(("written", "nominative"), _RU_DATIVE)
def test_a_russian_name_in_the_dative_is_the_nominative(client, written, nominative):
    spec = tool("give_award", "Вручить грамоту", {"pupil": {**S, "description": "ФИО ученика"}, "title": S})
    got = forced(client, spec, f"Вручи {written} грамоту «Лучший проект».")
    assert got["pupil"] == nominative


@pytest.mark.parametrize("name", ["Grace Hopper", "Alan Turing"])
def test_english_first_and_last_name_fields(client, name):
    spec = tool("add_member", "Add a club member", {"first_name": S, "last_name": S})
    got = forced(client, spec, f"Add {name} to the chess club.")
    assert f"{got['first_name']} {got['last_name']}" == name


# ------------------------------------------------------------------ 3. numbers in words and units, shapes, codes

@pytest.mark.parametrize(("said", "count"), [("едем вчетвером", 4), ("едем вдвоём", 2), ("едем впятером", 5)])
def test_russian_together_words_are_counts(client, said, count):
    spec = tool("book_table", "Забронировать столик", {"people": {"type": "integer", "description": "Сколько гостей"},
                                                        "date": {**S, "format": "date"}})
    got = forced(client, spec, f"Забронируй столик на 9 мая 2027, {said}.")
    assert got["people"] == count


@pytest.mark.parametrize(("said", "mark"), [("четвёрку", 4), ("тройку", 3), ("пятёрку", 5)])
def test_a_grade_in_words(client, said, mark):
    spec = tool("put_mark", "Поставить отметку", {"course": {**S, "description": "Предмет"},
                                                  "mark": {"type": "integer", "minimum": 1, "maximum": 5}})
    got = forced(client, spec, f"Поставь Илье {said} по физике.")
    assert got["mark"] == mark
    assert got["course"] == "физика"


@PROPERTY
@given(rub=st.integers(1, 99999), kop=st.integers(1, 99))
def test_property_roubles_and_kopecks_are_one_amount(client, rub, kop):
    spec = tool("refund", "Вернуть деньги", {"amount": {**N, "description": "Сумма, руб."}})
    got = forced(client, spec, f"Верни клиенту {rub} рублей {kop} копеек.")
    assert abs(got["amount"] - (rub + kop / 100)) < 1e-9


@pytest.mark.parametrize("group", ["10B", "5C", "11A"])
def test_a_value_of_the_shape_the_description_shows(client, group):
    spec = tool("enrol", "Enrol a pupil", {"form": {**S, "description": "Form group, e.g. 8D"}, "pupil": S})
    got = forced(client, spec, f"Enrol Tom Hale in form {group}.")
    assert got["form"] == group


@pytest.mark.parametrize(("country", "code"), [("Germany", "DE"), ("Japan", "JP"), ("Canada", "CA")])
def test_an_alpha2_country_in_a_nested_address(client, country, code):
    spec = tool("ship", "Ship a parcel", {"to": {"type": "object", "properties": {
        "city": S, "country": {**S, "description": "ISO 3166-1 alpha-2"}}, "required": ["city", "country"]}})
    got = forced(client, spec, f"Ship it to 4 Market Lane, Springfield, {country}.")
    assert got["to"]["country"] == code


# ------------------------------------------------------------------ 4. compound asks worked on the first result

def _run(client, prompt, tools, results):
    called = []

    def answer(name, tool_input):
        called.append((name, tool_input))
        return json.dumps(results[name]), False

    final, responses = drive(client, prompt, tools, answer)
    assert final.stop_reason == "end_turn"
    return called, text_of(final)


_HUMIDITY = [tool("read_humidity", "Current humidity in a room, percent", {"room": {"type": "string",
                                                                                    "enum": ["office", "lab"]}}),
             tool("set_humidifier", "Set the humidifier target", {"room": {"type": "string", "enum": ["office", "lab"]},
                                                                  "target": N})]


@pytest.mark.parametrize(("reading", "acts"), [(31, True), (48, False)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_conditional_action_is_taken_only_when_the_result_meets_it(client, reading, acts, lang):
    prompt = {"en": "Check the humidity in the lab, and if it is below 40, set the humidifier to 45.",
              "ru": "Проверь влажность в lab, и если меньше 40, поставь увлажнитель на 45."}[lang]
    called, said = _run(client, prompt, _HUMIDITY, {"read_humidity": {"percent": reading}, "set_humidifier": {
        "ok": True}})
    assert called[0] == ("read_humidity", {"room": "lab"})
    if acts:
        assert called[1:] == [("set_humidifier", {"room": "lab", "target": 45})]
    else:
        assert len(called) == 1 and "set_humidifier" in said


@pytest.mark.parametrize(("amount", "rate"), [(150, 0.5), (80, 1.25)])
def test_a_converted_amount_is_sent_after_the_rate(client, amount, rate):
    tools = [tool("fx_rate", "Exchange rate between two currencies", {"from_ccy": S, "to_ccy": S}),
             tool("pay_friend", "Pay a friend", {"friend": S, "amount": N, "currency": {**S, "description": "ISO 4217"}})]
    called, _ = _run(client, f"Get the GBP to EUR rate, then pay Jonas Frei the euro equivalent of {amount} GBP.",
                     tools, {"fx_rate": {"rate": rate}, "pay_friend": {"status": "paid"}})
    assert [c[0] for c in called] == ["fx_rate", "pay_friend"]
    assert called[1][1] == {"friend": "Jonas Frei", "amount": round(amount * rate, 2), "currency": "EUR"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_cheapest_of_a_listing_is_booked(client, lang):
    tools = [tool("find_rooms", "Find hotel rooms; returns room_id and price", {"city": S}),
             tool("reserve_room", "Reserve a hotel room", {"room_id": S, "guest": {**S, "description": "Guest name"}})]
    prompt = {"en": "Find rooms in Porto and reserve the cheapest one in the name of Lea Roth.",
              "ru": "Найди номера в Порту и забронируй самый дешёвый на имя Леи Рот."}[lang]
    listing = {"rooms": [{"room_id": "R1", "price": 140}, {"room_id": "R2", "price": 95}, {"room_id": "R3",
                                                                                           "price": 120}]}
    called, _ = _run(client, prompt, tools, {"find_rooms": listing, "reserve_room": {"ok": True}})
    assert [c[0] for c in called] == ["find_rooms", "reserve_room"]
    assert called[1][1]["room_id"] == "R2"


# ------------------------------------------------------------------ 5. everyday words to tools

_BANK = [tool("account_balance", "Show the balance of an account", {"account": S}),
         tool("freeze_card", "Freeze a payment card", {"last_digits": {"type": "string", "pattern": "^\\d{4}$"}})]


@pytest.mark.parametrize("prompt", ["My purse was stolen with the card ending 9034, make sure no one can use it.",
                                    "Украли кошелёк, карта на 9034 — заблокируй её."])
def test_a_stolen_card_is_frozen(client, prompt):
    response = ask(client, prompt, _BANK)
    assert uses(response) == [("freeze_card", {"last_digits": "9034"})]


def test_a_lost_card_alone_freezes_nothing(client):
    response = ask(client, "I lost my keys yesterday.", _BANK)
    assert not uses(response)


@pytest.mark.parametrize("prompt", ["Какие книги сейчас у меня на руках?", "Which books have I borrowed?"])
def test_books_on_loan_are_listed(client, prompt):
    tools = [tool("catalogue_search", "Search the catalogue", {"query": S}, ["query"]),
             tool("extend_loan", "Extend a loan", {"loan_id": S}),
             tool("my_loans", "List the reader's current loans", {}, [])]
    response = ask(client, prompt, tools)
    assert uses(response) == [("my_loans", {})]


def test_a_search_with_a_price_limit_takes_the_thing_and_the_limit(client):
    tools = [tool("order_status", "Статус заказа", {"order_id": S}),
             tool("find_goods", "Поиск товаров", {"query": S, "price_max": {**N, "description": "Цена до, руб."}},
                  ["query"])]
    response = ask(client, "Подбери зимние ботинки дешевле 7000 рублей.", tools)
    [(name, tool_input)] = uses(response)
    assert name == "find_goods"
    assert tool_input == {"query": "зимние ботинки", "price_max": 7000}


_STOCK = [tool("get_stock", "Units in stock for a SKU", {"sku": S}),
          tool("reorder", "Reorder units of a SKU", {"sku": S, "units": {"type": "integer"}})]


@PROPERTY
@given(left=st.integers(0, 30), threshold=st.integers(1, 20), amount=st.integers(21, 90))
def test_property_a_conditional_reorder_follows_the_returned_number(client, left, threshold, amount):
    called, said = _run(client, f"Check the stock of SKU AB-100 and if fewer than {threshold} are left, reorder "
                                f"{amount}.", _STOCK, {"get_stock": {"sku": "AB-100", "units": left},
                                                        "reorder": {"ok": True}})
    assert called[0] == ("get_stock", {"sku": "AB-100"})
    assert called[1:] == ([("reorder", {"sku": "AB-100", "units": amount})] if left < threshold else [])
    assert left < threshold or "reorder" in said


@pytest.mark.parametrize("prompt", ["Check the stock of SKU AB-100, and if it is below 5, don't reorder.",
                                    "Проверь остаток SKU AB-100, и если меньше 5, не заказывай."])
def test_a_negated_conditional_action_is_never_taken(client, prompt):
    called, _ = _run(client, prompt, _STOCK, {"get_stock": {"sku": "AB-100", "units": 3}})
    assert [c[0] for c in called] == ["get_stock"]


@pytest.mark.parametrize(("written", "author"), [("«Отцы и дети» Тургенева", "Тургенев"),
                                                 ("«Реквием» Ахматовой", "Ахматова"),
                                                 ("«Идиот» Достоевского", "Достоевский")])
def test_a_works_author_in_the_genitive_is_the_nominative(client, written, author):
    spec = tool("hold_book", "Отложить книгу", {"title": {**S, "description": "Название"},
                                                "author": {**S, "description": "Автор"}})
    got = forced(client, spec, f"Отложи {written} до пятницы.")
    assert got["author"] == author


@pytest.mark.parametrize("prompt", ["Включи свет в спальне на 40 процентов.", "Turn the bedrooms' lights to 40%."])
def test_an_enum_value_written_in_another_form_is_not_called_a_placeholder(client, prompt):
    spec = tool("dim", "Set a room's light level", {"room": {"type": "string", "enum": ["bedroom", "спальня", "hall"]},
                                                   "level": {"type": "integer"}})
    spec["input_schema"]["properties"]["room"]["enum"] = ["спальня", "hall"] if "спальне" in prompt else ["bedroom",
                                                                                                          "hall"]
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": "dim"})
    [(_, tool_input)] = uses(response)
    assert tool_input["room"] in ("спальня", "bedroom")
    assert "room" not in text_of(response)


def test_an_items_description_ends_at_the_clause_after_it(client):
    spec = tool("bill", "Bill a client", {"lines": {"type": "array", "items": {"type": "object", "properties": {
        "description": S, "qty": {"type": "integer"}, "unit_price": N}, "required": ["description", "qty",
                                                                                     "unit_price"]}},
        "due_days": {"type": "integer", "description": "Payment term in days"}})
    got = forced(client, spec, "Bill 2 hours of design at 80 EUR each and 1 hosting plan at 30 EUR, due in 14 days.")
    assert [line["description"] for line in got["lines"]] == ["design", "hosting plan"]
    assert got["due_days"] == 14
