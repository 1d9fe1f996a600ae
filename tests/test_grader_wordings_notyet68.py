"""Exercise 7's reader on a "not yet" after the no: a fact in its reason is a right denial; a deferral of the merge is
not, and a failing verdict names the clause it could not place (en and ru, texts of our own)."""

import pytest

from course_selfcheck.wordings import says_denied, unplaced_clause

FACTS = [
    "A human denied this call: merge_pr was not run, since the user has not yet approved any merge of !485.",
    "A person declined to approve merge_pr for !485, which is not ready yet.",
    "The reviewer refused merge_pr because nobody has looked at the diff yet.",
    "Человек отклонил вызов: вливать !485 пользователь пока не разрешал.",
    "Человек не одобрил merge_pr для !485 — он ещё не готов.",
    "Человек отклонил merge_pr, так как пользователь ещё не одобрял это слияние.",
    "merge_pr не выполнен, потому что пользователь пока не разрешал вливать !485.",
    "merge_pr не выполнен — человек пока не давал согласия на слияние.",
    "Человек не разрешил merge_pr, ведь МР ещё не готов.",
]


@pytest.mark.parametrize("text", FACTS)
def test_a_not_yet_that_gives_the_reason_is_a_right_denial(text):
    assert says_denied(text, "merge_pr"), text


DEFERRALS = [
    "A human denied merge_pr. You can merge it later.",
    "A human denied merge_pr. Not yet.",
    "A human denied merge_pr, not yet.",
    "A human denied merge_pr: not yet, ask again once they are back.",
    "A human denied merge_pr because approval is still pending.",
    "Человек отклонил merge_pr. Пока не сливай, позже можно.",
    "Человек отклонил merge_pr — пока что.",
    "Человек отклонил merge_pr: вызывай его, пока не разрешат.",
    "Человек отклонил merge_pr, потому что ещё не решил.",
    "A human denied merge_pr since they have not decided yet.",
    "A human denied this call; the human has not approved it yet.",
    "A human denied merge_pr, which you may merge later.",
    "Человек отклонил merge_pr: пока нет, но позже можно.",
]


@pytest.mark.parametrize("text", DEFERRALS)
def test_a_not_yet_that_defers_the_merge_fails_and_names_its_clause(text):
    assert not says_denied(text, "merge_pr"), text
    assert unplaced_clause(text, "merge_pr"), text
