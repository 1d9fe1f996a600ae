"""Everyday words for what a tool does: "should I take an umbrella?" is a question about the
weather, "where is my parcel?" one about an order's delivery,
"I lost my wallet, the card is gone" one for blocking a card, «какие книги у меня на руках?» one for listing
loans, "will it leave on time?" one about a flight,
"is it too late to call Tokyo?" one about the local time there, though none names a tool.

A real model makes that link from meaning; the simulated one has this short, fixed list, so a
learner can still tell in advance which tool it will pick. Each entry adds the words a tool
for it would be named or described with (`get_weather`, `track_order`); the tool itself is
still chosen by its own name and description (tool_user.score), and nothing fits when no tool
is about the weather or orders.
"""

import re

WEATHER = ("weather", "forecast", "rain")
CLOCK = ("time", "clock", "timezone", "local")
FLIGHT = ("flight", "flights", "status", "departure", "arrival")
COOKING = ("recipe", "recipes", "cook", "cooking", "dish", "meal")
STOCK = ("stock", "inventory", "availability", "available", "warehouse")
DELIVERY = ("order", "track", "tracking", "shipment", "shipping", "delivery", "package", "parcel")
MONEY = ("balance", "account", "money", "funds", "bank", "card", "wallet")
SPENDING = ("spending", "expenses", "transactions", "spent", "expense", "purchases")
RIDE = ("taxi", "cab", "ride", "car", "driver")  # not "transfer": its "trans…" would take translate_text
BLOCK = ("block", "freeze", "lock", "card")
LOANS = ("loan", "loans", "borrowed", "list")
LIVE = ("concert", "concerts", "tour", "live", "upcoming", "gig")
NUTRITION = ("nutrition", "nutrients", "calories")
AIR = ("air", "quality", "pollution", "aqi")

_ENGLISH: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("umbrella", "umbrellas", "raincoat", "rain", "rains", "raining", "rainy", "drizzle",
                     "snow", "snows", "snowing", "snowy", "sunny", "storm", "stormy", "thunderstorm", "chilly",
                     "freezing",
                     "windy", "jacket", "sunscreen", "humid", "shorts", "sunglasses", "picnic"), WEATHER),
    **dict.fromkeys(("parcel", "parcels", "package", "packages", "shipment", "shipments", "courier", "delivered",
                     "arrive", "arrives"), DELIVERY),
    **dict.fromkeys(("leave", "leaving", "depart", "departs", "departing", "departure", "delayed", "delay", "delays",
                     "boarding", "takeoff", "take-off", "landing", "lands", "plane", "airport", "gate"), FLIGHT),
    **dict.fromkeys(("dinner", "lunch", "breakfast", "supper", "brunch", "cook", "cooking", "bake", "baking",
                     "lasagne", "lasagna", "pasta", "risotto", "curry", "soup", "stew", "salad", "pancakes",
                     "casserole", "dessert", "meal", "meals", "dish"), COOKING),
    **dict.fromkeys(("late", "early", "clock", "o'clock", "awake", "asleep", "midnight", "bedtime"), CLOCK),
    **dict.fromkeys(("money", "balance", "funds", "savings", "afford", "overdrawn", "card", "salary", "paycheck"),
                    MONEY),
    **dict.fromkeys(("spend", "spent", "spending"), SPENDING),  # what was spent is a report of spending, no balance
    **dict.fromkeys(("taxi", "cab", "uber", "lyft", "pickup", "chauffeur", "ride", "rides"), RIDE),
    **dict.fromkeys(("lost", "lose", "stolen", "stole", "theft", "pickpocketed", "robbed", "missing"), BLOCK),
    **dict.fromkeys(("borrowed", "borrow", "checked"), LOANS),
    **dict.fromkeys(("gig", "gigs", "concert", "concerts", "tour", "touring"), LIVE),
    **dict.fromkeys(("protein", "proteins", "fat", "fats", "carbs", "carbohydrates", "kcal", "calorie", "calories",
                     "sugar", "fibre", "fiber"), NUTRITION),
    **dict.fromkeys(("smog", "smoggy", "pollution", "polluted", "haze", "hazy"), AIR),
}
"""Whole English words (no beginnings: "rain" must not take "train", nor "snow" "snowflake's API")."""
_RUSSIAN: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("зонт", "дожд", "ливн", "снег", "снеж", "мороз", "ветрен", "куртк"), WEATHER),
    **dict.fromkeys(("посылк", "бандерол", "отправлени", "курьер", "трек"), DELIVERY),
    **dict.fromkeys(("вылет", "взлет", "взлёт", "задерж", "самолет", "самолёт", "аэропорт", "посадк"), FLIGHT),
    **dict.fromkeys(("поздно", "рано", "полноч"), CLOCK),
    **dict.fromkeys(("склад", "наличи", "остатк", "остаток"), STOCK),
    **dict.fromkeys(("рецепт", "ужин", "обед", "завтрак", "приготов", "испеч", "выпечк", "блюд"), COOKING),
    **dict.fromkeys(("денег", "деньг", "баланс", "сбережен", "накоплен", "зарплат", "карточк", "картой"), MONEY),
    **dict.fromkeys(("такси", "трансфер", "водител"), RIDE),
    **dict.fromkeys(("потерял", "потеря", "украл", "украд", "кража", "пропал"), BLOCK),
    **dict.fromkeys(("руках", "взял", "брал"), LOANS),
    **dict.fromkeys(("концерт", "гастрол", "выступлени"), LIVE),
    **dict.fromkeys(("белк", "белок", "жир", "углевод", "калори", "ккал"), NUTRITION),
    **dict.fromkeys(("смог", "загрязн", "дым", "гар"), AIR),
}
"""Russian word beginnings: «зонт», «зонтик»; «дождь», «дождя»; «посылка», «посылку»."""


