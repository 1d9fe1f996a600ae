"""The graders' readings of a learner's words, from attack 7: a right wording passes, a wrong one does not."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_selfcheck.approvers import ApproverUnavailable
from course_selfcheck.exercises.exercise_3 import _tells_count
from course_selfcheck.later_rules import _says_how_on
from course_selfcheck.wordings import says_cut, says_denied


TWO_EACH, THREE = {"get_diff": 2, "read_file": 2}, {"get_diff": 2, "read_file": 1}


@pytest.mark.parametrize("message, calls, right", [
    ("Stopped after 2 calls to the model: 4 tool calls (get_diff, read_file), and still no answer", TWO_EACH, True),
    ("Остановлено после 2 запросов к модели: 4 вызова инструментов (get_diff, read_file)", TWO_EACH, True),
    ("2 model calls, 3 tool calls: get_diff, read_file", THREE, True),
    ("Stopped after 2 calls to the model: 4 tool calls (get_diff, read_file)", {"get_diff": 2}, False),
    ("Too many iterations: 3 tool calls", TWO_EACH, False),
    ("tool calls: 3 (get_diff)", {"get_diff": 3}, True),
    # attack 8: a count per tool that adds up
    ("No answer after 2 iterations. Tool calls made: get_diff: 2 calls, read_file: 2 calls", TWO_EACH, True),
    ("No answer after 2 iterations. Tool calls made: get_diff: 2 calls, read_file: 1 call", TWO_EACH, False),
    # the Russian lesson's cap error (issue 36): the cap is named as a parameter, not as a count
    ("Ответа нет: достигнуто ограничение итераций (max_iterations=2); вызовов инструментов: 3 (get_diff, read_file)",
     THREE, True),
    ("Ответа нет: достигнуто ограничение итераций (max_iterations=2); вызовов инструментов: 3 (get_diff, read_file)",
     {"get_diff": 1, "read_file": 1}, False),
    # attack 13: the total, then a breakdown per tool that adds up to it
    ("No answer after 2 iterations: the model made 4 tool calls: get_diff (2 calls), read_file (2 calls)", TWO_EACH,
     True),
    ("Ответа нет: 4 вызова инструментов (get_diff — 2 вызова, read_file — 2 вызова)", TWO_EACH, True),
    ("No answer after 2 iterations: the model made 4 tool calls: get_diff (2 calls), read_file (1 call)", TWO_EACH,
     False),
    ("get_diff: 2 calls, read_file: 2 calls (4 tool calls in total)", TWO_EACH, True),
    ("4 tool calls in total (get_diff: 2 calls, read_file: 2 calls)", TWO_EACH, True),
    ("4 tool calls — get_diff ×2, read_file ×2", TWO_EACH, True),
    ("Tool calls per tool: {'get_diff': 2, 'read_file': 2}", TWO_EACH, True),
    ("No answer after 2 iterations: 4 tool calls: 2x get_diff, 2x read_file", TWO_EACH, True),
    ("No answer after 2 iterations: 3 tool calls: get_diff(484), read_file(shop/cart.py)", THREE, True),
    # attack 12's H18: the total right, the figures per tool not (each tool counted once per turn)
    ("No answer after 2 iterations: 4 tool calls: get_diff x1, read_file x1", TWO_EACH, False),
    ("No answer after 2 iterations: 4 tool calls: get_diff x1, read_file x3", TWO_EACH, False),
    ("Ответа нет после 2 итераций: 4 вызова инструментов (get_diff — 1 раз, read_file — 3 раза)", TWO_EACH, False),
    # attack 14's FF1: a count of model calls in other words, and the verb «запросила» before the tool count
    ("Ответа нет после 2 итераций: модель запросила 4 вызова инструментов (get_diff, get_diff, read_file, read_file)",
     TWO_EACH, True),
    ("Stopped after 2 calls to messages.create: the model asked for 4 tool calls (get_diff, get_diff, read_file, "
     "read_file)", TWO_EACH, True),
    ("Ответа нет после 2 вызовов API: всего вызовов инструментов 4 (get_diff, get_diff, read_file, read_file)",
     TWO_EACH, True),
    ("No answer after 2 iterations (2 calls to client.messages.create): 4 tool calls: get_diff, read_file", TWO_EACH,
     True),
    ("Ответа нет после 2 вызовов Claude: 4 вызова инструментов (get_diff, read_file)", TWO_EACH, True),
    ("Stopped after 2 calls to messages.create: the model asked for 3 tool calls (get_diff, read_file)", TWO_EACH,
     False),
    ("Ответа нет после 2 итераций: модель запросила 3 вызова инструментов (get_diff, read_file)", TWO_EACH, False),
    ("Ответа нет после 2 вызовов API: 2 вызова инструментов (get_diff, read_file)", TWO_EACH, False),
])
def test_a_count_of_model_calls_is_not_taken_for_the_count_of_tool_calls(message, calls, right):
    from collections import Counter

    assert _tells_count(message, Counter(calls)) is right


@pytest.mark.parametrize("result", ["merge_pr skipped: the human did not say yes, so nothing was merged.",
                                    "Человек не согласился на слияние: merge_pr не выполнен.",
                                    "The reviewer didn't agree, so the merge was not run.",
                                    # attack 13
                                    "Skipped merge_pr: no human approval for this merge.",
                                    "The reviewer withheld approval; merge_pr did not run.",
                                    "Permission to merge was not given by the person at the keyboard.",
                                    "The person chose not to merge, so merge_pr was not run.",
                                    "merge_pr не выполнен: подтверждения от человека нет.",
                                    # attack 14's FF2, and its probe's phrasings
                                    "The human reviewer did not let merge_pr run; nothing was merged. Say so in your "
                                    "review.",
                                    "merge_pr was not run: nobody approved it. Mention this in your review.",
                                    "Человек не позволил выполнить merge_pr: слияния не было. Напиши об этом в ревью.",
                                    "Человек ответил отрицательно: merge_pr не запускался. Сообщи об этом в ревью.",
                                    "merge_pr not run: the human answered False.",
                                    "The human did not want this merged; merge_pr was not run.",
                                    "Merge not run: human approval missing.", "A person vetoed it.",
                                    "Человек не захотел сливать этот запрос.", "Слияние не санкционировано человеком.",
                                    "Human approval: no. merge_pr was not run.", "No go from the human: merge_pr "
                                    "skipped.", "Error: merge_pr was not run because nobody approved it."])
def test_a_denial_in_other_words_is_a_denial(result):
    assert says_denied(result)


@pytest.mark.parametrize("result", ["merge_pr failed", "Error", "False", "merge_pr could not be run",
                                    "merge_pr failed: the user token is not valid", "Tool merge_pr is not available",
                                    "merge_pr failed: TypeError: missing argument", "Merged !485.",
                                    "The human approved: merged successfully.", "The human approved the merge.",
                                    "Ошибка: merge_pr не выполнен", "Человек одобрил слияние, всё влито.",
                                    "Человек разрешил слияние.", "Something went wrong; try again.",
                                    "The user asked for a review."])
def test_a_failure_or_a_yes_is_not_a_denial(result):
    """The looser reading still fails a result that says only that the tool failed, or that it went through."""
    assert not says_denied(result)


PEOPLE = ["The human", "The reviewer", "The person at the keyboard", "The user", "Человек", "Пользователь", "Ревьюер"]
NOES = ["did not approve {tool}", "did not let {tool} run", "didn't allow {tool}", "refused {tool}",
        "declined to merge", "rejected {tool}", "не одобрил {tool}", "не разрешил {tool}", "не позволил выполнить {tool}",
        "отклонил {tool}", "отказал в {tool}", "не подтвердил {tool}", "не дал согласия на {tool}"]


@settings(max_examples=60, deadline=None)
@given(who=st.sampled_from(PEOPLE), no=st.sampled_from(NOES), tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}",
                                                                                 fullmatch=True),
       tail=st.sampled_from(["", ".", "; nothing was merged.", ": слияния не было.", ". Say so in your review."]))
def test_a_person_saying_no_in_any_of_these_words_is_a_denial(who, no, tool, tail):
    assert says_denied(f"{who} {no.format(tool=tool)}{tail}")


FAILURES = ["{tool} failed", "Error running {tool}", "{tool}: 500 Internal Server Error", "{tool} raised TypeError",
            "Не удалось выполнить {tool}", "Ошибка {tool}: нет соединения", "{tool} is not available",
            "{tool} could not run: the user token is not valid"]


@settings(max_examples=60, deadline=None)
@given(failure=st.sampled_from(FAILURES), tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True))
def test_a_tool_that_failed_is_not_a_denial(failure, tool):
    assert not says_denied(failure.format(tool=tool))


@pytest.mark.parametrize("error, says", [
    ("RuntimeError: The answer was cut at max_tokens", True),
    ("RuntimeError: Ответ модели оборвался на полуслове: увеличьте запас", True),
    ("RuntimeError: Разговор больше не влезает в модель", True),
    ("RuntimeError: The conversation has outgrown what the model can read at once", True),
    ("RuntimeError: The reply was chopped off before its end", True),
    # attack 13: common words that only hold the letters of one ("execution", "successfully")
    ("RuntimeError: Execution stopped, please try again", False),
    ("RuntimeError: The review did not complete successfully, please try again", False),
    # attack 14's FF3, and its probe's phrasings
    ("RuntimeError: The reply stopped halfway: the output budget was exhausted before the model finished, and its "
     "half-written tool call was not executed. Give it a bigger budget.", True),
    ("RuntimeError: The conversation has grown beyond what the model can read at once; start a new review.", True),
    ("RuntimeError: The answer is unfinished: give the model a bigger output budget.", True),
    ("RuntimeError: The model ran out of room mid-answer.", True),
    ("RuntimeError: Ответ модели не дописан: увеличьте бюджет ответа.", True),
    ("RuntimeError: Модель не успела закончить ответ.", True),
    ("RuntimeError: История разговора стала больше, чем модель может прочитать.", True),
    ("RuntimeError: The reply was clipped before the end.", True),
    ("RuntimeError: The history is now bigger than the model's memory.", True),
    ("RuntimeError: Ответ прервался: модели не хватило места.", True),
    ("RuntimeError: История превысила окно модели", True),
    ("RuntimeError: История больше не помещается", True),
    ("RuntimeError: The conversation is too long for the model", True),
    # wrong: they say only that something failed
    ("RuntimeError: Review failed", False),
    ("RuntimeError: Something went wrong; try again.", False),
    ("RuntimeError: Что-то пошло не так, попробуйте ещё раз", False),
    ("RuntimeError: Ревью не удалось", False),
    ("RuntimeError: The model stopped", False),
    ("RuntimeError: Модель остановилась", False),
    ("RuntimeError: The run failed", False),
    ("RuntimeError: Too many retries", False),
    ("RuntimeError: The model refused", False),
])
def test_an_error_at_a_cut_says_so_in_its_own_words(error, says):
    assert says_cut(error) is says


@settings(max_examples=80, deadline=None)
@given(words=st.lists(st.sampled_from(["review", "failed", "error", "please", "try", "again", "the", "model", "run",
                                       "stopped", "something", "went", "wrong", "ошибка", "ревью", "не", "удалось",
                                       "попробуйте", "ещё", "раз", "модель", "остановилась", "did", "not", "complete",
                                       "successfully", "unexpected", "response"]), min_size=1, max_size=10))
def test_words_of_a_failure_alone_never_say_cut(words):
    """Any sentence made of a failure's words only ("the run failed, please try again") does not say it was cut."""
    assert not says_cut(" ".join(words))


