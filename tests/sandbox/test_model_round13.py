"""Round 13 of the simulated model (issue #37, stop 64): on a forced or an automatic call each value the user stated
reaches the property it belongs to, in the stated form, and everyday Russian words reach tools named and described in
English. Properties over generated tools (schemas in the style of real apps, about 40% Russian) and generated
sentences, per class:

5. automatic tool use from Russian everyday words when the tools' names and descriptions are English: «свет
   отключили» reaches a power-outage tool, «звёзды ночью», «ясное небо» a stargazing or sky forecast, «свободные
   места/номера» an occupancy tool, by a small bilingual concept map (words.py, _BRIDGE), never by one domain's rule;
and controls: an unasked action is still never proposed. Every conversation ends.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, tool, uses

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# --- 5. everyday Russian words reach an English tool ----------------------------------------------------------

# (tool, the everyday Russian asks that mean it): each tool's name and description are the app's own English
EVERYDAY = [
    (tool("get_power_outages", "List planned and current power outages for a city.", {"city": S}),
     ["У нас опять отключили свет в {c}, надолго?", "Свет отключили в {c}, когда дадут?",
      "Когда дадут электричество в {c}?", "В {c} нет света с утра, это надолго?"]),
    (tool("get_stargazing_forecast", "Sky forecast for stargazing: cloud cover and visibility at night.",
          {"city": S}),
     ["Будут ли видны звёзды ночью в {c}?", "Какое небо будет ночью в {c}?", "Хочу посмотреть на звёзды в {c} "
      "сегодня, получится?", "Будет ли ясное небо ночью в {c}?"]),
    (tool("check_occupancy", "Hotel occupancy: how many rooms are vacant.", {"city": S}),
     ["Есть ли свободные номера в {c}?", "Остались свободные места в гостинице в {c}?"]),
]
DISTRACTORS = [tool("track_parcel", "Track a parcel by its tracking number.", {"tracking_number": S}),
               tool("convert_currency", "Convert an amount between currencies.",
                    {"amount": {"type": "number"}, "from_currency": S, "to_currency": S}),
               tool("get_exchange_rate", "Exchange rate between two currencies.", {"base": S, "quote": S}),
               tool("send_invoice", "Send an invoice to a customer.", {"customer_id": S, "amount": I})]
CITIES = ["Казани", "Твери", "Самаре", "Перми", "Калуге"]


@PROPERTY
@given(wanted=st.integers(0, len(EVERYDAY) - 1), pick=st.integers(0, 3), city=st.sampled_from(CITIES),
       others=st.lists(st.sampled_from(DISTRACTORS), max_size=3, unique_by=lambda t: t["name"]),
       rivals=st.booleans(), order=st.randoms(use_true_random=False))
def test_property_everyday_russian_words_reach_an_english_tool(client, wanted, pick, city, others, rivals, order):
    spec, asks = EVERYDAY[wanted]
    tools = [spec, *others, *([t for i, (t, _) in enumerate(EVERYDAY) if i != wanted] if rivals else [])]
    order.shuffle(tools)
    said = asks[pick % len(asks)].format(c=city)
    calls = uses(ask(client, said, tools))
    assert [name for name, _ in calls] == [spec["name"]], (said, calls)


@pytest.mark.parametrize("said", ["Включи свет в спальне.", "Turn the bedroom light on."])
def test_control_a_light_switch_is_not_an_outage(client, said):
    tools = [EVERYDAY[0][0], tool("set_light", "Turn a light on or off in a room.", {"room": S})]
    assert [name for name, _ in uses(ask(client, said, tools))] == ["set_light"], said


@pytest.mark.parametrize("said", ["Свет отключили в Твери, как вообще узнают о плановых отключениях?",
                                  "Интересно, как вообще работает прогноз для наблюдения за звёздами?"])
def test_control_everyday_words_propose_no_unasked_action(client, said):
    tools = [*(t for t, _ in EVERYDAY), tool("cancel_booking", "Cancel a hotel booking.", {"booking_id": S})]
    assert "cancel_booking" not in [name for name, _ in uses(ask(client, said, tools))], said
