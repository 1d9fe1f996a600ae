"""Round 16 of issue #37: Russian values go to their fields in the dictionary form, read by a morphological analyser.

The hand-written ending tables put «в Самаре» as "Самар", «в Туле» as "Туле", «в Нижнем Новгороде» as it was
written; a field wants the nominative (Самара, Тула, Нижний Новгород), whatever the case the sentence put the name
in. Checked in other people's schema styles (city/город, camelCase, Russian descriptions), in both languages, and as a
property over a fixed list of cities and people in the cases their prepositions take. The word forms below are
written out by hand, not made by the analyser under test."""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.simulated_model import russian_forms
from tool_use_helpers import forced, tool

S = {"type": "string"}
INT = {"type": "integer"}
PROPERTY = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# ---------------------------------------------------------------- 1. the reader itself

@pytest.mark.parametrize(("phrase", "before", "expected"), [
    ("Самаре", "в", "Самара"), ("Вологде", "в", "Вологда"), ("Туле", "в", "Тула"), ("Ярославле", "в", "Ярославль"),
    ("Нижнем Новгороде", "в", "Нижний Новгород"), ("Ростове-на-Дону", "в", "Ростов-на-Дону"),
    ("Санкт-Петербурге", "в", "Санкт-Петербург"), ("Перми", "из", "Пермь"), ("Тверь", "в", "Тверь"),
    ("Бутово", "в", "Бутово"), ("Сочи", "в", "Сочи"), ("Самару", "в", "Самара"),
    ("Ивану Петрову", "", "Иван Петров"), ("Марии Сергеевны", "для", "Мария Сергеевна"), ("Игоря", "у", "Игорь"),
    ("Анне Смирновой", "к", "Анна Смирнова"), ("Павла Орлова", "для", "Павел Орлов"),
    ("Петрову Елену Викторовну", "", "Петрова Елена Викторовна"), ("Барсиком", "с", "Барсик"),
    ("пиццы с грибами", "из", "пицца с грибами"), ("молока", "", "молоко"), ("рыжую лису", "", "рыжая лиса"),
    ("Oslo", "in", "Oslo"), ("Maria Lopez", "for", "Maria Lopez"),
])
def test_nominative_of_a_phrase(phrase, before, expected):
    assert russian_forms.nominative(phrase, russian_forms.cases_after(before)) == expected


