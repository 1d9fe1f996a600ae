"""Round 11 of the simulated model (issue #37, stop 63): it acts only when asked, and when asked on every item that
matches, by sentence structure and morphology in both languages, not by one domain's words. Properties over generated
tools (each domain a list tool and a destructive action tool, some verbs the table of actions does not know:
withdraw; the listed items carry a person, a title, a track, a weekday or a date, and a status) and generated
sentences:

1. a general question about how things of a kind get done, built on a passive (Russian reflexive -ется/-ются,
   -ится/-ятся: «Как вообще отменяются уроки?», «Уроки у вас как отменяются»; "How do bookings get refunded?",
   "How are lessons cancelled here"), with or without its question mark — no side-effect call;
2. a compound ask whose action step filters by a person named with a full name or an inflected Russian name ("the
   ones Anna Petrova is running", «те, у которых ведёт Анна Петрова», «занятия Анны Петровой», the first name alone)
   — exactly the matching items acted on; none listed matching: none, said plainly;
3. the same with a filter on a title word ("with 'yoga' in the title", «где в названии есть …»), a track or status
   value ("in the wellness track", «у которых статус draft») or a weekday ("the Tuesday ones", «вторничные», «по
   средам», an item's date read for its weekday) — every matching item, none other;
4. forced calls: a value the user stated wins over a placeholder, even one that reads as a placeholder ("role
   TBD"); a Russian name in another case reaches the field in the nominative; a day without its year in a sentence
   about the past is the most recent one;
and controls: a plain imperative on a concrete id is acted on; a booking for a day without its year is the next
one. Every conversation ends."""

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import checked, drive, forced, text_of, tool

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
TODAY = dt.date(2025, 1, 15)  # the sandbox's fixed today (slots.TODAY)

# (verb, -ed, noun, Russian imperative, Russian reflexive passive, Russian plural, Russian plural capitalised)
DOMAINS = [
    ("cancel", "cancelled", "lesson", "отмени", "отменяются", "уроки"),
    ("refund", "refunded", "booking", "верни деньги за", "возвращаются деньги за", "бронирования"),
    ("delete", "deleted", "workshop", "удали", "удаляются", "воркшопы"),
    ("archive", "archived", "project", "заархивируй", "архивируются", "проекты"),
    ("withdraw", "withdrawn", "application", "отзови", "отзываются", "заявки"),
    ("close", "closed", "ticket", "закрой", "закрываются", "тикеты"),
]


def _tools(domain):
    verb, _, noun, *_ = domain
    return [tool(f"list_{noun}s", f"List the {noun}s.", {}),
            tool(f"{verb}_{noun}", f"{verb.capitalize()} a {noun}. This cannot be undone.", {f"{noun}_id": S})]


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def _run(client, content, tools, listing):
    def answer(name, tool_input):
        return (json.dumps(listing) if name.startswith("list_") else '{"ok": true}'), False

    final, responses = drive(client, content, tools, answer)
    return final, responses, checked(responses, tools)


# --- 1. a general question built on a passive asks for a procedure ----------------------------------------------

PROCEDURE = [
    "Как вообще {rpass} {rpl}?",
    "Как обычно {rpass} {rpl} у вас?",
    "Интересно, а как {rpass} {rpl}?",
    "А как {rpass} {rpl}",
    "Интересно, как {rpass} {rpl}.",
    "Как у вас {rpass} {rpl}?",
    "How are {n}s {ed} here?",
    "How do {n}s get {ed}?",
    "How are {n}s usually {ed}",
    "{N}s — how are they {ed}?",
    "Just wondering: how can {n}s be {ed}?",
    "So how is a {n} {ed} in this place?",
    "I'm curious how {n}s are {ed}.",
]


@PROPERTY
@given(domain=st.sampled_from(DOMAINS), form=st.sampled_from(PROCEDURE))
def test_property_a_question_about_how_things_get_done_calls_no_side_effect(client, domain, form):
    verb, ed, noun, _, rpass, rpl = domain
    tools = _tools(domain)
    tools.append(tool(f"{verb}_{noun}s", f"{verb.capitalize()} {noun}s in bulk.", {"ids": {"type": "array",
                                                                                           "items": S}}))
    content = form.format(n=noun, N=noun.capitalize(), ed=ed, rpass=rpass, rpl=rpl)
    final, responses, calls = _run(client, content, tools, [{"id": f"{noun[:2].upper()}-1"}])
    assert all(name.startswith("list_") for name, _ in calls), (content, calls, [text_of(r) for r in responses])
    assert final.stop_reason == "end_turn"


