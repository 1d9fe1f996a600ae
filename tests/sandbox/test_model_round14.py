"""Round 14 of the simulated model (issue #37, stop 65): the simulated model does what it is asked. Properties over
generated tools (schemas in the style of real apps, about 40% Russian) and generated sentences, per class:

1. automatic tool use when the user describes a situation and names no tool word: the tool whose name or
   description says the remedy in other words is called (a sick pet: a vet's checkup, not pet food; post that did
   not come: a missed-delivery report; a stuffy room: the thermostat, not the lights; «течёт кран»: a repair
   request; "how many came": attendance; "any places left": availability; "what would it cost to insure": a quote;
   "someone dented it": a claim), by a small bilingual concept lexicon (situations.py), and its values are read in
   the form the property wants: the room for a `zone` («в спальне»: спальня), "halfway" for a percent, "tomorrow's
   spin course" for `course_name`, what went wrong for an `issue` (situation_values.py);
2. a tool named noun + noun (`gym_schedule`, `pantry_items`) is a reader, and "the schedule" in a request is a noun,
   never the verb of `schedule_session`;
and controls: a situation that fits no offered tool gets honest text and no call, an unasked action is never
proposed, a question about an action never runs it. Every conversation ends.
"""

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, forced, text_of, tool, uses, validates

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
N = {"type": "number"}
D = {"type": "string", "format": "date"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# --- 1. a situation reaches the tool that remedies it -----------------------------------------------------------

PETS = [("cat", "кот"), ("dog", "пёс"), ("puppy", "щенок"), ("kitten", "котёнок")]
# (remedy tools, in two styles; rivals; sentences with {pet}/{pet_ru}/{room}/{room_ru} holes)
SITUATIONS = {
    "vet": ([tool("schedule_vet_checkup", "Schedule a checkup with the veterinarian.", {"date": D}, []),
             tool("book_vet_visit", "Записать питомца на приём к ветеринару.", {"date": D}, [])],
            [tool("order_pet_supplies", "Order pet food and supplies for delivery.", {"item": S}, []),
             tool("find_pet_sitter", "Найти няню для питомца рядом с домом.", {"city": S}, [])],
            ["My {pet} hasn't eaten since yesterday.", "Our {pet} keeps limping.", "Мой {pet_ru} не ест второй день.",
             "Мой {pet_ru} хромает с утра, что делать?"]),
    "missed": ([tool("report_missed_delivery", "Report a delivery that did not arrive.", {"note": S}, []),
                tool("log_missed_mail", "Сообщить о недоставленной почте.", {"note": S}, [])],
               [tool("track_shipment", "Track a shipment by its tracking number.", {"tracking_number": S}),
                tool("order_stamps", "Купить почтовые марки.", {"count": {"type": "integer"}}, [])],
               ["The mail didn't come again today.", "My parcel never arrived.", "Почта опять не пришла.",
                "Курьер так и не привёз посылку."]),
    "temperature": ([tool("set_thermostat", "Set the target temperature of a zone.", {"zone": S, "target_c": N}),
                     tool("adjust_climate", "Регулировка температуры в помещении.", {"room": S, "degrees": N})],
                    [tool("set_lights", "Set the brightness of the lights in a zone.", {"zone": S, "brightness": N}),
                     tool("play_music", "Включить музыку в комнате.", {"room": S, "playlist": S}, ["room"])],
                    ["It's stuffy in the {room}, set it to 21.", "It's freezing in the {room}, make it 21.",
                     "В {room_ru} жарко, поставь 21 градус.", "В {room_ru} холодно, сделай 21 градус."]),
    "repair": ([tool("create_maintenance_request", "Report something broken for repair.", {"room": S, "issue": S}),
                tool("request_repair", "Заявка на ремонт в помещении.", {"room": S, "problem": S})],
               [tool("request_cleaning", "Ask housekeeping to clean a room.", {"room": S}),
                tool("order_room_service", "Заказать еду в номер.", {"room": S, "dish": S})],
               ["The radiator is leaking in the {room}.", "The heater in the {room} doesn't work.",
                "В {room_ru} течёт кран.", "В {room_ru} сломалась батарея."]),
    "attendance": ([tool("get_seminar_attendance", "Number of attendees who came to a seminar.", {}, []),
                    tool("seminar_attendance", "Посещаемость семинара: сколько участников пришло.", {}, [])],
                   [tool("check_seminar_availability", "Free seats left for a seminar.", {}, []),
                    tool("send_seminar_feedback", "Отправить участникам анкету.", {"text": S}, [])],
                   ["How many people came to my seminar?", "How many attended the seminar yesterday?",
                    "Сколько человек пришло на мой семинар?", "Сколько участников было на семинаре?"]),
    "quote": ([tool("get_boat_insurance_quote", "Price quote for insuring a boat.", {}, []),
               tool("boat_insurance_quote", "Расчёт стоимости страховки лодки.", {}, [])],
              [tool("file_damage_claim", "File a claim for damage to an insured boat.", {"details": S}),
               tool("book_mooring", "Забронировать место в марине.", {"date": D}, [])],
              ["What would it cost to insure my boat?", "How much is coverage for my boat?",
               "Сколько будет стоить застраховать лодку?", "Сколько стоит страховка на мою лодку?"]),
    "claim": ([tool("file_damage_claim", "File a claim for damage to an insured boat.", {"details": S}),
               tool("submit_claim", "Заявить страховой случай: повреждение лодки.", {"details": S})],
              [tool("get_boat_insurance_quote", "Price quote for insuring a boat.", {}, []),
               tool("book_mooring", "Забронировать место в марине.", {"date": D}, [])],
              ["Someone dented my boat at the marina.", "Another boat crashed into mine last night.",
               "Кто-то поцарапал мою лодку в марине.", "Мою лодку повредили ночью."]),
}
ROOMS = [("kitchen", "кухне", "кухня"), ("bedroom", "спальне", "спальня"), ("office", "офисе", "офис"),
         ("living room", "гостиной", "гостиная")]


@PROPERTY
@given(kind=st.sampled_from(sorted(SITUATIONS)), style=st.integers(0, 1), pick=st.integers(0, 3),
       pet=st.sampled_from(PETS), room=st.sampled_from(ROOMS),
       rivals=st.sampled_from([(0,), (1,), (0, 1), (1, 0)]), shift=st.integers(0, 2))
def test_property_a_situation_reaches_the_tool_that_remedies_it(client, kind, style, pick, pet, room, rivals, shift):
    remedies, others, sentences = SITUATIONS[kind]
    remedy = remedies[style]
    tools = [remedy, *(others[i] for i in rivals)]
    tools = tools[shift % len(tools):] + tools[:shift % len(tools)]
    said = sentences[pick].format(pet=pet[0], pet_ru=pet[1], room=room[0], room_ru=room[1])
    response = ask(client, said, tools)
    calls = uses(response)
    if calls:
        assert [name for name, _ in calls] == [remedy["name"]], (said, calls)
        assert validates(remedy, calls[0][1])
    else:  # a required value nobody gave: it asks, naming the remedy
        assert remedy["name"] in text_of(response), (said, text_of(response))
    if kind in ("temperature", "repair"):
        (_, given_), = calls
        place = next(p for p in ("zone", "room") if p in given_)
        assert given_[place] == (room[0] if said.isascii() else room[2]), (said, given_)
        if kind == "temperature":
            assert 21 in given_.values(), (said, given_)
        else:
            issue = given_.get("issue") or given_.get("problem")
            assert not issue.startswith("example") and len(issue.split()) >= 2, (said, given_)


COURSES = [("spin", "сайкл", "сайкл"), ("yoga", "йогу", "йога"), ("pilates", "растяжку", "растяжка"),
           ("pottery", "зумбу", "зумба")]


@PROPERTY
@given(course=st.sampled_from(COURSES), russian=st.booleans(), when=st.sampled_from([
    ("tomorrow's", "завтра", "2025-01-16"), ("Friday's", "в пятницу", "2025-01-17")]),
    frame=st.integers(0, 2))
def test_property_a_name_said_in_another_form_fills_the_field(client, course, russian, when, frame):
    spots = tool("check_course_availability", "Free places left in a course on a date.", {"course_name": S, "date": D})
    rival = tool("get_course_attendance", "How many attended a course.", {"course_name": S})
    en, acc, nominative = course
    if russian:
        if acc == nominative:
            return
        said = [f"Есть ли свободные места на {acc} {when[1]}?", f"Остались места на {acc} {when[1]}?",
                f"На {acc} {when[1]} ещё есть места?"][frame]
    else:
        said = [f"Any places left in {when[0]} {en} course?", f"Is {when[0]} {en} course full?",
                f"Are there free spots in {when[0]} {en} course?"][frame]
    calls = uses(ask(client, said, [rival, spots]))
    assert calls == [("check_course_availability", {"course_name": nominative if russian else en,
                                                    "date": when[2]})], (said, calls)


@pytest.mark.parametrize("said, percent", [("Open the bedroom blinds halfway.", 50),
                                           ("Открой шторы в спальне наполовину.", 50),
                                           ("Close the bedroom blinds fully.", 100)])
def test_halfway_is_fifty_percent_and_the_room_is_the_place(client, said, percent):
    blinds = tool("set_blinds", "Open or close the blinds in a room to a percent.",
                  {"room": S, "closed_percent" if "Close" in said else "open_percent":
                   {"type": "integer", "minimum": 0, "maximum": 100}})
    (name, given_), = uses(ask(client, said, [blinds]))
    assert given_ == {"room": "bedroom" if said.isascii() else "спальня",
                      ("closed_percent" if "Close" in said else "open_percent"): percent}, (said, given_)


@pytest.mark.parametrize("said", ["It's freezing in the cosy living room, make it 22.",
                                  "It is boiling in the big office, cool it to 22."])
def test_a_place_property_takes_the_place_never_an_adjective(client, said):
    heating = tool("set_heating", "Set the heating in an area of the house.", {"area": S, "temperature": N})
    lights = tool("set_lights", "Set the brightness of the lights in a zone.", {"zone": S, "brightness": N})
    calls = uses(ask(client, said, [lights, heating]))
    assert calls == [("set_heating", {"area": "living room" if "living" in said else "office", "temperature": 22})]


NOWHERE = [tool("track_shipment", "Track a shipment by its tracking number.", {"tracking_number": S}),
           tool("get_exchange_rate", "Exchange rate between two currencies.", {"base": S, "quote": S}),
           tool("translate_text", "Translate a text into another language.", {"text": S, "target": S})]


@pytest.mark.parametrize("said", ["My cat hasn't eaten for two days.", "Мой кот не ест уже два дня.",
                                  "The radiator is leaking in the kitchen.", "В офисе жарко, поставь 21 градус.",
                                  "Someone dented my boat at the marina."])
def test_control_a_situation_no_tool_fits_gets_text(client, said):
    response = ask(client, said, NOWHERE)
    assert uses(response) == [] and text_of(response), said
    assert response.stop_reason == "end_turn"


@pytest.mark.parametrize("said", ["What happens if I report a missed delivery?",
                                  "Would filing a damage claim raise my premium?",
                                  "Что будет, если подать заявку на ремонт?",
                                  "How does a maintenance request work here?"])
def test_control_a_question_about_the_remedy_runs_nothing(client, said):
    tools = [*SITUATIONS["missed"][0], SITUATIONS["claim"][0][0], *SITUATIONS["repair"][0]]
    acting = {"report_missed_delivery", "log_missed_mail", "file_damage_claim", "create_maintenance_request",
              "request_repair"}
    assert not acting & {name for name, _ in uses(ask(client, said, tools))}, said


@pytest.mark.parametrize("said", ["What is the status of order O-2?", "Какой статус у заказа O-2?"])
def test_control_an_unasked_action_is_never_proposed(client, said):
    tools = [tool("get_order", "Look up an order.", {"order_id": S}), tool("cancel_order", "Cancel an order.",
                                                                          {"order_id": S}),
             *SITUATIONS["missed"][0], *SITUATIONS["repair"][0]]
    assert [name for name, _ in uses(ask(client, said, tools))] == ["get_order"], said


# --- 2. noun + noun names a reader; "the schedule" is a noun -----------------------------------------------------

READERS = [("gym", "schedule", "The gym's class timetable for a day.", "What's on at the gym on Monday?"),
           ("pantry", "items", "Items currently in the pantry.", "What's in my pantry right now?"),
           ("pool", "timetable", "Расписание бассейна на день.", "Что сегодня в бассейне?"),
           ("workshop", "attendance", "Attendance of a workshop.", "Who was at the workshop on Monday?"),
           ("gym", "schedule", "The gym's class timetable for a day.", "Show me the gym schedule for Monday."),
           ("studio", "schedule", "Расписание студии.", "Какое расписание в студии на понедельник?")]
ACTORS = [tool("schedule_session", "Schedule a training session.", {"date": D, "trainer": S}),
          tool("book_class", "Book a place in a class.", {"class_id": S}),
          tool("remove_item", "Remove an item from the pantry.", {"item_id": S}),
          tool("order_items", "Order more items for delivery.", {"item": S})]


@PROPERTY
@given(reader=st.sampled_from(READERS), actors=st.lists(st.sampled_from(ACTORS), min_size=1, max_size=3,
                                                        unique_by=lambda t: t["name"]),
       shift=st.integers(0, 3))
def test_property_a_noun_noun_tool_reads(client, reader, actors, shift):
    noun, shown, described, said = reader
    spec = tool(f"{noun}_{shown}", described, {"date": D}, [])
    tools = [spec, *actors]
    tools = tools[shift % len(tools):] + tools[:shift % len(tools)]
    calls = uses(ask(client, said, tools))
    assert [name for name, _ in calls] == [spec["name"]], (said, calls)


def test_control_the_verb_still_acts(client):
    tools = [tool("gym_schedule", "The gym's class timetable for a day.", {"date": D}, []), ACTORS[0]]
    calls = uses(ask(client, "Schedule a session with trainer Anna on 2025-03-02.", tools))
    assert [name for name, _ in calls] == ["schedule_session"], calls


# --- 3. a compound ask picks one listed item by its place or a superlative ----------------------------------------

def _listing(rows, lister):
    def answer(name, tool_input):
        return (json.dumps(rows, ensure_ascii=False), False) if name == lister else ("ok", False)
    return answer


# (list tool, action tool, id key, the English and Russian nouns, the asks: (words, language, how to pick))
APPS3 = [("list_quotes", "accept_quote", "quote_id", "quotes for job J-5", "предложения по заказу J-5"),
         ("list_bids", "accept_bid", "bid_id", "bids for lot L-2", "предложения по лоту L-2"),
         ("list_offers", "approve_offer", "offer_id", "offers for flat F-9", "предложения по квартире F-9")]
PICKS = [("accept the cheapest", "en", "min"), ("accept the cheapest one", "en", "min"),
         ("accept the most expensive one", "en", "max"), ("accept the second one", "en", 1),
         ("accept the last one", "en", -1), ("accept the first one", "en", 0),
         ("прими самое дешёвое", "ru", "min"), ("прими самое дорогое", "ru", "max"), ("прими второе", "ru", 1),
         ("прими первое", "ru", 0), ("take the cheapest", "en", "min"), ("go with the second one", "en", 1),
         ("выбери самое дешёвое", "ru", "min")]


@PROPERTY
@example(app=APPS3[1], pick=("take the cheapest", "en", "min"), prices=[10, 11], key="price", then=False)
@example(app=APPS3[1], pick=("выбери самое дешёвое", "ru", "min"), prices=[10, 11], key="price", then=False)
@given(app=st.sampled_from(APPS3), pick=st.sampled_from(PICKS),
       prices=st.lists(st.integers(10, 500), min_size=2, max_size=5, unique=True),
       key=st.sampled_from(["price", "total_cost", "amount"]), then=st.booleans())
def test_property_one_item_by_its_place_or_price(client, app, pick, prices, key, then):
    lister, action, id_key, noun_en, noun_ru = app
    words, lang, how = pick
    verb = words.split()[0]
    words = words.replace(verb, {"accept": action.split("_")[0], "прими": "прими" if action.startswith("accept")
                                 else "одобри"}.get(verb, verb), 1)
    rows = [{id_key: f"X{i + 1}", "vendor": f"V{i + 1}", key: p} for i, p in enumerate(prices)]
    said = (f"Покажи {noun_ru} и {words}." if lang == "ru"
            else f"{'Show' if then else 'Get'} the {noun_en}{', then' if then else ' and'} {words}.")
    tools = [tool(lister, "List what was offered.", {"ref": S}, []),
             tool(action, "Accept one by its id.", {id_key: S})]
    final, responses = drive(client, said, tools, _listing(rows, lister))
    acted = [i[id_key] for r in responses for n, i in uses(r) if n == action]
    if how == "min":
        wanted = rows[prices.index(min(prices))][id_key]
    elif how == "max":
        wanted = rows[prices.index(max(prices))][id_key]
    else:
        wanted = rows[how][id_key]
    assert acted == [wanted], (said, rows, acted)
    assert final.stop_reason == "end_turn"


# (the listing's noun, the action, the words that pick the first item with room left)
FIRST_FREE = [("List the classes for Friday and book the first one with free places.", "en"),
              ("Show the classes for Friday, then book the first one that still has spots left.", "en"),
              ("Покажи занятия на пятницу и запиши меня на первое, где есть свободные места.", "ru"),
              ("Покажи занятия на пятницу и запиши меня на первое, где ещё есть места.", "ru")]


@PROPERTY
@given(said=st.sampled_from(FIRST_FREE), left=st.lists(st.integers(0, 4), min_size=1, max_size=5),
       key=st.sampled_from(["free_places", "spots_left", "seats_available", "places_remaining"]))
def test_property_the_first_item_with_room_left(client, said, left, key):
    rows = [{"class_id": f"C{i + 1}", "name": f"class {i + 1}", key: n} for i, n in enumerate(left)]
    tools = [tool("list_classes", "List the classes on a date.", {"date": D}, []),
             tool("book_class", "Book a place in a class.", {"class_id": S})]
    final, responses = drive(client, said[0], tools, _listing(rows, "list_classes"))
    acted = [i["class_id"] for r in responses for n, i in uses(r) if n == "book_class"]
    wanted = [row["class_id"] for row in rows if row[key] > 0][:1]
    assert acted == wanted, (said, rows, acted)
    assert final.stop_reason == "end_turn"


def test_control_a_question_about_the_cheapest_accepts_nothing(client):
    tools = [tool("list_quotes", "List the quotes for a job.", {"job_id": S}),
             tool("accept_quote", "Accept a quote.", {"quote_id": S})]
    rows = [{"quote_id": "Q1", "price": 120}, {"quote_id": "Q2", "price": 90}]
    final, responses = drive(client, "Show the quotes for job J-5. What happens if I accept the cheapest?", tools,
                             _listing(rows, "list_quotes"))
    assert "accept_quote" not in [n for r in responses for n, _ in uses(r)]
    assert final.stop_reason == "end_turn"


# --- 4. a Russian person, a subject in another case, a time of day ------------------------------------------------

PEOPLE = [("Ольга Смирнова", ["Ольги", "Смирновой"]), ("Иван Петров", ["Ивана", "Петрова", "Ивана Петрова"]),
          ("Анна Сидорова", ["Анны", "Сидоровой", "Анны Сидоровой"]), ("Пётр Орлов", ["Петра", "Орлова"])]
FRAMES4 = ["Покажи {noun} и отмени {noun} {who}.", "Покажи {noun}, потом отмени {noun} для {who}.",
           "Покажи {noun} и отмени те, что у {who}."]
APPS4 = [("list_talks", "cancel_talk", "talk_id", "доклады", "speaker"),
         ("list_parcels", "cancel_parcel", "parcel_id", "посылки", "recipient"),
         ("list_appointments", "cancel_appointment", "appointment_id", "записи", "client_name")]


@PROPERTY
@given(app=st.sampled_from(APPS4), person=st.sampled_from(PEOPLE), form=st.integers(0, 2),
       frame=st.sampled_from(FRAMES4), owners=st.lists(st.integers(0, 3), min_size=1, max_size=5),
       surname_first=st.booleans())
def test_property_a_russian_person_filter(client, app, person, form, frame, owners, surname_first):
    lister, action, id_key, noun, field = app
    name, forms = person
    who = forms[form % len(forms)]
    rows = []
    for i, k in enumerate(owners):
        first, last = PEOPLE[k][0].split()
        rows.append({id_key: f"R{i + 1}", field: f"{last} {first}" if surname_first else f"{first} {last}"})
    said = frame.format(noun=noun, who=who)
    tools = [tool(lister, "Показать список.", {}, []), tool(action, "Отменить по идентификатору.", {id_key: S})]
    final, responses = drive(client, said, tools, _listing(rows, lister))
    acted = [i[id_key] for r in responses for n, i in uses(r) if n == action]
    wanted = [row[id_key] for row, k in zip(rows, owners, strict=True) if PEOPLE[k][0] == name]
    assert acted == wanted, (said, rows, acted)
    assert final.stop_reason == "end_turn"


SUBJECTS = [("лифт", ["про лифт", "о лифте", "про лифты"]), ("крыша", ["про крышу", "о крыше"]),
            ("бюджет", ["про бюджет", "о бюджете"])]


@PROPERTY
@given(subject=st.sampled_from(SUBJECTS), form=st.integers(0, 2), topics=st.lists(st.integers(0, 2), min_size=1,
                                                                                   max_size=5),
       english=st.booleans())
def test_property_a_subject_in_another_case(client, subject, form, topics, english):
    word, said_forms = subject
    rows = [{"talk_id": f"T{i + 1}", "speaker": "Иван Петров", "topic": SUBJECTS[k][0]} for i, k in enumerate(topics)]
    if english:
        rows = [{**row, "topic": {"лифт": "the lift", "крыша": "the roof", "бюджет": "the budget"}[row["topic"]]}
                for row in rows]
        said = "List the talks and cancel the ones about the {}.".format(
            {"лифт": "lift", "крыша": "roof", "бюджет": "budget"}[word])
    else:
        said = f"Покажи доклады и отмени те, что {said_forms[form % len(said_forms)]}."
    tools = [tool("list_talks", "List conference talks.", {}, []), tool("cancel_talk", "Cancel a talk.",
                                                                        {"talk_id": S})]
    final, responses = drive(client, said, tools, _listing(rows, "list_talks"))
    acted = [i["talk_id"] for r in responses for n, i in uses(r) if n == "cancel_talk"]
    assert acted == [row["talk_id"] for row, k in zip(rows, topics, strict=True) if SUBJECTS[k][0] == word], (said,
                                                                                                                rows)
    assert final.stop_reason == "end_turn"


# --- 5. forced calls: titles, names after a verb, cities, with/without flags, a past day, a switch ---------------

@pytest.mark.parametrize("said, wanted", [
    ("Book me with Dr. Anna Weiss on Friday.", "Anna Weiss"), ("Book Prof. Hans Meyer for Friday.", "Hans Meyer"),
    ("Запиши меня к д-ру Анне Вайс на пятницу.", "Анна Вайс"), ("Запиши меня к доктору Анне Вайс.", "Анна Вайс")])
def test_a_title_is_no_part_of_a_full_name(client, said, wanted):
    spec = tool("book_appointment", "Book an appointment with a doctor.", {"doctor_full_name": S, "date": D},
                ["doctor_full_name"])
    given_, _ = forced(client, said, spec)
    assert given_["doctor_full_name"] == wanted, (said, given_)


@PROPERTY
@given(verb=st.sampled_from(["Enter", "Book", "Add", "Register", "Seat", "Put", "Sign up"]),
       name=st.sampled_from(["Mark Twain", "Grace Hopper", "Ada Lovelace", "Alan Turing"]),
       rest=st.sampled_from([" in the guest book.", " for the dinner.", " on the list.", "."]))
def test_property_a_name_after_a_common_verb_is_the_name(client, verb, name, rest):
    spec = tool("register_guest", "Register a guest.", {"full_name": S})
    given_, _ = forced(client, f"{verb} {name}{rest}", spec)
    assert given_["full_name"] == name


CITIES5 = [("Казани", "Казань"), ("Перми", "Пермь"), ("Твери", "Тверь"), ("Рязани", "Рязань"), ("Самары", "Самара"),
           ("Москвы", "Москва"), ("Тольятти", "Тольятти"), ("Тбилиси", "Тбилиси")]
TO5 = [("Тверь", "Тверь"), ("Самару", "Самара"), ("Пермь", "Пермь"), ("Казань", "Казань")]


@PROPERTY
@given(origin=st.sampled_from(CITIES5), to=st.sampled_from(TO5), car=st.sampled_from([None, True, False]),
       dog=st.sampled_from([None, True, False]), bags=st.sampled_from([None, True, False]), russian=st.booleans())
def test_property_cities_and_with_without_flags(client, origin, to, car, dog, bags, russian):
    spec = tool("book_ferry_trip", "Book a trip.", {"origin_city": S, "destination_city": S,
                                                   "with_car": {"type": "boolean"}, "has_pet": {"type": "boolean"},
                                                   "with_luggage": {"type": "boolean"}}, ["origin_city",
                                                                                          "destination_city"])
    if russian:
        extras = [w for w, on in (("с машиной", car), ("без машины", car is False), ("с собакой", dog),
                                  ("без собаки", dog is False), ("с багажом", bags), ("без багажа", bags is False))
                  if on]
        said = f"Забронируй поездку из {origin[0]} в {to[0]}" + (", " + ", ".join(extras) if extras else "") + "."
    else:
        extras = [w for w, on in (("with my car", car), ("without the car", car is False), ("with my dog", dog),
                                  ("no dog", dog is False), ("with luggage", bags), ("no luggage", bags is False))
                  if on]
        said = "Book a trip from Leeds to York" + (", " + ", ".join(extras) if extras else "") + "."
    given_, _ = forced(client, said, spec)
    if russian:
        assert (given_["origin_city"], given_["destination_city"]) == (origin[1], to[1]), (said, given_)
    for prop, on in (("with_car", car), ("has_pet", dog), ("with_luggage", bags)):
        if on is not None:
            assert given_.get(prop) is on, (said, prop, given_)


@pytest.mark.parametrize("said, day", [("I lost my umbrella on Friday.", "2025-01-10"),
                                       ("Я потерял зонт в пятницу.", "2025-01-10"),
                                       ("I left my black backpack on the bus on Monday.", "2025-01-13"),
                                       ("Book it for Friday.", "2025-01-17"),
                                       ("Any places left on Friday?", "2025-01-17")])
def test_a_weekday_is_past_for_a_past_event_and_next_for_a_future_one(client, said, day):
    spec = tool("log_item", "Log an item.", {"item": S, "date": D}, ["date"])
    given_, _ = forced(client, said, spec)
    assert given_["date"] == day, (said, given_)
    if "lost" in said or "left my" in said or "потерял" in said:
        assert given_["item"] in ("umbrella", "зонт", "black backpack"), given_


@pytest.mark.parametrize("said, state", [("Enable plug P-7.", "on"), ("Disable plug P-7.", "off"),
                                         ("Включи розетку P-7.", "on"), ("Отключи розетку P-7.", "off")])
@pytest.mark.parametrize("choice", ["auto", "tool"])
def test_a_switch_verb_with_an_id_is_a_call_with_its_state(client, said, state, choice):
    spec = tool("set_plug", "Switch a smart plug.", {"plug_id": S, "state": {"type": "string", "enum": ["on", "off"]}})
    tools = [tool("list_plugs", "List smart plugs.", {}, []), spec]
    kw = {"tool_choice": {"type": "tool", "name": "set_plug"}} if choice == "tool" else {}
    response = ask(client, said, tools, **kw)
    assert uses(response) == [("set_plug", {"plug_id": "P-7", "state": state})], (said, uses(response))
    assert "placeholder" not in text_of(response) and "заглушк" not in text_of(response)


@pytest.mark.parametrize("said, wanted", [("What's the weather in Oslo? It's freezing here.", ["get_weather"]),
                                          ("How much does the premium plan cost?", []),
                                          ("Почему так долго?", [])])
def test_control_a_named_tool_or_one_weak_word_keeps_the_remedy_out(client, said, wanted):
    tools = [tool("get_weather", "Get the weather for a city.", {"city": S}),
             tool("set_thermostat", "Set the target temperature of the heating/cooling in a zone.",
                  {"zone": S, "target_c": N}),
             tool("get_boat_insurance_quote", "Price quote for insuring a boat.", {}, []),
             tool("get_outstanding_fees", "Show unpaid fees and fines on a member account.", {}, [])]
    assert [name for name, _ in uses(ask(client, said, tools))] == wanted, said


@pytest.mark.parametrize("said", ["List the offers for flat F-9 and take the cheapest.",
                                  "Покажи предложения по квартире F-9 и выбери самое дешёвое."])
def test_choosing_accepts_never_rejects(client, said):
    tools = [tool("list_offers", "List the offers for a flat.", {"flat_id": S}),
             tool("reject_offer", "Reject an offer.", {"offer_id": S}),
             tool("accept_offer", "Accept an offer.", {"offer_id": S})]
    rows = [{"offer_id": "Q1", "price": 120}, {"offer_id": "Q2", "price": 90}]
    final, responses = drive(client, said, tools, _listing(rows, "list_offers"))
    assert [(n, i) for r in responses for n, i in uses(r) if n != "list_offers"] == [("accept_offer",
                                                                                       {"offer_id": "Q2"})]
    assert final.stop_reason == "end_turn"
