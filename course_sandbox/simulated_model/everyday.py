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
    **dict.fromkeys(("money", "balance", "funds", "savings", "afford", "overdrawn", "card", "spend", "spent",
                     "salary", "paycheck"), MONEY),
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
    return found


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
