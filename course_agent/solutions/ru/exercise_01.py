"""Упражнение 1 (блокнот 1), спойлер: остановить счёт прямо перед 5 с помощью stop_sequences.

    from course_agent.solutions.ru import exercise_01
    counting = exercise_01.solve(client)
    check_exercise_1(counting)
"""

from course_agent.config import model_id


def solve(client):
    """Попросить посчитать от 1 до 10 со стоп-последовательностью «5»; напечатать, что пришло; вернуть Message."""
    question = "Посчитай от 1 до 10."
    counting = client.messages.create(
        model=model_id(),
        max_tokens=200,
        stop_sequences=["5"],  # модель останавливается, как только собралась бы написать «5»
        messages=[{"role": "user", "content": question}],
    )
    print("stop_reason:  ", counting.stop_reason)          # stop_sequence, а не end_turn
    print("stop_sequence:", repr(counting.stop_sequence))  # какая из ваших стоп-последовательностей сработала: '5'
    text = "".join(block.text for block in counting.content if block.type == "text")  # блоки по type, не content[0]
    print("текст:        ", repr(text))  # '1, 2, 3, 4, ': самой «5» в тексте нет
    return counting
