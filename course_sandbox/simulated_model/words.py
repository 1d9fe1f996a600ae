"""Words for matching a request to tools: tokens, a crude stemmer (English and Russian), and a
small Russian-to-English glossary, so "Какая погода в Париже?" finds `get_weather` (and, through
everyday.py, "Do I need an umbrella?" does too).

Crude on purpose: the simulated model has to be predictable, and a learner reading this file
should be able to tell in advance which tool it will pick.
"""

import re

from .everyday import concepts, phrase_concepts

_TOKEN = re.compile(r"[A-Za-zА-Яа-яЁё]+|[*×+÷/^%]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_EN_SUFFIXES = ("ations", "ation", "ators", "ator", "ings", "ing", "ies", "ied", "ate", "ers", "ed", "es", "er", "or",
                "ly", "s")
_RU_SUFFIXES = ("иями", "ями", "ами", "ого", "его", "ому", "ему", "ыми", "ими", "ой", "ей", "ий", "ый", "ая", "яя",
                "ое", "ее", "ом", "ем", "ам", "ям", "ах", "ях", "ую", "юю", "ов", "ев", "ть", "а", "я", "о", "е",
                "ы", "и", "у", "ю", "ь")
STOPWORDS = frozenset("""
a an the is are was be been of in on at for to and or me my i you your we our it its this that these those
please tell show give with by from what whats which who how much many can could would will do does did
get gets current given some about like use using tool function returns return there here now also just
want need know let s t am if as into than then so not no yes any all one
в во на и или как какая какой какие что сколько будет мне мой моя мое моё моего для по из у о об это есть ли
а не да ну же бы пожалуйста скажи покажи дай какова каков
""".split())
GLOSSARY = {
    # Russian word beginnings -> the English word a tool would use.
    "погод": "weather", "температур": "temperature", "градус": "temperature", "прогноз": "forecast",
    "заказ": "order", "клиент": "customer", "покупател": "customer", "пользовател": "user",
    "почт": "email", "имейл": "email", "адрес": "address", "посчита": "calculate", "вычисл": "calculate",
    "сосчита": "calculate", "калькулятор": "calculator", "умнож": "multiply", "слож": "add", "сумм": "sum",
    "дели": "divide", "раздел": "divide", "вычест": "subtract", "курс": "rate", "валют": "currency",
    "врем": "time", "час": "time", "город": "city", "поиск": "search", "найд": "search", "найти": "search",
    "поищ": "search", "файл": "file", "прочита": "read", "прочти": "read", "отмен": "cancel", "статус": "status",
    "цен": "price", "стоимост": "price", "товар": "product", "продукт": "product", "акци": "stock",
    "сводк": "summary", "резюм": "summary", "кратк": "summary", "извлек": "extract", "отправ": "send",
    "письм": "email", "перевед": "translate", "перевод": "translate", "напомин": "reminder",
    "подпис": "label", "событ": "event", "встреч": "meeting", "календар": "calendar", "билет": "ticket",
            "рейс": "flight",
    "отел": "hotel", "гостиниц": "hotel", "брон": "book", "книг": "book", "доставк": "shipping",
    "возврат": "refund", "верн": "refund", "счёт": "invoice", "счет": "invoice", "цельси": "celsius",
    "фаренгейт": "fahrenheit", "новост": "news", "котировк": "quote", "тикет": "ticket",
    "тег": "tag", "метк": "label", "удал": "delete", "сотри": "delete", "список": "list", "перечисл": "list",
            "значит": "mean", "значени": "meaning", "покаж": "show", "информаци": "info", "сведени": "info",
            "данные": "info", "детал": "details",
    "участник": "member", "членов": "member", "групп": "group", "команд": "team", "сотрудник": "employee",
    "площадк": "site", "контакт": "contact", "задач": "task", "сообщени": "message", "канал": "channel",
    "документ": "document",
    "папк": "folder", "каталог": "directory", "заметк": "note", "переговорк": "room", "переговорн": "room",
    "комнат": "room", "памятк": "memo",
    # the words a request labels a value with («тема «Отчёт»», «исполнитель — petrov»), for a field named in English
    "тема": "subject", "теме": "subject", "тему": "subject", "темой": "subject", "текст": "text", "назван": "title",
    "заголов": "title", "категори": "category", "комментари": "comment", "чат": "chat", "проект": "project",
    "описани": "description", "приоритет": "priority", "исполнител": "assignee", "ссылк": "link", "логин": "login",
    "отдел": "department", "должност": "position", "компани": "company", "телефон": "phone", "никнейм": "nickname",
    "псевдоним": "nickname", "бизнес": "business", "эконом": "economy",
    "забронир": "book", "влажност": "humidity", "увлажнител": "humidifier", "подбер": "search", "подобр": "search",
    "заблок": "block", "блокир": "block", "продл": "renew", "продлев": "renew", "уведом": "notify",
    "оповещ": "notify",
}
_EVERYDAY_RUSSIAN = """
    water: полей полить полива полив вода воды воду
    print: печат распечат
    job: задани
    level: уровен уровн
    tank: бак
    refill: долив долей пополн
    order: закаж
    duration: длительн продолжительн
    firmware: прошивк
    device: устройств
    install: установ
    latest: последн свеж
    survey: опрос анкет
    question: вопрос
    option: вариант
    publish: опублик публик
    lens: объектив
    wishlist: желани
    backup: резервн бэкап копи
    photo: фотограф снимк
    album: альбом
    blurry: размыт
    trash: корзин
    moving: перевоз переезд
    mover: грузчик
    cheapest: дешев
    membership: абонемент членств
    freeze: замороз
    pause: приостанов пауз
    reschedule: перенес перенос перенест отлож
    rental: аренд прокат
    lesson: урок занят
    subscription: подписк
    trip: поездк
    parking: парковк парковоч
    permit: разрешени пропуск
    air: воздух
    pollution: загрязн
    traffic: пробк
    calories: калори
    protein: белк белок
    nutrition: питательн пищев
    concert: концерт
    tour: гастрол выступ
    song: песн
    record: запис
    domain: домен
    register: зарегистр регистрац
    virtual: виртуальн
    machine: машин
    server: сервер
    memory: памят
    cpu: процессор
    disk: диск
    remove: спиши списа
    units: единиц
    sku: артикул
    coworking: коворкинг
    hashtag: хештег хэштег
    sms: смс
    call: звон позвон
    track: отслед
    pay: оплат
    payment: платеж платёж
    report: отчёт отчет
    export: экспорт выгруз
    check: провер
    courier: курьер
    label: этикетк ярлык
    sunrise: восход
    sunset: закат
    moon: лун
    tide: прилив отлив
    plant: растени
    moisture: влажн
    video: видео
    subtitle: субтитр
    router: роутер маршрутизатор
    printer: принтер
    database: база базы базу базе базой
    upcoming: следующ ближайш
    grams: грамм
    child: детск ребён ребен
    seat: кресл сиден
    breakfast: завтрак
    parking: парковк
    pet: питомц животн
    smoking: курящ курени
    luggage: багаж чемодан
    insurance: страховк
    wheelchair: коляск
    visit: визит посещени
    plan: тариф
    share: поделись поделитесь поделиться расшар
"""
"""Everyday Russian word beginnings for what a tool named in English does, one English word a line: «полей»
(water), «печать» (print), «прошивку» (firmware)."""
for _line in _EVERYDAY_RUSSIAN.strip().splitlines():
    _meaning, _starts = _line.split(":")
    GLOSSARY.update(dict.fromkeys(_starts.split(), _meaning.strip()))

