"""Exercise 7's reading of who said no: a person's no (`names_the_decider`), or a no that is a policy's, a
timeout's or nobody's (`a_no_not_a_persons`)."""

import re

from .cuts import _governed
from .words import (
    _APPROVAL,
    _AUXILIARY,
    _FAILURE,
    _NEGATIONS,
    _PEOPLE,
    _REFUSALS,
    _STOP_PHRASES,
    _STOPS,
    _THAT,
    _WORD,
    _has_phrase,
    _split,
    retracts,
)

_DECIDED = re.compile(r"^(?:decid\w*|chose|choose|chosen|opted|решил\w*|решила|выбрал\w*|предпоч\w*)$", re.I)
"""Words of a decision: negated after them ("decided not to run it", «решил не выполнять») they are a no."""
_SECOND_PERSON = re.compile(r"^(?:you|ты|вы)$", re.I)
_AS = re.compile(r"^(?:as|like|как|в)$", re.I)
"""A person named as a role ("As the reviewer, you decided", «Ты как рецензент решил»): the role is someone else's."""
_WHOSE_DECISION = re.compile(r"^(?:decision\w*|answer\w*|choice\w*|verdict\w*|call|no|решени\w*|ответ\w*|выбор\w*|"
                             r"вердикт\w*|волей|воля|слово|«нет»|нет)$", re.I)
"""What a person's possessive may name and still be their no ("the human's decision", «по решению человека»)."""
_RULES_OF = re.compile(r"^(?:policy|policies|rule\w*|setting\w*|config\w*|security|system|filter\w*|"
                       r"политик\w*|правил\w*|настро\w*|систем\w*|фильтр\w*|безопасност\w*)$", re.I)
_A_NAME = re.compile(r"\b[^\W_]+(?:_[^\W_]+)+\b")
"""A tool's name ("merge_pr", "read_file"): one word, whose parts say nothing of the clause."""
_SEGMENT = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[.;!?\n:()—–,]|[«»\"“”]", re.UNICODE)


def _segments(text: str) -> list[list[str]]:
    """The text's clauses, split at commas too; quotation marks kept as words of their own."""
    return _split(_SEGMENT.findall(text), ".;!?\n:()—–,", lower=True)


_PICKED = re.compile(r"^(?:click\w*|press\w*|chose|chosen|choos\w*|select\w*|pick\w*|hit|tapp\w*|tap|gave|give|"
                     r"gives|answer\w*|replied|voted|нажал\w*|нажим\w*|выбрал\w*|выбир\w*|дал|дала|ответил\w*|"
                     r"проголосовал\w*|typed|typing|types|type|entered|enter|enters|wrote|write|writes|"
                     r"написал\w*|напечатал\w*|ввёл|ввел|ввела)$", re.I)
_A_NO = re.compile(r"^(?:no|nope|deny|reject|decline|нет|отклонить|запретить|отказать)$", re.I)
"""A person's no by a choice ("The human clicked No", "chose Deny", "gave a no", «нажал «нет»», «выбрал «Отклонить»»:
attack 20's F4)."""


def _says_no(lowered: list[str]) -> list[int]:
    """Where in a clause a no is said: a word that refuses or stops ("denied", «отклонил», "cancelled"), a two-word
    no ("said no", "turned it down"), an approval or a decision negated ("did not approve", "decided not to run",
    «не разрешил», «решил не выполнять»)."""
    at = [i for i, w in enumerate(lowered) if _REFUSALS.match(w) or _STOPS.match(w)]
    at += [i for i, w in enumerate(lowered) if _APPROVAL.match(w) and any(
        _NEGATIONS.match(b) for b in lowered[max(0, i - 3):i])]
    at += [i for i, w in enumerate(lowered) if _DECIDED.match(w) and any(
        _NEGATIONS.match(b) for b in lowered[i + 1:i + 4])]
    at += [i for i, w in enumerate(lowered) if _DECIDED.match(w) and lowered[i + 1:i + 2] and _THAT.match(
        lowered[i + 1]) and any(_NEGATIONS.match(b) for b in lowered[i + 2:i + 9])]  # "decided that X should not run"
    gave = ("gave", "give", "gives", "giving", "дал", "дала")  # "gave a no", not "gave no reason"
    at += [i for i, w in enumerate(lowered) if _PICKED.match(w) and w not in gave and any(
        _A_NO.match(b) for b in lowered[i + 1:i + 4]) or w in gave and lowered[i + 1:i + 3] in (["a", "no"],
                                                                                                 ["it", "a"])]
    # "The human clicked No", «нажал «нет»», "gave a no"
    at += [i for i, w in enumerate(lowered) if w in ("said", "answered", "replied", "сказал", "сказала", "ответил",
                                                      "ответила") and any(
        a in ("no", "нет", "not", "nope", "неа", "не-а") for a in lowered[i + 1:i + 7])]  # «ответил «пока нет»», «неа»
    at += [i for i, w in enumerate(lowered) if any(w == p[0] for p in _STOP_PHRASES)
           and _has_phrase(lowered[i:i + 5], _STOP_PHRASES, reach=3)]
    return sorted(set(at))


