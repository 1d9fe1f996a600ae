"""Attack 19's H1/F1: an error at a cut read clause by clause, each for WHICH stop's cause it names and whether it
says it happened or rules it out. A right error may rule out the other stop's cause ("the context window is not
full" at max_tokens); an error that blames the other stop, or rules out its own, says the wrong thing. Sentences are
generated from clauses of each kind in both languages, in any order."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_selfcheck.wordings import cut_reading, speaks_of_its_stop

SAID = {  # clauses that say the cause happened
    "answer": {"en": ["The answer was cut at max_tokens", "max_tokens cut the reply before it finished",
                      "The response was truncated by max_tokens", "The reply hit the max_tokens limit and stopped "
                      "midway"],
               "ru": ["Ответ обрезан лимитом max_tokens", "Ответ оборвался на max_tokens",
                      "Модель не успела дописать ответ до лимита max_tokens"]},
    "window": {"en": ["The history no longer fits the context window", "The conversation is too long for the "
                      "context window", "The context window is full", "The context window overflowed"],
               "ru": ["История больше не помещается в контекстное окно", "Контекстное окно переполнено",
                      "Переписка не влезает в контекстное окно"]},
}
RULED_OUT = {  # clauses that rule the cause out
    "answer": {"en": ["the answer was not cut by max_tokens", "raising max_tokens will not help",
                      "max_tokens is not the problem", "not because of max_tokens", "the answer is complete"],
               "ru": ["ответ не обрезан лимитом max_tokens", "поднимать max_tokens бесполезно",
                      "дело не в max_tokens", "лимит max_tokens ни при чём", "ответ целый"]},
    "window": {"en": ["the context window is not full", "the history still fits in the context window",
                      "not because of the context window", "the context window is fine",
                      "shortening the history will not help", "there is room left in the context window"],
               "ru": ["контекстное окно не переполнено", "история ещё помещается в контекстное окно",
                      "дело не в контекстном окне", "сокращать историю не нужно",
                      "с контекстным окном всё в порядке"]},
}
OWN = {"max_tokens": "answer", "model_context_window_exceeded": "window"}
OTHER = {"answer": "window", "window": "answer"}
JOINS = {"en": [". ", "; ", ", ", ": ", " — ", ", but "], "ru": [". ", "; ", ", ", ": ", " — ", ", а "]}


def _sentence(first: str, second: str, join: str) -> str:
    return f"{first[0].upper()}{first[1:]}{join}{second[0].lower() if join in ', а , but ' else second[0]}{second[1:]}."


def _judged(text: str, stop: str) -> bool:
    return cut_reading(text, stop, strict=True).ok and speaks_of_its_stop(text, stop)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), stop=st.sampled_from(sorted(OWN)), lang=st.sampled_from(["en", "ru"]), swap=st.booleans())
def test_the_cause_said_and_the_other_ruled_out_says_what_happened(data, stop, lang, swap):
    """F1: "The answer was cut at max_tokens; the context window is not full" (either order) is right."""
    own = OWN[stop]
    said = data.draw(st.sampled_from(SAID[own][lang]))
    out = data.draw(st.sampled_from(RULED_OUT[OTHER[own]][lang]))
    join = data.draw(st.sampled_from(JOINS[lang]))
    text = _sentence(*((out, said) if swap else (said, out)), join)
    assert _judged(text, stop), text
    assert cut_reading(text, stop).ok, text  # the looser reading of exercises 7 and 8 agrees


@settings(max_examples=150, deadline=None)
@given(data=st.data(), stop=st.sampled_from(sorted(OWN)), lang=st.sampled_from(["en", "ru"]), swap=st.booleans())
def test_the_other_cause_said_and_its_own_ruled_out_does_not(data, stop, lang, swap):
    """H1: the same clauses swapped ("The answer is complete; the context window overflowed" at max_tokens) say the
    opposite of what happened."""
    own = OWN[stop]
    said = data.draw(st.sampled_from(SAID[OTHER[own]][lang]))
    out = data.draw(st.sampled_from(RULED_OUT[own][lang]))
    join = data.draw(st.sampled_from(JOINS[lang]))
    text = _sentence(*((out, said) if swap else (said, out)), join)
    reading = cut_reading(text, stop, strict=True)
    assert not reading.ok and reading.denied is not None, text
    assert not cut_reading(text, stop).ok, text  # no cut row anywhere takes it


@settings(max_examples=100, deadline=None)
@given(data=st.data(), stop=st.sampled_from(sorted(OWN)), lang=st.sampled_from(["en", "ru"]))
def test_an_error_that_says_its_cause_and_rules_it_out_contradicts_itself(data, stop, lang):
    own = OWN[stop]
    text = _sentence(data.draw(st.sampled_from(SAID[own][lang])), data.draw(st.sampled_from(RULED_OUT[own][lang])),
                     data.draw(st.sampled_from(JOINS[lang])))
    assert not _judged(text, stop), text


@settings(max_examples=100, deadline=None)
@given(data=st.data(), stop=st.sampled_from(sorted(OWN)), lang=st.sampled_from(["en", "ru"]), swap=st.booleans())
def test_an_error_that_also_blames_the_other_cause_is_not_clear(data, stop, lang, swap):
    """Exercise 6's strict rows: both causes said ("the answer was cut at max_tokens; the context window is full")
    send the reader to the wrong remedy too."""
    own = OWN[stop]
    said, other = data.draw(st.sampled_from(SAID[own][lang])), data.draw(st.sampled_from(SAID[OTHER[own]][lang]))
    text = _sentence(*((other, said) if swap else (said, other)), data.draw(st.sampled_from(JOINS[lang])))
    reading = cut_reading(text, stop, strict=True)
    assert not (reading.ok and speaks_of_its_stop(text, stop)), text


@pytest.mark.parametrize("text, stop, quoted", [
    # attack 19's holes: the row quotes the clause it objects to
    ("The answer is complete; the context window overflowed.", "max_tokens", "The answer is complete"),
    ("Ответ целый; переполнилось контекстное окно.", "max_tokens", "Ответ целый"),
    ("The answer was cut by max_tokens, not by the context window.", "model_context_window_exceeded",
     "not by the context window"),
    ("The window is fine: the answer was truncated, raise max_tokens.", "model_context_window_exceeded",
     "The window is fine"),
    ("Дело не в контекстном окне: ответ обрезан лимитом max_tokens.", "model_context_window_exceeded",
     "Дело не в контекстном окне"),
    ("Not because the history no longer fits the context window, but because max_tokens cut the answer.",
     "model_context_window_exceeded", "Not because the history no longer fits the context window"),
])
def test_attack_19s_wrong_cut_errors_are_read_as_ruling_their_cause_out(text, stop, quoted):
    reading = cut_reading(text, stop, strict=True)
    assert not reading.ok and reading.denied == quoted


@pytest.mark.parametrize("text, stop", [
    # attack 19's false fails, and its controls
    ("The answer was cut at max_tokens. The context window is not full, so do not shorten the history: raise "
     "max_tokens.", "max_tokens"),
    ("The answer was cut by max_tokens (the history still fits in the context window).", "max_tokens"),
    ("Ответ обрезан на max_tokens. Контекстное окно не переполнено: историю сокращать не нужно.", "max_tokens"),
    ("Ответ обрезан лимитом max_tokens, а не переполненным окном.", "max_tokens"),
    ("The history no longer fits the context window; the answer was not cut by max_tokens, so raising max_tokens "
     "will not help.", "model_context_window_exceeded"),
    ("История больше не помещается в контекстное окно; ответ не обрезан лимитом max_tokens, поднимать его "
     "бесполезно.", "model_context_window_exceeded"),
    ("Not because the context window is full, but because the answer hit max_tokens and was cut.", "max_tokens"),
    ("Not because max_tokens cut the answer, but because the history no longer fits the context window.",
     "model_context_window_exceeded"),
    ("Не влезает история в контекстное окно", "model_context_window_exceeded"),
    ("The answer was cut at max_tokens, with room to spare in the context window", "max_tokens"),
    ("max_tokens: the answer was cut (the conversation is 12k of a 200k context window)", "max_tokens"),
    # a clause of no use said after the cut speaks of the call or the retry, not of the cut's cause
    ("The answer was cut at max_tokens: no need to run the cut tool call", "max_tokens"),
    ("Answer cut at max_tokens; there is no point in retrying the same request", "max_tokens"),
    ("The history no longer fits: there is no need to retry", "model_context_window_exceeded"),
])
def test_attack_19s_right_cut_errors_say_what_happened(text, stop):
    assert _judged(text, stop), text


def test_the_row_quotes_the_clause_and_no_full_stop_before_a_comma():
    """Report wording 1 and 4: the row names the clause it objects to, and the error's own full stop does not stand
    before the row's comma ("…raise max_tokens., which")."""
    from types import SimpleNamespace

    from course_selfcheck.rules import says_it_was_cut

    run = SimpleNamespace(error=RuntimeError("The answer is complete; the context window overflowed."), returned=None)
    for lang, quoted in (("en", "'The answer is complete'"), ("ru", "«The answer is complete»")):
        found = says_it_was_cut(run, lang, "max_tokens", cause=True)
        assert found is not None and quoted in found.detail, found
        assert "., " not in found.detail, found.detail
    run = SimpleNamespace(error=RuntimeError("Review failed."), returned=None)
    found = says_it_was_cut(run, "en", "max_tokens", cause=True)
    assert found is not None and "Review failed, which" in found.detail, found.detail


