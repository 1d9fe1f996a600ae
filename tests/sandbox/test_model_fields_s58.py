"""Values into their fields (issue #37, stop 58), as general rules over generated tools and prompts: a bare domain
name for a hostname field, a phone number written with spaces and dashes for a field whose pattern wants digits, a
rate per unit that is money (not the hours it is per), a flag that is switched off ("turn off auto-renew") or on
(«автопродление включи»), a free-text field that keeps a time no other field takes.

The examples are generated (names, numbers, tools), so the rules, not one probe's sentences, are what is tested."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.simulated_model import binding, slots, spoken_values
from cpu_time import cpu_seconds
from tool_use_helpers import ask, uses, validates

PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def spec(name: str, description: str, properties: dict, required: list[str] | None = None) -> dict:
    return {"name": name, "description": description,
            "input_schema": {"type": "object", "properties": properties,
                             "required": list(properties) if required is None else required}}


def forced(client, tool: dict, content: str) -> dict:
    response = ask(client, content, [tool], tool_choice={"type": "tool", "name": tool["name"]})
    [(name, tool_input)] = uses(response)
    assert name == tool["name"] and validates(tool, tool_input)
    return tool_input


LABEL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)
domains = st.builds(lambda a, b, tld: f"{a}-{b}.{tld}", LABEL, LABEL, st.sampled_from(["com", "org", "net", "io", "ru",
                                                                                       "de", "co.uk", "studio"]))


@PROPERTY
@given(domain=domains, field=st.sampled_from([("domain", {"type": "string", "format": "hostname"}),
                                              ("hostname", {"type": "string"}),
                                              ("site_domain", {"type": "string", "description": "Domain name"})]),
       sentence=st.sampled_from(["Register {d} for 2 years.", "Check the DNS of {d}, please.",
                                 "Зарегистрируй домен {d} на год.", "Renew {d}."]))
def test_property_a_bare_domain_goes_to_the_domain_field(client, domain, field, sentence):
    name, schema = field
    tool = spec("manage_domain", "Work with an internet domain.", {name: schema, "years": {"type": "integer"}},
                required=[name])
    assert forced(client, tool, sentence.format(d=domain))[name] == domain


@pytest.mark.parametrize("text", ["Attach report.pdf to the ticket.", "Open notes.txt and config.yaml.",
                                  "Mail ops@bluefinch.io", "See https://shop.example.org/spring"])
def test_a_file_name_an_email_or_a_link_is_no_bare_domain(text):
    assert binding.mentions(text) and not [m for m in binding.mentions(text) if m.kind == "domain"]


phones = st.builds(lambda cc, a, b, c, sep: f"+{cc} {a}{sep}{b}{sep}{c}", st.sampled_from(["1", "7", "44", "49", "33"]),
                   st.integers(100, 999), st.integers(100, 999), st.integers(1000, 9999), st.sampled_from([" ", "-"]))


@PROPERTY
@given(phone=phones, sentence=st.sampled_from(["Text {p} that the plumber arrives at 4pm.",
                                               "Send an SMS to {p}: the parcel is at the door.",
                                               "Отправь СМС на {p}: курьер будет в 15:00."]),
       pattern=st.sampled_from([r"^\+[0-9]{7,15}$", r"^\+\d{8,15}$"]))
def test_property_a_spaced_phone_number_fits_a_digits_only_pattern(client, phone, sentence, pattern):
    tool = spec("send_sms", "Send a text message to a phone.",
                {"phone": {"type": "string", "pattern": pattern}, "message": {"type": "string"}})
    said = forced(client, tool, sentence.format(p=phone))
    assert said["phone"] == "+" + "".join(ch for ch in phone if ch.isdigit())
    assert said["message"] != "" and ("4pm" in said["message"] or "door" in said["message"]
                                      or "15:00" in said["message"])


@PROPERTY
@given(hours=st.sampled_from([2, 3, 4.5, 6.5, 8]), rate=st.integers(20, 2000),
       field=st.sampled_from(["rate_per_hour", "hourly_rate", "price_per_hour"]),
       sentence=st.sampled_from(["Log {h} hours for Acme at {r} euros per hour.", "Bill {h} hours at {r} EUR an hour.",
                                 "Запиши {h} часа по ставке {r} евро в час."]))
def test_property_a_rate_per_hour_is_the_money_not_the_hours(client, hours, rate, field, sentence):
    tool = spec("log_hours", "Log billable hours.", {"hours": {"type": "number"}, field: {"type": "number"}})
    said = forced(client, tool, sentence.format(h=hours, r=rate))
    assert said == {"hours": hours, field: rate}


@pytest.mark.parametrize(("flag", "text", "value"), [
    ("auto_renew", "Register it for 3 years and turn off auto-renew.", False),
    ("auto_renew", "Register it and switch auto-renew off.", False),
    ("auto_renew", "Register it with auto-renew.", True),
    ("auto_renew", "Зарегистрируй домен, автопродление включи.", True),
    ("auto_renew", "Зарегистрируй домен, автопродление отключи.", False),
    ("notify", "Move the meeting, don't notify anyone.", False),
    ("notify", "Move the meeting and disable notifications.", False),
    ("notify", "Move the meeting and notify the team.", True),
    ("notify", "Перенеси встречу, уведомления не присылай.", False),
    ("notify", "Перенеси встречу и уведоми участников.", True),
])
def test_a_flag_switched_off_or_on(flag, text, value):
    assert spoken_values.flag(flag, text) is value


def test_flag_reading_stays_quick_on_a_long_request():
    long = "turn off " * 3000 + "auto renew"
    _, seconds = cpu_seconds(lambda: spoken_values.flag("auto_renew", long))
    assert seconds < 1.0


def test_the_domain_reader_stays_quick_on_a_long_dotted_input():
    long = "a." * 4000 + "!"
    _, seconds = cpu_seconds(lambda: (slots.read(long, "en"), binding.mentions(long)))
    assert seconds < 5.0  # about 0.5 s: linear


WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=10)
RU_WORDS = st.text(alphabet="абвгдежзиклмнопрстуфхцчшэюя", min_size=3, max_size=10)


@PROPERTY
@given(tags=st.lists(st.one_of(WORDS, RU_WORDS), min_size=1, max_size=4, unique=True),
       field=st.sampled_from([("hashtags", ""), ("tags", "Topic tags"), ("labels", "")]),
       sentence=st.sampled_from(["Post it with the hashtags {t}.", "Опубликуй это с хештегами {t}."]))
def test_property_hashtags_go_to_the_tags_array(client, tags, field, sentence):
    name, description = field
    tool = spec("create_post", "Publish a post.", {"text": {"type": "string"},
                                                   name: {"type": "array", "items": {"type": "string"},
                                                          "description": description}})
    written = ", ".join(f"#{t}" for t in tags)
    assert forced(client, tool, sentence.format(t=written))[name] == tags


def test_a_hashtag_field_that_wants_the_hash_keeps_it(client):
    tool = spec("create_post", "Publish a post.", {"hashtags": {"type": "array", "items": {"type": "string",
                                                                                         "pattern": "^#\\w+$"}}})
    assert forced(client, tool, "Post it with #spring and #sale.")["hashtags"] == ["#spring", "#sale"]


@PROPERTY
@given(memory=st.integers(1, 256), disk=st.integers(10, 2000).filter(lambda d: d not in range(1, 257)),
       order=st.booleans())
def test_property_russian_words_beside_numbers_name_their_fields(client, memory, disk, order):
    tool = spec("create_vm", "Create a virtual machine.", {"memory_gb": {"type": "integer", "minimum": 1},
                                                           "disk_gb": {"type": "integer", "minimum": 1}})
    parts = [f"{memory} ГБ памяти", f"диск {disk} ГБ"]
    said = forced(client, tool, "Создай виртуальную машину: " + ", ".join(parts if order else parts[::-1]) + ".")
    assert said == {"memory_gb": memory, "disk_gb": disk}


@PROPERTY
@given(place=st.sampled_from(["Kreuzberg Hub", "Harbour Works", "Mill Street Studio", "Canal Loft"]),
       field=st.sampled_from(["location", "place", "city"]))
def test_property_at_the_named_place_is_the_location(client, place, field):
    tool = spec("book_desk", "Book a desk in a coworking space.",
                {field: {"type": "string"}, "date": {"type": "string", "format": "date"}})
    said = forced(client, tool, f"Book a desk at the {place} on 2026-05-11.")
    assert said == {field: place, "date": "2026-05-11"}