@PROPERTY
@given(domain=st.sampled_from(DOMAINS), number=st.integers(1, 999),
       form=st.sampled_from(["{V} {n} {id}.", "Please {v} {n} {id}.", "{ruimp} {id}.", "{V} {id} now, please."]))
def test_property_control_a_plain_imperative_on_a_concrete_id_is_acted_on(client, domain, number, form):
    verb, _, noun, ruimp, *_ = domain
    ident = f"{noun[:2].upper()}-{number}"
    tools = _tools(domain)
    content = form.format(v=verb, V=verb.capitalize(), n=noun, ruimp=ruimp[0].upper() + ruimp[1:], id=ident)
    final, responses, calls = _run(client, content, tools, [])
    assert (tools[1]["name"], {f"{noun}_id": ident}) in calls, (content, calls, [text_of(r) for r in responses])
    assert final.stop_reason == "end_turn"


# --- 2. a person named with a full name, or in another case -----------------------------------------------------

# (nominative, genitive, instrumental); the Latin ones are the English sentences' and listings'
RU_PEOPLE = [("Анна Петрова", "Анны Петровой", "Анной Петровой"), ("Иван Смирнов", "Ивана Смирнова", "Иваном Смирновым"),
             ("Мария Кузнецова", "Марии Кузнецовой", "Марией Кузнецовой"),
             ("Борис Орлов", "Бориса Орлова", "Борисом Орловым")]
EN_PEOPLE = ["Anna Petrova", "Bob Smith", "Priya Shah", "Tomasz Nowak"]
EN_PERSON_FORMS = [
    "List the {n}s, then {v} the ones {p} conducts.",
    "List the {n}s, then {v} the ones {p} is running.",
    "Show me the {n}s and {v} the ones {p} takes.",
    "List all {n}s, then {v} those {p} teaches.",
    "List the {n}s, then {v} the ones {first} is running.",
    "List the {n}s and {v} those led by {p}.",
    "List the {n}s, then {v} the {n}s {p} teaches.",
    "List the {n}s, then {v} every {n} {p} is running.",
    "List the {n}s and then {v} {p}'s {n}s.",
    "List the {n}s, then {v} those with {p}.",
]
RU_PERSON_FORMS = [
    "Покажи {rpl} и {ruimp} те, у которых ведёт {p}.",
    "Покажи {rpl} и {ruimp} те, что ведёт {p}.",
    "Покажи {rpl}, потом {ruimp} {rpl} {gen}.",
    "Покажи {rpl} и {ruimp} {rpl} {firstgen}.",
    "Покажи {rpl} и {ruimp} {rpl} у {gen}.",
]
PERSON_KEYS = ["teacher", "host", "lead", "instructor", "run_by", "owner"]


def _listing(noun, owners, key, **more):
    return [{"id": f"{noun[:2].upper()}-{k + 1}", "title": f"{noun.capitalize()} {k + 1}", key: owner,
             **{field: values[k % len(values)] for field, values in more.items()}}
            for k, owner in enumerate(owners)]


def _said_none(text):
    return "None of the listed items matched" in text or "Ни одна из найденных записей не подходит" in text


@PROPERTY
@given(domain=st.sampled_from(DOMAINS), who=st.integers(0, 3), owners=st.lists(st.integers(0, 3), min_size=1,
                                                                               max_size=6),
       form=st.sampled_from(EN_PERSON_FORMS + RU_PERSON_FORMS), key=st.sampled_from(PERSON_KEYS))
