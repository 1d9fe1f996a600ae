# Упражнение 9: каждый merge request демо-проекта проверен ревьюером курса с кэшированием, по строке на каждый.
# Использует `client`, `review` и `billed` блокнота.

rows = []
for pr in range(482, 488):
    result = review(pr, client=client, language="ru")  # кэширует по умолчанию; ревью по-русски
    verdict = result.text.strip().splitlines()[-1].split(":", 1)[-1].strip().rstrip(".")
    rows.append((pr, verdict, result.iterations, billed(result.usage)))

for pr, verdict, calls, billed_input in rows:
    print(f"!{pr}  {verdict:18}  вызовов: {calls}  оплачиваемый вход, токенов: {billed_input:7.0f}")
costliest = max(rows, key=lambda row: row[3])
print(f"самый дорогой: !{costliest[0]}; сравните его result.usage с остальными")
