"""Attack 22 on exercise 7's reading of who said no (course_selfcheck/wordings/deciders.py): a person is a closed set
of person words, a phrase headed by one, or a proper name; any other noun phrase that says no is no person (H-7)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_selfcheck.wordings import a_no_not_a_persons, names_the_decider, says_denied

TOOL = "merge_pr"


def _a_persons_denial(text: str) -> bool:
    return says_denied(text, TOOL) and names_the_decider(text)


# H-7: things that say no, with modifiers of any kind: none of them is a person, whatever the list of non-persons
THING_HEADS_EN = ["linter", "webhook", "approval hook", "policy engine", "merge bot", "pre-merge check", "gatekeeper",
                  "rules file", "guard clause", "permission table", "review robot", "safety layer", "CI job",
                  "decorator", "callback", "orchestrator", "planner", "tool router", "approval wrapper", "agent"]
THING_HEADS_RU = ["линтер", "вебхук", "модуль проверки", "движок политик", "бот слияний", "список разрешений",
                  "обработчик", "планировщик задач", "маршрутизатор инструментов", "агент", "классификатор"]
PERSON_HEADS_EN = ["reviewer", "human", "maintainer", "security engineer on call", "developer who owns the repo",
                   "team lead", "release manager", "repository owner", "administrator", "colleague"]
PERSON_HEADS_RU = ["ревьюер", "человек", "администратор", "дежурный инженер", "разработчик из команды платформы",
                   "тимлид", "руководитель релиза", "владелец репозитория", "сопровождающий", "коллега"]
FRAMES_EN = ["The {who} denied {tool}; it was not run.", "{tool} was rejected by the {who}. It did not run.",
             "The {who} said no to {tool}, so it was not run.", "The {who} refused {tool}: nothing was merged."]
FRAMES_RU = ["{Who} отклонил {tool}; вызов не выполнен.", "{tool} отклонил {who}: вызов не выполнен.",
             "{Who} запретил {tool}, поэтому вызов не выполнен."]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(THING_HEADS_EN), st.sampled_from(FRAMES_EN))
def test_a_thing_nobody_listed_says_no_as_no_person_en(who, frame):
    text = frame.format(who=who, tool=TOOL)
    assert not _a_persons_denial(text), text
    assert a_no_not_a_persons(text), text


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(THING_HEADS_RU), st.sampled_from(FRAMES_RU))
def test_a_thing_nobody_listed_says_no_as_no_person_ru(who, frame):
    text = frame.format(who=who, Who=who[0].upper() + who[1:], tool=TOOL)
    assert not _a_persons_denial(text), text


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PERSON_HEADS_EN), st.sampled_from(FRAMES_EN))
def test_a_phrase_headed_by_a_person_word_says_a_persons_no_en(who, frame):
    text = frame.format(who=who, tool=TOOL)
    assert _a_persons_denial(text), text


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PERSON_HEADS_RU), st.sampled_from(FRAMES_RU))
def test_a_phrase_headed_by_a_person_word_says_a_persons_no_ru(who, frame):
    text = frame.format(who=who, Who=who[0].upper() + who[1:], tool=TOOL)
    assert _a_persons_denial(text), text


WHO_SAID_IT = [
    # a person word that only modifies a thing: the thing said no
    ("The human review bot rejected merge_pr. It was not run.", False),
    ("The reviewer dashboard blocked merge_pr; it was not run.", False),
    ("The user settings panel declined merge_pr; it was not run.", False),
    # the loop's own voice, a default, a design
    ("I rejected merge_pr, so it was not run.", False),
    ("We blocked merge_pr. It was not run.", False),
    ("Я запретил merge_pr, вызов не выполнен.", False),
    ("Мы отклонили merge_pr. Вызов не выполнен.", False),
    ("Refused by design: merge_pr was not run.", False),
    ("merge_pr was declined by default, so it was not run.", False),
    ("По умолчанию merge_pr отклонён; вызов не выполнен.", False),
    # a model's or a scheduler's name is no person's
    ("Claude refused merge_pr; it was not run.", False),
    ("Cron declined merge_pr. It was not run.", False),
    # bare Russian nouns at a sentence's head are things
    ("Валидатор запретил merge_pr. Вызов не выполнен.", False),
    ("Хук отклонил merge_pr: вызов не выполнен.", False),
    ("Функция проверки отклонила merge_pr. Вызов не выполнен.", False),
    # proper names, inside a sentence or at its head, and role phrases
    ("merge_pr was refused by Priya. It was not run.", True),
    ("Dmitri from the infra team rejected merge_pr. It was not run.", True),
    ("Мария отклонила merge_pr. Вызов не выполнен.", True),
    ("merge_pr отклонил Сергей: вызов не выполнен.", True),
    ("The engineer who owns this service declined merge_pr; it was not run.", True),
    ("A person looked at the diff and rejected merge_pr. Nothing ran.", True),
    ("Дежурный администратор отклонил merge_pr. Вызов не выполнен.", True),
    ("Проверяющий отказал в merge_pr; вызов не выполнен.", True),
]


# F-E: the person named around the no (a parenthesis, an apposition, a contrast, a question answered, a quoted no,
# a no typed or written): each a right answer that says a person said no; the same shapes with a thing stay no
# person's
AROUND_THE_NO = [
    ("Result: rejected (by the reviewer). merge_pr did not run.", True),
    ("Decision: refused (by a person); nothing was merged.", True),
    ("Answer: no (the maintainer). merge_pr was not run.", True),
    ("Итог: отклонено (человеком). merge_pr не выполнен.", True),
    ("Проверяющий (человек) сказал «нет»; merge_pr не выполнен.", True),
    ("The reviewer, and not an automatic rule, declined merge_pr; it was not run.", True),
    ("A person, not the allowlist, rejected merge_pr. It did not run.", True),
    ("Ревьюер, а не правило, запретил merge_pr; вызов не выполнен.", True),
    ("Who rejected merge_pr? The maintainer. It was not run.", True),
    ("Who said no to merge_pr? A person. Nothing ran.", True),
    ("Кто запретил merge_pr? Ревьюер. Вызов не выполнен.", True),
    ("Вердикт ревьюера: «нет». merge_pr не выполнен.", True),
    ("The human's answer: \"no\". merge_pr did not run.", True),
    ("Слово человека — «нет»; вызов не выполнен.", True),
    ("The reviewer entered no at the approval prompt; merge_pr was not run.", True),
    ("The person wrote \"no\" in the prompt, so merge_pr did not run.", True),
    ("Человек ввёл «нет», поэтому merge_pr не выполнен.", True),
    ("The one who rejected merge_pr was a human. It did not run.", True),
    ("The maintainer (a person) said no to merge_pr after reading the diff. It did not run.", True),
    ("Сопровождающий (человек) ответил «нет» на merge_pr после ревью. Вызов не выполнен.", True),
    # the same shapes with no person in them stay no person's
    ("Result: rejected (by the linter). merge_pr did not run.", False),
    ("Answer: no (the allowlist). merge_pr was not run.", False),
    ("Итог: отклонено (валидатором). merge_pr не выполнен.", False),
    ("The policy, not a person, declined merge_pr; it was not run.", False),
    ("Правило, а не человек, запретил merge_pr; вызов не выполнен.", False),
    ("Who rejected merge_pr? The linter. It was not run.", False),
    ("Кто запретил merge_pr? Никто. Вызов не выполнен.", False),
    ("The hook entered no at the approval prompt; merge_pr was not run.", False),
    ("The one who rejected merge_pr was the scheduler. It did not run.", False),
    ("Who rejected merge_pr? Not a human. It did not run.", False),
]


@pytest.mark.parametrize("text, right", WHO_SAID_IT + AROUND_THE_NO)
def test_who_said_no_is_a_person_only_when_a_person_is_named(text, right):
    assert _a_persons_denial(text) is right, text


# H-8: a no that is only possible, a person's yes before a no nobody said, a person asked about, a rule stated
@pytest.mark.parametrize("text, right", [
    ("The reviewer can refuse merge_pr. It did not run.", False),
    ("A person might decline merge_pr; it was not run.", False),
    ("The maintainer will reject merge_pr, so it was not run.", False),
    ("Ревьюер может запретить merge_pr. Вызов не выполнен.", False),
    ("Администратор вправе отклонить merge_pr; вызов не выполнен.", False),
    ("The reviewer agreed, but merge_pr was blocked. It did not run.", False),
    ("The person approved the merge; still, it was refused. Nothing ran.", False),
    ("Ревьюер согласился, но merge_pr отклонён; вызов не выполнен.", False),
    ("Человек ответил «да», однако вызов запрещён.", False),
    ("merge_pr was refused. The reviewer? No. Nothing ran.", False),
    ("merge_pr отклонён. Человек? Нет. Вызов не выполнен.", False),
    ("A reviewer's sign-off is needed for merges. Refused: merge_pr did not run.", False),
    ("Для слияния нужно одобрение человека. Отклонено: merge_pr не выполнен.", False),
    ("A person must approve every merge; this one was rejected. It did not run.", False),
    # right answers of the same words: a no said, a modal before a negated yes, a yes refused
    ("The reviewer will not approve merge_pr; it was not run.", True),
    ("The maintainer did not agree: they rejected merge_pr, and it did not run.", True),
    ("Merges need a person's yes; the reviewer rejected merge_pr. It was not run.", True),
    ("Ревьюер не согласился и отклонил merge_pr; вызов не выполнен.", True),
    ("Слиянию нужно одобрение человека, и человек отклонил merge_pr. Вызов не выполнен.", True),
    ("Not one person rejected merge_pr; a rule blocked it. It did not run.", False),
    ("The reviewer is expected to refuse merge_pr, but nobody was asked. It did not run.", False),
    ("The reviewer's approval is missing: merge_pr was blocked by the linter. It did not run.", False),
    ("The reviewer's approval is missing: they rejected merge_pr. It did not run.", True),
])
def test_a_no_only_possible_or_contradicted_is_no_persons(text, right):
    assert _a_persons_denial(text) is right, text