OPERATOR_WORDS = {"*": "multiply", "×": "multiply", "+": "add", "/": "divide", "÷": "divide", "^": "power",
                  "%": "modulo"}
SYNONYMS = {"multiply": ("times", "product"), "add": ("plus", "sum"), "subtract": ("minus", "difference"),
            "divide": ("quotient",), "weather": ("temperature", "forecast"), "temperature": ("weather",),
            "calculate": ("compute", "math", "arithmetic", "evaluate", "calculator"), "compute": ("calculate",),
            "evaluate": ("calculate",), "arithmetic": ("calculate",), "math": ("calculate",),
            "lookup": ("search", "find"), "find": ("search", "lookup"), "search": ("find", "lookup"),
            "info": ("details", "information"), "details": ("info", "information"), "information": ("info",),
            "mean": ("define", "definition", "dictionary"), "meaning": ("define", "definition", "dictionary"),
            "define": ("definition", "dictionary"), "definition": ("define", "dictionary"),
            "delete": ("remove", "erase"), "remove": ("delete",), "erase": ("delete",), "show": ("list",),
            "text": ("body", "message", "content"), "book": ("reserve",), "reserve": ("book",),
            "next": ("upcoming",)}


_QUOTE = re.compile(r"\"([^\"\n]{1,500})\"|«([^»]{1,500})»|“([^”]{1,500})”|(?<!\w)'([^'\n]{1,200})'(?!\w)")