def test_an_english_request_does_not_load_the_analyser():
    """The analyser is imported on the first Cyrillic value only: an English-only run does not pay for it."""
    script = ("import sys; sys.path.insert(0, 'tests'); from course_sandbox import Sandbox; "
              "from tool_use_helpers import forced, tool\n"
              "with Sandbox() as sb:\n"
              "    c = sb.client(max_retries=0)\n"
              "    forced(c, 'Weather in Oslo and a table for Maria Lopez', tool('t', 'T', "
              "{'city': {'type': 'string'}, 'guest_name': {'type': 'string'}}))\n"
              "print('pymorphy3' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"


# ---------------------------------------------------------------- 2. forced calls, other people's schemas

@pytest.mark.parametrize(("prompt", "props", "expected"), [
    ("Какая погода в Самаре?", {"city": S}, {"city": "Самара"}),
    ("Какая погода в Вологде завтра?", {"город": {"type": "string", "description": "Город"}}, {"город": "Вологда"}),
    ("Какая погода в Туле?", {"location": {"type": "string", "description": "Название города"}},
     {"location": "Тула"}),
    ("Какая погода в Ярославле?", {"cityName": S}, {"cityName": "Ярославль"}),
    ("Какая погода в Нижнем Новгороде?", {"city": S}, {"city": "Нижний Новгород"}),
    ("Какая погода в Ростове-на-Дону?", {"city": S}, {"city": "Ростов-на-Дону"}),
    ("What's the weather in Rostov-on-Don?", {"city": S}, {"city": "Rostov-on-Don"}),
    ("Отправь посылку Ивану Петрову", {"recipient_name": S}, {"recipient_name": "Иван Петров"}),
    ("Забронируй столик для Марии Сергеевны", {"guestName": {"type": "string", "description": "Имя гостя"}},
     {"guestName": "Мария Сергеевна"}),
    ("Book a table for Maria Lopez", {"guestName": S}, {"guestName": "Maria Lopez"}),
    ("Запиши урок у Игоря", {"teacher": {"type": "string", "description": "Имя преподавателя"}},
     {"teacher": "Игорь"}),
    ("Оформи 3 порции борща и 2 порции жареной картошки", {"orders": {"type": "array", "items": {
        "type": "object", "properties": {"dish": S, "qty": INT}, "required": ["dish", "qty"]}}},
     {"orders": [{"dish": "борщ", "qty": 3}, {"dish": "жареная картошка", "qty": 2}]}),
])
def test_forced_value_in_the_nominative(client, prompt, props, expected):
    tool_input, _ = forced(client, prompt, tool("do_it", "Does the thing asked.", props))
    assert {k: tool_input.get(k) for k in expected} == expected


# ---------------------------------------------------------------- 3. a property over cities and people

CITIES = {  # nominative: (after «в», after «из»)
    "Самара": ("Самаре", "Самары"), "Вологда": ("Вологде", "Вологды"), "Тула": ("Туле", "Тулы"),
    "Ярославль": ("Ярославле", "Ярославля"), "Пермь": ("Перми", "Перми"), "Казань": ("Казани", "Казани"),
    "Нижний Новгород": ("Нижнем Новгороде", "Нижнего Новгорода"), "Ростов-на-Дону": ("Ростове-на-Дону",
                                                                                     "Ростова-на-Дону"),
    "Екатеринбург": ("Екатеринбурге", "Екатеринбурга"), "Сочи": ("Сочи", "Сочи"),
}
PEOPLE = {  # nominative: (after «для»/«у», after «к», after «с»)
    "Иван Петров": ("Ивана Петрова", "Ивану Петрову", "Иваном Петровым"),
    "Анна Смирнова": ("Анны Смирновой", "Анне Смирновой", "Анной Смирновой"),
    "Игорь Волков": ("Игоря Волкова", "Игорю Волкову", "Игорем Волковым"),
    "Мария Кузнецова": ("Марии Кузнецовой", "Марии Кузнецовой", "Марией Кузнецовой"),
    "Павел Орлов": ("Павла Орлова", "Павлу Орлову", "Павлом Орловым"),
    "Ольга Лебедева": ("Ольги Лебедевой", "Ольге Лебедевой", "Ольгой Лебедевой"),
}
ASKS = [  # (preposition, which form, prompt, properties, field, the names)
    ("в", 0, "Какая погода в {}?", {"city": S}, "city", CITIES),
    ("в", 0, "Какая погода в {}?", {"город": {"type": "string", "description": "Город"}}, "город", CITIES),
    ("из", 1, "Найди отели недалеко от вокзала, я приеду из {}.", {"fromCity": S}, "fromCity", CITIES),
    ("для", 0, "Забронируй столик для {} на вечер.", {"guest_name": S}, "guest_name", PEOPLE),
    ("у", 0, "Запиши урок у {} на завтра.", {"teacher": {"type": "string", "description": "Имя преподавателя"}},
     "teacher", PEOPLE),
    ("к", 1, "Запиши меня на приём к {} на завтра.", {"doctorName": S}, "doctorName", PEOPLE),
    ("с", 2, "Назначь встречу с {} на завтра.", {"participant": {"type": "string", "description": "С кем встреча"}},
     "participant", PEOPLE),
]


@PROPERTY
@given(ask=st.sampled_from(ASKS), pick=st.integers(min_value=0, max_value=len(CITIES) - 1))
def test_property_a_name_after_its_preposition_is_bound_in_the_nominative(client, ask, pick):
    _, form, prompt, props, field, names = ask
    name = sorted(names)[pick % len(names)]
    tool_input, _ = forced(client, prompt.format(names[name][form]), tool("book", "Books what is asked.", props))
    assert tool_input[field] == name


# ---------------------------------------------------------------- 4. one name in the dative, a patronymic's own field

@pytest.mark.parametrize(("prompt", "expected"), [
    ("Передай ключи Грете", "Грета"), ("Отправь документы Ольге", "Ольга"), ("Передай пакет Игорю", "Игорь"),
    ("Hand the keys to Greta", "Greta"),
])
def test_one_name_after_a_dative_verb_is_bound_in_the_nominative(client, prompt, expected):
    tool_input, _ = forced(client, prompt, tool("give", "Gives a thing to someone.", {"recipient": S}))
    assert tool_input["recipient"] == expected


@pytest.mark.parametrize("prompt", ["Запиши Иванова Ивана Ивановича на приём", "Запиши Ивана Ивановича Иванова на приём"])
@pytest.mark.parametrize("field", ["patronymic", "middleName", "отчество"])
def test_a_patronymic_goes_to_its_own_field(client, prompt, field):
    spec = tool("book", "Books a visit.", {"last_name": S, "first_name": S,
                                           field: {"type": "string", "description": "Отчество пациента"}})
    tool_input, _ = forced(client, prompt, spec)
    assert (tool_input["last_name"], tool_input["first_name"], tool_input[field]) == ("Иванов", "Иван", "Иванович")


# ---------------------------------------------------------------- 5. a Russian time of day by its part of the day

@pytest.mark.parametrize(("said", "expected"), [("в 8 утра", "08:00"), ("в 9 вечера", "21:00"),
                                                ("в 3 часа дня", "15:00"), ("в 7:30 вечера", "19:30"),
                                                ("в 2 ночи", "02:00"), ("at 8am", "08:00")])
@pytest.mark.parametrize("field", ["time", "startTime", "время"])
def test_a_time_said_with_its_part_of_the_day(client, said, expected, field):
    spec = tool("remind", "Sets a reminder.", {field: {"type": "string", "description": "Время, ЧЧ:ММ"},
                                               "timezone": S})
    tool_input, _ = forced(client, f"Напомни позвонить маме завтра {said} по Москве", spec)
    assert (tool_input[field], tool_input["timezone"]) == (expected, "Europe/Moscow")


# ---------------------------------------------------------------- 6. a UK number with a trunk 0 and one group

@pytest.mark.parametrize("number", ["07700 900461", "020 79460958", "01632 960983"])
@pytest.mark.parametrize("field", ["phone", "phoneNumber", "телефон"])
def test_a_trunk_zero_number_is_read_whole(client, number, field):
    tool_input, _ = forced(client, f"Call the plumber on {number} tomorrow.", tool("call", "Places a call.", {field: S}))
    assert tool_input[field] == number