def _a_person(lowered: list[str], i: int) -> bool:
    """Word i names a person who can be the one who said no: not negated ("no human", "not a person"), not the owner
    of a policy ("the user's security policy", «политикой пользователя»), not a role the model is addressed in ("As
    the reviewer, you ...", «ты как рецензент»)."""
    word = lowered[i]
    base = word[:-2] if word.endswith("'s") else word  # "the operator's verdict": a possessive is a person too
    if not _PEOPLE.match(base) or word.startswith(("review", "ревью")) and not word.startswith(("reviewer", "ревьюер")):
        return False  # "review" is the work, "reviewer" the person
    before = lowered[max(0, i - 3):i]
    if any(_NEGATIONS.match(w) for w in before[-2:]) or before[-1:] in (["no"], ["any"]) or len(before) == 3 and \
            _NEGATIONS.match(before[0]) and before[1] in ("a", "one", "single", "any"):
        return False  # "no human", "not a human", "not a single human"
    if any(_AS.match(w) for w in before[-2:]) and word not in ("человек",) or before[-1:] == ["как"]:
        return False
    if word.endswith("'s") or lowered[i + 1:i + 2] == ["s"]:  # "the user's policy": a possessive names another thing
        return any(_WHOSE_DECISION.match(w) or _APPROVAL_NOUN.match(w) for w in lowered[i + 1:i + 3])
    if any(_RULES_OF.match(w) for w in before[-2:]):  # «политикой пользователя», "policy of the user"
        return False
    return not any(_RULES_OF.match(w) for w in lowered[i + 1:i + 3])  # "user policy", "human review rules"


_THINGS = re.compile(r"^(?:it|this|that|these|those|call|calls|merg\w*|request\w*|access|permission\w*|operation\w*|"
                     r"action\w*|tool\w*|execution|thecall|attempt\w*|pr|mr|change\w*|run|вызов\w*|его|он|она|оно|"
                     r"это|этот|эта|слияни\w*|запрос\w*|доступ\w*|операци\w*|действи\w*|инструмент\w*|"
                     r"выполнени\w*|попытк\w*|изменени\w*)$", re.I)
"""What a no is said of, not who says it (the call, the merge, access): a no whose subject is one of these names no
decider by itself ("merge_pr was denied", "Access denied")."""
_ADVERBS = {"has", "have", "had", "will", "would", "did", "does", "just", "already", "also", "then", "now", "simply",
            "explicitly", "personally", "firmly", "уже", "также", "просто", "сам", "сама", "явно", "лично"}
_LEADING = {"and", "but", "then", "so", "и", "но", "а", "затем", "однако", "however", "yet", "because", "since",
            "потому", "что", "так", "as"}
_STEP = (("approval", "step"), ("approval", "stage"), ("at", "approval"), ("in", "approval"), ("on", "approval"),
         ("approver",), ("в", "подтверждении"), ("при", "подтверждении"), ("на", "подтверждении"),
         ("этапе", "подтверждения"), ("шаге", "подтверждения"))
"""The approval step named as where the no was said ("rejected at the approval step", «в подтверждении отказано»): in
this course that step is a person's answer (approve() asks the human), so a passive no there is a person's."""


def _participle(word: str) -> bool:
    """A Russian short participle or an impersonal form of a no («отклонён», «запрещено», «отказано»): a passive."""
    return bool(re.match(r"^[а-яё]+(?:ён|ен|ена|ено|ены|ан|ана|ано|аны|ят|ято|ит|ита|ито|ован|ована|овано)$", word))


def _is_person_phrase(words: list[str], lowered_all: list[str], offset: int,
                      names: frozenset[str] = frozenset()) -> bool | None:
    """Whether a phrase that says a no is a person: True for a person or a role, a phrase headed by one of the person
    words ("the security engineer on call", «администратор», «дежурный инженер», «ответственный») or by a proper name
    ("Alice", "Bob from the platform team", `names`); False for any other noun phrase (a policy, a timeout, "the
    validator", "the hook", "a function", "default", «валидатор»), "I"/"we" (the loop's own voice), the model
    addressed as "you", a negated person ("no human", «никто»); None when it names only the call, a pronoun that
    points back ("they", "who"), or nothing. A closed set of persons, not of non-persons: a thing nobody listed is no
    person (attack 22's H-7)."""
    if not words:
        return None
    for k in range(len(words)):
        if _a_person(lowered_all, offset + k) and not _modifies(words, k, names):
            return True  # "A human", "The person you work for"; not "the human review bot"
    if any(w in ("nobody", "никто", "noone", "no-one") or _NEGATIONS.match(w) for w in words):
        return False
    head = [w for w in words if w not in _DETERMINERS]
    for k, word in enumerate(head):
        base = word.removesuffix("'s")
        at = offset + words.index(word)
        before = lowered_all[max(0, at - 2):at]
        if _PEOPLE.match(base) and (any(_AS.match(w) or _NEGATIONS.match(w) for w in before) or word != base):
            continue  # _a_person judged it ("As the reviewer, you", «ты как рецензент», "the user's policy")
        if (_PERSON_HEAD.match(base) or base in names) and not _modifies(head, k, names) and not (
                word.endswith("'s") and not any(_WHOSE_DECISION.match(w) or _APPROVAL_NOUN.match(w)
                                                for w in head[k + 1:k + 3])):
            return True  # "The security officer", "the policy owner", «Сотрудник службы безопасности» (attack
            # 21's F9), "Alice"
    if any(_SECOND_PERSON.match(w) for w in words):
        return False
    nouns = [w for w in head if w not in _BACK and not _THINGS.match(w) and not w.isdigit()]
    return False if nouns else None  # "the validator", "I", "default": a no said by no person