# Attack 19's H3/F2: a denial read as structure: a decider that is a person or role (whoever: a name, a role), a no
# verb no negation governs, not overruled by a policy or a timeout, and no retry or later yes.
DECIDERS = {"en": ["Alice", "The on-call engineer", "The person you work for", "The administrator", "A human",
                   "The release manager", "Bob from the platform team", "The reviewer"],
            "ru": ["Ответственный", "Администратор", "Мейнтейнер", "Человек", "Алиса", "Дежурный инженер",
                   "Руководитель релиза"]}
NO_VERBS = {"en": ["denied {tool}", "declined {tool}", "rejected {tool}", "refused {tool}", "said no to {tool}",
                   "vetoed {tool}", "did not approve {tool}"],
            "ru": ["отклонил {tool}", "запретил {tool}", "отказал в вызове {tool}", "не разрешил {tool}",
                   "не одобрил {tool}"]}
NEGATED = {"en": ["did not deny {tool}", "never rejected {tool}", "has not declined {tool}"],
           "ru": ["не отклонял {tool}", "не запрещал {tool}"]}
NOT_PEOPLE = {"en": ["The security policy", "The timeout", "The system", "The CI pipeline", "An automatic rule"],
              "ru": ["Политика безопасности", "Таймаут", "Система", "Автоматическое правило"]}