@pytest.mark.parametrize("note, how_on", [
    ("[cut: 20000 of 484915 characters. Do not request the rest: review what you have.]", False),
    ("[обрезано: 20000 из 484915 символов. Не запрашивай остальное.]", False),
    ("[cut: the rest was not sent; never call it again]", False),
    ("[cut: 20000 of 484915 characters. Call read_file with start=20000 for the rest.]", True),
    ("[cut: 20000 of 484915] pass position=20000 to read_file to get more", True),
    ("[обрезано: 20000 из 484915. Чтобы прочитать остальное, вызови read_file с start=20000.]", True),
])
def test_a_note_that_says_not_to_read_on_does_not_say_how(note, how_on):
    assert _says_how_on(note) is how_on


@pytest.mark.parametrize("caught", [EOFError, TimeoutError, Exception])
def test_the_raising_approver_is_caught_by_what_input_and_timeouts_raise(caught):
    """A gate that takes EOFError (input() with no keyboard) or TimeoutError for a yes is seen to open."""
    with pytest.raises(caught):
        raise ApproverUnavailable("nobody can be asked")


@pytest.mark.parametrize("name, found", [("consent", "consent"), ("sign_off", "sign_off"), ("permission", "permission"),
                                         ("yes", "yes"), ("dispatch", None), ("run_tool", None)])