_PERSON_HEAD = re.compile(r"^(?:engineer\w*|officer\w*|lead|leads|manager\w*|sre|sres|member\w*|developer\w*|devs?|"
                          r"programmer\w*|supervisor\w*|moderator\w*|owner|owners|analyst\w*|architect\w*|"
                          r"specialist\w*|humans?|persons?|people|users?|reviewers?|maintainers?|operators?|admins?|"
                          r"administrators?|approvers?|colleagues?|teammates?|coworkers?|co-workers?|instructors?|"
                          r"teachers?|authors?|staff|employees?|boss|bosses|director\w*|auditors?|testers?|"
                          r"individuals?|someone|somebody|requesters?|signers?|team|teams|"
                          r"сотрудник\w*|офицер\w*|инженер\w*|руководител\w*|менеджер\w*|специалист\w*|"
                          r"аналитик\w*|ответственн\w*|человек\w*|люд\w*|пользовател\w*|ревьюер\w*|ревьювер\w*|"
                          r"рецензент\w*|оператор\w*|сопровождающ\w*|владел\w*|администратор\w*|админ\w*|"
                          r"разработчик\w*|программист\w*|коллег\w*|тимлид\w*|лид|лида|лидом|проверяющ\w*|"
                          r"одобряющ\w*|подтверждающ\w*|дежурн\w*|модератор\w*|начальник\w*|автор\w*|"
                          r"мейнтейнер\w*|мейнтейнор\w*|преподавател\w*|участник\w*|архитектор\w*|"
                          r"тестировщик\w*|аудитор\w*|команд\w*|кто-то)$", re.I)
"""The closed set of person words: a phrase headed by one is a person ("the security officer", "the policy owner",
«сотрудник службы безопасности», «дежурный инженер»), whatever words of a policy modify it."""
_DETERMINERS = {"the", "a", "an", "our", "your", "their", "this", "that", "its", "his", "her", "my", "some", "one",
                "наш", "ваш", "этот", "эта", "тот", "та", "один", "одна", "какой-то", "какая-то"}
_BACK = {"they", "he", "she", "them", "who", "which", "that", "whom", "он", "она", "они", "кто", "который",
         "которая", "которые"}
"""Pronouns that point back to someone named before ("A human read it. They denied merge_pr"): no one named here."""
_POST = re.compile(r"^(?:on|from|at|in|of|with|for|by|who|whom|whose|that|which|you|i|we|they|he|she|after|before|"
                   r"via|through|over|under|and|or|but|himself|herself|themselves|themself|myself|ourselves|then|"
                   r"also|just|already|now|simply|personally|explicitly|firmly|today|here|there|has|have|had|did|"
                   r"does|do|will|would|was|is|were|are|may|might|can|could|shall|should|must|\w+ly|\d+|из|с|со|в|на|от|по|у|и|или|но|сам|сама|сами|"
                   r"уже|тоже|также|лично|сегодня|явно|просто|который|которая|которые|кто|\w+ed|read|saw|seen|took|got|made|"
                   r"went|came|gave|heard|thought|felt|found|knew|said|told|wrote|typed|looked|opened|clicked)$", re.I)
"""Words that end an English noun phrase's head (a preposition, a relative, an adverb, a verb in the past): "the
engineer on call", "the person you work for", "the human then", "a person reviewed it and rejected it"."""


def _modifies(words: list[str], k: int, names: frozenset[str]) -> bool:
    """Word k of an English phrase modifies a noun after it ("the human review bot", "the supervisor process", "the
    user's script"): the phrase's head is a later word that is neither a person, a name nor the end of the phrase.
    Russian puts its head first («сотрудник службы безопасности»), so a Russian person word heads its phrase."""
    if not words[k].isascii():
        return False
    for w in words[k + 1:]:
        if _POST.match(w):
            return False
        base = w.removesuffix("'s")
        if _PERSON_HEAD.match(base) or base in names:
            continue  # "the human reviewer", "the user Alice"
        return True
    return False


