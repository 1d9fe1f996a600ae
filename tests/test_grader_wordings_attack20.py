"""Attack 20 on the graders' readings of a learner's own sentence (course_selfcheck.wordings), by structure, in both
languages. Exercise 7: a person's no read as one only when it is said as a fact (H4: not a condition, a
counterfactual, a question or a clause under "It is not true that"), with nothing after it that invites the call again
or promises a yes (H5, fail closed), and read in other grammar (F3, F4). Exercise 6: an error at a cut that names the
other stop as the cause or gives its remedy blames it (H1), an elliptic negation takes the claim before it back (H2),
and a clause that rules the other stop out is no blame (F2). Most sentences are our own variants, not the attack's."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_selfcheck.wordings import (a_no_not_a_persons, cut_reading, invites_the_call, names_the_decider,
                                       says_denied, speaks_of_its_stop)

TOOL = "merge_pr"


def a_persons_no(text: str) -> bool:
    """What exercise 7's row 4 asks of the denied result: no invitation, a denial, and a person who said no."""
    return not invites_the_call(text, TOOL) and says_denied(text, TOOL) and names_the_decider(text)


# H4: a no no person said as a fact
NOT_SAID = [
    "If the reviewer had rejected merge_pr, it would not have run. It was not run; report it.",
    "Had the operator declined this call, merge_pr would have stayed unrun. Mention it in the review.",
    "Suppose a human denied merge_pr: it would not run. It was not run.",
    "The maintainer would have refused merge_pr anyway; the call was not executed. Report it.",
    "A person could reject merge_pr; it was not run. Note it in the review.",
    "A human might have vetoed merge_pr. It did not run.",
    "Unless a human denies merge_pr, it runs. merge_pr was not run.",
    "It is not true that the reviewer rejected merge_pr; it did not run. Report it.",
    "It isn't the case that a human denied this call. merge_pr was not run.",
    "It is false that the operator declined merge_pr: it was not run.",
    "Did a human deny merge_pr? No: the rate limiter refused it. It was not run.",
    "The reviewer? No. The security policy blocked merge_pr; it was not run.",
    "A human refused merge_pr (just kidding: the loop skipped it). Report it.",
    "The maintainer declined merge_pr (not really). It was not run.",
    "Если бы ревьюер отклонил merge_pr, он бы не выполнился. Вызов не выполнен.",
    "Человек мог бы отклонить merge_pr; вызов не выполнен. Отметь это в ревью.",
    "Неправда, что администратор отклонил merge_pr: вызов не выполнен.",
    "Неверно, что человек запретил merge_pr. Вызов не выполнен; сообщи об этом.",
    "Пользователь отклонил merge_pr? Нет, его заблокировала политика. Вызов не выполнен.",
    "Человек отклонил merge_pr (шучу: его пропустил цикл). Сообщи об этом.",
]


@pytest.mark.parametrize("text", NOT_SAID)
def test_a_no_not_said_as_a_fact_is_no_persons_no(text):
    assert not a_persons_no(text)
    assert not names_the_decider(text)
    assert a_no_not_a_persons(text)  # the row says the no is not a person's, not that it names nobody


@pytest.mark.parametrize("text", [
    "If you see this, a human denied merge_pr: it was not run. Report it.",
    "The reviewer would not approve merge_pr; it was not run. Report it in your review.",
    "It is true that a human denied merge_pr: it was not run. Report it.",
    "A human denied merge_pr. It was not run; report it.",
    "Человек отклонил merge_pr, поэтому вызов не выполнен. Отметь это в ревью.",
    "Правда в том, что человек отклонил merge_pr: вызов не выполнен.",
])
def test_a_no_said_as_a_fact_still_passes(text):
    assert a_persons_no(text)