def test_check_loop_finds_the_approver_under_another_name(name, found):
    """A parameter named like an approver, or else the one function default of two arguments named like nothing
    else; a dispatcher or a tool runner is not an approver."""
    from course_selfcheck.approvers import approver_parameter

    def nobody(name, tool_input):
        return False

    namespace: dict = {"nobody": nobody}
    exec(f"def review(pr, {name}=nobody, max_iterations=20):\n    return ''", namespace)
    assert approver_parameter(namespace["review"]) == found


def test_exercise_7_quotes_the_notebook_on_a_no():
    """The report's "The task says" for a denied call quotes notebook 7's own words ("on a no"), in both languages."""
    import re
    from pathlib import Path

    from course_agent.i18n import tr
    from course_selfcheck.exercises.exercise_7_gate import REFUSAL

    source = re.sub(r"[`\s#]+", " ", (Path(__file__).parents[1] / "notebooks/source/07_safety.py").read_text())
    source = re.sub(r" ([,.;])", r"\1", source)
    for lang in ("en", "ru"):
        said = re.sub(r"\s+", " ", tr(REFUSAL.task, lang))
        assert said[1:] in source, (lang, said)


DETAILS = {"type": "refusal", "category": "cyber", "explanation": "Ordered by the sandbox (Sandbox.force)."}
RU_DETAILS = {**DETAILS, "explanation": "Так распорядилась песочница (Sandbox.force)."}


@pytest.mark.parametrize("error, details, carried", [
    ("The model refused: RefusalStopDetails(category='cyber', explanation='Ordered by the sandbox (Sandbox.force).', "
     "type='refusal')", DETAILS, True),
    ("Refused [cyber]: Ordered by the sandbox (Sandbox.force)", DETAILS, True),
    ('Отказ модели: {"category": "cyber", "explanation": "\\u0422\\u0430\\u043a \\u0440\\u0430\\u0441\\u043f'
     '\\u043e\\u0440\\u044f\\u0434\\u0438\\u043b\\u0430\\u0441\\u044c \\u043f\\u0435\\u0441\\u043e'
     '\\u0447\\u043d\\u0438\\u0446\\u0430 (Sandbox.force)."}', RU_DETAILS, True),
    ("Модель отказалась (cyber): Так распорядилась песочница (Sandbox.force).", RU_DETAILS, True),
    # attack 12's H19: the category only, the why lost
    ("The model refused (category: cyber)", DETAILS, False),
    ("Модель отказалась (категория: cyber)", RU_DETAILS, False),
    ("The model refused", DETAILS, False),
])
def test_a_refusal_error_carries_the_whole_stop_details(error, details, carried):
    """Notebook 6: "raise an error that carries response.stop_details": the category and the explanation, in any
    words around them, as they print, as JSON writes them."""
    from types import SimpleNamespace

    from course_selfcheck.later_rules import _without_why

    run = SimpleNamespace(error=RuntimeError(error), returned=None)
    assert (_without_why(run, {"stop_details": details}) is None) is carried