TAILS = {"en": ["", ": it was not run. Report it instead.", "; it was not run. Do not call it again."],
         "ru": ["", ": вызов не выполнен. Сообщи об этом в ревью.", "; вызов не выполнен. Не вызывай его снова."]}
LATER = {"en": [". Try later.", ". Feel free to try {tool} later.", "; they may approve it later.",
                ". Try {tool} again later."],
         "ru": [". Попробуй позже.", ". Попробуй ещё.", "; позже он, возможно, согласится.", ". Вызови {tool} потом."]}
OVERRULED = {"en": ["A human approved {tool}, but {who} blocked it", "The human was away, and {who} denied {tool}"],
             "ru": ["Человек одобрил {tool}, но {who} его заблокировала", "Человек был занят, а {who} отклонила {tool}"]}


def _a_denial(text: str, tool: str) -> bool:
    from course_selfcheck.wordings import names_the_decider, says_denied

    return says_denied(text, tool) and names_the_decider(text)


TOOLS = st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["en", "ru"]), tool=TOOLS)
def test_a_no_said_by_any_person_or_role_is_a_denial(data, lang, tool):
    """F2: "Alice declined", "The on-call engineer denied", «Администратор отклонил», «Ответственный отклонил»."""
    who, no = data.draw(st.sampled_from(DECIDERS[lang])), data.draw(st.sampled_from(NO_VERBS[lang]))
    text = f"{who} {no.format(tool=tool)}{data.draw(st.sampled_from(TAILS[lang]))}"
    assert _a_denial(text, tool), text