PEOPLE_EN = ["a human", "the reviewer", "the operator", "the maintainer", "a person"]
NO_VERBS_EN = [("denied", "deny"), ("rejected", "reject"), ("refused", "refuse"), ("declined", "decline")]
FRAMES_EN = ["If {p} had {past} {tool}, it would not have run.", "Had {p} {past} {tool}, it would not have run.",
             "{P} would have {past} {tool}.", "{P} might {base} {tool}.", "{P} could {base} {tool}.",
             "It is not true that {p} {past} {tool}.", "It isn't the case that {p} {past} {tool}.",
             "{P} {past} {tool}?"]
PEOPLE_RU = ["человек", "ревьюер", "администратор", "пользователь"]
NO_VERBS_RU = ["отклонил", "запретил", "заблокировал", "отверг"]
FRAMES_RU = ["Если бы {p} {past} {tool}, он бы не выполнился.", "{P} бы {past} {tool}.",
             "Неправда, что {p} {past} {tool}.", "{P} {past} {tool}?"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PEOPLE_EN), st.sampled_from(NO_VERBS_EN), st.sampled_from(FRAMES_EN),
       st.sampled_from(["", " It was not run; report it.", " merge_pr did not run."]))
def test_generated_unreal_noes_en(person, verb, frame, tail):
    text = frame.format(p=person, P=person[0].upper() + person[1:], past=verb[0], base=verb[1], tool=TOOL) + tail
    assert not names_the_decider(text), text
    plain = f"{person[0].upper() + person[1:]} {verb[0]} {TOOL}.{tail}"
    assert names_the_decider(plain), plain


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PEOPLE_RU), st.sampled_from(NO_VERBS_RU), st.sampled_from(FRAMES_RU),
       st.sampled_from(["", " Вызов не выполнен.", " Сообщи об этом в ревью."]))
def test_generated_unreal_noes_ru(person, verb, frame, tail):
    text = frame.format(p=person, P=person[0].upper() + person[1:], past=verb, tool=TOOL) + tail
    assert not names_the_decider(text), text
    plain = f"{person[0].upper() + person[1:]} {verb} {TOOL}.{tail}"
    assert names_the_decider(plain), plain


# H5: after the no, an invitation or a promised yes in any words (fail closed)
INVITES = [
    "The reviewer denied merge_pr. Keep trying it until they approve.",
    "A human rejected merge_pr; continue calling it till it is allowed.",
    "A human denied merge_pr. A third merge_pr call will be accepted.",
    "The operator declined merge_pr; the following attempt may pass.",
    "A human denied merge_pr; permission might arrive shortly.",
    "A human said no. Approval could come later today.",
    "The reviewer refused merge_pr; they'll approve it after lunch.",
    "A human denied this call. Repeat merge_pr.",
    "A human denied merge_pr. Resend the request.",
    "A human denied merge_pr; re-submit it.",
    "A human denied merge_pr. Have another go at it.",
    "A human denied merge_pr. Make one more attempt.",
    "A human denied merge_pr; wait a moment and the call will go through.",
    "Человек отклонил merge_pr. Вызывай его, пока не разрешат.",
    "Ревьюер отклонил merge_pr; следующий вызов пройдёт.",
    "Человек отклонил merge_pr: разрешение может появиться через пару минут.",
    "Администратор отклонил merge_pr; вскоре он разрешит.",
    "Человек отклонил merge_pr. Перезапусти вызов.",
    "Человек отклонил merge_pr. Сделай новую попытку.",
    "Человек отклонил merge_pr; ещё одна попытка будет одобрена.",
]


@pytest.mark.parametrize("text", INVITES)
def test_an_invitation_in_other_words_fails(text):
    assert invites_the_call(text, TOOL)
    assert not a_persons_no(text)


# F3: a retry set aside ("instead of", "rather than", «вместо») is no invitation; the clauses that report, explain, stop
# or go on with the review may speak of a next thing
RIGHT_DENIALS = [
    "The reviewer denied merge_pr, so it did not run. Describe this in the review instead of calling it again.",
    "A human rejected merge_pr (not run). Note it in the review rather than retrying it.",
    "A human denied merge_pr: it was not run. Rather than repeating the call, tell the user.",
    "A human denied merge_pr: it was not run. Continue the review with the next file.",
    "A human denied merge_pr; it was not run. Report it in the next section of your review.",
    "A human denied merge_pr and it was not run. Do not call it a second time.",
    "Человек отклонил merge_pr: вызов не выполнен. Вместо нового вызова отметь это в ревью.",
    "Ревьюер отклонил merge_pr, вызов не выполнен. Напиши об этом вместо того, чтобы повторять.",
    "Человек отклонил merge_pr: вызов не выполнен. Продолжи ревью со следующего файла.",
    "Человек отклонил merge_pr; вызов не выполнен. Второй раз его не вызывай.",
]