def test_property_a_full_or_inflected_name_filter_acts_on_exactly_the_matching_items(client, domain, who, owners,
                                                                                      form, key):
    russian = form in RU_PERSON_FORMS
    verb, _, noun, ruimp, _, rpl = domain
    names = [p[0] for p in RU_PEOPLE] if russian else EN_PEOPLE
    listing = _listing(noun, [names[k] for k in owners], key)
    nominative, genitive, _ = RU_PEOPLE[who]
    content = form.format(n=noun, v=verb, rpl=rpl, ruimp=ruimp, p=nominative if russian else EN_PEOPLE[who],
                          first=EN_PEOPLE[who].split()[0], gen=genitive, firstgen=genitive.split()[0])
    tools = _tools(domain)
    final, responses, calls = _run(client, content, tools, listing)
    acted = [i[f"{noun}_id"] for name, i in calls if name == tools[1]["name"]]
    matching = [item["id"] for item in listing if item[key] == names[who]]
    assert acted == matching, (content, acted, matching, [text_of(r) for r in responses])
    if not matching:
        assert _said_none(text_of(final)), text_of(final)
    assert final.stop_reason == "end_turn"


def test_a_russian_name_matches_a_listing_written_in_latin_letters(client):
    tools = _tools(DOMAINS[0])
    listing = _listing("lesson", ["Anna Petrova", "Bob Smith", "Anna Petrova", "Priya Shah"], "teacher")
    for content, expected in [("Покажи уроки и отмени занятия Анны Петровой.", ["LE-1", "LE-3"]),
                              ("Покажи уроки, потом отмени уроки Боба Смита.", ["LE-2"])]:
        final, _, calls = _run(client, content, tools, listing)
        assert [i["lesson_id"] for name, i in calls if name == "cancel_lesson"] == expected, content
        assert final.stop_reason == "end_turn"


def test_a_person_the_listing_cannot_say_acts_on_nothing_and_says_so(client):
    tools = _tools(DOMAINS[0])
    listing = [{"id": f"LE-{k}", "room": k} for k in range(3)]
    final, _, calls = _run(client, "List the lessons, then cancel the ones Anna Petrova is running.", tools, listing)
    assert [name for name, _ in calls] == ["list_lessons"]
    assert "acted on none of them" in text_of(final), text_of(final)


# --- 3. a title word, a track or status value, a weekday --------------------------------------------------------