@settings(max_examples=100, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["en", "ru"]), tool=TOOLS)
def test_a_negated_no_is_no_denial(data, lang, tool):
    """H3: "The human did not deny merge_pr", «Человек не отклонял merge_pr»: the opposite of a no."""
    who, no = data.draw(st.sampled_from(DECIDERS[lang])), data.draw(st.sampled_from(NEGATED[lang]))
    text = f"{who} {no.format(tool=tool)}{data.draw(st.sampled_from(TAILS[lang]))}"
    assert not _a_denial(text, tool), text


@settings(max_examples=100, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["en", "ru"]), tool=TOOLS)
def test_a_no_said_by_no_person_is_no_human_denial(data, lang, tool):
    """H3: a policy's, a timeout's, the system's no, alone or after a person's yes or absence."""
    from course_selfcheck.wordings import names_the_decider

    who = data.draw(st.sampled_from(NOT_PEOPLE[lang]))
    no = data.draw(st.sampled_from(NO_VERBS[lang][:4]))
    alone = f"{who} {no.format(tool=tool)}{data.draw(st.sampled_from(TAILS[lang]))}"
    assert not names_the_decider(alone), alone
    overruled = data.draw(st.sampled_from(OVERRULED[lang])).format(tool=tool, who=who[0].lower() + who[1:])
    assert not names_the_decider(overruled + data.draw(st.sampled_from(TAILS[lang]))), overruled


@settings(max_examples=100, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["en", "ru"]), tool=TOOLS)
def test_a_no_that_invites_a_later_try_or_promises_a_later_yes_is_no_denial(data, lang, tool):
    """H3: "Try later", «Попробуй ещё», "they may approve it later": the model asks again."""
    who, no = data.draw(st.sampled_from(DECIDERS[lang])), data.draw(st.sampled_from(NO_VERBS[lang]))
    text = f"{who} {no.format(tool=tool)}{data.draw(st.sampled_from(LATER[lang])).format(tool=tool)}"
    assert not _a_denial(text, tool), text


