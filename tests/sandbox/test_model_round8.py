"""Round 8 of the simulated model (issue #37, stop 61), by mechanism, as properties over generated tools and prompts
in domains of their own (gym classes, subscriptions, plumbing, task boards, salons, parcels…): a Russian request
reaches a tool that speaks English through a small bridge of action verbs and nouns; a tool's own description alone
ties an everyday word to it; a later step acts only on the listed items whose field holds the stated value; an
inflected Russian word names the enum member it stands for; a day said relative to today is resolved and said in
text; a possessive names the person; a polite question asking for an action is acted on, a question about how it
works is not. Every call validates against its tool's schema; no action the request did not ask for; every
conversation ends."""

import datetime as dt
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.simulated_model import slots
from tool_use_helpers import ask, checked, drive, forced, text_of, tool, uses

PROPERTY = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
"""Derandomized like the other sandbox properties: a property that passes on one run and fails on the next tests luck.
Hypothesis does not sample evenly (with 60 examples it drew 16 of the first property's 24 thing-verb pairs, with 150
still 17), so a property whose every pair matters takes its pairs from pytest's parametrize instead (IDENTS)."""
IDENTS = settings(max_examples=5, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
DATE = {"type": "string", "format": "date"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


IDS = st.from_regex(r"[A-Z]{2}-[0-9]{3,5}", fullmatch=True)


# --- 1. a Russian request against tools that speak English ---------------------------------------------------------

THINGS = [  # (the English noun a tool names, the Russian noun as the request writes it)
    ("subscription", "подписку"), ("reservation", "бронь"), ("note", "заметку"), ("reminder", "напоминание"),
    ("booking", "бронь"), ("appointment", "запись на приём"),
]
VERBS = [("cancel", "Отмени"), ("cancel", "Отмените, пожалуйста,"), ("delete", "Удали"), ("delete", "Сотри")]


@pytest.mark.parametrize("verb", VERBS, ids=[said for _, said in VERBS])
@pytest.mark.parametrize("thing", THINGS, ids=[noun for noun, _ in THINGS])
@IDENTS
@given(ident=IDS)
def test_property_a_russian_ask_reaches_the_english_tool_it_names(client, thing, verb, ident):
    noun, russian = thing
    action, said = verb
    tools = [tool(f"list_{noun}s", f"List the user's {noun}s.", {}),
             tool(f"cancel_{noun}", f"Cancel a {noun} by its id.", {f"{noun}_id": S}),
             tool(f"delete_{noun}", f"Delete a {noun} permanently.", {f"{noun}_id": S})]
    response = ask(client, f"{said} {russian} {ident}.", tools)
    calls = checked([response], tools)
    assert calls == [(f"{action}_{noun}", {f"{noun}_id": ident})], text_of(response)


# The simulated model once took `note_id` for a text to send on ("note" is a text field's word) and "Cancel note
# AA-123." for a send-on of what list_notes reads: list_notes was called, cancel_note never (hypothesis found it). An
# `<noun>_id` field holds an id whatever its noun, so every noun that is also a text or label word is asked here.
OWN_NOUNS = [("note", "заметку"), ("message", "сообщение"), ("comment", "комментарий"), ("text", "текст"),
             ("description", "описание"), ("summary", "сводку"), ("report", "отчёт"), ("memo", "памятку"),
             ("title", "заголовок"), ("subject", "тему"), ("link", "ссылку"), ("label", "метку")]


@pytest.mark.parametrize("field", ["{noun}_id", "{noun}Id"])
@pytest.mark.parametrize("verb", [("cancel", "Cancel", "Отмени"), ("delete", "Delete the", "Удали")])
@pytest.mark.parametrize("english", [True, False], ids=["en", "ru"])
@pytest.mark.parametrize("noun", OWN_NOUNS, ids=[n for n, _ in OWN_NOUNS])
def test_an_id_field_named_after_a_text_word_takes_the_id_and_its_action_is_called(client, noun, english, verb,
                                                                                     field):
    noun, russian = noun
    action, said, russian_verb = verb
    key = field.format(noun=noun)
    tools = [tool(f"list_{noun}s", f"List the user's {noun}s.", {}),
             tool(f"cancel_{noun}", f"Cancel a {noun} by its id.", {key: S}),
             tool(f"delete_{noun}", f"Delete a {noun} permanently.", {key: S})]
    content = f"{said} {noun} AB-1234." if english else f"{russian_verb} {russian} AB-1234."
    response = ask(client, content, tools)
    assert checked([response], tools) == [(f"{action}_{noun}", {key: "AB-1234"})], text_of(response)


@pytest.mark.parametrize("content", ["Archive note AB-12.", "Заархивируй заметку AB-12."])
def test_archiving_a_note_by_its_id_archives_it(client, content):
    tools = [tool("list_notes", "List the user's notes.", {}), tool("get_note", "Show one note by its id.", {"note_id": S}),
             tool("archive_note", "Archive a note.", {"note_id": S})]
    response = ask(client, content, tools)
    assert checked([response], tools) == [("archive_note", {"note_id": "AB-12"})], text_of(response)


LISTED = [("subscription", "подписки"), ("reminder", "напоминания"), ("invoice", "счета"), ("booking", "брони")]


@PROPERTY
@given(thing=st.sampled_from(LISTED), verb=st.sampled_from(["Покажи мои", "Выведи мои", "Перечисли мои"]))
def test_property_a_russian_listing_reaches_the_english_reader_and_nothing_else(client, thing, verb):
    noun, russian = thing
    tools = [tool(f"cancel_{noun}", f"Cancel a {noun}.", {f"{noun}_id": S}),
             tool(f"list_{noun}s", f"List the user's {noun}s.", {})]
    response = ask(client, f"{verb} {russian}.", tools)
    assert checked([response], tools) == [(f"list_{noun}s", {})], text_of(response)


# --- 2. everyday words tied to a tool only by its own description --------------------------------------------------

DESCRIBED = [  # (tool name, description, an everyday request that never names the tool)
    ("request_plumber", "Dispatch a plumber for leaks and blocked drains.", "My kitchen sink is leaking again."),
    ("dispatch_locksmith", "Send a locksmith when someone is locked out.", "I'm locked out of my flat!"),
    ("report_outage", "Report a power outage at an address.", "There's an outage on our street since noon."),
    ("find_vet", "Find an open veterinary clinic nearby.", "Is there a veterinary clinic open near me?"),
    ("vyzvat_santehnika", "Вызвать сантехника, если течёт кран или засор.", "У меня течёт кран на кухне."),
]


@PROPERTY
@given(case=st.sampled_from(DESCRIBED), other=st.sampled_from(["get_horoscope", "convert_units", "roll_dice"]))
def test_property_a_tools_own_description_ties_an_everyday_word_to_it(client, case, other):
    name, description, content = case
    tools = [tool(other, f"{other.replace('_', ' ').capitalize()}.", {}), tool(name, description, {})]
    response = ask(client, content, tools)
    assert checked([response], tools) == [(name, {})], text_of(response)


def test_a_word_every_tool_describes_ties_the_request_to_none(client):
    tools = [tool("archive_project", "Archive a project.", {}), tool("rename_project", "Rename a project.", {})]
    response = ask(client, "Tell me a fun fact about projects in general.", tools)
    assert not uses(response)


# --- 3. a later step acts only on the listed items whose field holds the stated value -----------------------------

STATES = ["stale", "blocked", "draft", "obsolete", "duplicate"]
ASKS = ["List the {plural} in board {board}, then close the ones that are still marked {state}.",
        "Show the {plural} of board {board} and close those still marked as {state}.",
        "Покажи {ru} доски {board}, и закрой те, что всё ещё помечены {state}."]
BOARDS = [("task", "задачи"), ("card", "карточки"), ("ticket", "тикеты")]


@PROPERTY
@given(board=st.sampled_from(BOARDS), ask_form=st.sampled_from(ASKS), state=st.sampled_from(STATES),
       other=st.sampled_from(["active", "done", "open"]), marks=st.lists(st.booleans(), min_size=2, max_size=6),
       name=st.sampled_from(["Apollo", "Kestrel", "Orion"]))
def test_property_only_the_items_whose_field_holds_the_value_are_acted_on(client, board, ask_form, state, other,
                                                                          marks, name):
    noun, ru = board
    tools = [tool(f"list_{noun}s", f"List the {noun}s on a board.", {"board": S}),
             tool(f"close_{noun}", f"Close a {noun}.", {f"{noun}_id": S})]
    listing = [{"id": f"{noun[0].upper()}{k + 1}", "status": state if marked else other, "title": f"item {k}"}
               for k, marked in enumerate(marks)]

    def answer(tool_name, tool_input):
        return (json.dumps(listing) if tool_name.startswith("list_") else '{"ok": true}'), False

    content = ask_form.format(plural=f"{noun}s", board=name, state=state, ru=ru)
    final, responses = drive(client, content, tools, answer)
    calls = checked(responses, tools)
    closed = [tool_input[f"{noun}_id"] for tool_name, tool_input in calls if tool_name == f"close_{noun}"]
    assert closed == [item["id"] for item in listing if item["status"] == state], [text_of(r) for r in responses]
    assert final.stop_reason == "end_turn"


# --- 4. an inflected Russian word names its enum member --------------------------------------------------------------

CLASSES = [  # (enum member, how a request writes it after «на»)
    ("yoga", "йогу"), ("pilates", "пилатес"), ("йога", "йогу"), ("бокс", "бокс"), ("танцы", "танцы"),
    ("растяжка", "растяжку"), ("аэробика", "аэробику"),
]


@PROPERTY
@given(member=st.sampled_from(CLASSES), others=st.permutations(["zumba", "crossfit", "плавание"]),
       first=st.booleans())
def test_property_an_inflected_word_names_its_enum_member_and_is_no_placeholder(client, member, others, first):
    value, written = member
    options = [value, *others] if first else [*others, value]
    spec = tool("book_class", "Book a fitness class.", {"class_type": {"type": "string", "enum": options}})
    tool_input, said = forced(client, f"Запиши меня на {written}.", spec)
    assert tool_input["class_type"] == value
    assert "class_type" not in said, said  # named, so not said to be a placeholder


ROOMS = [("малая переговорная", "в малой переговорной"), ("большая переговорная", "в большой переговорной"),
         ("зелёная комната", "в зелёной комнате")]


@PROPERTY
@given(room=st.sampled_from(ROOMS), time=st.sampled_from(["10:00", "15:30", "9:15"]))
def test_property_an_inflected_room_is_the_enum_member_in_the_nominative(client, room, time):
    value, written = room
    options = [r for r, _ in ROOMS]
    spec = tool("book_room", "Book a meeting room.", {"room": {"type": "string", "enum": options}, "time": S})
    tool_input, said = forced(client, f"Забронируй встречу {written} на {time}.", spec)
    assert tool_input == {"room": value, "time": time.zfill(5)} and "room" not in said, said


# --- 5. a day said relative to today is resolved, and said ------------------------------------------------------

DAYS = [("next Tuesday", 1), ("for Friday", 4), ("by Monday", 0), ("в пятницу", 4), ("на среду", 2),
        ("в следующий четверг", 3), ("tomorrow", None), ("послезавтра", None)]


@PROPERTY
@given(day=st.sampled_from(DAYS), size=st.integers(1, 8), forcing=st.booleans())
def test_property_a_relative_day_becomes_a_date_that_the_text_states(client, day, size, forcing):
    phrase, weekday = day
    spec = tool("book_table", "Book a restaurant table.", {"party_size": {"type": "integer"}, "date": DATE})
    russian = not phrase.isascii()
    content = (f"Забронируй столик на {size} {phrase}." if russian else f"Book a table for {size} {phrase}.")
    kw = {"tool_choice": {"type": "tool", "name": "book_table"}} if forcing else {}
    response = ask(client, content, [spec], **kw)
    (name, tool_input), = checked([response], [spec])
    date = dt.date.fromisoformat(tool_input["date"])
    today = slots.TODAY
    assert today < date <= today + dt.timedelta(days=7)
    if weekday is not None:
        assert date.weekday() == weekday
    assert tool_input["date"] in text_of(response), text_of(response)  # never a resolved date in silence


def test_an_absolute_date_needs_no_note(client):
    spec = tool("book_table", "Book a restaurant table.", {"party_size": {"type": "integer"}, "date": DATE})
    response = ask(client, "Book a table for 2 on 2026-03-14.", [spec])
    assert uses(response) == [("book_table", {"party_size": 2, "date": "2026-03-14"})]
    assert "took" not in text_of(response)


# --- 6. a possessive names the person ------------------------------------------------------------------------------

EN_NAMES = ["Anna", "Tom", "Priya", "Oluwaseun", "Mateo"]
EN_VERBS = ["Cancel", "Reschedule", "Confirm", "Postpone", "Please cancel"]
RU_POSSESSIVES = [("Машин", "Маша"), ("Петин", "Петя"), ("Катин", "Катя"), ("Сашин", "Саша"), ("Димин", "Дима"),
                  ("Танин", "Таня")]


@PROPERTY
@given(name=st.sampled_from(EN_NAMES), verb=st.sampled_from(EN_VERBS),
       thing=st.sampled_from(["appointment", "booking", "order", "lesson"]))
def test_property_an_english_possessive_names_the_person(client, name, verb, thing):
    spec = tool(f"manage_{thing}", f"Change a customer's {thing}.", {"customer_name": S})
    tool_input, _ = forced(client, f"{verb} {name}'s {thing}.", spec)
    assert tool_input["customer_name"] == name


@PROPERTY
@given(owner=st.sampled_from(RU_POSSESSIVES), verb=st.sampled_from(["Отмени", "Перенеси", "Подтверди", "Покажи"]),
       thing=st.sampled_from(["заказ", "билет", "абонемент"]))
def test_property_a_russian_possessive_names_the_person_in_the_nominative(client, owner, verb, thing):
    written, person = owner
    spec = tool("manage_order", "Change a customer's order.", {"customer_name": S})
    tool_input, _ = forced(client, f"{verb} {written} {thing}.", spec)
    assert tool_input["customer_name"] == person


@pytest.mark.parametrize("content", ["Позвони Ильину насчёт отчёта.", "Позвони Ильину завтра.",
                                     "Позвони Ильину сказать про отчёт.", "Кто такой Ильин?"])
def test_a_surname_before_no_noun_is_no_possessive(client, content):
    spec = tool("call_person", "Call a person.", {"person_name": S})
    tool_input, _ = forced(client, content, spec)
    assert tool_input["person_name"] != "Илья"  # the surname Ильин, not Илья's


# --- 7. a placeholder is said ----------------------------------------------------------------------------------------

@PROPERTY
@given(field=st.sampled_from(["channel", "recipient", "venue", "project"]),
       content=st.sampled_from(["Send it.", "Do it now.", "Отправь это."]))
def test_property_a_placeholder_in_a_forced_call_is_said_in_text(client, field, content):
    spec = tool("send_update", "Send an update.", {field: S})
    tool_input, said = forced(client, content, spec)
    if str(tool_input[field]).startswith(("example", "пример")):
        assert field in said, said


# --- 8. a polite question asking for an action is acted on; one about how it works is not ---------------------------

POLITE = ["Can you cancel {noun} {id}, please?", "Could you cancel {noun} {id}?", "Would you cancel {noun} {id}?",
          "Можете отменить {ru} {id}?", "Не могли бы вы отменить {ru} {id}?"]
CURIOUS = ["How does cancelling a {noun} work?", "What happens when a {noun} is cancelled?",
           "Как работает отмена {ru_gen}?"]
POLICIES = [("subscription", "подписку", "подписки"), ("membership", "абонемент", "абонемента"),
            ("reservation", "бронь", "брони")]


@PROPERTY
@given(policy=st.sampled_from(POLICIES), form=st.sampled_from(POLITE), ident=IDS)
def test_property_a_polite_question_that_asks_for_the_action_is_acted_on(client, policy, form, ident):
    noun, ru, _ = policy
    tools = [tool(f"get_{noun}", f"Look up a {noun}.", {f"{noun}_id": S}),
             tool(f"cancel_{noun}", f"Cancel a {noun}.", {f"{noun}_id": S})]
    response = ask(client, form.format(noun=noun, ru=ru, id=ident), tools)
    assert checked([response], tools) == [(f"cancel_{noun}", {f"{noun}_id": ident})], text_of(response)


@PROPERTY
@given(policy=st.sampled_from(POLICIES), form=st.sampled_from(CURIOUS))
def test_property_a_question_about_how_an_action_works_makes_no_call(client, policy, form):
    noun, _, ru_gen = policy
    tools = [tool(f"cancel_{noun}", f"Cancel a {noun}.", {f"{noun}_id": S})]
    response = ask(client, form.format(noun=noun, ru_gen=ru_gen), tools)
    assert not uses(response), text_of(response)
    assert f"cancel_{noun}" in text_of(response)  # the held-back tool is named, with how to ask for it


# --- held back: one mechanism, two meanings -------------------------------------------------------------------------

def test_a_question_about_an_action_and_a_curious_general_one_are_told_apart(client):
    tools = [tool("cancel_policy", "Cancel an insurance policy.", {"policy_id": S})]
    about = text_of(ask(client, "What would happen if I cancelled policy HO-4471?", tools))
    general = text_of(ask(client, "Just curious, how do people usually cancel an insurance policy?", tools))
    assert "You asked about it, not for it" in about and "cancel_policy" in about
    assert "You asked in general" in general and "cancel_policy" in general
    # both say how to have it done: ask for the action itself
    assert re.search(r"ask me to do it", about) and re.search(r"ask me plainly and I will do it", general)