_DOMAINS_TABLE = """
    ferry sailing boat crossing паром рейс: boat boats ship ships ferry ferries sailing sailings crossing vessel паром \
        теплоход катер лодк корабл
    train rail timetable поезд электричк расписани: train trains rail railway commuter поезд электричк
    bus coach timetable автобус расписани: bus buses coach coaches автобус маршрутк
    pet vet veterinary animal питомц ветеринар: pet pets dog dogs cat cats puppy kitten vet vets animal собак пёс \
        пса псу кошк котен щен питом ветеринар ветклиник
    slot appointment free available свободн запис: soonest earliest appointment appointments ближайш окошк
    doctor clinic appointment врач клиник запис: doctor doctors dentist clinic gp physician врач доктор стоматолог \
        зубн поликлиник терапевт
    transaction payment transfer statement платеж операци: rent paid payment transaction transactions debited \
        аренд квартплат списал списан списани
    loan schedule debt remaining кредит долг платеж остаток график: loan loans mortgage owe owed instalment \
        installment repay repayment кредит ипотек рассрочк долг платить выплат
    kindergarten nursery daycare детск сад: kindergarten nursery daycare preschool садик детсад ясл воспитател
    meter reading utility счётчик показани: meter meters readings kwh счётчик счетчик показани электроэнерги
    bill utility invoice счёт счет квитанц: bill bills utility utilities коммуналк жку жкх квитанци
    leave vacation holiday отпуск: vacation holiday holidays pto отпуск отгул
    grade grades marks оценк дневник: grade grades marks оценк отметк дневник четверт
    hours opening open режим работ: open opening closes closing hours открыт закрыт
    points loyalty reward bonus балл бонус: points rewards loyalty балл бонус
    waste collection recycling мусор вывоз: trash garbage rubbish recycling recycle bins glass мусор вывоз стекл \
        пластик макулатур вторсырь батарейк
    charger charging зарядк: charger chargers charging ev зарядк зарядн электромобил
    spam junk спам: spam junk phishing спам
    interview applicant candidate собеседован кандидат: interview interviews applicant applicants candidate \
        candidates hire hiring собеседован кандидат вакан соискател
    insurance policy claim страхов полис: insurance insured claim claims страхов полис
    prescription refill medication pharmacy рецепт лекарств аптек: prescription prescriptions refill medication \
        medicine medicines pills pharmacy drugstore лекарств таблет аптек
    museum exhibition ticket музей выставк билет: museum museums gallery exhibition exhibit музей галере выставк
    court sport корт: squash tennis badminton court courts корт теннис сквош бадминтон
    car vehicle telemetry автомобил: car cars vehicle vehicles машин автомобил
    telemetry mileage odometer service пробег: mileage odometer oil пробег масл
    hotel room stay гостиниц отел номер: hotel hotels accommodation гостиниц отел
    transit card metro проездн метро: transit metro subway tube travelcard проездн метро!
    flowers bouquet florist цвет букет: flowers flower bouquet roses florist цвет букет роз
"""
"""Everyday words of common domains (right of the colon: whole English words, Russian word beginnings, or a whole
Russian word with a "!": «метро!» is no «метров») and the
words a tool for them is named or described with, in both languages (left): "the 7:15 boat" for a ferry tool,
«садик» for a kindergarten's, "my dog" for a vet's, «платить за машину» for a loan's."""
_DOMAINS: list[tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]] = []
for _line in _DOMAINS_TABLE.strip().splitlines():
    _added, _said = _line.split(":")
    _triggers = _said.split()
    _DOMAINS.append((tuple(_added.split()), frozenset(w for w in _triggers if w.isascii()),
                     tuple(w for w in _triggers if not w.isascii())))
