# Exercise 1 (notebook 1): count from 1 to 10, stopped right before 5 by a stop sequence.
counting = client.messages.create(
    model=MODEL,
    max_tokens=200,
    stop_sequences=["5"],  # the model stops as soon as it would write "5"
    messages=[{"role": "user", "content": "Count from 1 to 10."}],
)
print("stop_reason:  ", counting.stop_reason)          # stop_sequence, not end_turn
print("stop_sequence:", repr(counting.stop_sequence))  # which of your stop sequences was met: '5'
print("text:         ", repr(text_of(counting)))       # '1, 2, 3, 4, ': the "5" itself is not in the text
