"""Step-by-step plans (issue #37, stop 58): a call that needs what an earlier call returns is not sent in the same
parallel batch with a placeholder; it waits for that result and then carries it (the id of the thing just created,
a duration the read gave, converted to the unit the field wants). Every conversation ends, and no call is made
twice. Tool names and values are generated, so the rule, not one probe's wording, is what is tested."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from sandbox_http import MODEL
from tool_use_helpers import drive, tool, uses, validates

PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def batches(responses) -> list[list[tuple[str, dict]]]:
    return [uses(r) for r in responses if uses(r)]


THINGS = ["survey", "playlist", "project", "album", "board", "course"]


@PROPERTY
@given(thing=st.sampled_from(THINGS), made=st.integers(1, 99), title=st.sampled_from(["Team Lunch", "Spring 2026",
                                                                                       "Q3 Plan"]))
def test_property_an_id_of_a_thing_created_first_waits_for_its_result(client, thing, made, title):
    tools = [tool(f"create_{thing}", f"Create a new {thing}.", {"title": S}),
             tool(f"publish_{thing}", f"Publish a {thing}.", {f"{thing}_id": S})]
    new_id = f"{thing[:2]}-{made}"

    def answer(name, tool_input):
        return (json.dumps({f"{thing}_id": new_id}) if name.startswith("create") else json.dumps({"ok": True})), False

    final, responses = drive(client, f"Create a {thing} called '{title}', then publish it.", tools, answer)
    steps = batches(responses)
    assert final.stop_reason == "end_turn" and len(responses) <= 4
    assert [[n for n, _ in b] for b in steps] == [[f"create_{thing}"], [f"publish_{thing}"]]
    assert steps[1][0][1] == {f"{thing}_id": new_id}


@PROPERTY
@given(h=st.integers(0, 2), m=st.integers(0, 59), s=st.integers(0, 59), item=st.integers(1, 999),
       unit=st.sampled_from([("seconds", 1), ("minutes", 60)]))
def test_property_a_value_a_read_returns_is_waited_for_and_converted(client, h, m, s, item, unit):
    word, per = unit
    if (h * 3600 + m * 60 + s) % per:
        s = 0
    tools = [tool("get_clip_info", "Title and duration of a clip.", {"clip_id": S}),
             tool("create_caption_job", "Create a captioning job for a clip.",
                  {"clip_id": S, f"duration_{word}": {"type": "integer", "minimum": 1}})]
    duration = f"{h:02d}:{m:02d}:{s:02d}"
    total = (h * 3600 + m * 60 + s) // per

    def answer(name, tool_input):
        if name == "get_clip_info":
            return json.dumps({"clip_id": tool_input["clip_id"], "duration": duration}), False
        return json.dumps({"job_id": "j-1"}), False

    final, responses = drive(client, f"Find out how long clip c-{item} is and create a caption job for it with that "
                                     f"duration in {word}.", tools, answer)
    steps = batches(responses)
    assert final.stop_reason == "end_turn"
    assert [n for n, _ in steps[0]] == ["get_clip_info"]
    if total >= 1:
        assert steps[1] == [("create_caption_job", {"clip_id": f"c-{item}", f"duration_{word}": total})]
    assert all(validates(next(t for t in tools if t["name"] == n), i) for b in steps for n, i in b)


def test_independent_calls_still_go_out_together(client):
    tools = [tool("get_weather", "Current weather for a city.", {"city": S})]
    final, responses = drive(client, "What's the weather in Paris and in Rome?", tools,
                             lambda name, tool_input: (json.dumps({"temp_c": 20}), False))
    assert [len(b) for b in batches(responses)] == [2] and final.stop_reason == "end_turn"


@PROPERTY
@given(thing=st.sampled_from(THINGS), made=st.integers(1, 99))
def test_property_a_client_that_resends_only_the_last_step_still_ends(client, thing, made):
    tools = [tool(f"create_{thing}", f"Create a new {thing}.", {"title": S}),
             tool(f"publish_{thing}", f"Publish a {thing}.", {f"{thing}_id": S})]
    prompt = f"Create a {thing} called 'Plan {made}', then publish it."
    response = client.messages.create(model=MODEL, max_tokens=500, tools=tools,
                                      messages=[{"role": "user", "content": prompt}])
    for _ in range(6):
        if response.stop_reason != "tool_use":
            return
        results = [{"type": "tool_result", "tool_use_id": b.id, "content": json.dumps({f"{thing}_id": f"x-{made}"})}
                   for b in response.content if b.type == "tool_use"]
        response = client.messages.create(model=MODEL, max_tokens=500, tools=tools, messages=[
            {"role": "user", "content": prompt}, {"role": "assistant", "content": response.content},
            {"role": "user", "content": results}])
    raise AssertionError(f"no end for {prompt!r}")


days = st.dates(min_value=__import__("datetime").date(2024, 1, 1), max_value=__import__("datetime").date(2027, 12, 31))


@PROPERTY
@given(created=st.lists(days, min_size=3, max_size=6, unique=True), cut=days,
       asked=st.sampled_from([("List the backups of the orders-db database and delete the ones older than {c}.", "<"),
                              ("Покажи резервные копии базы orders-db и удали те, что старше {c}.", "<"),
                              ("List the backups of the orders-db database and delete the ones created after {c}.",
                               ">")]))
def test_property_the_ones_older_or_newer_than_a_date_are_the_ones_acted_on(client, created, cut, asked):
    sentence, op = asked
    listed = [{"backup_id": f"bk-{k}", "created": day.isoformat()} for k, day in enumerate(created)]
    tools = [tool("list_backups", "List the backups of a database.", {"database": S}),
             tool("delete_backup", "Delete one backup.", {"backup_id": S})]

    def answer(name, tool_input):
        if name == "list_backups":
            return json.dumps(listed), False
        return json.dumps({"deleted": tool_input["backup_id"]}), False

    final, responses = drive(client, sentence.format(c=cut.isoformat()), tools, answer)
    made = [u for b in batches(responses) for u in b]
    assert made[0] == ("list_backups", {"database": "orders-db"})
    deleted = {i["backup_id"] for n, i in made if n == "delete_backup"}
    want = {b["backup_id"] for b in listed if (b["created"] < cut.isoformat() if op == "<"
                                               else b["created"] > cut.isoformat())}
    assert deleted == want and final.stop_reason == "end_turn"


@PROPERTY
@given(level=st.integers(0, 100), limit=st.integers(5, 95), liters=st.integers(50, 900),
       asked=st.sampled_from(["Check the level of tank T-{k}; if it's below {l}%, order a refill of {a} liters.",
                              "Проверь уровень в баке T-{k}; если меньше {l}%, закажи долив {a} литров."]),
       k=st.integers(1, 99))
def test_property_a_percent_threshold_reads_the_percent_field_among_others(client, level, limit, liters, asked, k):
    tools = [tool("get_tank_level", "Current fill level of a tank.", {"tank_id": S}),
             tool("order_refill", "Order a refill for a tank.", {"tank_id": S, "liters": {"type": "integer"}})]

    def answer(name, tool_input):
        if name == "get_tank_level":
            return json.dumps({"tank_id": tool_input["tank_id"], "level_percent": level, "capacity_liters": 2000}), False
        return json.dumps({"order_id": "rf-1"}), False

    final, responses = drive(client, asked.format(k=k, l=limit, a=liters), tools, answer)
    made = [u for b in batches(responses) for u in b]
    refills = [i for n, i in made if n == "order_refill"]
    assert refills == ([{"tank_id": f"T-{k}", "liters": liters}] if level < limit else [])
    assert final.stop_reason == "end_turn"


@PROPERTY
@given(versions=st.lists(st.tuples(st.integers(1, 9), st.integers(0, 9), st.integers(0, 9)), min_size=2, max_size=5,
                         unique=True),
       model=st.sampled_from(["RT-AX58", "ZX-9", "AB-CD12"]), device=st.integers(1, 99),
       asked=st.sampled_from(["Find the latest firmware for the router model {m} and install it on device dev-{d}.",
                              "Look up the newest firmware for model {m}, then install it on device dev-{d}."]))
def test_property_the_latest_listed_version_is_the_one_installed(client, versions, model, device, asked):
    listed = [{"version": ".".join(map(str, v)), "released": f"20{20 + k}-01-01"}
              for k, v in enumerate(sorted(versions))][::-1]
    tools = [tool("list_firmware", "List the firmware versions for a router model.", {"model": S}),
             tool("install_firmware", "Install a firmware version on a device.", {"device_id": S, "version": S})]

    def answer(name, tool_input):
        return (json.dumps(listed) if name == "list_firmware" else json.dumps({"status": "installing"})), False

    final, responses = drive(client, asked.format(m=model, d=device), tools, answer)
    made = [u for b in batches(responses) for u in b]
    assert made[0] == ("list_firmware", {"model": model})
    assert made[1:] == [("install_firmware", {"device_id": f"dev-{device}",
                                              "version": ".".join(map(str, max(versions)))})]
    assert final.stop_reason == "end_turn"