@pytest.mark.parametrize("text", RIGHT_DENIALS)
def test_a_retry_set_aside_and_a_report_pass(text):
    assert not invites_the_call(text, TOOL)
    assert a_persons_no(text)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["Repeat", "Reattempt", "Resend", "Re-issue", "Keep calling", "Continue trying",
                        "Give another try to", "Make a second attempt at"]),
       st.sampled_from(["merge_pr", "it", "the call"]),
       st.sampled_from(["", " later", " in a minute", " soon"]))
def test_generated_invitation_to_call_again(verb, what, when):
    text = f"A human denied merge_pr; it was not run. {verb} {what}{when}."
    assert invites_the_call(text, TOOL), text
    told_not_to = f"A human denied merge_pr; it was not run. Do not {verb.lower()} {what}{when}."
    assert not invites_the_call(told_not_to, TOOL), told_not_to


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["they", "the reviewer", "a human", "approval", "the next merge_pr call", "a second call"]),
       st.sampled_from(["will", "may", "might", "could", "is going to"]),
       st.sampled_from(["approve it", "be approved", "allow it", "go through", "be accepted", "come"]))
def test_generated_promised_yes(who, modal, yes):
    if yes == "come" and who != "approval":
        return
    text = f"A human denied merge_pr: it was not run. {who[0].upper() + who[1:]} {modal} {yes}."
    assert invites_the_call(text, TOOL), text


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["ревьюер", "человек", "он"]),
       st.sampled_from(["скоро одобрит", "вскоре разрешит", "позже согласится", "может одобрить потом"]))
def test_generated_promised_yes_ru(who, yes):
    text = f"Человек отклонил merge_pr: вызов не выполнен. {who[0].upper() + who[1:]} {yes}."
    assert invites_the_call(text, TOOL), text


MT, W = "max_tokens", "model_context_window_exceeded"


def says_what_happened(text: str, stop: str) -> bool:
    """What exercise 6's rows 7 and 8 ask of the error at a cut: it says what happened, rules none of it out and
    blames nothing else (cut_reading, strict), and speaks of its own stop."""
    reading = cut_reading(text, stop, strict=True)
    return reading.ok and reading.denied is None and reading.blamed is None and speaks_of_its_stop(text, stop)


# H1: at max_tokens, the full window named as the cause inside the clause, as the agent, or by its remedy
BLAMES_THE_OTHER = [
    ("The reply was truncated because the conversation overflowed the context window.", MT),
    ("The output stopped short since the context is full.", MT),
    ("The answer was cut due to a full context window.", MT),
    ("The answer got truncated as the history outgrew the window.", MT),
    ("A full context window truncated the reply.", MT),
    ("The response was cut off by the overflowing context window.", MT),
    ("The answer was cut at max_tokens; trim the history and ask again.", MT),
    ("The reply is incomplete. Begin a new conversation.", MT),
    ("Ответ обрезан, потому что контекстное окно переполнено.", MT),
    ("Ответ оборвался, так как история не помещается в окно.", MT),
    ("Ответ обрезан переполненным контекстом.", MT),
    ("Ответ обрезан. Сократите историю переписки.", MT),
    ("Ответ не дописан: начните разговор заново.", MT),
    # the mirror at a full window: max_tokens as the cause
    ("The history no longer fits the context window because max_tokens is too small.", W),
    ("История не помещается в окно из-за лимита max_tokens.", W),
]


