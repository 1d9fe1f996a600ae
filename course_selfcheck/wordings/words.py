"""The words every reading shares: a sentence's and a clause's words, negations, refusals, the deciding side,
success and failure, and how near a negation must stand to what it negates."""

import re

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[.;!?\n]", re.UNICODE)
"""A message's words, and the marks that end a sentence (a negation does not reach across them)."""
_NEGATIONS = re.compile(r"^(?:not|no|nope|nobody|nothing|never|none|neither|nor|without|false|missing|absent|"
                        r"lacking|cannot|can't|won't|wasn't|isn't|didn't|doesn't|don't|hasn't|haven't|hadn't|"
                        r"shouldn't|mustn't|couldn't|wouldn't|not\w*|\w+n't|"
                        r"не|нет|ни|никто|никого|никем|ничего|никак|без|ложь)$", re.I)
"""Words that negate what stands near them."""
_REFUSALS = re.compile(r"^(?:den(?:y|ies|ied|ial|ying)|refus\w*|declin\w*|reject\w*|withh[eo]ld\w*|veto\w*|"
                       r"disapprov\w*|nix|nixed|nixes|forb[ia]d\w*|disallow\w*|prohibit\w*|block\w*|overrul\w*|vetoed|"
                       r"отказ\w*|отклон\w*|отрицат\w*|запрет\w*|запрещ\w*|заблокир\w*|блокир\w*|вето|против)$", re.I)
"""Words that say no by themselves: refused, denied, vetoed, «отказал», «отклонил», «запретил»."""
_APPROVAL = re.compile(r"^(?:approv\w*|allow\w*|let|lets|permi\w*|consent\w*|confirm\w*|authori[sz]\w*|agree\w*|"
                       r"sanction\w*|yes|одобр\w*|разреш\w*|позвол\w*|подтвер\w*|соглас\w*|санкцион\w*|да)$", re.I)
"""The deciding side's act itself (an approval, a permission): negated, it is a no even in a message that says the
call failed ("Error: merge_pr not run, nobody approved it")."""
_FAILURE = re.compile(r"^(?:fail\w*|error\w*|exception\w*|traceback|valid|invalid|crash\w*|token\w*|credential\w*|"
                      r"connection\w*|timeout|timed|network|http\w*|ошибк\w*|сбо\w*|упал\w*|"
                      r"исключени\w*|токен\w*|соединени\w*)$", re.I)
"""Words of a failure: with them, a person's word next to a negation ("the user token is not valid") is not a no."""
_SUCCESS = re.compile(r"^(?:success\w*|succeeded|merged|done|completed|успешн\w*|(?:в|с)лит(?:ы|а|о)?|"
                      r"(?:в|с)лит(?:ый|ая|ое|ые|ого|ую|ым)|выполнен\w*)$", re.I)
"""Words that claim the call went through ("merged", «влит», «слито»; not the infinitive «влить», attack 21's F4)."""
_PEOPLE = re.compile(r"^(?:human\w*|person\w*|people|user\w*|review\w*|operator\w*|maintainer\w*|owner\w*|"
                     r"someone|somebody|admin\w*|approver\w*|team|lead|manager\w*|менеджер\w*|человек\w*|люд\w*|пользовател\w*|ревью\w*|"
                     r"рецензент\w*|оператор\w*|сопровожда\w*|владел\w*)$", re.I)
"""Someone who decides: with one of them, a word that stops the call is their decision ("the human cancelled it")."""
_STOPS = re.compile(r"^(?:cancel\w*|halt\w*|stop|stops|stopped|stopping|prevent\w*|against|abort\w*|"
                    r"отмен\w*|останов\w*|прекрат\w*|перестан\w*|перестав\w*|пресек\w*|пресёк\w*|отверг\w*)$", re.I)
"""Words that stop a call, said of a person: cancelled, halted, stopped, voted against, «отменил», «остановил»."""
_STOP_PHRASES = (("turn", "down"), ("turned", "down"), ("turns", "down"), ("kept", "from"), ("keep", "from"),
                 ("keeps", "from"), ("called", "off"), ("call", "off"), ("shot", "down"), ("said", "no"),
                 ("answered", "no"), ("не", "дал"), ("не", "дала"), ("не", "дали"))
"""A person's no in two words, the second within three of the first ("turned merge_pr down", "kept it from
running", «не дал выполнить»)."""
_CLAUSE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[.;!?\n:()—–,]", re.UNICODE)
"""A message's words, and the marks that end a clause: a negation rules out a retry only in its own clause ("did not
approve merge_pr: try it once more" invites one; "Retrying, now or later, will not help" does not). A comma ends one
only before a call ("did not approve merge_pr, call it again")."""
NEAR = 5
"""How many words apart a negation and what it negates may stand ("the reviewer did not let it run": 3)."""


def _split(words: list[str], marks: str, lower: bool = False) -> list[list[str]]:
    """The words between the marks (sentence ends, or clause ends too), curly apostrophes made straight."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word in marks:
            parts.append([])
        else:
            word = word.replace("’", "'")
            parts[-1].append(word.lower() if lower else word)
    return [p for p in parts if p]


def _sentences(text: str) -> list[list[str]]:
    return _split(_WORD.findall(text), ".;!?\n")


def _has_phrase(words: list[str], phrases: tuple[tuple[str, ...], ...], reach: int = 1) -> bool:
    """One of the phrases stands in the words, each next word within `reach` words of the one before."""
    lowered = [w.lower() for w in words]
    for phrase in phrases:
        for i, word in enumerate(lowered):
            if word != phrase[0]:
                continue
            at, found = i, True
            for part in phrase[1:]:
                ahead = lowered[at + 1:at + 1 + reach]
                if part not in ahead:
                    found = False
                    break
                at += 1 + ahead.index(part)
            if found:
                return True
    return False
_AUXILIARY = {"was", "were", "is", "are", "been", "be", "being", "got", "gets", "get", "getting"}
_THAT = re.compile(r"^(?:that|что|будто|чтобы)$", re.I)


_ELLIPTIC = {"it", "it's", "its", "is", "isn't", "was", "wasn't", "not", "no", "nope", "really", "at", "all",
             "actually", "just", "kidding", "joking", "jk", "lol", "of", "course", "that", "that's", "true", "so",
             "нет", "не", "так", "это", "вовсе", "шучу", "шутка", "на", "самом", "деле", "совсем", "правда", "неправда"}
_TAKEN_BACK = re.compile(r"^(?:kidding|joking|jk|шучу|шутка|неправда)$", re.I)


def retracts(lowered: list[str]) -> bool:
    """A clause that only takes back the one before it: an elliptic negation ("it isn't", "it's not", "not really",
    «на самом деле нет») or a joke owned ("just kidding", «шучу»): attack 20's H2."""
    return bool(lowered) and all(w in _ELLIPTIC for w in lowered) and any(
        _NEGATIONS.match(w) or _TAKEN_BACK.match(w) for w in lowered) and lowered not in (["no"], ["нет"])