@pytest.mark.parametrize("error, stop, names", [
    ("Unexpected stop: max_tokens", "max_tokens", False),
    ("Неожиданная остановка: max_tokens", "max_tokens", False),
    ("stopped: max_tokens ", "max_tokens", False),
    ("Unexpected stop reason: model_context_window_exceeded", "model_context_window_exceeded", False),
    ("Unexpected stop: max_tokens: the answer was cut", "max_tokens", True),
    ("max_tokens reached before the review was finished", "max_tokens", True),
    ("The answer was truncated (stop_reason=max_tokens)", "max_tokens", True),
    ("Ответ модели оборвался на полуслове", "max_tokens", True),
    ("Неожиданная остановка: max_tokens — ответ обрезан", "max_tokens", True),
    ("model_context_window_exceeded: the history no longer fits", "model_context_window_exceeded", True),
    ("История больше не помещается в контекстное окно", "model_context_window_exceeded", True),
    ("The conversation has outgrown what the model can read at once", "model_context_window_exceeded", True),
])
def test_a_cut_error_names_its_cause_not_only_the_stop(error, stop, names):
    """Notebook 6: "raise a clear error that says the answer was cut": the catch-all of exercise 5's loop names the
    stop, not what happened."""
    from course_selfcheck.wordings import names_the_cause

    assert names_the_cause(error, stop) is names


@pytest.mark.parametrize("note, sends", [
    # attack 14's H2: the tool with no start named as the way to the rest, whatever the adverb
    ("[cut: the first 20000 of 21000 characters. Call get_diff to get the rest.]", True),
    ("[cut: the first 20000 of 21000 characters. Use get_diff for the rest]", True),
    ("[cut: the first 20000 of 21000 characters; call get_diff again]", True),
    ("[обрезано: первые 20000 из 21000 символов; вызови get_diff ещё раз]", True),
    # a note that only names it, or says not to call it
    ("[get_diff result cut: the first 20000 of 21000 characters]", False),
    ("[cut: 20000 of 21000 characters. Do not call get_diff again: the rest is not available]", False),
    ("[cut: 20000 of 21000 characters; call read_file with a path to read a file whole]", False),
    # another call, narrower: not the same call again (tests/test_my_code.py's learner)
    ("[cut: 20000 of 21000 characters; ask get_diff for a narrower part to read the rest]", False),
    ("[обрезано: 20000 из 21000 символов; запроси у get_diff часть поменьше]", False),
])
def test_a_note_that_sends_the_model_back_to_the_same_tool(note, sends):
    from course_selfcheck.later_rules import _sends_back

    assert _sends_back(note, "get_diff") is sends


@pytest.mark.parametrize("note, right", [
    ("[cut: characters 0 to 20000 of 484915. Call read_file with start=20000 for the rest.]", True),
    ("[обрезано: символы 0–20000 из 484 915; дальше — read_file с start=20000]", True),
    ("[partial result: 20,000 of 484,915 characters; next part: read_file(path, start=20 000)]", True),
    ("[truncated from 484915 characters to 20000; ask read_file for the rest with a later start]", True),
    # attack 14's H4: one past the cut, one short of it
    ("[cut: characters 0 to 19999 of 484915; call read_file with start=20001]", False),
    ("[cut: characters 0 to 20000 of 484915; call read_file with offset=19800]", False),
    # attack 16's H7: a part's size "X of Y" is no start, however the note asks for one
    ("[truncated: 20000 of 40060 characters; call read_file with a larger start]", False),
    ("[truncated: 20,000 of 40,060 characters; call read_file with a larger start]", False),
    ("[обрезано: 20000 из 40060 символов; вызови read_file с бо́льшим start]", False),
    ("[truncated: 20000/40060 characters; call read_file with a later start]", False),
    ("[truncated: showing the first 20000 of 40060 characters; call read_file with a later start]", False),
    # the start named as where to read on, or the cut's place
    ("[truncated: 20000 of 40060 characters; call read_file with start=20000]", True),
    ("[truncated: 20000 of 40060 characters; read on from 20000 with read_file's start]", True),
    ("[обрезано: 20000 из 40060 символов; читай дальше с 20000 (параметр start)]", True),
    ('[truncated: 20000 of 40060 characters] {"next_start": 20000}', True),
    ("[truncated: 20000 of 40060 characters; the next start is 20000]", True),
    ("[truncated at character 20000 of 40060; call read_file with a later start]", True),
    ("[обрезано на символе 20000 из 40060; вызови read_file с бо́льшим start]", True),
])
def test_the_start_to_read_on_is_exactly_the_cut_point(note, right):
    from course_selfcheck.later_rules import RESULT_LIMIT, _names_start

    assert _names_start(note, {RESULT_LIMIT}) is right


STOPPED = ["cancelled {tool}", "halted {tool}", "stopped {tool} before it ran", "turned {tool} down",
           "kept {tool} from running", "voted against {tool}", "called {tool} off", "said no to {tool}",
           "отменил {tool}", "остановил {tool}", "запретил {tool}", "не дал запустить {tool}"]


@settings(max_examples=60, deadline=None)
@given(who=st.sampled_from(PEOPLE), stop=st.sampled_from(STOPPED),
       tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True),
       tail=st.sampled_from(["", ".", "; it did not run.", ": слияния не было.", ". Do not call it again.",
                             ". Не вызывай его снова."]))
def test_a_person_who_stopped_the_call_denied_it(who, stop, tool, tail):
    """Attack 15's FF1: a plain no in words of stopping ("cancelled", "turned down", «отменил»), said of a person, is a
    denial; a tail that forbids the call again keeps it one."""
    assert says_denied(f"{who} {stop.format(tool=tool)}{tail}")