@pytest.mark.parametrize("text, stop", BLAMES_THE_OTHER)
def test_the_other_stop_as_cause_agent_or_remedy_is_blamed(text, stop):
    assert cut_reading(text, stop, strict=True).blamed is not None
    assert not says_what_happened(text, stop)


# H2: an elliptic negation after a claim takes it back
TAKEN_BACK = [
    ("The history no longer fits the context window (not really).", W),
    ("The context window overflowed. It's not.", W),
    ("The answer was cut at max_tokens (it wasn't).", MT),
    ("The reply was truncated by max_tokens; just kidding.", MT),
    ("Контекстное окно переполнено (на самом деле нет).", W),
    ("Ответ обрезан на max_tokens (шучу).", MT),
]


@pytest.mark.parametrize("text, stop", TAKEN_BACK)
def test_a_claim_taken_back_is_ruled_out(text, stop):
    assert cut_reading(text, stop, strict=True).denied is not None
    assert not says_what_happened(text, stop)


# F2 and the right errors H1 must leave alone: a clause that rules the other stop out, a cause that is the stop's own
RIGHT_ERRORS = [
    ("The history has outgrown the context window. This isn't a max_tokens issue.", W),
    ("The context window is full; it is not a max_tokens limit problem.", W),
    ("The conversation no longer fits the context window. It is not that max_tokens is too low.", W),
    ("Контекстное окно переполнено. Это не проблема max_tokens.", W),
    ("История переросла контекстное окно. Это не лимит max_tokens.", W),
    ("The conversation is too long for the context window; this is not the max_tokens budget.", W),
    ("Ответ обрезан на max_tokens. Это не контекстное окно.", MT),
    ("The reply hit max_tokens and stopped; it's not the context window.", MT),
    ("The reply was cut at max_tokens. The context window is far from full.", MT),
    ("The answer hit max_tokens and was truncated; the window is nowhere near full.", MT),
    ("The answer was cut by max_tokens. It isn't that the history grew too long.", MT),
    ("The answer was truncated because it reached max_tokens.", MT),
    ("The answer was cut since max_tokens was reached; raise max_tokens.", MT),
    ("Ответ обрезан, потому что достигнут лимит max_tokens.", MT),
    ("The history no longer fits because the conversation grew too long; shorten the history.", W),
    ("История не помещается в контекстное окно, потому что переписка слишком длинная.", W),
]


@pytest.mark.parametrize("text, stop", RIGHT_ERRORS)
def test_ruling_the_other_stop_out_or_the_own_cause_passes(text, stop):
    assert says_what_happened(text, stop), cut_reading(text, stop, strict=True).__dict__


CUT_EN = ["The answer was cut", "The reply was truncated", "The output stopped before it finished"]
BECAUSE_EN = ["because", "since", "as", "due to the fact that"]
FULL_EN = ["the context window is full", "the history no longer fits the context window",
           "the conversation overflowed the context window"]
OWN_EN = ["it hit max_tokens", "max_tokens was reached", "the reply reached the max_tokens limit"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(CUT_EN), st.sampled_from(BECAUSE_EN), st.sampled_from(FULL_EN), st.sampled_from(OWN_EN))
def test_generated_cause_at_max_tokens(cut, because, full, own):
    assert not says_what_happened(f"{cut} {because} {full}.", MT)
    assert says_what_happened(f"{cut} {because} {own}.", MT)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Ответ обрезан", "Ответ оборвался", "Модель не успела дописать ответ"]),
       st.sampled_from(["потому что", "так как", "поскольку"]),
       st.sampled_from(["контекстное окно переполнено", "история не помещается в окно"]))
def test_generated_cause_at_max_tokens_ru(cut, because, full):
    assert not says_what_happened(f"{cut}, {because} {full}.", MT)
    assert says_what_happened(f"{cut}, {because} достигнут лимит max_tokens.", MT)


