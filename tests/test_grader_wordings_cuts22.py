"""Attack 22's H-6c on exercise 6's strict cut rows (course_selfcheck/wordings/cuts.py): an error at a cut that blames
the other stop in other words, or takes the cut back by answering its own question no."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_selfcheck.wordings import cut_reading, speaks_of_its_stop

MT, FULL = "max_tokens", "model_context_window_exceeded"


def strict_ok(text: str, stop: str) -> bool:
    """As exercise 6's strict cut rows read an error: it says the cut, takes nothing back, blames no other stop."""
    reading = cut_reading(text, stop, strict=True)
    return reading.ok and reading.denied is None and reading.blamed is None and speaks_of_its_stop(text, stop)


INPUTS = {"en": ["the prompt", "the conversation", "the chat", "the history", "the input"],
          "ru": ["запрос", "переписка", "чат", "история", "диалог"]}
TOO = {"en": ["{a} was cut because {x} is too long.", "{a} was truncated since {x} is too big.",
              "{a} stopped early: {x} is too long."],
       "ru": ["{A} обрезан, потому что {x} слишком длинный.", "{A} оборвался: {x} слишком велик."]}
ANSWERS = {"en": ["The answer", "The reply", "The output"], "ru": ["ответ", "вывод"]}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["en", "ru"]), st.data())
def test_an_input_too_big_is_the_full_windows_cause_at_max_tokens(lang, data):
    frame, x = data.draw(st.sampled_from(TOO[lang])), data.draw(st.sampled_from(INPUTS[lang]))
    a = data.draw(st.sampled_from(ANSWERS[lang]))
    text = frame.format(a=a, A=a[0].upper() + a[1:], x=x)
    assert not strict_ok(text, MT), text


@pytest.mark.parametrize("text, stop, right", [
    ("Output truncated: there are too many turns in the conversation.", MT, False),
    ("Ответ обрезан: в переписке слишком много сообщений.", MT, False),
    ("The context window overflowed: increase the token limit of the reply.", FULL, False),
    ("Контекстное окно переполнено: увеличьте лимит токенов ответа.", FULL, False),
    ("The reply was truncated at max_tokens? No.", MT, False),
    ("Ответ обрезан по max_tokens? Нет.", MT, False),
    ("The history no longer fits the context window? Nope.", FULL, False),
    ("История не помещается в контекстное окно? Нет.", FULL, False),
    ("Output truncated. Clear out the chat, then retry.", MT, False),
    ("Ответ оборвался: нужна модель с большим контекстным окном.", MT, False),
    # right: the same words where they belong, and a question answered yes
    ("The context window overflowed: reset the chat and retry with a model with a larger context window.", FULL, True),
    ("The reply was truncated at max_tokens: the answer is too long for its budget. Raise max_tokens.", MT, True),
    ("Ответ обрезан по max_tokens: он слишком длинный для лимита. Увеличьте max_tokens.", MT, True),
    ("The context window overflowed: the conversation is too long. Trim the history.", FULL, True),
    ("Контекстное окно переполнено: история слишком длинная. Сократите её.", FULL, True),
    ("Was the reply cut? Yes: it hit max_tokens before it ended.", MT, True),
    ("Контекстное окно переполнено: история слишком длинная, а не max_tokens мал. Сократите историю.", FULL, True),
    ("The context window is full: the history is too long, not max_tokens too small. Trim the history.", FULL, True),
    ("Ответ обрезан? Да: он упёрся в max_tokens и не закончен.", MT, True),
])
def test_the_other_stops_cause_in_other_words_or_a_cut_taken_back(text, stop, right):
    assert strict_ok(text, stop) is right, text