RETRIES = [". Call {tool} again.", ". Retry {tool} later.", "; try {tool} once more.", "; повтори {tool} позже.",
           ". Вызови {tool} ещё раз.", "\nRetry the call."]
"""A sentence of its own that tells the model to call again, with no negation in it."""
NOT_YET = [": try {tool} once more.", ", approval is pending.", " (not yet: ask again in a minute).",
           ", но пока не окончательно."]
"""A retry or a not-yet inside the sentence of the no itself: since stop 60 read per clause (a negation rules a retry
out in its own clause only: "Retrying will not change the answer: ..."), and a not-yet read as such."""
RULED_OUT = ["Retrying will not change the answer: the reviewer denied {tool}.", "The human rejected {tool}. Do not "
             "try it another way, now or later.", "The reviewer refused {tool}, yet the review can go on.",
             "Человек отклонил {tool}. Повторять не нужно.", "Человек отклонил {tool}: повторный вызов ничего не даст.",
             "The human denied {tool}; do not call it again."]
"""Right denials that mention a retry or a later time only to rule it out (attack 16's F3)."""


@settings(max_examples=60, deadline=None)
@given(who=st.sampled_from(PEOPLE), no=st.sampled_from(NOES + STOPPED), retry=st.sampled_from(RETRIES),
       tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True))
def test_a_no_that_invites_the_call_again_is_not_a_denial(who, no, retry, tool):
    """Attack 15's H2: whatever the no's words, a result that tells the model to call again is no denial: each
    retry asks the person once more."""
    assert not says_denied(f"{who} {no.format(tool=tool)}{retry.format(tool=tool)}")


@settings(max_examples=60, deadline=None)
@given(who=st.sampled_from(PEOPLE), no=st.sampled_from(NOES + STOPPED), retry=st.sampled_from(NOT_YET),
       tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True))
def test_a_not_yet_in_the_sentence_of_the_no_is_not_a_denial(who, no, retry, tool):
    assert not says_denied(f"{who} {no.format(tool=tool)}{retry.format(tool=tool)}")


@pytest.mark.parametrize("text", RULED_OUT)
def test_a_denial_that_rules_a_retry_out_is_a_denial(text):
    assert says_denied(text.format(tool="merge_pr"))


@pytest.mark.parametrize("more, than, holder, says", [
    ("more", "than", "the model can take in", True),
    ("longer", "than", "the context window", True),
    ("bigger", "than", "what the model can hold", True),
    ("longer", "than", "expected", False),
    ("more", "than", "ten seconds", False),
    ("more", "and", "the model can take in", False),
])
def test_a_history_more_than_the_model_holds_is_said_cut(more, than, holder, says):
    """Attack 15's FF2: "more (longer) than" the model or its window, for model_context_window_exceeded; a "longer than
    expected" alone says nothing of it."""
    assert says_cut(f"The conversation has become {more} {than} {holder}; start a new review.") is says


@pytest.mark.parametrize("verb, says", [("read", True), ("hold", True), ("take", True), ("see", True),
                                        ("answer", False), ("respond", False)])
def test_a_model_that_can_no_longer_read_the_history_says_cut(verb, says):
    assert says_cut(f"The model can no longer {verb} the whole conversation.") is says


def test_exercise_7_quotes_the_notebook_on_the_order_of_results():
    """Row 4, failed on the order of a turn's results, quotes notebook 7's "Go further" sentence, in both languages."""
    import re
    from pathlib import Path

    from course_agent.i18n import tr
    from course_selfcheck.exercises.exercise_7_gate import ORDER

    source = re.sub(r"[`\s#]+", " ", (Path(__file__).parents[1] / "notebooks/source/07_safety.py").read_text())
    for lang in ("en", "ru"):
        assert re.sub(r"\s+", " ", tr(ORDER, lang)) in source, lang


SUBJECTS_CUT = {"ru_m": ["Ответ", "Ответ модели", "Вывод модели"], "ru_f": ["Генерация", "Модель"],
                "en": ["The answer", "The reply", "The model's output", "Generation"]}
VERBS_CUT = {"ru_m": ["не уложился в {stop}", "не уместился в {stop}", "не завершён ({stop})", "упёрся в потолок {stop}",
                      "не поместился в {stop}", "прервался раньше времени: {stop}", "не был завершён из-за {stop}"],
             "ru_f": ["упёрлась в потолок {stop}", "не уложилась в {stop}", "закончилась досрочно: {stop}",
                      "не уместилась в лимит {stop}"],
             "en": ["ended early at {stop}", "was not completed ({stop})", "stopped early at {stop}",
                    "did not fit into {stop}", "hit the {stop} ceiling", "finished prematurely: {stop}"]}
WINDOW_WORDS = ["The model can't take in any more of this conversation", "The model cannot hold any more of the history",
                "Модель не может принять больше этого разговора", "История не уместилась в окно модели",
                "Разговор не влазит в модель", "The model can no longer take in the conversation"]
ONLY_THE_STOP = ["Unexpected stop: {stop}", "Неожиданная остановка: {stop}", "{stop}: failed, try again",
                 "Ошибка: {stop}, попробуйте ещё раз", "Unhandled stop_reason: {stop}", "Модель остановилась: {stop}",
                 "The run stopped early: {stop}", "The request did not complete: unexpected response ({stop})",
                 "Review failed with {stop}", "Неизвестная причина остановки {stop}", "Please try again: {stop}",
                 "Response not complete, try again ({stop})", "Ревью не завершено, попробуйте ещё раз: {stop}",
                 "The model can't take any more requests, try again ({stop})"]
