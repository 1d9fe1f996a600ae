"""Exercise 1 (notebook 1), a spoiler: stop the count right before 5 with stop_sequences.

    from course_agent.solutions import exercise_01
    counting = exercise_01.solve(client)
    check_exercise_1(counting)
"""

from course_agent.config import model_id
from course_agent.i18n import language as course_language


def solve(client, language: str | None = None):
    """Ask for 1 to 10 with the stop sequence "5"; print what came back; return the Message.
    The question is in the course's language (COURSE_AGENT_LANGUAGE) unless `language` says otherwise."""
    question = "Посчитай от 1 до 10." if course_language(language) == "ru" else "Count from 1 to 10."
    counting = client.messages.create(
        model=model_id(),
        max_tokens=200,
        stop_sequences=["5"],  # the model stops as soon as it would write "5"
        messages=[{"role": "user", "content": question}],
    )
    print("stop_reason:  ", counting.stop_reason)          # stop_sequence, not end_turn
    print("stop_sequence:", repr(counting.stop_sequence))  # which of our stop sequences was met: '5'
    text = "".join(block.text for block in counting.content if block.type == "text")  # blocks by type, never content[0]
    print("text:         ", repr(text))  # '1, 2, 3, 4, ': the "5" itself is not in the text
    return counting