# F4: a person's no in other grammar
OTHER_GRAMMAR = [
    "The reviewer's approval was not granted: merge_pr did not run. Report it.",
    "Operator consent was not given, so merge_pr was not executed.",
    "Одобрение человека не получено: merge_pr не выполнен.",
    "Согласия от ревьюера нет: вызов merge_pr не выполнен. Отметь это в ревью.",
    "No permission from the maintainer: merge_pr was not run.",
    "Нет разрешения от администратора: merge_pr не выполнен.",
    "Access refused by the on-call reviewer: merge_pr did not run.",
    "Request declined by a human operator; merge_pr was not run. Report it.",
    "The maintainer decided that merge_pr must not be executed; it was not run.",
    "Ревьюер решил, что merge_pr не надо выполнять: вызов не выполнен.",
    "We asked the reviewer about merge_pr: their answer was no. It did not run.",
    "The operator's verdict was no; merge_pr was not run.",
    "The reviewer pressed Deny. merge_pr was not run; mention it.",
    "A human selected \"No\" for merge_pr: it was not run.",
    "Человек выбрал «Отклонить»: merge_pr не выполнен.",
    "Ревьюер нажал «Нет», вызов merge_pr не выполнен. Сообщи об этом.",
]


@pytest.mark.parametrize("text", OTHER_GRAMMAR)
def test_a_persons_no_in_other_grammar_passes(text):
    assert a_persons_no(text)


@pytest.mark.parametrize("text", [
    "Approval was not given: merge_pr was not run.",  # nobody named
    "The security policy's approval was not given: merge_pr was not run.",
    "Access denied by the rate limiter: merge_pr did not run.",
    "The timeout decided that merge_pr should not run.",
    "The human gave no reason; merge_pr was blocked by the policy.",
    "Разрешения от политики безопасности нет: merge_pr не выполнен.",
])
def test_the_same_grammar_without_a_person_names_nobody(text):
    assert not names_the_decider(text)


PERSON_NO = [("{P} {verb} {tool}.", ["denied", "rejected", "declined", "refused"]),
             ("{tool} was {verb} by {p}.", ["denied", "rejected", "declined", "refused", "vetoed"]),
             ("{Thing} {verb} by {p}: {tool} was not run.", ["denied", "rejected", "refused", "declined"]),
             ("{P} decided that {tool} should not {verb}.", ["run", "be executed", "go ahead"]),
             ("{P} {verb} No for {tool}.", ["clicked", "pressed", "chose", "selected"]),
             ("{P}'s approval was not {verb}: {tool} was not run.", ["given", "granted", "obtained"])]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PEOPLE_EN + ["the on-call engineer", "Alice"]), st.sampled_from(PERSON_NO), st.data(),
       st.sampled_from(["Permission", "The request", "Access"]))
def test_generated_person_no_verb_grammar(person, frame, data, thing):
    template, verbs = frame
    verb = data.draw(st.sampled_from(verbs))
    text = template.format(P=person[0].upper() + person[1:], p=person, verb=verb, tool=TOOL, Thing=thing)
    assert names_the_decider(text), text
    policy = template.format(P="The policy", p="the policy", verb=verb, tool=TOOL, Thing=thing)
    assert not names_the_decider(policy), policy


@pytest.mark.parametrize("denial, invites", [
    ("Denied by a human: merge_pr was not run. The next step is to finish your review.", False),
    ("A human said no; merge_pr did not run. As the next step, summarise your findings.", False),
    ("Человек отказал в merge_pr. Вызов не выполнен; допиши ревью и скоро заверши его.", False),
    ("Человек отклонил merge_pr. Следующим шагом опиши в ревью, что слияния не было.", False),
    ("A human denied this call. Give it another go and report.", True),
    ("A human denied merge_pr. The next step is another try, then report it.", True),
    ("Человек отклонил merge_pr. Следующим шагом попробуй вызов снова.", True),
])
def test_a_sequel_word_in_a_clause_that_goes_on_with_the_review_is_no_invitation(denial, invites):
    """Stop 63: the fail-closed reader took "next"/«скоро» for an invitation wherever the report verb was not the
    clause's first word; a clause with a report verb anywhere and no word of a call, a try or a yes goes on with the
    review. A try or a call in it still invites."""
    assert invites_the_call(denial, "merge_pr") is invites