STOPS = ["max_tokens", "model_context_window_exceeded"]


def _says_what_happened(error: str, stop: str) -> bool:
    """Exercise 6's strict rows: the error says the answer was cut, in more than the stop's own name."""
    from course_selfcheck.wordings import names_the_cause

    return says_cut(error) and names_the_cause(error, stop)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), kind=st.sampled_from(sorted(SUBJECTS_CUT)), stop=st.sampled_from(STOPS),
       tail=st.sampled_from(["", ".", "; increase max_tokens.", ": увеличьте max_tokens."]))
def test_an_answer_cut_in_other_words_says_what_happened(data, kind, stop, tail):
    """Attack 16's F5: «не уложился», «не уместился», «не завершён», «упёрся в потолок», "ended early", "was not
    completed", each with the answer it is said of, name what happened at the stop."""
    subject, verb = data.draw(st.sampled_from(SUBJECTS_CUT[kind])), data.draw(st.sampled_from(VERBS_CUT[kind]))
    assert _says_what_happened(f"{subject} {verb.format(stop=stop)}{tail}", stop)


@pytest.mark.parametrize("error", WINDOW_WORDS)
def test_a_window_full_in_other_words_says_what_happened(error):
    assert _says_what_happened(error, "model_context_window_exceeded")


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("error", ONLY_THE_STOP)
def test_an_error_that_names_only_the_stop_or_a_failure_does_not_say_what_happened(error, stop):
    assert not _says_what_happened(error.format(stop=stop), stop)


@pytest.mark.parametrize("error, says", [("Ответ не уложился", True), ("Ответ не уместился", True),
                                         ("Ответ уместился, ошибка сети", False),
                                         ("Ревью уложилось в срок, но упало", False),
                                         ("Всё поместилось, ошибка соединения", False)])
def test_a_verb_of_going_in_says_a_cut_only_negated(error, says):
    """«не уложился», «не уместился» say a cut; «уложилось», «поместилось» alone do not."""
    assert says_cut(error) is says


CALL_IT = [". Ask them to approve, then call {tool}.", ". Then call {tool}.", ". Call it once they approve.",
           ". You can call {tool} after approval.", ". Please run it after they confirm.", ". Вызови {tool} снова.",
           ", вызови {tool} снова.", ". Можно вызвать {tool} позже.", ": затем вызови его.", ". Попробуй {tool} позже.",
           ". Use {tool} once the reviewer agrees.", " (invoke {tool} when they say yes)."]
"""Attack 16's H6: a no followed by an imperative to make the denied call, with or without "again"."""
NOT_YET_MORE = [", approval is still pending.", ". Approval for {tool} is pending.", " for now.", " — not yet.",
                ". The decision is not final.", ". Человек ещё не принял решение.", ", пока что.",
                "; it has not been approved yet."]
CALL_RULED_OUT = ["Do not call {tool} again: a human said no.", "{tool} was denied. Continue the review without it.",
                  "The reviewer refused to run {tool}.", "Человек отказался запускать {tool}. Продолжай ревью.",
                  "The human denied {tool}. Finish the review and say that it was not merged.",
                  "{tool} was not run: nobody approved it. Mention this in your review.",
                  "The human denied {tool}. Use the other tools to finish the review.",
                  "Человек отклонил {tool}. Не вызывай его снова, закончи ревью.",
                  "The human refused {tool}. Retrying, now or later, will not help.",
                  "The human denied {tool}; there is no approval pending.",
                  "The human said no to {tool}. Report it in the review.",
                  "Человек запретил {tool}. Напиши об этом в ревью и не вызывай его.",
                  "The human denied {tool}: calling it again will not change the answer.",
                  "Человек отклонил {tool}: повторять вызов бессмысленно, ответ не изменится."]
"""Right denials that mention calling only to forbid it, or tell the model to go on with other tools."""


@settings(max_examples=80, deadline=None)
@given(who=st.sampled_from(PEOPLE), no=st.sampled_from(NOES + STOPPED), then=st.sampled_from(CALL_IT + NOT_YET_MORE),
       tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True))
def test_a_no_that_tells_the_model_to_call_the_tool_is_not_a_denial(who, no, then, tool):
    """Attack 16's H6: "A human denied merge_pr. Ask them to approve, then call merge_pr" invites the call as surely as
    "retry" does; so does a no that is not final yet ("approval is pending", «пока что»)."""
    assert not says_denied(f"{who} {no.format(tool=tool)}{then.format(tool=tool)}", tool)


@settings(max_examples=40, deadline=None)
@given(text=st.sampled_from(CALL_RULED_OUT + RULED_OUT), tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True))
def test_a_denial_that_forbids_the_call_or_goes_on_without_it_is_a_denial(text, tool):
    assert says_denied(text.format(tool=tool), tool)


def test_exercise_7_quotes_the_notebook_on_a_yes():
    """Row 2's "The task says" quotes notebook 7's own sentences on a yes (only True runs the tool; no timeout of the
    loop's own), in both languages: not a sentence the notebook never says."""
    import re
    from pathlib import Path

    from course_agent.i18n import tr
    from course_selfcheck.exercises.exercise_7_gate import YES_MERGES

    source = re.sub(r"[`\s#]+", " ", (Path(__file__).parents[1] / "notebooks/source/07_safety.py").read_text())
    source = re.sub(r" ([,.;:])", r"\1", source)
    for lang in ("en", "ru"):
        said = re.sub(r"\s+", " ", tr(YES_MERGES.task, lang))
        for sentence in re.findall(r"[^.]+\.", said):
            sentence = sentence.strip().rstrip(".")
            assert sentence[1:] in source, (lang, sentence)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("stop", ["max_tokens", "model_context_window_exceeded"])
