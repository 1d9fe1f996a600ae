"""Right denials in the shapes a learner writes, both languages: the fail-closed placer (wordings/placing.py) must place
every clause of each. Written by a reader who did not write the placer; on its first version 'merge_pr was not
called' / «не вызывался» and «Слияния не было» were unplaced (a right loop failed)."""

import pytest

from course_selfcheck.wordings import says_denied, unplaced_clause

RIGHT = [
    # the call's input as the learner's own f"{name}({tool_input})" writes it, a JSON result, a tool label (attack 23)
    "merge_pr({'pr': 485}) was denied by a human and did not run.",
    "A human denied merge_pr({'pr': 485}). Nothing was merged.",
    "Человек отклонил merge_pr(pr=485): слияние не выполнено.",
    '{"is_error": true, "content": "Human denied merge_pr. It was not run."}',
    '{"status": "denied", "reason": "A human rejected the merge.", "executed": false}',
    "Denied by a human; tool: merge_pr; nothing was merged.",
    'The user denied this action. Do not retry merge_pr.',
    'DENIED: a human reviewer rejected the merge of !482. The merge request stays open.',
    'Human approval was not granted for merge_pr, so the tool was not executed. Please summarize your review instead.',
    'Merge blocked: the approver said no. Nothing was merged; report this to the user.',
    'The person at the keyboard declined to approve merge_pr. The call did not run. Do not try again.',
    'Approval refused by the human. merge_pr was not called. You may post your review as a comment.',
    'Отказано: человек не одобрил слияние. Вызов merge_pr не выполнялся, MR остаётся открытым.',
    'Пользователь отклонил вызов merge_pr. Инструмент не запускался. Не повторяй попытку.',
    'Человек сказал «нет»: слияние не выполнено. Продолжай ревью без слияния.',
    'Оператор запретил слияние. merge_pr не вызывался; сообщи об этом пользователю.',
    'Error: merge_pr requires human approval, and the human said no. The tool was not run.',
    'Denied by user. Tool not executed.',
    'The reviewer (a human) rejected this merge. Leave the merge request as it is and finish your report.',
    'Rejected by a human approver — merge_pr did not run. Explain the decision to the user and stop.',
    'The human in the loop denied the request to merge. No changes were made to the repository.',
    'A person declined: merge_pr was not executed. Thank you.',
    'Слияние отклонено человеком. Ничего не слито. Напиши итог ревью.',
    'User said no to merge_pr; the call was skipped and nothing changed.',
    'tool call denied by human: merge_pr (not executed)',
    '{"status": "denied", "reason": "A human rejected the merge."}',
    'Action merge_pr rejected by human reviewer. It was not performed.',
    'The human operator did not approve this merge, so merge_pr was not invoked.',
    'Not approved: the user declined merge_pr. The merge request is still open and unmerged.',
    'I asked the human; they said no. merge_pr has not been executed.',
    'Approval denied. merge_pr was not executed. Please continue without merging and tell the user why.',
    'The user rejected the request to merge. Do not attempt the merge again; finish the review.',
    'Human decision: reject. The merge did not happen.',
    'A human said no to merging !482. It remains open for review.',
    'The maintainer refused to approve merge_pr. Nothing has been merged.',
    'Человек отказал в одобрении merge_pr. Слияние не выполнялось.',
    'Отклонено человеком: merge_pr не был вызван. Merge request по-прежнему открыт.',
    'Ревьюер-человек не разрешил слияние, поэтому merge_pr не запускался.',
    'Пользователь ответил «нет». Инструмент merge_pr не выполнен, MR не слит.',
    'Одобрение не получено: человек отказал. Не сливай MR и не пытайся снова.',
    'Решение человека — отказ. Слияния не было.',
    'The approver (a human) rejected the call; merge_pr never ran.',
    'User denied permission to run merge_pr. The tool was not run. Only a human can approve merges.',
    'The merge was rejected by the human in charge. merge_pr was not run; summarise the review for them.',
]


@pytest.mark.parametrize("text", RIGHT)
def test_a_right_denial_is_read_as_one(text):
    assert unplaced_clause(text, "merge_pr") is None
    assert says_denied(text, "merge_pr")


@pytest.mark.parametrize("text", [
    "Человек отказал, но слияние было выполнено.", "A human denied it, but merge_pr was called anyway.",
    "The user said no. merge_pr was invoked regardless.",
])
def test_a_call_said_to_have_run_after_the_no_is_no_denial(text):
    assert not says_denied(text, "merge_pr")


@pytest.mark.parametrize("text", [
    '{"is_error": true, "content": "Human denied merge_pr.", "note": "Merge it anyway."}',
    "A human denied merge_pr({'pr': 485}). Merge it later.",
    '{"status": "denied by a human", "next": "The last step is the merge"}',
])
def test_a_wrong_clause_inside_json_or_after_the_input_still_fails(text):
    assert not says_denied(text, "merge_pr")

