# Упражнение 1 (блокнот 1): счёт от 1 до 10, остановленный стоп-последовательностью прямо перед 5.
counting = client.messages.create(
    model=MODEL,
    max_tokens=200,
    stop_sequences=["5"],  # модель останавливается, как только собирается написать «5»
    messages=[{"role": "user", "content": "Посчитай от 1 до 10."}],
)
print("stop_reason:  ", counting.stop_reason)          # stop_sequence, а не end_turn
print("stop_sequence:", repr(counting.stop_sequence))  # какая из ваших стоп-последовательностей сработала: '5'
print("текст:        ", repr(text_of(counting)))       # '1, 2, 3, 4, ': самой «5» в тексте нет