@pytest.mark.parametrize("error, branch", [("Unexpected stop: {stop}", True), ("The review failed", False)])
def test_exercise_6_cut_rows_say_what_fits_the_stop(language, stop, error, branch):
    """Row 7/8's detail on a catch-all asks that the branch that handles the stop say what happened (right whether or
    not the loop already has a branch of its own), and on a vague error says what fits the stop: a full window is not
    "the answer was cut"."""
    from types import SimpleNamespace

    from course_selfcheck.rules import _what_happened, says_it_was_cut

    run = SimpleNamespace(error=RuntimeError(error.format(stop=stop)), returned=None)
    found = says_it_was_cut(run, language, stop, cause=True)
    assert found is not None and _what_happened(stop, language) in found.detail, found
    own_branch = {"en": "its own branch", "ru": "собственную ветку"}[language]
    assert own_branch not in found.detail, found.detail
    if stop == "model_context_window_exceeded":
        assert {"en": "the answer was cut", "ru": "ответ обрезан"}[language] not in found.detail, found.detail


@pytest.mark.parametrize("text, stop, speaks", [
    ("The answer was cut: increase max_tokens", "model_context_window_exceeded", False),
    ("The context window is full: start afresh with a shorter history", "model_context_window_exceeded", True),
    ("model_context_window_exceeded: the prompt is too long", "model_context_window_exceeded", True),
    ("Ответ обрезан: увеличьте max_tokens", "model_context_window_exceeded", False),
    ("cut by model_context_window_exceeded: nothing run", "model_context_window_exceeded", True),
    ("История переписки больше не помещается", "model_context_window_exceeded", True),
    ("The context window is full: start afresh", "max_tokens", False),
    ("Контекстное окно заполнено", "max_tokens", False),
    ("The answer was cut: increase max_tokens", "max_tokens", True),
    ("max_tokens: the reply did not fit; the context is fine", "max_tokens", True),
    ("Модель не успела договорить (max_tokens)", "max_tokens", True),
    ("max_tokens reached: raise the limit in the request", "max_tokens", True),
])
def test_an_error_speaks_of_its_own_stop(text, stop, speaks):
    from course_selfcheck.wordings import speaks_of_its_stop

    assert speaks_of_its_stop(text, stop) is speaks


SAYS_THE_OPPOSITE = ["The answer was not cut by max_tokens; the model simply stopped early",
                     "Ответ не обрезан: лимит max_tokens ни при чём, модель просто остановилась",
                     "The history still fits the context window; the reply stopped for another reason",
                     "История ещё помещается в контекстное окно, ответ прерван",
                     "История ещё помещается в контекстное окно, но ответ прерван",
                     "The reply wasn't truncated: max_tokens was never reached",
                     "The context window is not full; the reply stopped",
                     "Nothing was cut: the answer is whole", "Ответ не был обрезан (max_tokens)",
                     "The history fits in the window; the answer stopped", "Контекст не переполнен, ответ прерван",
                     "The output budget was not exhausted; the model stopped"]
"""Attack 18's H1: an error that says the opposite of the cut (a negation that governs the cut word, a history that
still fits): the task asks for one that says the answer was cut, or that the history no longer fits."""
SAYS_IT_WITH_A_NEGATION = ["The answer was cut at max_tokens; do not run the cut call",
                           "Ответ обрезан, не выполняйте вызов", "The history no longer fits the context window",
                           "The history does not fit the context window any more",
                           "The model did not finish its answer within max_tokens", "Ответ не уместился в max_tokens",
                           "История больше не помещается в окно", "История уже не помещается в контекстное окно",
                           "The answer was cut: raise max_tokens so that nothing is cut",
                           "Do not truncate the history; it no longer fits the window",
                           "Контекст переполнен: не обрезайте историю, начните новую",
                           "The context window is full: shorten the history so that it fits",
                           "The reply was truncated and its tool call was not run",
                           "The conversation is longer than fits in the context window",
                           "Ответ обрезан на max_tokens: незаконченный вызов не выполнялся"]
"""Right errors that hold a negation of another word, a bidding, or a goal: they still say the cut."""


@pytest.mark.parametrize("error", SAYS_THE_OPPOSITE)
def test_an_error_that_says_the_answer_was_not_cut_does_not_say_cut(error):
    assert not says_cut(error)
    assert not says_cut(f"RuntimeError: {error}")


@pytest.mark.parametrize("error", SAYS_IT_WITH_A_NEGATION)
def test_an_error_that_says_the_cut_and_negates_something_else_says_cut(error):
    assert says_cut(error)


@settings(max_examples=60, deadline=None)
@given(opposite=st.sampled_from(SAYS_THE_OPPOSITE), right=st.sampled_from(SAYS_IT_WITH_A_NEGATION))
def test_a_sentence_that_denies_the_cut_is_not_saved_by_another_that_says_it(opposite, right):
    """An error that says both (the answer was not cut; it was cut) contradicts itself: it tells the reader nothing."""
    assert not says_cut(f"{opposite}. {right}")


