"""Round 12 of the simulated model (issue #37, stop 63): on a forced call each value the user stated reaches the
property it belongs to, in the stated form, by sentence structure and morphology in both languages. Properties over
generated tools (schemas in the style of real apps, about 40% Russian) and generated sentences:

2. a yes/no said in words in Russian («Ключи на месте», «Паспорт есть», «Паспорта нет», «ключи не на месте») fills
   the boolean whose description or name asks it, never the default;
3. a Russian proper name reaches the property in the nominative: a name in -я/-а in the dative («Позвони Пете
   Орлову»: Петя Орлов, «Напиши Коле»: Коля, «Анне»: Анна), a man's name in -а/-я in the accusative («Пригласи Петю
   Орлова»: Петя Орлов), an animate masculine accusative after a verb that takes it («Найди Шарика»: Шарик, «Забери
   Кузю»: Кузя), while a place name already in the nominative stays whole («в Бутово», «в Малаховку»: Малаховка);
and controls: round 11's forced-call controls still hold (a stated value wins over a placeholder; a woman's name in
the accusative reaches the nominative), and a boolean the request does not speak of stays false. Every conversation
ends.

1. (part) several counts for several integer properties, each next to its Russian noun: the count goes to the property
   whose description names that noun («2 номера на 5 ночей» for `rooms` «Число номеров», `nights` «Число ночей»),
   whatever order the properties and the counts come in;
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import forced, tool

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
B = {"type": "boolean"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# --- 2. a yes/no said in words in Russian ----------------------------------------------------------------------

# (property, Russian description or "", nominative, genitive): a thing that is there or not
THINGS = [("keys_present", "", "Ключи", "Ключей"), ("has_passport", "", "Паспорт", "Паспорта"),
          ("in_stock", "Есть ли товар на складе", "Товар", "Товара"),
          ("documents_ok", "Документы на месте", "Документы", "Документов"),
          ("has_charger", "", "Зарядка", "Зарядки"), ("helmet_present", "Шлем выдан", "Шлем", "Шлема")]
YES = ["{nom} на месте.", "{nom} есть.", "{nom} в наличии, оформи.", "Проверил: {nom} на месте.",
       "{nom} уже есть, запиши."]
NO = ["{gen} нет.", "{nom} не на месте.", "Проверил: {gen} нет.", "{gen} пока нет, запиши.", "Нет {gen_l}."]
APPS = [("log_check", "Записать результат проверки."), ("save_inventory", "Сохранить состояние склада."),
        ("update_checklist", "Обновить чек-лист поездки.")]


@PROPERTY
@given(thing=st.sampled_from(THINGS), said=st.booleans(), pick=st.integers(0, 4), app=st.sampled_from(APPS),
       extra=st.booleans())
def test_property_a_russian_yes_or_no_in_words_fills_the_boolean(client, thing, said, pick, app, extra):
    prop, description, nom, gen = thing
    schema = {**B, **({"description": description} if description else {})}
    props = {prop: schema, **({"note": S} if extra else {})}
    spec = tool(app[0], app[1], props, required=[prop])
    content = (YES if said else NO)[pick].format(nom=nom, gen=gen, gen_l=gen.lower())
    tool_input, text = forced(client, content, spec)
    assert tool_input[prop] is said, (content, tool_input, text)


@pytest.mark.parametrize("content", ["Сохрани заметку: позвонить в понедельник.", "Save a note: call on Monday."])
def test_control_a_boolean_the_request_does_not_speak_of_stays_false(client, content):
    spec = tool("save_note", "Save a note.", {"text": S, "urgent": B})
    tool_input, _ = forced(client, content, spec)
    assert tool_input["urgent"] is False, (content, tool_input)


# --- 3. Russian proper names in the nominative ----------------------------------------------------------------

# (nominative, dative, accusative): first names in -я/-а, men's and women's
FIRST = [("Петя", "Пете", "Петю"), ("Коля", "Коле", "Колю"), ("Саша", "Саше", "Сашу"), ("Оля", "Оле", "Олю"),
         ("Катя", "Кате", "Катю"), ("Миша", "Мише", "Мишу"), ("Анна", "Анне", "Анну"), ("Дима", "Диме", "Диму")]
# (nominative, dative, genitive-accusative) of a man's surname
SURNAMES = [("Орлов", "Орлову", "Орлова"), ("Смирнов", "Смирнову", "Смирнова"), ("Ильин", "Ильину", "Ильина")]
DATIVE_FORMS = ["Позвони {x}.", "Напиши {x} про встречу.", "Отправь {x} счёт.", "Передай {x} ключи."]
ACCUSATIVE_FORMS = ["Пригласи {x} на ужин.", "Позови {x} на созвон.", "Найди {x} в базе.", "Встреть {x} в аэропорту."]
PERSON_KEYS = [("contact", "Контакт"), ("recipient", "Получатель"), ("guest", "Гость"), ("person", "")]
MEN_IN_A = {"Петя", "Коля", "Саша", "Миша", "Дима"}


@PROPERTY
@given(first=st.sampled_from(FIRST), surname=st.sampled_from(SURNAMES + [None]), dative=st.booleans(),
       pick=st.integers(0, 3), key=st.sampled_from(PERSON_KEYS))
def test_property_a_russian_first_name_in_a_or_ya_reaches_the_nominative(client, first, surname, dative, pick, key):
    nom, dat, acc = first
    if surname is not None and nom not in MEN_IN_A:
        surname = None  # a woman's surname has its own forms; round 11 covers them
    written = (dat if dative else acc) + ("" if surname is None else " " + (surname[1] if dative else surname[2]))
    content = (DATIVE_FORMS if dative else ACCUSATIVE_FORMS)[pick].format(x=written)
    schema = {**S, **({"description": key[1]} if key[1] else {})}
    tool_input, text = forced(client, content, tool("reach_person", "Связаться с человеком.", {key[0]: schema}))
    expected = nom if surname is None else f"{nom} {surname[0]}"
    assert tool_input[key[0]] == expected, (content, tool_input, text)


# (nominative, accusative) of a pet's or a person's one-word name, animate masculine ones in the genitive's form
PETS = [("Шарик", "Шарика"), ("Барсик", "Барсика"), ("Кузя", "Кузю"), ("Рыжик", "Рыжика"), ("Мурка", "Мурку"),
        ("Тузик", "Тузика")]
PET_FORMS = ["Найди {x}.", "Запиши {x} на прививку.", "Забери {x} из клиники.", "Покорми {x} в восемь.",
             "Осмотри {x} завтра."]


@PROPERTY
@given(pet=st.sampled_from(PETS), form=st.sampled_from(PET_FORMS),
       key=st.sampled_from([("pet", ""), ("pet_name", "Кличка питомца"), ("animal", "Животное")]))
def test_property_an_animate_accusative_reaches_the_nominative(client, pet, form, key):
    schema = {**S, **({"description": key[1]} if key[1] else {})}
    content = form.format(x=pet[1])
    tool_input, text = forced(client, content, tool("vet_visit", "Визит к ветеринару.", {key[0]: schema}))
    assert tool_input[key[0]] == pet[0], (content, tool_input, text)


@pytest.mark.parametrize(("content", "expected"), [("Доставь в Бутово.", "Бутово"), ("Доставь в Малаховку.", "Малаховка"),
                                                   ("Отвези в Иваново.", "Иваново"),
                                                   ("Едем в Домодедово.", "Домодедово")])
def test_control_a_place_name_in_the_nominative_stays_whole(client, content, expected):
    tool_input, _ = forced(client, content, tool("deliver", "Доставка.", {"place": S}))
    assert tool_input["place"] == expected, (content, tool_input)


# --- 1. a count next to its Russian noun --------------------------------------------------------------------------

# (property, description, form after 2–4, form after 5–9)
COUNTED = [("rooms", "Число номеров", "номера", "номеров"), ("nights", "Количество ночей", "ночи", "ночей"),
           ("pizzas", "Сколько пицц", "пиццы", "пицц"), ("drinks", "Количество напитков", "напитка", "напитков"),
           ("bottles", "Число бутылок", "бутылки", "бутылок"), ("tickets", "Количество билетов", "билета", "билетов"),
           ("seats", "Число мест", "места", "мест")]
COUNT_FORMS = ["Закажи {a} и {b}.", "Нужно {a}, а ещё {b}.", "Оформи: {a}, {b}.", "Давай {a} и {b}, пожалуйста."]


@PROPERTY
@given(pair=st.lists(st.sampled_from(COUNTED), min_size=2, max_size=2, unique=True), first=st.integers(2, 9),
       second=st.integers(2, 9), form=st.sampled_from(COUNT_FORMS), flip=st.booleans())
def test_property_a_russian_count_goes_to_the_property_its_noun_names(client, pair, first, second, form, flip):
    def said(n, counted):
        return f"{n} {counted[2] if n < 5 else counted[3]}"

    content = form.format(a=said(first, pair[0]), b=said(second, pair[1]))
    props = {c[0]: {"type": "integer", "description": c[1]} for c in (pair[::-1] if flip else pair)}
    tool_input, text = forced(client, content, tool("place_order", "Оформить заказ.", props))
    assert (tool_input[pair[0][0]], tool_input[pair[1][0]]) == (first, second), (content, tool_input, text)


# --- 6. one verb, one tool: a Russian verb whose meanings name two destructive tools acts once ------------------

def _tool(name: str, what: str, key: str) -> dict:
    return {"name": name, "description": f"{what} by its id.",
            "input_schema": {"type": "object", "properties": {key: S}, "required": [key]}}


SHELF = [_tool("clear_cache", "Clear a cache", "cache_id"), _tool("remove_member", "Remove a member from the team",
                                                                    "member_id"),
         _tool("delete_note", "Delete a note", "note_id"), _tool("close_window", "Close a window", "window_id")]
ASKS = [("Удали заметку {id}", "delete_note"), ("Сотри заметку {id}", "delete_note"), ("Сотри кэш {id}", "clear_cache"),
        ("Очисти кэш {id}", "clear_cache"), ("Wipe cache {id}", "clear_cache"), ("Shut window {id}", "close_window"),
        ("Please delete note {id}", "delete_note"), ("Remove member {id} from the team", "remove_member")]


@PROPERTY
@given(ask=st.sampled_from(ASKS), order=st.permutations(range(len(SHELF))),
       item=st.sampled_from(["N-5", "C-3", "W-2", "M-77"]))
def test_property_one_asked_action_is_one_call_of_its_own_tool(client, ask, order, item):
    """«Удали заметку N-5» once called delete_note and remove_member on N-5 (удали means delete and remove), and
    «Сотри кэш C-3» removed a member: a second destructive call on the same id is never made for one verb, and the
    tool is the one whose object the request names."""
    said, wanted = ask
    reply = client.messages.create(model="claude-opus-5", max_tokens=500, tools=[SHELF[i] for i in order],
                                   messages=[{"role": "user", "content": said.format(id=item)}])
    calls = [(b.name, dict(b.input)) for b in reply.content if b.type == "tool_use"]
    assert [name for name, _ in calls] == [wanted], (said, calls)
    assert list(calls[0][1].values()) == [item]


@pytest.mark.parametrize("said", ["Как у вас очищается кэш?", "How are caches wiped here?",
                                  "I'm not deleting note N-5, just checking it"])
def test_control_a_question_about_the_same_verbs_calls_no_action(client, said):
    reply = client.messages.create(model="claude-opus-5", max_tokens=500, tools=SHELF,
                                   messages=[{"role": "user", "content": said}])
    assert [b.name for b in reply.content if b.type == "tool_use"] == [], said