WORDS = ["yoga", "piano", "python", "budget"]
TITLES = ["Morning {W}", "Advanced {w} lab", "Evening drawing", "Intro to chess", "{W} for beginners", "Team sync"]
TRACKS = ["wellness", "music", "coding"]
STATUSES = ["draft", "scheduled", "done"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
RU_DAYS = [("понедельникам", "понедельничные"), ("вторникам", "вторничные"), ("средам", "средовые"),
           ("четвергам", "четверговые"), ("пятницам", "пятничные"), ("субботам", "субботние"),
           ("воскресеньям", "воскресные")]
TITLE_FORMS = ["List the {n}s, then {v} the ones with '{w}' in the title.",
               "List the {n}s and {v} those with {w} in their title.",
               "Покажи {rpl} и {ruimp} те, где в названии есть «{w}».",
               "Покажи {rpl} и {ruimp} те, у которых в названии есть слово {w}.",
               "List the {n}s, then {v} the ones whose title has {w} in it.",
               "Покажи {rpl} и {ruimp} те, в названии которых есть {w}.",
               "Покажи {rpl} и {ruimp} {rpl} с «{w}» в названии."]
TRACK_FORMS = ["List the {n}s, then {v} the ones in the {t} track.", "List the {n}s and {v} the {t} ones.",
               "Покажи {rpl} и {ruimp} те, что в треке {t}."]
STATUS_FORMS = ["List the {n}s, then {v} the ones with status {s}.", "List the {n}s and {v} those whose status is {s}.",
                "Покажи {rpl} и {ruimp} те, у которых статус {s}."]
DAY_FORMS = ["List the {n}s, then {v} the {d} ones.", "List the {n}s, then {v} the ones on {d}s.",
             "List the {n}s and {v} those held on {d}.", "Покажи {rpl} и {ruimp} те, что по {rudat}.",
             "Покажи {rpl} и {ruimp} {ruadj}.", "Покажи {rpl}, потом {ruimp} {rpl} по {rudat}."]


def _items(noun, count, word, dated):
    items = []
    for k in range(count):
        day = TODAY + dt.timedelta(days=(k * 3) % 11)
        items.append({"id": f"{noun[:2].upper()}-{k + 1}",
                      "title": TITLES[(k * 5) % len(TITLES)].format(w=word, W=word.capitalize()),
                      "teacher": EN_PEOPLE[k % 4], "track": TRACKS[(k * 2) % 3], "status": STATUSES[k % 3],
                      **({"starts_at": day.isoformat() + "T10:00:00Z"} if dated else {"weekday": DAYS[day.weekday()]})})
    return items


@PROPERTY
@given(domain=st.sampled_from(DOMAINS), count=st.integers(1, 7), word=st.sampled_from(WORDS),
       track=st.sampled_from(TRACKS), status=st.sampled_from(STATUSES), day=st.integers(0, 6), dated=st.booleans(),
       kind=st.sampled_from(["title", "track", "status", "day"]), pick=st.integers(0, 6))
def test_property_a_title_track_status_or_weekday_filter_acts_on_every_match_and_no_other(
        client, domain, count, word, track, status, day, dated, kind, pick):
    forms = {"title": TITLE_FORMS, "track": TRACK_FORMS, "status": STATUS_FORMS, "day": DAY_FORMS}[kind]
    form = forms[pick % len(forms)]
    verb, _, noun, ruimp, _, rpl = domain
    listing = _items(noun, count, word, dated)
    content = form.format(n=noun, v=verb, rpl=rpl, ruimp=ruimp, w=word, t=track, s=status, d=DAYS[day],
                          rudat=RU_DAYS[day][0], ruadj=RU_DAYS[day][1])

    def matches(item):
        if kind == "title":
            return word in item["title"].lower()
        if kind == "track":
            return item["track"] == track
        if kind == "status":
            return item["status"] == status
        said = dt.date.fromisoformat(item["starts_at"][:10]).weekday() if dated else DAYS.index(item["weekday"])
        return said == day

    tools = _tools(domain)
    final, responses, calls = _run(client, content, tools, listing)
    acted = [i[f"{noun}_id"] for name, i in calls if name == tools[1]["name"]]
    matching = [item["id"] for item in listing if matches(item)]
    assert acted == matching, (content, acted, matching, [text_of(r) for r in responses])
    if not matching:
        assert _said_none(text_of(final)), text_of(final)
    assert final.stop_reason == "end_turn"


def test_a_move_to_a_weekday_is_no_weekday_filter():
    from course_sandbox.simulated_model.result_conditions import conditions

    assert not any(c.kind == "weekday" for c in conditions("move the ones Anna teaches to Friday")[0])
    assert [c.value for c in conditions("cancel the ones on Fridays")[0] if c.kind == "weekday"] == [(4,)]
    assert [c.value for c in conditions("cancel the ones on Tuesday and Friday")[0] if c.kind == "weekday"] == [(1, 4)]
    assert [c.value for c in conditions("отмени те, что по вторникам и пятницам")[0] if c.kind == "weekday"] == [(1, 4)]


# --- 4. forced calls: what the user stated, in the nominative, in the past --------------------------------------

STATED = ["example", "unknown", "TBD", "n/a", "admin", "Berlin"]
STATED_FORMS = ["Create a record with {p} {x}.", "Log it: the {p} was {x}.", "Set the {p} to {x}.",
                "Record the {p}: {x}.", "New entry, {p} {x}, please save it."]
RU_LABELS = {"role": "Роль", "cause": "Причина", "owner": "Владелец", "location": "Место", "status": "Статус",
             "priority": "Приоритет"}


@PROPERTY
@given(prop=st.sampled_from(list(RU_LABELS)), value=st.sampled_from(STATED),
       form=st.sampled_from([*STATED_FORMS, "{ru} {x}, заведи запись.", "Укажи: {ru} — {x}."]))
def test_property_a_stated_value_always_wins_over_a_placeholder(client, prop, value, form):
    spec = tool("save_record", "Save a record.", {prop: S})
    content = form.format(p=prop, x=value, ru=RU_LABELS[prop])
    tool_input, text = forced(client, content, spec)
    assert tool_input[prop] == value, (content, tool_input, text)


FIELDS = [("teacher", "Покажи уроки у {gen}."), ("organizer", "Найди встречи с {ins}."),
          ("sender", "Найди письма от {gen}."), ("person", "Покажи расписание для {gen}."),
          ("guest", "Пригласи {acc} на встречу."), ("student", "Запиши на урок {acc}.")]
ACCUSATIVE = {"Анна Петрова": "Анну Петрову", "Мария Кузнецова": "Марию Кузнецову"}
"""A woman's name in the accusative; a man's has the genitive's form (Ивана Смирнова)."""


@PROPERTY
@given(person=st.sampled_from(RU_PEOPLE), field=st.sampled_from(FIELDS))
def test_property_a_russian_name_in_another_case_reaches_the_field_in_the_nominative(client, person, field):
    key, form = field
    spec = tool("find_items", "Find items by a person.", {key: S})
    content = form.format(gen=person[1], ins=person[2], acc=ACCUSATIVE.get(person[0], person[1]))
    tool_input, text = forced(client, content, spec)
    assert tool_input[key] == person[0], (content, tool_input, text)


MONTHS = [("January", "января"), ("February", "февраля"), ("March", "марта"), ("June", "июня"),
          ("September", "сентября"), ("December", "декабря")]
PAST_FORMS = ["What happened on {M} {d}?", "What was sold on {M} {d}?", "Что было {d} {m}?",
              "Какие были продажи {d} {m}?", "Что произошло {d} {m}?"]
RU_LAST = ["в прошлый понедельник", "в прошлый вторник", "в прошлую среду", "в прошлый четверг",
           "в прошлую пятницу", "в прошлую субботу", "в прошлое воскресенье"]


def _most_recent(month, day):
    for year in (TODAY.year, TODAY.year - 1):
        if dt.date(year, month, day) <= TODAY:
            return dt.date(year, month, day)
    raise AssertionError


@PROPERTY
@given(month=st.integers(0, 5), day=st.integers(1, 28), form=st.sampled_from(PAST_FORMS))
def test_property_a_past_day_without_its_year_is_the_most_recent_one(client, month, day, form):
    spec = tool("get_events", "Get what happened on a day.", {"date": {"type": "string", "format": "date"}})
    number = [1, 2, 3, 6, 9, 12][month]
    content = form.format(M=MONTHS[month][0], m=MONTHS[month][1], d=day)
    tool_input, text = forced(client, content, spec)
    assert tool_input["date"] == _most_recent(number, day).isoformat(), (content, tool_input, text)


@PROPERTY
@given(weekday=st.integers(0, 6), russian=st.booleans())
def test_property_last_weekday_is_the_one_before_today(client, weekday, russian):
    spec = tool("get_events", "Get what happened on a day.", {"date": {"type": "string", "format": "date"}})
    content = f"Что было {RU_LAST[weekday]}?" if russian else f"What did we ship last {DAYS[weekday]}?"
    tool_input, text = forced(client, content, spec)
    back = (TODAY.weekday() - weekday - 1) % 7 + 1
    assert tool_input["date"] == (TODAY - dt.timedelta(days=back)).isoformat(), (content, tool_input, text)


@PROPERTY
@given(month=st.integers(0, 5), day=st.integers(1, 28))
def test_property_control_a_booking_for_a_day_without_its_year_is_the_next_one(client, month, day):
    spec = tool("book_table", "Book a table.", {"date": {"type": "string", "format": "date"}})
    number = [1, 2, 3, 6, 9, 12][month]
    tool_input, text = forced(client, f"Book a table on {MONTHS[month][0]} {day}.", spec)
    expected = dt.date(TODAY.year, number, day)
    expected = expected if expected >= TODAY else dt.date(TODAY.year + 1, number, day)
    assert tool_input["date"] == expected.isoformat(), (tool_input, text)


@pytest.mark.parametrize("content", ["Что будет, если отозвать заявку AP-1?",
                                     "Я не собираюсь отзывать заявку AP-1, просто посмотри статус.",
                                     "Как вообще отзываются заявки?", "Интересно, как отзываются заявки."])
def test_a_russian_question_or_disclaimer_holds_back_an_action_the_table_does_not_know_without_a_reader(client,
                                                                                                         content):
    tools = [tool("withdraw_application", "Withdraw an application.", {"application_id": S}),
             tool("withdraw_applications", "Withdraw applications in bulk.", {"ids": {"type": "array", "items": S}})]
    final, responses, calls = _run(client, content, tools, [])
    assert calls == [], (content, calls)
    assert final.stop_reason == "end_turn"