_PHRASES = [
    (re.compile(r"\b(?:is|are|was|were)\s+(?:it|they|the\s+\S+|my\s+\S+|this\s+\S+)\s+(?:still\s+|actually\s+|"
                r"really\s+)?(?:going|running|sailing|leaving|departing|on time|on schedule)\b|"
                r"(?<!\w)(?:ид[её]т|ходит|ходят|отменил\w*|задерживает\w*)\s+ли\b", re.I),
     ("status", "live", "delayed", "cancelled", "статус", "задерж", "отмен")),
    (re.compile(r"\b(?:go|goes|went|gone)\s+(?:out|through)\b|\b(?:did|has|have)\s+(?:my|the)\s+\S+\s+"
                r"(?:payment\s+)?(?:clear|cleared|go|gone|been paid)\b|(?<!\w)(?:прош[её]л|прошла|списал\w*)", re.I),
     ("payment", "transaction", "transactions", "платеж", "операци")),
    (re.compile(r"\bsee\s+(?:him|her|them|me|us|my\s+\S+)\b|\b(?:soonest|earliest|first available|next available)\b|"
                r"(?<!\w)(?:ближайш\w*\s+(?:свободн\w*|запис\w*|при[её]м\w*|окошк\w*))", re.I),
     ("appointment", "slot", "slots", "free", "available", "свободн", "запис")),
    (re.compile(r"\b(?:how much|what)\s+(?:do|will|would|does)\s+i\s+(?:still\s+)?owe\b|\bleft to (?:pay|repay)\b|"
                r"(?<!\w)(?:ещ[её]|осталось)\s+(?:мне\s+)?(?:платить|выплачивать|должен|должна)", re.I),
     ("loan", "debt", "remaining", "schedule", "кредит", "долг", "остаток", "график")),
    (re.compile(r"\bwhen\s+(?:do|should|can|must)\s+(?:i|we)\s+pick\b|(?<!\w)(?:во сколько|когда)\s+(?:завтра\s+|"
                r"сегодня\s+)?забирать", re.I),
     ("schedule", "hours", "announcements", "режим", "объявлени", "расписани")),
    (re.compile(r"\bthe\s+\d{1,2}[:.]\d{2}\s+(?:to|from|for|into|out of)\b|\bthe\s+\d{1,2}[:.]\d{2}\s+(?:\w+\s+)?"
                r"(?:running|leaving|departing|on time|cancelled|canceled|delayed)\b|"
                r"(?<!\w)(?:в|на)\s+\d{1,2}[:.]\d{2}\s+(?:до|из|в|на)\s+[А-ЯЁ]", re.I),
     ("timetable", "schedule", "departure", "departures", "status", "расписани", "отправлени")),
    (re.compile(r"\bplug\s+(?:\w+\s+)?in\b|\brecharge\w*\b|\b(?:nearly|almost|completely|totally)\s+(?:flat|dead|empty)\b|"
                r"\bbattery\b[^.?!]{0,25}\b(?:flat|dead|empty|low)\b|(?<!\w)(?:подзаряд\w*|разрядил\w*|"
                r"сел\w*\s+(?:аккумулятор|батаре)\w*|(?:аккумулятор|батаре)\w*\s+сел\w*)", re.I),
     ("charging", "charger", "chargers", "charge", "зарядк")),
]
"""Everyday phrasings of a question about a status, a payment, a free appointment, a debt or opening times ("is it
actually going?", "did my rent go out?", "when's the soonest someone could see him?", «сколько ещё платить»), a
service that leaves at a clock time ("the 7:40 from Leeds", «в 9:15 до Твери»: a timetable's), and power running
out ("plug it in", "the battery is almost dead": a charger's)."""