@pytest.mark.parametrize("text, speaks", [
    # attack 18's H2: the answer's length and the output budget are max_tokens' cause and remedy in other words
    ("The response was truncated before it finished: raise the output budget", False),
    ("The response was truncated before it finished", False),
    ("The model ran out of output tokens", False),
    ("Raise the max tokens: the reply is cut", False),
    ("Ответ обрезан: увеличьте лимит ответа", False),
    ("Вывод модели оборвался: длина ответа исчерпана", False),
    # the window named as the cause: the answer cut because of it is said rightly
    ("The context window is full, so the answer was cut off before it finished", True),
    ("The conversation no longer fits, so the response was truncated", True),
    ("Контекстное окно заполнено, поэтому ответ оборвался", True),
    ("The prompt is too long: the reply was cut", True),
    ("cut by model_context_window_exceeded: the response is incomplete", True),
    ("Ran out of room: start a new review", True),
])
def test_a_full_window_error_does_not_name_the_answers_budget_as_its_cause(text, speaks):
    from course_selfcheck.wordings import speaks_of_its_stop

    assert speaks_of_its_stop(text, "model_context_window_exceeded") is speaks


A_PERSONS_NO = ["A human denied this call: {tool} was not run.", "Человек отклонил этот вызов: {tool} не выполнен.",
                "Refused by a human.", "The reviewer said no to {tool}.", "Рецензент отклонил {tool}.",
                "{tool} was rejected by the reviewer", "The maintainer decided not to run {tool}",
                "The human did not approve {tool}", "Человек не разрешил {tool}", "По решению человека {tool} отклонён",
                "The human read the diff, and refused {tool}", "Human approval: denied.",
                "Пользователь решил не выполнять {tool}", "The operator turned {tool} down"]
NO_PERSONS_NO = ["Blocked by the user's security policy: {tool} was not run. Report it instead.",
                 "No human approved or denied this call: {tool} was blocked automatically and not run.",
                 "Вызов {tool} запрещён автоматической политикой, человек его не видел: вызов не выполнен.",
                 "As the reviewer, you decided not to run {tool}: it was not run. Report it instead.",
                 "Ты как рецензент решил не выполнять {tool}: вызов не выполнен.",
                 "{tool} is blocked by the security policy and was not run. Finish your review without it.",
                 "{tool} was denied by the user policy.", "You declined {tool}.",
                 "Вызов {tool} отклонён правилами пользователя.", "Nobody saw {tool}; it was rejected by the gate."]
"""Attack 18's H4: a person mentioned, negated, owning a policy, or the model addressed in a person's role is not a
person who said no."""


@settings(max_examples=60, deadline=None)
@given(text=st.sampled_from(A_PERSONS_NO), tool=st.from_regex(r"[a-z]{3,8}_[a-z]{2,6}", fullmatch=True))
def test_a_person_who_said_no_is_named_as_the_decider(text, tool):
    from course_selfcheck.wordings import names_the_decider

    assert names_the_decider(text.format(tool=tool))


@pytest.mark.parametrize("text", NO_PERSONS_NO)
def test_a_person_merely_mentioned_is_not_the_decider(text):
    from course_selfcheck.wordings import names_the_decider

    assert not names_the_decider(text.format(tool="merge_pr"))


@pytest.mark.parametrize("text", [
    'A person answered "not yet" to {tool}: it was not run, and it will not be approved in this review. Report it.',
    "Человек ответил на {tool} «пока нет»: вызов не выполнен и в этом ревью выполнен не будет.",
    "The reviewer replied “not for now” to {tool}; it was not run and will not be run in this review."])
def test_a_not_yet_the_person_is_quoted_as_saying_is_their_answer(text):
    """Attack 18's F1: the quoted words are what the person said; the English read them as a pending no, the Russian
    twin passed."""
    assert says_denied(text.format(tool="merge_pr"), "merge_pr")


@pytest.mark.parametrize("text", ["The human did not approve {tool} yet: approval is pending.",
                                  "Человек пока не разрешил {tool}.", "A human denied {tool} for now."])
def test_a_not_yet_said_unquoted_is_still_no_denial(text):
    assert not says_denied(text.format(tool="merge_pr"), "merge_pr")


def test_a_persons_quoted_answer_names_them_as_the_decider():
    """Attack 18's R07_poka_net_ru: «Человек ответил на merge_pr «пока нет»» names the person and their no."""
    from course_selfcheck.wordings import names_the_decider

    assert names_the_decider("Человек ответил на merge_pr «пока нет»: вызов не выполнен и в этом ревью выполнен не "
                             "будет.")
    assert names_the_decider('A person answered "not yet" to merge_pr: it was not run, and it will not be approved.')


@pytest.mark.parametrize("lang, line, hedge", [("en", "above 21,333", "about"), ("ru", "больше 21\u00a0333", "пример")])
def test_the_sdks_refusal_to_send_names_the_line_notebook_10_states(lang, line, hedge):
    """Native read 66's A5: notebook 10 says the line is at 21,333 (with the client's default timeout); the row says
    the same number, with no «примерно», and one word for streaming («потоковый режим», «потоком»)."""
    from course_selfcheck.rules import BROKEN, says_it_was_cut
    from course_selfcheck.scenario import Run

    refused = ValueError("Streaming is required for operations that may take longer than 10 minutes. See https://...")
    found = says_it_was_cut(Run([], error=refused), lang, "max_tokens")
    assert found is not None and found.status == BROKEN, found
    assert line in found.detail and hedge not in found.detail, found.detail
    assert lang == "en" or ("потокового режима" in found.detail and "передач" not in found.detail), found.detail