def _who_said_no(lowered: list[str], n: int, names: frozenset[str] = frozenset()) -> bool | None:
    """The decider of the no at word n of a clause (True: a person; False: no person; None: none named): in the
    active voice the words before it ("Alice declined", "The timeout denied"), or, in Russian after a call named first,
    the words after it («этот вызов отклонил администратор»); in the passive the agent ("rejected by the reviewer",
    «отклонён администратором»), or the approval step ("rejected at the approval step", «в подтверждении отказано»)."""
    k = n
    while k > 0 and (lowered[k - 1] in _ADVERBS or _NEGATIONS.match(lowered[k - 1])):  # "did not approve"
        k -= 1
    passive = k > 0 and lowered[k - 1] in _AUXILIARY or _participle(lowered[n])
    if k > 0 and lowered[k - 1] in _AUXILIARY:
        k -= 1
    start = 0
    while start < k and lowered[start] in _LEADING:
        start += 1
    subject = lowered[start:k]
    after = lowered[n + 1:n + 6]
    if "by" in after[:2] and (passive or not subject or _is_person_phrase(subject, lowered, start, names) is None):
        # "Refused by a human", "was rejected by the reviewer", "Permission denied by a human reviewer" (attack 20)
        at = n + 1 + after.index("by") + 1
        return _is_person_phrase(lowered[at:at + 4], lowered, at, names)
    if not passive:
        said = _is_person_phrase(subject, lowered, start, names)
        if said is not None:
            return said
        if lowered[n][0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя":  # «Этот вызов отклонил администратор»
            return _is_person_phrase(_subject_after(after), lowered, n + 1, names)
        return None
    if _has_phrase(lowered, _STEP, reach=2):
        return True
    if lowered[n][0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя" and after and after[0].endswith(("ом", "ем", "ой", "ей")):
        return _is_person_phrase(after[:1], lowered, n + 1, names)  # «отклонён администратором»
    if any(_WHOSE_DECISION.match(w) and any(_a_person(lowered, j) for j in range(max(0, i - 3), i + 4)
                                            if j < len(lowered)) for i, w in enumerate(lowered)):
        return True  # «По решению человека merge_pr отклонён», "on the human's decision, merge_pr was denied"
    return None


_DECIDER_KEY = re.compile(
    r"""(?i:["']?\b(?:by|approver|decided_by|denied_by|decider|кем|кто|принял\w*|решил\w*|отклонил\w*)["']?\s*[:=]\s*"""
    r"""["']?(?:the\s+|a\s+)?(?:human|person|user|reviewer|maintainer|operator|человек\w*|пользовател\w*|"""
    r"""ревьюер\w*|оператор\w*)\b)""")
"""A key that names who decided, with a person for its value ("approver: human", '"by": "the human approver"',
«принял=человек»): the learner's own record of a person's no, as a key and a value, not as a sentence."""


def names_the_decider(text: str) -> bool:
    """The text says that a person said no: in one clause, a no ("denied", «отклонил», "said no", "decided not to")
    that no negation governs ("did not deny" is no no), said by a person or role, whoever: "A human denied this
    call", "Alice declined", "The on-call engineer denied", «Администратор отклонил», «Ответственный отклонил»,
    "merge_pr was rejected by the reviewer", and a passive no at the approval step, which is the human's in this
    course ("rejected at the approval step", «в подтверждении отказано»). Not a no said by a policy, a timeout, the
    model addressed ("As the reviewer, you decided not to run it", «Ты как рецензент решил...»), nor a person merely
    mentioned or negated ("No human approved or denied this call", «человек его не видел»), nor the owner of a policy
    ("Blocked by the user's security policy"). A clause that goes on with "and" and no subject of its own, or a short
    one after a person's ("Human approval: denied"), keeps its person ("The human read the diff, and refused"); one
    with a subject of its own does not ("A human approved it, but the policy blocked it")."""
    if _DECIDER_KEY.search(text) and any(_REFUSALS.match(w) for w in _WORD.findall(text)):
        return True  # '{"error": "denied", "by": "the human approver"}', «отказ; принял=человек»
    person_before = rule_before = False
    segments = _marked_segments(text)
    names = proper_names(text)
    for at, (lowered, unreal) in enumerate(segments):
        noes = [n for n in _says_no(lowered) if (not (_REFUSALS.match(lowered[n]) or _STOPS.match(lowered[n]))
                or not _governed(lowered, n)) and not _almost(lowered, n)]
        after = segments[at + 1][0] if at + 1 < len(segments) and not segments[at + 1][1] else []
        if unreal and noes:  # "If a human had said no", "It is not true that a human denied", "A human denied it?"
            if lowered[0] in ("who", "кто") and _bare_person(after, names):
                return True  # "Who denied merge_pr? A human.", «Кто отклонил? Человек.»: the answer names them
            person_before = False
            continue
        if unreal:  # "merge_pr was denied. A human? No.": a person asked about is not the one who said no
            person_before = False
            continue
        if _contrast(lowered):
            continue  # "A human, not the policy, denied it", «Человек, а не политика, отклонил»: a contrast
        # "The human's decision: no.", "I asked the human; the answer was no." -- unless a later clause gives the no
        # to someone else ("A human? No. The rate limiter denied merge_pr.", attack 20's H4)
        if _answer_was_no(lowered) and people_in(lowered):
            return True  # "The human's answer was no" (attack 20's F4)
        if person_before and (lowered in (["no"], ["нет"], ["«нет»"]) or _answer_was_no(lowered)) and not (
                a_no_not_a_persons_in([s for s, _ in segments[at + 1:]], names)):
            return True
        if lowered in (["no"], ["нет"]) and _bare_person(after, names):
            return True  # "Approval: no (human)"
        people = [i for i in range(len(lowered)) if _a_person(lowered, i)]
        for n in noes:
            said = _who_said_no(lowered, n, names)
            if said:
                return True
            if said is None and person_before and not rule_before and (lowered[0] in _LEADING or len(lowered) <= 3
                                                                       or n == 0):  # "The approver (a human) said
                # no to merge_pr": a clause that opens with the no has the subject before it
                return True  # "The human read the diff, and refused", "Human approval: denied"
            if said is None and (_bare_person(after, names) and len(lowered) <= 3 or "who" in lowered[:n] and any(
                    _bare_person(lowered[j + 1:], names) for j in range(n + 1, len(lowered))
                    if lowered[j] in ("is", "was"))):
                return True  # "Status: denied (by a human)", "The one who denied merge_pr is a human"
        if _a_persons_approval_withheld(lowered, names) and not a_no_not_a_persons_in(
                [s for s, _ in segments[at + 1:]], names):  # not "Human approval missing: denied by the gate"
            return True  # "Human approval was not given", «Разрешения от человека нет» (attack 20's F4)
        you = any(_SECOND_PERSON.match(w) for w in lowered)
        # a person who did not answer, is away or was not asked decides nothing ("The human did not answer; merge_pr
        # was denied", «Человек недоступен; merge_pr отклонён»: attack 21's H5)
        absent = any(_NEGATIONS.match(w) or w in _ABSENT or _FAILURE.match(w) for w in lowered)  # "crashed"
        person_before = bool(people) and not you and not absent and not _says_yes(lowered) if not noes else False
        rule_before = any(_REQUIRED.match(w) or w in ("must", "should", "должен", "должна", "должны") and any(
            _APPROVAL.match(a) for a in lowered[i + 1:i + 3]) for i, w in enumerate(lowered))
        # "Human approval is required. Denied.", "A human must approve merge_pr; it was denied": a rule's no
    return False


def _contrast(lowered: list[str]) -> bool:
    """A short clause that only sets something aside, between commas: "not the policy", "and not a rule", «а не
    политика»; it neither says a no nor takes the person before it away."""
    words = lowered[1:] if lowered[0] in ("and", "but", "и", "а") else lowered
    return 2 <= len(words) <= 4 and words[0] in ("not", "не") and not any(
        _REFUSALS.match(w) or _STOPS.match(w) or _PICKED.match(w) for w in words)


_PREPOSITIONS_RU = {"на", "в", "во", "после", "до", "по", "для", "к", "ко", "о", "об", "за", "из", "с", "со", "у",
                    "при", "без", "перед", "через"}


def _subject_after(after: list[str]) -> list[str]:
    """A Russian subject after its verb («этот вызов отклонил администратор»): the words after the no, without the
    call, the no said («ответил «нет»») and a preposition's phrase («на merge_pr», «после ревью»), two at most."""
    found, skip = [], False
    for w in after:
        if skip or _THINGS.match(w) or _A_NO.match(w):
            skip = False
            continue
        if w in _PREPOSITIONS_RU:
            skip = True
            continue
        found.append(w)
    return found[:2]


def _bare_person(lowered: list[str], names: frozenset[str]) -> bool:
    """A clause that only names a person, with no verb of its own: "a human", "(by the reviewer)", «человеком»,
    "Alice": the answer to "Who denied it?", or who said the no just before it ("Status: denied (by a human)")."""
    words = lowered[1:] if lowered[:1] in (["by"], ["from"], ["от"]) else lowered
    if not words or len(words) > 4:
        return False
    kinds = ["det" if w in _DETERMINERS else "person" if _PERSON_HEAD.match(w) and _a_person_word(words, k)
             or w in names else None for k, w in enumerate(words)]
    return None not in kinds and "person" in kinds


def _a_person_word(words: list[str], k: int) -> bool:
    """Word k, a person word, is not negated ("no human", «не человек»)."""
    return not any(_NEGATIONS.match(w) for w in words[:k])


def _almost(lowered: list[str], n: int) -> bool:
    """The no at word n was not said: "almost denied", "was about to deny", «чуть не отклонил» (attack 21's H5); and
    «вместо человека» sets the person aside."""
    before = lowered[max(0, n - 3):n]
    return any(w in ("almost", "nearly", "вместо") for w in before) or _has_phrase(before, (("about", "to"),
                                                                                           ("чуть", "не")))


_ABSENT = {"away", "unavailable", "unreachable", "absent", "offline", "silent", "недоступен", "недоступна",
           "отсутствует", "молчит", "молчал"}
_IF = re.compile(r"^(?:if|unless|suppose|supposing|imagine|если|ежели|кабы|бы|б|would|could|might|would've|"
                 r"could've|might've|wouldn't|couldn't)$", re.I)
"""Words of a no that was not said: a condition or a counterfactual ("If a human had said no", "A human would have
denied it", «Если бы человек отклонил»). "had"/"were" count only at a clause's head ("Had a human denied it")."""
_TRUE = re.compile(r"^(?:true|case|so|correct|right|accurate|правда|верно|так|истина)$", re.I)
_UNTRUE = re.compile(r"^(?:untrue|false|wrong|incorrect|inaccurate|неправда|неверно|ложь|враньё|вранье)$", re.I)
_GIVEN = re.compile(r"^(?:given|granted|obtained|received|provided|issued|there|forthcoming|дан\w*|получен\w*|"
                    r"выдан\w*|нет)$", re.I)
_APPROVAL_NOUN = re.compile(r"^(?:approval\w*|permission\w*|consent\w*|authori[sz]ation\w*|go-ahead|sign-off|"
                            r"одобрени\w*|разрешени\w*|согласи\w*|подтверждени\w*|санкци\w*)$", re.I)


def _hypothetical(lowered: list[str]) -> bool:
    """A clause whose no is a condition or a counterfactual: "if"/"unless"/«если»/«бы» anywhere, a modal would, could,
    might (not "would not": "the human would not allow it" is a no said), or "had"/"were"/"should" at its head."""
    for i, w in enumerate(lowered):
        if _IF.match(w) and not (w in ("would", "could") and lowered[i + 1:i + 2] == ["not"]):
            return True
    return lowered[:1] in (["had"], ["were"], ["should"]) or _modal_no(lowered)


_MODAL = re.compile(r"^(?:may|might|can|could|will|shall|should|must|'ll|может|могут|мог|могла|сможет|смогут|"
                    r"будет|будут|должен|должна|должны|вправе)$", re.I)
_YES_SAID = re.compile(r"^(?:approved|agreed|allowed|permitted|consented|confirmed|authori[sz]ed|accepted|"
                       r"одобрил\w*|разрешил\w*|согласил\w*|согласен|согласна|подтвердил\w*)$", re.I)
_REQUIRED = re.compile(r"^(?:required|requires|require|needed|needs|need|mandatory|нужн\w*|требуется|требуют|"
                       r"необходим\w*|обязательн\w*)$", re.I)


def _modal_no(lowered: list[str]) -> bool:
    """A no with a modal before it ("A human may deny merge_pr", "can reject", "will refuse", «Человек может
    отклонить»): what a person is able or bound to do, not a no they said. A modal before a negated approval ("will
    not approve") is a no said."""
    for i, w in enumerate(lowered):
        if _MODAL.match(w) or w in ("supposed", "expected", "meant", "ought") and lowered[i + 1:i + 2] == ["to"]:
            ahead = [a for a in lowered[i + 1:i + 4] if a not in _ADVERBS and a != "to"]
            if ahead and (_REFUSALS.match(ahead[0]) or _STOPS.match(ahead[0]) or ahead[:2] in (
                    ["say", "no"], ["сказать", "нет"]) or ahead[0] in ("turn", "отказать")):
                return True
    return False


def _says_yes(lowered: list[str]) -> bool:
    """A clause where someone says yes as a fact: "the human said yes", "the reviewer approved merge_pr", «человек
    согласился», «ответил «да»» (not negated): a no said later without a decider is not theirs ("The human said yes,
    but merge_pr was denied", attack 22's H-8)."""
    for i, w in enumerate(lowered):
        said_yes = _YES_SAID.match(w) or w in ("said", "answered", "replied", "typed", "сказал", "сказала",
                                               "ответил", "ответила") and lowered[i + 1:i + 2] in (["yes"], ["да"])
        if said_yes and not any(_NEGATIONS.match(b) for b in lowered[max(0, i - 3):i]):
            return True
    return False


def _untrue_head(lowered: list[str]) -> int | None:
    """Where a negated main clause of truth ends ("It is not true that", "It isn't the case that", «Неправда, что»):
    the index of its "that"/«что», or len(lowered) when the clause ends at it (the "that" opens the next one)."""
    for i, w in enumerate(lowered):
        untrue = _UNTRUE.match(w) or _TRUE.match(w) and any(_NEGATIONS.match(b) for b in lowered[max(0, i - 3):i])
        if untrue:
            rest = lowered[i + 1:]
            if not rest:
                return len(lowered)
            if _THAT.match(rest[0]):
                return i + 1
    return None


_NOT_NAMES = re.compile(r"^(?:i|we|you|he|she|they|it|this|that|these|those|the|a|an|my|our|your|their|its|his|her|"
                        r"and|but|so|then|if|when|status|note|result|reason|error|default|design|none|null|false|"
                        r"true|claude|gpt\w*|chatgpt|gemini|llama|copilot|openai|anthropic|mistral|cron|jenkins|"
                        r"gitlab|github|python|yaml|json|ci|api|llm|ai|я|мы|ты|вы|он|она|они|оно|это|этот|эта|"
                        r"и|но|а|если|когда|статус|итог|причина|ошибка|результат|ответ|решение)$", re.I)
"""Capitalised words that are no one's name: pronouns, a sentence's first function word, the machine's names (a
model, a scheduler, a CI), "Default"."""
_COMMON_SUFFIX = re.compile(r"(?:tion|sion|ment|ness|ity|ware|ing|ism|ure|list|er|or|ook|bot|"
                            r"тор|тер|ер|щик|чик|ция|ние|ство|ок|ист|лист|бот|ка)$", re.I)
"""Endings of a thing's or a doer's noun ("Automation", "Validator", «Валидатор», «Планировщик», «Функция»): a
capitalised word that ends so at a sentence's head is that noun, not a name."""


_RUSSIAN_NAME = re.compile(r"(?:[^цк]а|я|ий|ей|ай)$")
"""How a Russian first name at a sentence's head ends (Алиса, Мария, Дмитрий, Сергей, Николай): Russian puts a
thing at the head without an article («Шлюз отклонил»), so a bare capitalised noun there is a name only so."""


_FIRST_NAME = re.compile(
    r"^(?:peter|oliver|walter|roger|tyler|alexander|christopher|jennifer|esther|heather|jasper|amber|skyler|"
    r"hunter|parker|carter|connor|spencer|taylor|victor|hector|trevor|jupiter|jagger|homer|dexter|archer|fletcher|"
    r"ivan|oleg|igor|pavel|pyotr|boris|denis|roman|artem|anton|maxim|kirill|nikita|stepan|ruslan|timur|fyodor|"
    r"(?:иван|олег|игор|павел|павл|пётр|петр|борис|денис|роман|артём|артем|антон|максим|кирилл|степан|руслан|"
    r"тимур|фёдор|федор|глеб|лев|льв|марк|семён|семен|вадим|виктор|егор|тарас|макар|арсений|ярослав|станислав|"
    r"владислав|святослав|вячеслав|мирон|платон|елизавет|любов|нинел|ассол|кармен|эстер|юди[тф]ь)"
    r"(?:а|у|ом|е|ы|ой|ь)?)$", re.I)
"""First names a thing's noun would be taken for at a sentence's head: English ones in -er/-or ("Peter declined",
"Victor rejected"), Russian ones that end in a consonant («Иван отклонил», «Олег запретил»). A lexicon, so a name it
lacks still reads as a thing there (a false fail the row explains: name the person's role)."""


def proper_names(text: str) -> frozenset[str]:
    """The text's proper names, lowered: a capitalised word that is no word the readings know (no person word, no
    no, no pronoun, no machine's name: _NOT_NAMES) and stands inside a sentence ("rejected by Alice") or heads one
    without the ending of a thing's noun ("Alice declined", «Алиса отклонила»; not «Валидатор отклонил»)."""
    text = _A_NAME.sub("thecall", text)
    spans = list(_SEGMENT.finditer(text))
    words = [m.group() for m in spans]
    found = set()
    for i, word in enumerate(words):
        base = word.removesuffix("'s").removesuffix("’s")
        if len(base) < 2 or not base.isalpha() or not base[0].isupper() or base.isupper() or not base[1:].islower():
            continue
        if text[spans[i].end():spans[i].end() + 1] in ("-", "‑"):
            continue  # "Auto-denied", "Self-check": the first half of a compound
        lowered = base.lower()
        if _NOT_NAMES.match(lowered) or _known(lowered):
            continue
        head = i == 0 or words[i - 1] in ".;!?\n:()—–«»\"“”"
        then = [w.lower() for w in words[i + 1:i + 4] if w not in "(,—–" and w.lower() not in _DETERMINERS][:1]
        thing = _COMMON_SUFFIX.search(lowered) or not lowered.isascii() and not _RUSSIAN_NAME.search(lowered)
        if head and thing and not (then and _PERSON_HEAD.match(then[0])) and not _FIRST_NAME.match(lowered):
            continue  # «Валидатор отклонил», «Шлюз отклонил», but "Peter (a human) denied", «Алиса отклонила»
        found.add(lowered)
    return frozenset(found)


def _known(word: str) -> bool:
    """A word one of the readings knows (a no, an approval, a person, a thing of the call, a decision)."""
    return any(r.match(word) for r in (_REFUSALS, _STOPS, _APPROVAL, _APPROVAL_NOUN, _NEGATIONS, _PERSON_HEAD,
                                       _THINGS, _WHOSE_DECISION, _RULES_OF, _DECIDED, _PICKED, _FAILURE, _IF,
                                       _SECOND_PERSON)) or word in _LEADING or word in _ADVERBS


def _marked_segments(text: str) -> list[tuple[list[str], bool]]:
    """The text's clauses (_segments), each with whether what it says is not said as a fact: a question ("A human
    denied it? No, the timeout did"), a condition or counterfactual (_hypothetical), or a "that"-clause under a
    negated main clause ("It is not true that a human denied it", «Неправда, что человек отклонил»): attack 20's
    H4."""
    found: list[tuple[list[str], bool]] = []
    words = _SEGMENT.findall(_A_NAME.sub("thecall", text))  # a name's parts ("aaa_if") are no "if" of the clause
    current: list[str] = []
    under_untrue = False
    for word in [*words, "."]:
        if word in "«»\"“”":
            continue  # «Решение человека: «нет»»: a quoted no is a no
        if word not in ".;!?\n:()—–,":
            current.append(word.replace("’", "'").lower())
            continue
        if current:
            head = _untrue_head(current)
            unreal = word == "?" or _hypothetical(current) or under_untrue and bool(_THAT.match(current[0]))
            if head is not None and head < len(current):
                unreal = True  # "It is not true that a human denied it"
            if found and found[-1][0] and _DECIDED.match(found[-1][0][-1]) and _THAT.match(current[0]):
                current = found.pop()[0] + current  # «Ревьюер решил, что merge_pr не надо выполнять»
            if found and retracts(current):  # "A human denied merge_pr (just kidding)": the no is taken back
                found[-1] = (found[-1][0], True)
            found.append((current, unreal))
            under_untrue = head == len(current)
        if word in ".;!?\n":
            under_untrue = False
        current = []
    return found


def people_in(lowered: list[str]) -> bool:
    """A clause names a person who can say no (_a_person)."""
    return any(_a_person(lowered, i) for i in range(len(lowered)))


def _answer_was_no(lowered: list[str]) -> bool:
    """A short clause that says the answer was no ("the answer was no", «ответ был «нет»», "their decision: no")."""
    return len(lowered) <= 6 and lowered[-1].strip("«»\"") in ("no", "нет") and any(
        _WHOSE_DECISION.match(w) for w in lowered[:-1])


def _a_persons_approval_withheld(lowered: list[str], names: frozenset[str] = frozenset()) -> bool:
    """A person's approval said not to be given: "Human approval was not given", "the reviewer's permission was not
    granted", «Разрешения от человека нет», «Одобрение человека не получено» (attack 20's F4)."""
    for i, w in enumerate(lowered):
        if not _APPROVAL_NOUN.match(w):
            continue
        if any(b in ("no", "нет") for b in lowered[max(0, i - 2):i]):
            # "No approval from the human", «Нет разрешения от человека»
            if any(_a_person(lowered, k) for k in range(i + 1, min(len(lowered), i + 5))):
                return True
            continue
        if any(_NEGATIONS.match(b) for b in lowered[max(0, i - 2):i]):
            continue
        for j in range(i + 1, min(len(lowered), i + 6)):
            if _NEGATIONS.match(lowered[j]) and (lowered[j] == "нет" or any(
                    _GIVEN.match(a) for a in lowered[j + 1:j + 3]) or j == len(lowered) - 1):
                if lowered[i - 1:i] and lowered[i - 1].endswith("'s"):  # "The on-call engineer's approval"
                    owner = [w.removesuffix("'s") for w in lowered[:i] if w not in _LEADING]
                    return _is_person_phrase(owner, owner, 0, names) is True
                return any(_a_person(lowered, k) for k in range(max(0, i - 2), j))
    return False


def a_no_not_a_persons_in(segments: list[list[str]], names: frozenset[str] = frozenset()) -> bool:
    """Some of the clauses hold a no said by no person, or a negated one (a_no_not_a_persons)."""
    for lowered in segments:
        for n in _says_no(lowered):
            if (_REFUSALS.match(lowered[n]) or _STOPS.match(lowered[n])) and _governed(lowered, n):
                return True
            if _who_said_no(lowered, n, names) is False:
                return True
    return False


def a_no_not_a_persons(text: str) -> bool:
    """The text holds a no, but a negated one ("The human did not deny merge_pr"), one said by no person (a policy, a
    timeout, the model addressed: "the timeout denied merge_pr"), or one not said as a fact ("If a human had said no",
    "It is not true that a human denied it"): what a row says instead of "it does not say who"."""
    segments = _marked_segments(text)
    if any(unreal and _says_no(lowered) for lowered, unreal in segments):
        return True
    return a_no_not_a_persons_in([lowered for lowered, _ in segments], proper_names(text))