def unquoted(text: str) -> str:
    """The request with each quoted phrase (two words or more) blanked, offsets kept: what a message, a title or a
    note says is a value to carry, never the words that ask for an action or pick a tool ("send Bob the message
    'delete everything'" sends, and deletes nothing). A quoted single word ("tag it "urgent"") stays."""
    def blank(m: re.Match) -> str:
        inner = next(g for g in m.groups() if g is not None)
        return " " * len(m.group(0)) if len(_TOKEN.findall(inner)) >= 2 else m.group(0)
    return _QUOTE.sub(blank, text)


def tokens(text: str) -> list[str]:
    """Lower-case words of a text, snake_case and camelCase split, operator symbols kept."""
    text = _CAMEL.sub(" ", text).replace("_", " ").replace("-", " ")
    return [t.lower() for t in _TOKEN.findall(text)]


def stem(word: str) -> str:
    """A crude stem: 'calculator', 'calculate' and 'calculation' all give 'calcul'."""
    if re.search(r"[а-яё]", word):
        for suffix in _RU_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                return word[: -len(suffix)]
        return word
    for suffix in _EN_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
    return word


def english(word: str) -> str | None:
    """The English word for a Russian one, when the glossary knows its beginning: the longest beginning it knows
    («подписку» is a subscription's, not the «подпис…» of a label)."""
    best = ""
    for start in GLOSSARY:
        if len(start) > len(best) and word.startswith(start):
            best = start
    return GLOSSARY[best] if best else OPERATOR_WORDS.get(word)


_BRIDGE = """
    update change edit modify: обнов измен поменя исправ редактир отредакт
    create add: созда создай заведи завест добав
    remind reminder: напомн напоминан
    order buy purchase reorder: закаж заказа купи купит приобрет дозакаж
    track: отслед
    find search lookup: найд найти ищ поищ
    show list view: покаж выведи вывест перечисл список
    send: отправ пошли пошл пришли пришл отошл
    send write: напиш написа
    delete remove: удал сотри стер
    clear erase wipe: очист сотри стер
    cache: кэш кеш
    cancel: отмен
    withdraw revoke recall: отзов отозв отзыва
    book reserve reservation booking: брон забронир
    book register signup enroll appointment: запиши запишит записат записыв
    close: закр
    open: откр
    archive: архив заархив
    confirm: подтверд
    approve: одобр
    reject decline: отклон
    invite: приглас
    assign: назнач
    save: сохран
    upload: загруз
    download: скача скачив
    renew extend: продл
    subscription: подписк
    reservation booking: бронь брони бронир
    appointment: приём приема приёма
    appointment booking record entry: записи записей записям
    request ticket application: заявк
    notification: уведомлен
    password: парол
    account profile: аккаунт учётн учетн профил
    feedback review: отзыв
    complaint: жалоб
    table: столик
    haircut: стрижк
    class classes lesson lessons: заняти урок
    event: мероприят событ
    bill invoice: счёт счет квитанц
    card: карточк карточек
    board: доск доска
    item: пункт элемент
    power electricity light: свет
    power electricity: электричеств электроэнерг
    turn switch enable: включ вкл
    turn switch disable: выключ
    outage outages: отключ
    star stargazing sky astronomy: звезд звёзд созвезд
    sky stargazing cloud: неб
    night: ночь ночн ночью
    vacant vacancy available occupancy: свободн
    quote quotes offer offers bid bids proposal proposals estimate estimates: предложени смет расценк
    accept approve: прими примите принять принима
    talk talks presentation presentations: доклад
    parcel parcels package packages: посылк
    hand handover give: выдай выдать выдайте
    plug socket outlet: розетк
"""
"""Russian beginnings of common action verbs and the nouns they act on, and the English words a tool named and
described in English uses for them: a small, general bridge, so «Отмени мою бронь» reaches `cancel_reservation` and
«Покажи мои подписки» `list_subscriptions`; the values stay as the request writes them."""
BRIDGE: dict[str, tuple[str, ...]] = {}
for _line in _BRIDGE.strip().splitlines():
    _meanings, _starts = _line.split(":")
    for _start in _starts.split():
        BRIDGE[_start] = (*BRIDGE.get(_start, ()), *_meanings.split())


