"""A boolean that holds a switch's state (`on`, `enabled`, `power`) takes the side the request's verb asks for: "turn the
light on" is True, "switch it off" False (before: False whatever was asked, the opposite of "turn on"); a request
that says both takes no side. English and Russian, generated."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, tool, uses

S = {"type": "string"}
PROPERTY = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
ON = ["Turn the {t} on.", "Please switch on the {t}.", "Switch the {t} on, please.", "Turn on the {t} now.",
      "Включи {r}.", "Пожалуйста, включи {r}."]
OFF = ["Turn the {t} off.", "Please switch off the {t}.", "Shut the {t} off.", "Turn off the {t} now.",
       "Выключи {r}.", "Отключи {r}, пожалуйста."]
THINGS = [("bedroom light", "свет в спальне"), ("porch lamp", "лампу на крыльце"), ("heater", "обогреватель")]


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


@PROPERTY
@given(on=st.booleans(), pick=st.integers(0, 5), thing=st.sampled_from(THINGS),
       field=st.sampled_from(["on", "is_on", "enabled", "power", "desired_state"]))
def test_property_a_switch_state_takes_the_asked_side(client, on, pick, thing, field):
    said = (ON if on else OFF)[pick].format(t=thing[0], r=thing[1])
    spec = tool("set_device", "Turn a device on or off.", {"device": S, field: {"type": "boolean"}})
    calls = uses(ask(client, said, [spec], tool_choice={"type": "tool", "name": "set_device"}))
    assert calls and calls[0][1].get(field) is on, (said, calls)


def test_a_request_that_says_both_takes_no_side_by_the_verb():
    from course_sandbox.simulated_model.spoken_values import MISSING, switched

    assert switched("on", "Turn the hall light on and switch the kitchen light off.") is MISSING
    assert switched("room", "Turn the hall light on.") is MISSING  # not a state