@pytest.mark.parametrize("text, right", [
    # attack 19's H3 attempts (wrong) and F2 attempts (right), as their denied() words them
    ("The human did not deny merge_pr; it was not run because of a glitch. Report it.", False),
    ("Человек не отклонял merge_pr; вызов не выполнен из-за сбоя.", False),
    ("A human denied merge_pr this time; they may approve it later.", False),
    ("Человек отклонил merge_pr в этот раз; позже он, возможно, согласится.", False),
    ("Человек отклонил этот вызов: merge_pr не выполнен. Попробуй позже.", False),
    ("Человек отклонил этот вызов: merge_pr не выполнен. Попробуй ещё.", False),
    ("A human denied this call: merge_pr was not run. Try later.", False),
    ("A human denied this call: merge_pr was not run. Feel free to try merge_pr later.", False),
    ("A human approved merge_pr, but the security policy blocked it; it was not run. Report it instead.", False),
    ("Человек одобрил merge_pr, но политика безопасности его заблокировала: вызов не выполнен.", False),
    ("The human was away, and the timeout denied merge_pr; it was not run.", False),
    ("Alice declined this call: merge_pr was not run. Report it instead.", True),
    ("Alice said no to merge_pr; it was not run. Report it in your review.", True),
    ("The on-call engineer denied merge_pr; it was not run. Report it instead.", True),
    ("The person you work for denied merge_pr. It was not run. Report it instead.", True),
    ("Ответственный отклонил этот вызов: merge_pr не выполнен. Сообщи об этом в ревью.", True),
    ("Администратор отклонил merge_pr: вызов не выполнен. Сообщи об этом в ревью.", True),
    ("Мейнтейнер отклонил merge_pr: вызов не выполнен. Сообщи об этом в ревью.", True),
    # the passives at the approval step: in this course approve() asks the human, so its no is a person's
    ("merge_pr was rejected at the approval step: it was not run. Report it instead.", True),
    ("В подтверждении отказано: merge_pr не выполнен. Сообщи об этом в ревью.", True),
    ("merge_pr was denied: it was not run.", False),
    ("Этот вызов отклонил администратор: он не выполнен.", True),
])
def test_attack_19s_denials(text, right):
    assert _a_denial(text, "merge_pr") is right


TOOLS_OFFERED = {"tools": [
    {"name": "get_diff", "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}}},
    {"name": "read_file", "input_schema": {"type": "object", "properties": {
        "path": {"type": "string"}, "ref": {"type": "string"}, "start": {"type": "integer"}}}}]}


@pytest.mark.parametrize("note, sent", [
    # attack 19's H5: the numbers right, the tool to read on with wrong
    ("[cut: characters 0 to 20000 of 484915. Call get_diff with start=20000 for the rest.]", ("get_diff", "start")),
    ("[обрезано: 20000 из 484915 символов. Чтобы прочитать остальное, вызови get_diff с start=20000.]",
     ("get_diff", "start")),
    # right: the cut tool named, or no tool named
    ("[cut: characters 0 to 20000 of 484915. Call read_file with start=20000 for the rest.]", None),
    ("[truncated: showing characters 0-20000 of 484915; to continue, call read_file with start=20000]", None),
    ("[cut: 20000 of 484915 characters; read on with start=20000]", None),
    ("[cut: 20000 of 484915. get_diff showed the change; call read_file with start=20000 for the rest]", None),
])
def test_a_cut_note_names_the_tool_that_reads_on(note, sent):
    from course_selfcheck.later_rules import _sent_elsewhere

    assert _sent_elsewhere(note, TOOLS_OFFERED, {"name": "read_file"}, {"path", "ref", "start"}) == sent


@pytest.mark.parametrize("text, not_a_persons", [
    ("The human did not deny merge_pr; it was not run because of a glitch.", True),
    ("A human approved merge_pr, but the security policy blocked it; it was not run.", True),
    ("The human was away, and the timeout denied merge_pr; it was not run.", True),
    ("Человек не отклонял merge_pr; вызов не выполнен из-за сбоя.", True),
    ("merge_pr is not available right now. Try it again.", False),  # no no at all: "does not say who" is right
    ("merge_pr failed.", False)])
def test_a_row_says_when_the_no_is_not_a_persons(text, not_a_persons):
    """Report wording 1: a no that is negated or said by a policy is named as such, not as a text without a decider."""
    from course_selfcheck.wordings import a_no_not_a_persons

    assert a_no_not_a_persons(text) is not_a_persons


def test_a_catch_alls_error_is_quoted_without_its_full_stop_before_a_comma():
    from types import SimpleNamespace

    from course_selfcheck.rules import says_it_was_cut

    run = SimpleNamespace(error=RuntimeError("Unexpected stop: max_tokens."), returned=None)
    found = says_it_was_cut(run, "en", "max_tokens", cause=True)
    assert found is not None and "Unexpected stop: max_tokens, which names the stop" in found.detail, found.detail