def meanings(word: str) -> list[str]:
    """Every English word the glossary and the bridge give a Russian word (the bridge's longest beginning)."""
    found = [m for m in [english(word)] if m]
    if word.isascii():
        return found
    best = max((start for start in BRIDGE if word.startswith(start)), key=len, default="")
    return list(dict.fromkeys([*found, *BRIDGE.get(best, ())]))


_LATIN = dict(zip("абвгдезийклмнопрстуфхцыэ", "abvgdezijklmnoprstufhcye", strict=True)) | {
    "ё": "e", "ж": "zh", "ч": "ch", "ш": "sh", "щ": "sch", "ю": "u", "я": "ya", "ь": "", "ъ": ""}


def latin(word: str) -> str:
    """A Russian word in Latin letters, for the words Russian borrowed from English («принтер» printer, «видео»
    video, «сервер» server, «роутер» router): compared with a tool's English words by their first five letters."""
    return "".join(_LATIN.get(ch, ch) for ch in word)


def stems(text: str, synonyms: bool = False) -> set[str]:
    """Content-word stems of a text (stop words dropped), Russian words also as their English stem."""
    found: set[str] = set()
    if synonyms:  # "look up Ana's e-mail" asks for a lookup, as `find_person` or `lookup_contact` does
        text = re.sub(r"\b(look(?:s|ed|ing)?)\s+up\b", "lookup", text, flags=re.I)
    for word in tokens(text):
        if word in STOPWORDS or (len(word) < 2 and word not in OPERATOR_WORDS):
            continue
        meaning = english(word)
        words = [word, *meanings(word)]
        if meaning is None and len(words) == 1 and re.fullmatch(r"[а-яё]{5,}", word):
            words.append(latin(stem(word)))  # a borrowed word: «принтере» printer
            if "в" in word:  # «воркшопы» workshop, «виджет» widget: в is an English w as often as a v
                words.append(latin(stem(word)).replace("v", "w"))
        if synonyms:
            words += [s for w in list(words) for s in (*SYNONYMS.get(w, ()), *concepts(w, text))]
        found |= {stem(w) for w in words if not OPERATOR_WORDS.get(w)}
    if synonyms:
        found |= {stem(w) for w in phrase_concepts(text)}
    return found


def overlap(request: set[str], other: set[str]) -> set[str]:
    """Stems in common, counting a shared beginning of 5+ letters ('multipl…') as a match."""
    common = request & other
    for a in request - common:
        for b in other:
            if (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5]) or (len(a) >= 4 and len(b) >= 4 and (
                    a + "e" == b or b + "e" == a)) or _plural_of_short(a, b):  # "quotes" (quot) and "quote"
                common.add(a)
    return common


def _plural_of_short(a: str, b: str) -> bool:
    """A three-letter word and its plural, which the stemmer leaves whole: "bids" and accept_bid, "jobs" and job_id
    ("news" is no plural of "new")."""
    short, long_ = sorted((a, b), key=len)
    return len(short) == 3 and long_ == short + "s" and short.isalpha() and short.isascii() and short != "new"