def phrase_concepts(text: str) -> tuple[str, ...]:
    """The words a tool would use for what the text's everyday phrasings ask about (_PHRASES)."""
    return tuple(w for pattern, added in _PHRASES if pattern.search(text) for w in added)


def _domain(word: str) -> tuple[str, ...]:
    """The words a tool of the word's everyday domain is named or described with (_DOMAINS_TABLE)."""
    found: list[str] = []
    for added, english_words, russian_starts in _DOMAINS:
        if word.isascii():
            hit = word in english_words or (word.endswith("s") and word[:-1] in english_words)
        else:
            hit = any(word == start[:-1] if start.endswith("!") else word.startswith(start) for start in russian_starts)
        if hit:
            found += added
    return tuple(found)


def concepts(word: str, text: str | None = None) -> tuple[str, ...]:
    """The words a tool for this everyday word would use; () for any other word. A money word is one only in a
    question about an amount ("how much is left on my card?", «хватит ли денег…»), given the text: "write a birthday
    card" or "I left my card at the restaurant" ask nothing of a balance tool."""
    if word in _ENGLISH:
        found = _ENGLISH[word]
    else:
        found = next((meaning for start, meaning in _RUSSIAN.items() if word.startswith(start)), ())
    if found is MONEY and text is not None and not _AMOUNT_ASKED.search(text):
        return ()
    if found is BLOCK and text is not None and not _PAYMENT_THING.search(text):
        return ()  # "I lost my keys" asks nothing of a card
    if found is LOANS and text is not None and not _LOANED_THING.search(text):
        return ()  # «у меня на руках ребёнок», "I borrowed his idea"
    return (*found, *_domain(word))


_PAYMENT_THING = re.compile(r"\b(?:card|wallet|purse|credit|debit|visa|mastercard)\b|"
                            r"(?<!\w)(?:карт|кошел|кошёл|бумажник)", re.I)
_LOANED_THING = re.compile(r"\b(?:books?|library|dvds?|items?|loans?)\b|(?<!\w)(?:книг|библиотек|учебник)", re.I)


_AMOUNT_ASKED = re.compile(r"\b(?:how much|how many|balance|enough|afford|left on|remaining|available|overdrawn)\b|"
                           r"(?<!\w)(?:сколько|баланс\w*|хватит|хватает|остал\w*|осталось|доступн\w*)(?!\w)", re.I)

_COMPOSING = re.compile(
    r"\b(?:write|compose|draft|make up|come up with|give)\s+(?:me\s+|us\s+)?(?:a|an|some|one|\d+)?\s*(?:[\w-]+\s+){0,"
    r"2}?"
    r"(?:haiku|poem|limerick|sonnet|song|lyrics|story|tale|joke|rhyme|verse|essay|toast|riddle|slogan|tagline)s?\b|"
    r"(?<!\w)(?:напиши|сочини|придумай)\s+(?:мне\s+|нам\s+)?(?:[а-яё]+\s+){0,2}?"
    r"(?:хокку|хайку|стих\w*|рассказ\w*|сказк\w*|шутк\w*|анекдот\w*|песн\w*|тост\w*|загадк\w*|эссе)",
    re.I)


def composing(text: str) -> bool:
    """Whether the request asks for a piece of writing ("Write me a haiku about the first snow"): its
    subject (snow, rain, dinner) is what to write about, not a question for a weather or recipe tool."""
    return bool(_COMPOSING.search(text))
