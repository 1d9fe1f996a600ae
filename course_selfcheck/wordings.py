"""Readings of a learner's own sentence, by what it is made of rather than by a list of whole phrases: a denial is a
negation next to the side that decides (a person, an approval), a cut is any word of an answer stopped short or of a
limit met. A list of phrases loses to the next learner's words; these tests still fail a message that says only that
something failed, or that claims the call went through."""

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
_DECIDERS = re.compile(
    r"^(?:human\w*|person\w*|people|user\w*|review\w*|operator\w*|maintainer\w*|owner\w*|someone|somebody|nobody|"
    r"admin\w*|approv\w*|allow\w*|let|lets|letting|permi\w*|consent\w*|confirm\w*|authori[sz]\w*|agree\w*|"
    r"accept\w*|sanction\w*|ok|okay|yes|sign\w*|go-ahead|policy|policies|gate|approver\w*|"
    r"человек\w*|люд\w*|пользовател\w*|ревью\w*|рецензент\w*|оператор\w*|сопровожда\w*|владел\w*|одобр\w*|"
    r"разреш\w*|позвол\w*|подтвер\w*|соглас\w*|санкцион\w*|да|никто|политик\w*|правил\w*)$", re.I)
"""The side that decides whether the call runs: a person, or their approval, permission, answer (and the policy a
gate applies): a negation next to one of these is a no."""
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
_NOT_A_CLAIM = {"can", "could", "may", "might", "must", "should", "get", "gets", "getting", "to", "only", "need",
                "needs", "needed", "be", "can't", "cannot"}
"""Words before a success word that make it an act to come, not a claim ("only a person can get it merged", "before
it gets merged", "needs a yes to be merged": attack 21's F4)."""
_PEOPLE = re.compile(r"^(?:human\w*|person\w*|people|user\w*|review\w*|operator\w*|maintainer\w*|owner\w*|"
                     r"someone|somebody|admin\w*|approver\w*|team|lead|человек\w*|люд\w*|пользовател\w*|ревью\w*|"
                     r"рецензент\w*|оператор\w*|сопровожда\w*|владел\w*)$", re.I)
"""Someone who decides: with one of them, a word that stops the call is their decision ("the human cancelled it")."""
_STOPS = re.compile(r"^(?:cancel\w*|halt\w*|stop|stops|stopped|stopping|prevent\w*|against|abort\w*|"
                    r"отмен\w*|останов\w*|прекрат\w*|пресек\w*|пресёк\w*|отверг\w*)$", re.I)
"""Words that stop a call, said of a person: cancelled, halted, stopped, voted against, «отменил», «остановил»."""
_STOP_PHRASES = (("turn", "down"), ("turned", "down"), ("turns", "down"), ("kept", "from"), ("keep", "from"),
                 ("keeps", "from"), ("called", "off"), ("call", "off"), ("shot", "down"), ("said", "no"),
                 ("answered", "no"), ("не", "дал"), ("не", "дала"), ("не", "дали"))
"""A person's no in two words, the second within three of the first ("turned merge_pr down", "kept it from
running", «не дал выполнить»)."""
_AGAIN = re.compile(r"^(?:again|retry\w*|retri\w*|rerun\w*|re-run\w*|resubmit\w*|повтор\w*|снова|заново)$", re.I)
"""Words that invite the call again ("retry", "call it again", «повтори»), unless told not to ("do not retry")."""
_AGAIN_PHRASES = (("once", "more"), ("one", "more", "time"), ("ещё", "раз"), ("еще", "раз"))
_CLAUSE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[.;!?\n:()—–,]", re.UNICODE)
"""A message's words, and the marks that end a clause: a negation rules out a retry only in its own clause ("did not
approve merge_pr: try it once more" invites one; "Retrying, now or later, will not help" does not). A comma ends one
only before a call ("did not approve merge_pr, call it again")."""
_CALL = re.compile(r"^(?:call|run|invoke|execute|retry|redo|try|use|trigger|perform|rerun|resubmit|"
                   r"вызов(?:и|ите)|вызыва(?:й|йте)|запуст(?:и|ите)|запуска(?:й|йте)|выполн(?:и|ите)|"
                   r"выполня(?:й|йте)|попроб(?:уй|уйте)|повтор(?:и|ите)|использу(?:й|йте)|примен(?:и|ите))$", re.I)
"""A verb that tells the model to make the call: an English verb in an imperative's place ("Call merge_pr", "then
run it", "you can call merge_pr"), a Russian imperative («вызови merge_pr»)."""
_LEAD_IN = {"please", "now", "then", "just", "and", "so", "simply", "you", "can", "may", "should", "must", "could",
            "later", "afterwards", "after", "that", "go", "ahead", "pls", "kindly", "instead"}
"""Words that may stand before an English imperative ("then call it", "you can run merge_pr"): "refused to run
merge_pr" is no imperative."""
_CALL_RU = re.compile(r"^(?:вызвать|запустить|выполнить|повторить|попробовать|вызывать|запускать)$", re.I)
_MAY_RU = re.compile(r"^(?:можешь|можете|можно|стоит|нужно|надо|следует|попробуй|попробуйте|затем|потом)$", re.I)
"""«можно вызвать merge_pr», «затем вызвать его»: a Russian infinitive after a word that allows or asks for it."""
_IT = {"it", "его", "её", "ее"}
"""What names the denied call in place of its name after a verb of calling itself ("then call it", «вызови его»);
after "use", «используй» only the name does ("use it as a finding" is no call)."""
_USE = re.compile(r"^(?:use|trigger|perform|использу(?:й|йте)|примен(?:и|ите))$", re.I)
_LATER = re.compile(r"^(?:later|again|afterwards|tomorrow|eventually|someday|позже|потом|ещё|еще|снова|завтра|"
                    r"впоследствии)$", re.I)
"""A later time: after a verb of calling ("Try later", «Попробуй ещё») an invitation; with a yes ("may approve it
later", «позже согласится») a no that is not final."""
_MIND = re.compile(r"^(?:reconsider\w*|передума\w*|пересмотр\w*|mind)$", re.I)
_PENDING = re.compile(r"^(?:pending|awaiting|undecided|tentative\w*|provisional\w*|temporar\w*|предварительн\w*|"
                      r"временн\w*|ожида\w*)$", re.I)
_NOT_YET = (("not", "yet"), ("ещё", "не"), ("еще", "не"), ("пока", "не"), ("пока", "что"), ("not", "final"),
            ("for", "now"), ("не", "окончательно"), ("не", "окончательный"), ("не", "окончательное"),
            ("isn't", "final"), ("not", "until"))
"""A no that is not final ("approval is pending", "not yet", «пока не окончательно»): a not-yet invites the call
once the person has been asked again."""
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


def _clauses(text: str, acts: "_Acts | None" = None) -> list[list[str]]:
    clauses: list[list[str]] = [[]]
    words = _CLAUSE.findall(text)
    for i, word in enumerate(words):
        if word == ",":
            ahead = words[i + 1:i + 2]
            if ahead and (_CALL.match(ahead[0]) or ahead[0].lower() in ("then", "затем", "потом") or acts is not None
                          and ahead[0].lower() in ("but", "yet", "however", "но", "а", "однако") or acts is not None
                          and (ahead[0].lower() == acts.verb or acts.imperative_ru.match(ahead[0])
                               or _DO.match(ahead[0]))):
                clauses.append([])
        elif word in ".;!?\n:()—–":
            clauses.append([])
        else:
            clauses[-1].append(word.replace("’", "'").lower())
    return [c for c in clauses if c]


def says_denied(text: str, tool: str | None = None) -> bool:
    """The text says the call was denied, in any words: a word that says no by itself ("refused", «отклонил»), or a
    negation within NEAR words of the side that decides ("the reviewer did not let it run", "nobody approved it",
    «человек не позволил», "human approval: no"); and it does not claim the call went through ("merged
    successfully", with no negation before it). A message that says only that the tool failed has neither."""
    sentences = _sentences(text)
    if invites_the_call(text, tool):
        return False
    failed = any(_FAILURE.match(w) for words in sentences for w in words)
    said = False
    for words in sentences:
        for i, word in enumerate(words):
            if _claims_success(words, i) or _claims_it_ran(words, i, tool):
                return False
            refused = bool(_REFUSALS.match(word)) and not _governed([w.lower() for w in words], i)  # "did not deny"
            said = said or refused or _decider_negated(words, i, failed)
        said = said or _person_stopped(words)
    return said or names_the_decider(text)  # "Alice said no to merge_pr": a no said by whoever is named


_RAN = re.compile(r"^(?:ran|run|executed|performed|went|выполнен\w*|выполнил\w*|запущен\w*|запустил\w*|"
                  r"сработал\w*|прош[её]л|прошла|прошло)$", re.I)
"""Words that say a call ran ("merge_pr ran", "was executed", "went through", «выполнен», «прошёл»)."""
_THE_CALL = {"it", "call", "merge", "tool", "вызов", "слияние", "он", "оно"}


def _claims_success(words: list[str], i: int) -> bool:
    """Word i claims the call went through ("merged successfully"): a success word with no negation in its sentence,
    not in a clause of time or aim ("before it was merged") and not after a modal or "get" ("only a person can get it
    merged": attack 21's F4)."""
    return bool(_SUCCESS.match(words[i])) and not any(_NEGATIONS.match(w) for w in words) and not _aimed(words, i) \
        and not any(w.lower() in _NOT_A_CLAIM for w in words[max(0, i - 3):i])


def _claims_it_ran(words: list[str], i: int, tool: str | None) -> bool:
    """Word i says the call itself ran, with no negation governing it: "merge_pr ran without approval from a human",
    "merge_pr was executed without a yes" (a no in other words beside a claim that the call went through: attack
    20)."""
    if not _RAN.match(words[i]):
        return False
    lowered = [w.lower() for w in words]
    if _governed(lowered, i) or lowered[i] == "went" and lowered[i + 1:i + 2] not in (
            ["through"], ["ahead"]):
        return False
    k = i - 1
    while k >= 0 and lowered[k] in _AUXILIARIES:
        k -= 1
    if lowered[i] == "run" and k == i - 1:  # "let merge_pr run": the bare form, no claim
        return False
    if _aimed(lowered, k):
        return False  # "stopped merge_pr before it ran", "so that it ran", «прежде чем он был выполнен»: no claim
    return k >= 0 and lowered[k] in {w.lower() for w in _WORD.findall(tool or "")} | _THE_CALL


def _aimed(words: list[str], i: int) -> bool:
    """Word i stands in a clause of time or aim, not a claim: "before it ran", "so that it ran", «прежде чем он был
    выполнен»."""
    return any(w.lower() in _AIM_WORDS for w in words[max(0, i - 4):i])


_AIM_WORDS = {"before", "until", "till", "unless", "if", "so", "прежде", "до", "чтобы", "чтоб", "пока", "если"}


_AUXILIARIES = {"was", "were", "is", "are", "has", "have", "had", "been", "got", "already", "just", "successfully",
                "был", "была", "было", "уже", "успешно"}
"""Words between a call's name and the word that says it ran ("merge_pr has been run", «merge_pr был выполнен»): any
other word ("did not allow merge_pr to be executed") leaves the call no subject of a claim."""


_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“\n]*“')
"""A person's own words, quoted ('answered "not yet"', «ответил «пока нет»»): what they said, not the state the call
is in."""


def invites_the_call(text: str, tool: str | None = None) -> bool:
    """A clause of the text invites the call again ("Call merge_pr again", "then call it") or says the no is not final
    ("approval is pending", «пока не окончательно»); a "not yet" the person is quoted as saying is their answer, not
    a pending state ('A person answered "not yet" to merge_pr: ... it will not be approved in this review', attack
    18's F1: its Russian twin passed)."""
    # a name's own parts ("aaa_no", "skip_not") are no negation of the clause: a name with "_" is one word here
    # the denied tool's own name is the call; another tool's ("use read_file", «вызови get_diff») is not (attack 21's
    # F2: every name with "_" was read as the denied call)
    acts = _Acts(tool)
    text = re.sub(r"\b[^\W_]+(?:_[^\W_]+)+\b", "othertool" if tool else "thecall",
                  re.sub(rf"(?<!\w){re.escape(tool)}(?!\w)", "thecall", text) if tool else text)
    tool = "thecall"
    unquoted = _QUOTED.sub(" ", text)
    read = [_before_instead(words) for words in _clauses(text, acts)]
    clauses = [_past_a_false_negation(words) for words in read]
    if any(len(c) < len(r) and any(_DOING_THE_CALL.match(w) or _TRY.match(w) or acts.named(w) for w in c)
           for c, r in zip(clauses, read, strict=True)):
        return True  # "Nothing stops you from calling merge_pr later", "no harm in trying": offered, not ruled out
    return any(_bids_the_act(words, acts) for words in clauses) or any(
        invites_again(words, tool) or invites_in_other_words(words) or _promises_no_refusal(words)
        for words in map(_past_a_refused_sequel, clauses) if words) or any(
        not_yet(words) for words in _clauses(unquoted))


_ACTS_RU = {  # a tool's action verb, in Russian: imperatives, infinitives, the act's noun
    "merge": (r"влей|влейте|вливай|вливайте|слей|слейте|сливай|сливайте|смержи|смержите|мержи|мержите",
              r"влить|вливать|слить|сливать|смержить|мержить", r"слияни\w*|вливани\w*|мерж|мержа"),
    "delete": (r"удали|удалите|удаляй|удаляйте", r"удалить|удалять", r"удалени\w*"),
    "close": (r"закрой|закройте|закрывай|закрывайте", r"закрыть|закрывать", r"закрыти\w*"),
    "push": (r"запушь|запушьте|пушни|пушь", r"запушить|пушить", r"пуш\w*"),
    "deploy": (r"задеплой|задеплойте|разверни|разверните", r"задеплоить|развернуть", r"деплой\w*|развёртывани\w*"),
}


class _Acts:
    """The denied tool's own action, in the words a learner uses for it rather than its name: "merge_pr" is merged
    ("merge it", "do the merge", "get it merged", «влей его», «сделай слияние»). Attack 21's H1: only verbs of calling
    (call, run, try) were read as the call, so "Finish the review, then merge." passed as a denial."""

    def __init__(self, tool: str | None) -> None:
        parts = [w.lower() for w in _WORD.findall(tool or "") if w.isalpha()]
        verb = parts[0] if parts and len(parts[0]) >= 3 else ""
        self.bare = bool(verb) and (tool or "").lower() == verb  # a tool named by its verb alone ("merge")
        stem = verb[:-1] if verb.endswith("e") else verb
        self.verb = verb
        self.forms = re.compile(rf"^(?:{stem}(?:e|es|ed|ing|s)?)$" if verb else r"^$", re.I)
        imperative, infinitive, noun = _ACTS_RU.get(verb, ("", "", ""))
        self.imperative_ru = re.compile(rf"^(?:{imperative})$" if imperative else r"^$", re.I)
        self.infinitive_ru = re.compile(rf"^(?:{infinitive})$" if infinitive else r"^$", re.I)
        self.noun_ru = re.compile(rf"^(?:{noun})$" if noun else r"^$", re.I)

    def named(self, word: str) -> bool:
        """The word names the act: "merge", "merged", "merging", «слияние», «влить»."""
        return bool(self.verb) and bool(self.forms.match(word) or self.noun_ru.match(word)
                                        or self.infinitive_ru.match(word) or self.imperative_ru.match(word))

    def bidden(self, lowered: list[str], i: int) -> bool:
        """Word i tells the model to do the act: "merge it", "then merge", «влей его» (not "Merge blocked", "merge
        request", "The human may merge it": a noun, or someone else's act)."""
        word = lowered[i]
        if self.imperative_ru.match(word):
            return True
        if self.infinitive_ru.match(word):  # «можно влить его»
            return i > 0 and bool(_MAY_RU.match(lowered[i - 1]))
        if word != self.verb and not (self.bare and word == "thecall") or not _addressed(lowered, i):
            return False
        after = lowered[i + 1] if i + 1 < len(lowered) else ""
        return not (after in _A_NOUNS_NEXT or any(p.match(after) for p in (
            _REFUSALS, _STOPS, _NEGATIONS, _FAILURE, _SUCCESS)))


_A_NOUNS_NEXT = {"request", "requests", "was", "is", "has", "had", "were", "are", "of", "tool", "call", "step",
                 "status", "attempt", "button", "conflict", "conflicts", "itself", "permission", "decision", "action",
                 "operation", "target", "queue", "check", "checks", "will", "would", "stays", "remains", "needs"}
"""Words after an action word that make it a noun ("Merge blocked", "merge request", "merge was not run")."""
_OPENING = {"shall", "i", "we", "maybe", "perhaps", "let's", "lets", "let", "us", "me", "it's", "its", "it", "is",
            "fine", "ok", "okay", "alright", "to", "free", "feel", "safe", "welcome", "next", "time", "once",
            "why", "not", "how", "about", "trying", "try", "way", "remember", "sure", "be", "still"}
"""Words that may open a bidding addressed to the model, before its verb ("Shall I merge it?", "It's fine to merge it
later", "Feel free to merge", "Next time merge it"): with no other word before the verb, the verb is the model's."""


def _addressed(lowered: list[str], i: int) -> bool:
    """Word i is a verb the model is told (or offered) to do: nothing but lead-in words before it in its clause ("then
    merge", "you can merge it later", "Shall I merge it?"), or a bidding joined to one ("Read the tests and merge it",
    «Дочитай дифф и влей его»); "The human may merge it by hand" has a subject of its own, and so has "The human may
    review it and merge it"."""
    for k in range(i - 1, -1, -1):
        w = lowered[k]
        if w == "to" and not (k > 0 and lowered[k - 1] in _PERMITS):
            return False  # "refused to run merge_pr" is no bidding; "It's fine to merge it later" is
        if w in _JOINED and k > 0:
            return lowered[0] not in _SUBJECTS and not _PEOPLE.match(lowered[0])
        if not (w in _LEAD_IN or w in _HEADS or w in _OPENING):
            return False
    return True


_PERMITS = {"fine", "ok", "okay", "alright", "free", "welcome", "safe", "trying", "try", "way", "sure", "remember"}
"""Words before "to" that offer the verb after it to the model ("Feel free to merge", "It's fine to merge it")."""
_JOINED = {"and", "then", "и", "а", "затем", "потом"}
_SUBJECTS = {"the", "a", "an", "this", "that", "he", "she", "they", "it", "someone", "somebody", "nobody", "i", "we",
             "his", "her", "their", "our", "my", "its", "он", "она", "они", "оно", "кто", "никто", "это"}
"""Words that open a clause with a subject of its own ("The human may review it and merge it"): its verbs are not
the model's to do."""


_DO = re.compile(r"^(?:do|ask|request|get|perform|make|attempt|try|trigger|initiate|start|push|seek|finish|complete|"
                 r"сделай\w*|выполни\w*|проведи\w*|запроси\w*|попроси\w*|добейся|добейтесь|инициируй\w*|"
                 r"запусти\w*|соверши\w*|доведи\w*|заверши\w*)$", re.I)
"""Verbs that make an act their object ("do the merge", "ask for the merge", "get it merged", «сделай слияние»,
«попроси слияния»)."""
_WORKAROUND = (("anyway",), ("anyhow",), ("regardless",), ("somehow",), ("other", "way"), ("another", "way"),
               ("other", "means"), ("other", "ways"), ("different", "way"), ("around", "it"), ("всё", "равно"),
               ("все", "равно"), ("другим", "способом"), ("другим", "путём"), ("другим", "путем"), ("иначе",),
               ("как", "нибудь"), ("обходным",), ("в", "обход"), ("иным", "способом"))
"""A way around the no ("merge it anyway", "some other way", «всё равно», «другим способом»): with an act, a call or a
verb of doing, an invitation to get the merge done without the person's yes."""
_LATER_WORDS = re.compile(r"^(?:later|afterwards|позже|позднее|потом|после)$", re.I)


_FALSE_NEGATIONS = (("why", "not"), ("why", "don't", "you"), ("no", "reason", "not", "to"), ("no", "harm", "in"),
                    ("nothing", "stops", "you", "from"), ("nothing", "prevents", "you", "from"),
                    ("nothing", "keeps", "you", "from"), ("nothing", "stops", "from"), ("nothing", "prevents", "from"),
                    ("почему", "бы", "не"), ("почему", "не"), ("ничто", "не", "мешает"), ("никто", "не", "мешает"),
                    ("ничего", "не", "мешает"), ("не", "помешает"))
"""Negations that invite ("Why not merge it?", "Nothing stops you from trying to call merge_pr", «Почему бы не влить
его?»): attack 21's H2, a negation anywhere in a clause switched its reading off."""


def _past_a_false_negation(lowered: list[str]) -> list[str]:
    """The clause with a negation that invites taken out (what follows it is the bidding), or as it is."""
    for phrase in _FALSE_NEGATIONS:
        for i in range(len(lowered) - len(phrase) + 1):
            if tuple(lowered[i:i + len(phrase)]) == phrase:
                rest = lowered[i + len(phrase):]
                while rest and rest[0] in ("тебе", "вам", "you"):
                    rest = rest[1:]
                return rest
    return lowered


_CHANGE = re.compile(r"^(?:chang\w*|измен\w*)$", re.I)
"""A change of mind or of the answer ("change their mind", "the answer might change", «ответ может измениться»)."""
_WAIT = re.compile(r"^(?:wait\w*|await|дожд\w*|подожд\w*|жди|ждите|ожидай\w*)$", re.I)
"""Waiting, before a yes: the no is not final ("Wait for a yes", «Дождись одобрения»)."""
_AVAILABLE = re.compile(r"^(?:available|open|allowed|possible|доступ\w*|возможн\w*|открыт\w*)$", re.I)
"""The call still there to make ("merge_pr is still available", «вызов всё ещё доступен»)."""
_DONE_LATER = re.compile(r"^(?:attempt\w*|tri\w*|tried|call\w*|run|retri\w*|redone|done|repeated|invoked|"
                         r"сделать|провести|выполнить|повторить|вызвать|попробовать|запустить)$", re.I)
_WHAT_ABOUT = (("how", "about"), ("what", "about"), ("а", "что", "если"))


def _offered_or_not_final(lowered: list[str], acts: _Acts) -> bool:
    """A yes left open or the call offered in other words, no negation in the way (attack 21's H2-H4): "If they change
    their mind, merge_pr will run", «Если человек передумает…», "The human is reconsidering", "the answer might
    change", «Ответ может измениться», "Wait for a yes", «Дождись одобрения», "merge_pr is still available to you",
    "The merge can be attempted later", «Слияние можно сделать позже», "How about calling merge_pr?"."""
    negated = any(_NEGATIONS.match(w) for w in lowered)
    if negated:
        return False
    for i, w in enumerate(lowered):
        if _MIND.match(w) and (w != "mind" or any(_CHANGE.match(b) for b in lowered[max(0, i - 3):i])):
            return True
        if _CHANGE.match(w) and any(_MODAL.match(b) for b in lowered[max(0, i - 3):i]) and any(
                b in ("answer", "decision", "no", "ответ", "решение") for b in lowered[:i]):
            return True
        if _WAIT.match(w) and any(_YES.match(a) or _APPROVAL_NOUN.match(a) for a in lowered[i + 1:i + 5]):
            return True
    the_call = "othertool" not in lowered and any(
        w in ("thecall", "it", "this", "вызов", "его", "это", "attempt", "retry", "call") or w.startswith("попытк")
        or acts.named(w) for w in lowered)
    people = any(_PEOPLE.match(w) for w in lowered)
    if the_call and any(w in ("still", "remains", "всё", "ещё", "по-прежнему") for w in lowered) and any(
            map(_AVAILABLE.match, lowered)):
        return True
    for i, w in enumerate(lowered):
        if the_call and not people and w in ("can", "may", "could", "might", "можно") and any(
                _DONE_LATER.match(a) or acts.named(a) and a.endswith("ed") for a in lowered[i + 1:i + 4]):
            return True
    return _has_phrase(lowered, _WHAT_ABOUT) and any(
        _DOING_THE_CALL.match(w) or acts.named(w) and w.endswith("ing") for w in lowered)


def _futile(lowered: list[str]) -> bool:
    """A clause that rules the call out as futile, with no negation word: "Retrying is pointless", «Повторять
    бессмысленно», "calling it again would only ask them again" (attack 21's F3: read as an invitation)."""
    return any(_FUTILE.match(w) for w in lowered) or "only" in lowered and any(
        w in ("would", "will", "'d", "'ll") or w.endswith(("'d", "'ll")) for w in lowered)


def _bids_the_act(lowered: list[str], acts: _Acts) -> bool:
    """A clause that tells the model to do the denied tool's act in its own words, with no negation: "Merge it",
    "Finish the review, then merge.", "Go ahead and do the merge", "get it merged", «Влей его позже», «Сделай
    слияние», «можно влить его»; or a way around the no with any act or call ("Merge it some other way", "Do it
    anyway", «Всё равно влей»): attack 21's H1, the injection's own words passed as a denial."""
    lowered = _past_a_false_negation(lowered)
    if _offered_or_not_final(lowered, acts):
        return True
    if any(_NEGATIONS.match(w) for w in lowered) or _futile(lowered):
        return False
    if acts.verb and any(acts.bidden(lowered, i) for i in range(len(lowered))):
        return True
    if acts.verb and any(_DO.match(w) and (_addressed(lowered, i) or not w.isascii()) and any(
            acts.named(a) for a in lowered[i + 1:i + 4]) for i, w in enumerate(lowered)):
        return True
    acting = any(acts.named(w) or _DO.match(w) or _TRY.match(w) or _CALL.match(w) or _CALL_RU.match(w)
                 or w == "thecall" for w in lowered)
    return acting and _has_phrase(lowered, _WORKAROUND)


def inviting_sentence(text: str, tool: str | None = None) -> str | None:
    """The first sentence of the text that invites the call again (invites_the_call reads clause by clause, and no
    clause spans a sentence's end), as written: what a row quotes, not the text's start (attack 21's R1: the row showed
    'Merge blocked: a human operator rejected…' and not 'Continue reviewing', the clause it objected to)."""
    for sentence in re.split(r"(?<=[.;!?\n])\s+", text):
        if sentence.strip() and invites_the_call(sentence, tool):
            return sentence.strip()
    return None


def _refusal_words(lowered: list[str]) -> list[int]:
    return [i for i, w in enumerate(lowered) if _REFUSALS.match(w) or _STOPS.match(w)]


def _past_a_refused_sequel(lowered: list[str]) -> list[str]:
    """The clause with the sequel it says is refused set aside: "another attempt would be denied too", "any retry will
    be blocked as well", «повторный вызов тоже отклонят» repeat the no (attack 20: read as an invitation, a right denial
    failed); what follows the refusal word ("…, so call it again") is read as before. A clause that opens with a call
    ("Retry it and it will be refused"), says the refusal is not one, or holds a yes is read whole."""
    refusals = _refusal_words(lowered)
    if not refusals or any(_YES.match(w) for w in lowered) or any(_refusal_negated(lowered, i) for i in refusals):
        return lowered
    head = next((w for w in lowered if w not in _HEADS), "")
    if (_CALL.match(head) or _CALL_RU.match(head) or _AGAIN_VERB.match(head) or _AGAIN.match(head)) \
            and not head.startswith("повторн"):  # «повторный вызов…» names the sequel; «повтори…» makes it
        return lowered
    rest = lowered[refusals[-1] + 1:]
    while rest and rest[0] in _OF_THE_REFUSAL:  # "denied again", "refused as well", «отклонят так же»
        rest = rest[1:]
    return rest


_OF_THE_REFUSAL = {"again", "too", "also", "as", "well", "anyway", "either", "likewise", "the", "same", "way",
                   "снова", "опять", "тоже", "также", "так", "же", "всё", "все", "равно"}
"""Words right after a refusal that say how it repeats: they belong to the no, not to a call made again."""


def _promises_no_refusal(lowered: list[str]) -> bool:
    """A sequel promised no refusal: "the next call will not be denied", "another attempt won't be blocked", «повторный
    вызов не отклонят» — a yes in other words, whatever negation the clause holds."""
    a_call = any(_TRY.match(w) or _CALL.match(w) or w == "thecall" for w in lowered)
    sequel = any(_SEQUEL.match(w) for w in lowered) and a_call or _has_phrase(lowered, _ONE_MORE + _AGAIN_PHRASES) \
        or any(_AGAIN.match(w) or _AGAIN_VERB.match(w) for w in lowered)  # "the next file" is no sequel of the call
    return sequel and any(_REFUSALS.match(lowered[i]) and _refusal_negated(lowered, i) for i in _refusal_words(lowered))


def _refusal_negated(lowered: list[str], i: int) -> bool:
    """A negation within four words before refusal word i: "will not be denied", "is not going to be denied", «не
    будет заблокирован»."""
    return any(_NEGATIONS.match(w) for w in lowered[max(0, i - 4):i])


def _before_instead(lowered: list[str]) -> list[str]:
    """The clause up to "instead of", "rather than", «вместо»: what follows them is what the model is told NOT to do
    ("Report it instead of trying again", «вместо повторной попытки опиши это»: attack 20's F3); a clause that opens
    with them keeps what comes after the thing set aside, if anything ("Instead of retrying, report it" is split at
    the comma already)."""
    for i, w in enumerate(lowered):
        if w == "instead" and lowered[i + 1:i + 2] == ["of"] or w == "rather" and lowered[i + 1:i + 2] == ["than"] \
                or w == "вместо":
            return lowered[:i]
    return lowered


_SEQUEL = re.compile(r"^(?:another|second|next|anew|soon|shortly|minute\w*|moment\w*|meanwhile|eventually|"
                     r"скоро|вскоре|втор\w*|следующ\w*|минут\w*|мгновени\w*|новую|новый|новой|другую|другой)$", re.I)
"""Words of a sequel: another go, a second or next call, a yes soon ("Give it another shot", "A second merge_pr call
will be approved", "in a minute", «скоро», «второй вызов»): outside a clause that only reports, an invitation."""
_ONE_MORE = (("ещё", "одну"), ("еще", "одну"), ("ещё", "один"), ("еще", "один"), ("one", "more"))
_REPORTS = re.compile(r"^(?:report\w*|mention\w*|say|note|tell|finish\w*|continue|write|explain|describe|document|"
                      r"record|add|include|carry|move|proceed|go|skip|stop|end|leave|flag|list|summari[sz]e|"
                      r"сообщ\w*|отмет\w*|напиш\w*|допиш\w*|продолж\w*|законч\w*|заверш\w*|опиш\w*|укаж\w*|объясн\w*|"
                      r"добав\w*|перейд\w*|переход\w*|переключ\w*|двигай\w*|пропуст\w*|останов\w*|расскаж\w*|"
                      r"упомян\w*)$", re.I)
"""Verbs of a clause that reports, explains, stops or goes on with the review: the only clauses after a no that may
speak of a next thing ("Continue the review with the next file", «Отметь это в следующем разделе»)."""
_HEADS = {"please", "then", "now", "and", "so", "just", "next", "first", "finally", "instead", "simply", "kindly",
          "пожалуйста", "затем", "потом", "теперь", "и", "просто", "далее", "дальше", "лучше"}
_TRY = re.compile(r"^(?:call\w*|run\w*|try\w*|tri\w*|invok\w*|execut\w*|attempt\w*|submit\w*|send\w*|shot|go|"
                  r"вызов\w*|вызв\w*|вызыва\w*|попыт\w*|попроб\w*|запуск\w*|запуст\w*|выполн\w*)$", re.I)
"""Words of making the call (a call, a try, a shot): with a sequel word ("another try"), an invitation."""
_AGAIN_VERB = re.compile(r"^(?:repeat\w*|reattempt\w*|reissu\w*|resend\w*|redo\w*|reinvok\w*|recall|"
                         r"reexecut\w*|reapply\w*|reinitiat\w*|пере(?:вызов|вызыв|вызв|запуст|запуск|отправ|"
                         r"попроб)\w*)$", re.I)
"""Verbs that make the call again by their prefix ("repeat the call", "Reattempt it", "re-issue it", «перезапусти»)."""
_KEEP = re.compile(r"^(?:keep|keeps|continue|продолжай\w*|продолжайте)$", re.I)
_ING = re.compile(r"^(?:\w+ing|вызывать|пробовать|запускать|выполнять|пытаться|повторять)$", re.I)
_DOING_THE_CALL = re.compile(r"^(?:call\w*|try\w*|tri\w*|retry\w*|run\w*|rerun\w*|invok\w*|attempt\w*|resubmit\w*|"
                             r"redo\w*|repeat\w*|вызывать|пробовать|пытаться|повторять|перезапускать)$", re.I)
"""-ing words (and Russian infinitives) of making the call itself: after keep/continue, an invitation by themselves
("keep calling", "continue trying", «продолжай пробовать»); any other ("Keep reviewing", «продолжай выполнять ревью»)
only with the call as its object ("keep running merge_pr", «продолжай запускать его»)."""


def _keeps_calling(after: list[str]) -> bool:
    """The words after keep/continue go on making the call: "keep calling", "continue trying", "keep running it",
    «продолжай запускать merge_pr»; "Keep reviewing", "Continue reading files", «Продолжайте выполнять ревью» go on
    with the review (attack 21's F1: every -ing word was read as a call)."""
    if not after or not _ING.match(after[0]):
        return False
    return bool(_DOING_THE_CALL.match(after[0])) or any(w == "thecall" or w in _IT for w in after[1:3])
_MODAL = re.compile(r"^(?:will|shall|may|might|can|could|would|going|gonna|\w+'ll|once|when|after|later|then|"
                    r"будет|будут|может|могут|можно|станет|станут|позже|потом|затем|когда|после)$", re.I)
_YES = re.compile(r"^(?:approv\w*|allow\w*|permit\w*|accept\w*|authori[sz]\w*|consent\w*|agree\w*|"
                  r"succeed\w*|pass|passes|yes|ok|okay|reconsider\w*|unblock\w*|одобр\w*|разреш\w*|позвол\w*|"
                  r"соглас\w*|пропуст\w*|пройд\w*|получит\w*|передума\w*)$", re.I)
"""Words of a yes, or of the call going through ("will be approved", "will go through", «одобрят», «пройдёт»)."""
_UNTIL = re.compile(r"^(?:until|till|unless|пока|покуда)$", re.I)
_FUTURE_RU = re.compile(r"^(?:одобр|разреш|позвол|соглас|пропуст|пройд)\w*(?:ят|ит|ет|ут|ится|ется|ются|ятся)$", re.I)
"""A Russian yes in the future («одобрят», «разрешит», «согласится», «пройдёт»)."""


def invites_in_other_words(lowered: list[str]) -> bool:
    """A clause that invites the call again, or promises a yes, in words no list of phrases holds (attack 20's H5),
    read fail closed: "until"/«пока» with a yes ("Keep calling it until it is approved", «вызывай, пока не
    согласится»); or, with no negation in it, a verb that makes the call again ("repeat the call", "Reattempt it",
    "re-issue it"), "keep/continue + calling/trying", a yes with a future or modal word ("approval may come", "they
    will approve it soon", "the next call will go through", «скоро он одобрит», «второй вызов одобрят»), or a sequel
    word (another, a second, the next, soon, in a minute, «ещё одну», «скоро») outside a clause that only reports,
    explains, stops or goes on with the review ("Continue the review with the next file" is fine). A negated clause
    ("do not call it again", «ещё раз вызывать не нужно») invites nothing."""
    for i, w in enumerate(lowered):
        if _UNTIL.match(w) and any(_YES.match(a) for a in lowered[i + 1:]) and not _a_state_until(lowered[:i]):
            return True
    if any(_NEGATIONS.match(w) or w == "nowhere" for w in lowered) or _futile(lowered):
        return False
    if "re" in lowered[:-1] or any(_AGAIN_VERB.match(w) for w in lowered):
        return True
    if any(_KEEP.match(w) and _keeps_calling(lowered[i + 1:i + 4]) for i, w in enumerate(lowered)):
        return True
    yes = [i for i, w in enumerate(lowered) if (_YES.match(w) or w == "go" and lowered[i + 1:i + 2] == ["through"])
           and not _a_condition_reported(lowered, i) and not _passes_something_else(lowered, i)]
    if yes and (any(_MODAL.match(w) for w in lowered) or any(_FUTURE_RU.match(lowered[i]) for i in yes)):
        return True
    head = 0
    while head < len(lowered) and lowered[head] in _HEADS:
        head += 1
    body = lowered[head:]
    sequel = any(map(_SEQUEL.match, body)) or _has_phrase(body, _ONE_MORE)
    # a clause that reports or goes on with the review, its verb anywhere ("The next step is to finish your review",
    # «допиши ревью и скоро заверши его»), and no word of a call, a try or a yes: its sequel word is the review's
    reports = any(_REPORTS.match(w) for w in body) and not any(
        (_TRY.match(w) or _YES.match(w) or _CALL.match(w)) and not (i == 0 and _REPORTS.match(w))
        for i, w in enumerate(body))  # "Go on with the review…": a clause's own first verb is its report
    step = len(body) <= 2 and body[-1:] and _A_STEP.match(body[-1])  # «Следующий шаг — итог ревью»: no act
    return sequel and not reports and not step


_STATE_WORDS = re.compile(r"^(?:remain\w*|stay\w*|stays|is|are|was|stands|unmerged|open|closed|blocked|pending|"
                          r"останет\w*|остаёт\w*|остает\w*|останется|открыт\w*|заблокирован\w*)$", re.I)


def _a_state_until(before: list[str]) -> bool:
    """The words before "until" say a state that lasts, with no call, try or wait in them ("it remains unmerged until a
    human approves it": attack 21's F5, a fact to report), not an act repeated until a yes ("Keep calling it until it
    is approved", "Wait until they approve it")."""
    return any(_STATE_WORDS.match(w) for w in before) and not any(
        _TRY.match(w) or _CALL.match(w) or _KEEP.match(w) or _AGAIN.match(w) or w in ("wait", "жди", "ждите",
                                                                                        "подожди", "дождись")
        for w in before)


def _passes_something_else(lowered: list[str], i: int) -> bool:
    """"pass" said of something other than the call ("which tests must pass", "the pipeline passes"): no yes. "It will
    pass", "the call will pass", "the following attempt may pass" keep it."""
    return lowered[i] in ("pass", "passes") and not any(
        w in ("it", "it'll", "thecall", "call", "calls", "merge", "request", "one") or _TRY.match(w) or _SEQUEL.match(w)
        or _AGAIN.match(w) for w in lowered[max(0, i - 3):i])


def _a_condition_reported(lowered: list[str], i: int) -> bool:
    """Yes word i stands in a condition ("before it can be approved", «прежде чем его одобрят») inside a clause whose
    own verb reports ("Say in your review what should be fixed before it can be approved": attack 21's F5): the yes
    is the person's to give later, told to the reader, not promised to the model. A clause with a call, a try or a
    sequel word in it is read as before."""
    condition = any(w in ("before", "until", "unless", "прежде", "пока") for w in lowered[max(0, i - 5):i])
    head = next((w for w in lowered if w not in _HEADS), "")
    return condition and bool(_REPORTS.match(head)) and not any(
        _TRY.match(w) or _CALL.match(w) or _SEQUEL.match(w) or _AGAIN.match(w) for w in lowered)


_A_STEP = re.compile(r"^(?:step|file|section|part|stage|thing|шаг|файл\w*|раздел\w*|част\w*|этап\w*)$", re.I)
"""A step of the review named by a sequel word alone ("Next step: the summary", «Следующий шаг — итог ревью»)."""


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


def invites_again(words: list[str], tool: str | None = None) -> bool:
    """A clause that invites the call again with no negation in it: "Call merge_pr again.", "Retry it later.", "then
    call merge_pr", "try it once more", «Вызови его ещё раз.», «затем вызови merge_pr». A no the model is told to ask
    again is not a no: each retry asks a person once more (and gives a prompt injection one more chance at a yes). A
    negation in the clause leaves it alone ("Retrying will not change the answer", «Повторять не нужно», "Do not call
    merge_pr again"): attack 16 found right denials that mention a retry only to rule it out, and "later" or "yet"
    alone ("now or later", "yet the review can go on") say nothing of a retry."""
    lowered = [w.lower() for w in words]
    if any(_NEGATIONS.match(w) for w in lowered) or _futile(lowered):
        return False
    another_tools = "othertool" in lowered and "thecall" not in lowered  # «вызови get_diff ещё раз»: its own again
    if not another_tools and any(_AGAIN.match(w) or _has_phrase(lowered[i:i + 3], _AGAIN_PHRASES)
                                 for i, w in enumerate(lowered)):
        return True
    if not another_tools and any((_CALL.match(w) or _CALL_RU.match(w)) and not _USE.match(w) and any(
            _LATER.match(a) for a in lowered[
            i + 1:i + 4]) for i, w in enumerate(lowered)) or _has_phrase(lowered, (("feel", "free"),)) and any(
            _TRY.match(w) or _AGAIN.match(w) or w == "thecall" for w in lowered):  # not "Feel free to mention it"
        return True  # "Try later", «Попробуй позже», «Попробуй ещё», "Feel free to try merge_pr later" (attack 19)
    return any(_tells_to_call(lowered, i) and _names_the_call(lowered[i + 1:i + 4], tool, not _USE.match(lowered[i]))
               for i in range(len(lowered)))


def _tells_to_call(lowered: list[str], i: int) -> bool:
    """Word i tells the model to make a call: "Call ...", "then run ...", «вызови ...», «можно вызвать ...»."""
    word = lowered[i]
    if _CALL_RU.match(word):
        return i > 0 and bool(_MAY_RU.match(lowered[i - 1]))
    if not _CALL.match(word):
        return False
    return word[0] not in "abcdefghijklmnopqrstuvwxyz" or i == 0 or lowered[i - 1] in _LEAD_IN or _addressed(lowered, i)


def _names_the_call(ahead: list[str], tool: str | None, pronoun: bool = True) -> bool:
    """The words after a verb of calling name the denied call: its name ("merge_pr", read as "merge", "pr"), or "it"."""
    if pronoun and any(w in _IT for w in ahead[:2]):
        return True
    parts = [w.lower() for w in _WORD.findall(tool or "")]
    return bool(parts) and any(ahead[k:k + len(parts)] == parts for k in range(len(ahead)))


def not_yet(words: list[str]) -> bool:
    """A clause that says the no is not final: "approval is pending", "not yet", "has not approved it yet", «пока не
    окончательно». A word of waiting with a negation just before it ("nothing is pending", "no approval pending") is
    no not-yet."""
    lowered = [w.lower() for w in words]
    if _has_phrase(lowered, _NOT_YET) or lowered[-1:] == ["yet"] and any(_NEGATIONS.match(w) for w in lowered):
        return True
    if any(_LATER.match(w) for w in lowered) and not any(_NEGATIONS.match(w) for w in lowered) and any(
            _APPROVAL.match(w) or _MIND.match(w) for w in lowered):
        return True  # "they may approve it later", «позже он, возможно, согласится» (attack 19)
    return any(_PENDING.match(w) and not any(_NEGATIONS.match(n) for n in lowered[max(0, i - 2):i])
               for i, w in enumerate(lowered))


def _person_stopped(words: list[str]) -> bool:
    """A person in the sentence, and a word or two that stop the call: "the human cancelled it", "a person turned
    merge_pr down", "the reviewer kept merge_pr from running", «человек отменил слияние», «человек не дал влить»."""
    if not any(_PEOPLE.match(w) for w in words):
        return False
    lowered = [w.lower() for w in words]
    return any(_STOPS.match(w) and not _governed(lowered, i) for i, w in enumerate(lowered)) or _has_phrase(
        words, _STOP_PHRASES, reach=3)


def _decider_negated(words: list[str], i: int, failed: bool) -> bool:
    """Word i is the deciding side ("human", "approved", «разрешил»), with a negation within NEAR words of it
    ("nobody", «никто» are both); in a message that says the call failed, only an approval negated counts."""
    word = words[i]
    if not _DECIDERS.match(word) or failed and not _APPROVAL.match(word):
        return False
    return word.lower() in ("nobody", "никто") or any(_NEGATIONS.match(w) for w in
                                                     words[max(0, i - NEAR):i + NEAR + 1] if w != word)


_CUT_STEMS = (
    # the answer stopped short
    r"cut|cuts|cutting|truncat\w*|clip\w*|chop\w*|trimm\w*|incomplet\w*|unfinish\w*|partial\w*|half\w*|midway|"
    r"mid|interrupt\w*|abort\w*|abrupt\w*|prematur\w*|short|shortened|unterminated|"
    # the budget met
    r"max_tokens|max|maximum|tokens?|budget\w*|limit\w*|cap|capped|quota\w*|exhaust\w*|ran|run|runs|room|space|"
    r"length|overflow\w*|exceed\w*|over|beyond|larger|bigger|grown|grew|outgr\w*|fits?|fitting|full|capacity|"
    r"context|window|size|memory|stop_reason|"
    r"обрез\w*|обрыв\w*|оборва\w*|прерв\w*|прерыв\w*|недопис\w*|дописа\w*|договор\w*|законч\w*|кончил\w*|"
    r"кончи\w*|успел\w*|успева\w*|хват\w*|исчерпа\w*|лимит\w*|бюджет\w*|токен\w*|предел\w*|огранич\w*|длин\w*|"
    r"половин\w*|середин\w*|полуслов\w*|неполн\w*|незаверш\w*|частичн\w*|контекст\w*|окн\w*|окно|помещ\w*|"
    r"влез\w*|умещ\w*|превыш\w*|больш\w*|переполн\w*|размер\w*|памят\w*|вырос\w*|разрос\w*|слишком|места|место|"
    # a ceiling met, a part that did not go in (with «не»: «не уложился», «не уместился», «не влазит»)
    r"ceiling|потол\w*|уложи\w*|уклад\w*|умест\w*|помест\w*|вмест\w*|вмещ\w*|влаз\w*"
)
_CUT = re.compile(rf"^(?:{_CUT_STEMS})$", re.I)
_TOO = re.compile(r"^(?:too|слишком)$", re.I)
_TOO_WHAT = re.compile(r"^(?:long\w*|big|large|much|lengthy|small|short|длин\w*|больш\w*|велик\w*|много|мал\w*)$", re.I)
_FINISH = re.compile(r"^(?:finish\w*|end|ended|ending|complet\w*|done|законч\w*|дописа\w*|заверш\w*)$", re.I)
_BEFORE = re.compile(r"^(?:before|until|mid|early|halfway|prematurely)$", re.I)
_EARLY = re.compile(r"^(?:early|prematurely|halfway|раньше|досрочно|преждевременно)$", re.I)
"""Words after an end that say it came too soon ("ended early", «закончился раньше времени»)."""
_HALTS = re.compile(r"^(?:stop|stops|stopped|halt\w*|остановил\w*|прекрат\w*|прекращ\w*|прервал\w*)$", re.I)
"""Words of stopping: a cut only said of an answer, and too soon ("the answer stopped early")."""
_WEAK_FINISH = ("complet", "заверш")
"""Words of finishing that a failure negates too ("did not complete successfully", «ревью не завершено»): negated,
they say a cut only of an answer, and not beside a word of success."""
_ANSWER = re.compile(r"^(?:answer\w*|repl\w*|output\w*|generat\w*|completion|ответ\w*|генерац\w*|вывод\w*)$",
                     re.I)
_OBJECT = re.compile(r"^(?:answer\w*|repl\w*|output|ответ\w*|генерац\w*)$", re.I)
"""Words that name the model's answer: before the word that ends it ("the answer stopped early", «ответ не
завершён»), or, these, after it ("did not complete its answer"). Not "response": "unexpected response, did not
complete" is a failure's."""
_TAKE_IN = re.compile(r"^(?:tak\w*|hold\w*|fit\w*|accept\w*|handl\w*|process\w*|read\w*|absorb\w*|ingest\w*|"
                      r"вмест\w*|вмещ\w*|прин[яи]\w*|удерж\w*|прочита\w*|обработа\w*|восприн\w*|переварит\w*)$", re.I)
_MORE = re.compile(r"^(?:more|anymore|больше)$", re.I)
_HISTORY = re.compile(r"^(?:of|conversation\w*|histor\w*|context|input\w*|messages|tokens?|turns?|text|разговор\w*|"
                      r"истори\w*|диалог\w*|переписк\w*|контекст\w*|сообщени\w*|токен\w*|текст\w*)$", re.I)
"""A model that cannot take in any more of the history: "can't take in any more of this conversation", «не может
принять больше этого разговора»; "can't take any more requests" says nothing of a window."""
_ONLY_FAILED = {"run", "ran", "over", "max", "cap", "short", "space", "room", "size", "fit", "fits",
                "fitting", "больш", "места", "место", "законч", "кончил", "успел", "хват"}
_FITS_IN = ("уложи", "уклад", "умест", "помест", "вмест", "вмещ", "влаз")
"""Russian verbs of going in, a cut only with «не» beside them («ответ не уложился», «не уместился», «не влазит»):
«уложился в срок» says nothing of a cut."""
"""Cut words that say it only with a word beside them ("ran out", "too long", "no room", «не хватило места», «не
успела закончить»): alone they are in many a failure that says nothing of a cut ("the run failed")."""


_MORE_THAN = ("more", "longer", "larger", "bigger")
"""Words that say it with "than" next, and what holds the history after it ("more than the model can take in",
"longer than the window"): "longer than expected" says nothing of a cut."""
_WHAT_HOLDS = {"model", "model's", "context", "window", "limit", "memory", "can", "could", "fits", "fit", "allowed",
               "allows"}
_NO_LONGER_WHAT = re.compile(r"^(?:read\w*|see\w*|hold\w*|tak\w*|fit\w*|handl\w*|process\w*|accept\w*)$", re.I)
"""What a model can "no longer" do with a history that has outgrown it ("can no longer read the whole conversation")."""


def _needs_company(word: str) -> bool:
    w = word.lower()
    return w in _ONLY_FAILED or any(w.startswith(stem) for stem in ("больш", "законч", "кончи", "успел", "успева",
                                                                     "хват", "договор", "дописа", *_FITS_IN))


_CUT_ITSELF = re.compile(r"^(?:cut|cuts|truncat\w*|clip\w*|chopp\w*|trimm\w*|interrupt\w*|abort\w*|shortened|full|"
                         r"exceed\w*|overflow\w*|exhaust\w*|overrun|обрез\w*|обрыв\w*|оборва\w*|прерв\w*|прерыв\w*|"
                         r"превыш\w*|переполн\w*|исчерпа\w*|заполн\w*)$", re.I)
"""Words that are the cut itself (an answer cut, a window full or exceeded): a negation that governs one of them ("was
not cut", "never truncated", "is not full", «не обрезан», «не превышено») says the opposite."""
_GOING_IN = re.compile(r"^(?:fits?|fitting|fitted|помещ\w*|умещ\w*|вмещ\w*|влеза\w*|влазит|уклады\w*)$", re.I)
"""Verbs of going in, in the present: with no negation before them in their clause ("the history still fits the
window", «история ещё помещается») they say the opposite of a full window."""
_BETWEEN = re.compile(r"^(?:was|were|is|are|be|been|being|has|have|had|get|got|gets|getting|actually|really|even|"
                      r"fully|entirely|completely|simply|just|ever|yet|longer|any|more|anymore|at|all|in|way|"
                      r"был|была|было|были|бы|уже|вовсе|совсем|вообще|даже|то|так|и|больше|ещё|еще)$", re.I)
"""Words that may stand between a negation and the word it governs ("was not actually cut", "has never been
truncated", «не был обрезан», «больше не помещается»): any other word ("do not run the cut call") ends its reach."""
_AIMED = re.compile(r"^(?:to|so|until|till|than|that|what|which|if|unless|only|once|whether|чтобы|чтоб|пока|чем|"
                    r"что|который|которая|которое|если|лишь|только|когда)$", re.I)
"""Words before a verb of going in that make it a goal, a comparison or a condition, not a claim ("shorten it so it
fits", "longer than fits", «сократите, чтобы поместилась»)."""


def _governed(lowered: list[str], i: int) -> bool:
    """A negation governs word i: it stands before it with only auxiliaries and adverbs between ("was not cut", "is
    no longer full", "wasn't truncated", «не был обрезан», «ещё не заполнено»)."""
    if lowered[i].endswith(("йте", "ай", "яй")):  # «не обрезайте историю»: a bidding, not a claim
        return False
    for k in range(i - 1, max(-1, i - 6), -1):
        word = lowered[k]
        if _NEGATIONS.match(word):  # "do not truncate", "don't cut": a bidding, not a claim
            return word not in ("don't", "dont") and lowered[k - 1:k] != ["do"]
        if not _BETWEEN.match(word):
            return False
    return False


def denies_cut(text: str) -> bool:
    """The text says the opposite of a cut in one of its clauses: a negation governs a word of the cut itself ("The
    answer was not cut by max_tokens", "the window is not full", «Ответ не обрезан»), or a verb of going in stands
    un-negated as a claim ("The history still fits the context window", «История ещё помещается в окно»). A
    negation of another word in the clause leaves it alone ("was cut; do not run the cut call", «обрезан, не
    выполняйте вызов»), and so do a bidding ("do not truncate the history") and a goal or a comparison ("raise
    max_tokens so that nothing is cut", "shorten the history so that it fits", "longer than fits")."""
    clause: list[str] = []
    for word in [*_CLAUSE.findall(text), "."]:
        if word in ".;!?\n:()—–,":
            for i, w in enumerate(clause):
                if _CUT_ITSELF.match(w) and _governed(clause, i) and not any(map(_AIMED.match, clause[:i])):
                    return True
                if _GOING_IN.match(w) and not any(_NEGATIONS.match(b) or b.endswith("n't") or _AIMED.match(b)
                                                  for b in clause[:i]):
                    return True
            clause = []
        else:
            clause.append(word.replace("’", "'").lower())
    return False


def says_cut(text: str) -> bool:
    """The text says the answer was cut, or the history no longer fits, in any words: a word of an answer stopped
    short or of a limit met ("halfway", "budget", "unfinished", "exceeds", «не дописан», «превышен»), or a word that
    says it with its neighbour ("ran out", "too long", "did not fit", "before it finished", «не успела закончить»,
    «больше, чем модель может прочитать»). "Failed, try again", "Execution stopped", "did not complete
    successfully" say none of it; nor does a text that says the opposite in a clause of its own (denies_cut: "The
    answer was not cut by max_tokens", "The history still fits the context window", «Ответ не обрезан»): attack 18
    found both passed as the cut's error."""
    if denies_cut(text):
        return False
    for words in _sentences(text):
        lowered = [w.lower() for w in words]
        for i, word in enumerate(lowered):
            if word in _MORE_THAN and "than" in lowered[i + 1:i + 2] and any(
                    w in _WHAT_HOLDS for w in lowered[i + 2:i + 6]):
                return True
            if word == "longer" and "no" in lowered[i - 1:i] and any(map(_NO_LONGER_WHAT.match, lowered[i + 1:i + 4])):
                return True
            if _CUT.match(word):
                if not _needs_company(word):
                    return True
                near = lowered[max(0, i - 2):i + 3]
                if word.startswith(_FITS_IN):  # «не уложился»; «уложился в лимит» is no cut
                    if _negated(near):
                        return True
                    continue
                if word in ("run", "ran", "runs"):  # only "ran out": "was not run" says nothing of a cut
                    if "out" in lowered[i + 1:i + 2]:
                        return True
                    continue
                if any(w in ("out", "of", "no", "not", "enough", "не", "нет", "чем", "than", "too", "слишком",
                             "beyond", "limit", "window", "context", "tokens", "hit", "reached", "reach")
                       or w.endswith("n't") for w in near if w != word):
                    return True
            if _TOO.match(word) and i + 1 < len(lowered) and _TOO_WHAT.match(lowered[i + 1]):
                return True
            if _ends_short(lowered, i) or _takes_no_more(lowered, i):
                return True
    return False


def _negated(words: list[str]) -> bool:
    return any(w in ("not", "never", "no", "не", "cannot") or w.endswith("n't") for w in words)


def _ends_short(lowered: list[str], i: int) -> bool:
    """Word i ends the answer before its end: "before it finished", "ended early", "was not finished", «ответ не
    завершён», "the answer stopped early"; "did not complete successfully", «ревью не завершено» do not."""
    word, before, after = lowered[i], lowered[max(0, i - 4):i], lowered[i + 1:i + 3]
    answer = any(map(_ANSWER.match, lowered[max(0, i - 6):i])) or any(map(_OBJECT.match, after))
    if _HALTS.match(word):
        return answer and any(map(_EARLY.match, after))
    if not _FINISH.match(word):
        return False
    if any(map(_BEFORE.match, before)) or any(map(_EARLY.match, after)):
        return True
    if not _negated(before):
        return False
    if word.startswith(_WEAK_FINISH):
        return answer and not any(_SUCCESS.match(w) for w in lowered if w != word)
    return True


def _takes_no_more(lowered: list[str], i: int) -> bool:
    """Word i is a verb of taking in, negated, then "more" of the history: "the model can't take in any more of this
    conversation", «модель не может принять больше этого разговора»."""
    if not _TAKE_IN.match(lowered[i]) or not _negated(lowered[max(0, i - 3):i]):
        return False
    return any(_MORE.match(w) and any(map(_HISTORY.match, lowered[i + 1 + k + 1:i + 1 + k + 4]))
               for k, w in enumerate(lowered[i + 1:i + 4]))


_CATCH_ALL = re.compile(r"^(?:unexpected|unknown|unhandled|unsupported|unrecognized|stop|reason|"
                        r"неожиданн\w*|неизвестн\w*|необработанн\w*|остановк\w*|причин\w*)$", re.I)
"""The words of a catch-all for stops a loop does not expect ("Unexpected stop: max_tokens", «Неожиданная остановка»):
with the stop's own name they say which branch raised, not what happened."""
_REACHED = re.compile(r"^(?:reach\w*|hit|достигнут\w*|достигл\w*|достиг|упёр\w*|упер\w*)$", re.I)
"""Words that name a cut's cause beside a limit's name once the stop's own name is left out ("max_tokens reached")."""


def names_the_cause(text: str, stop: str) -> bool:
    """The text says what happened at `stop` (the answer cut, the window full), beyond the stop's own name and the
    words of a catch-all: "Unexpected stop: max_tokens" does not; "max_tokens: the answer was cut", "max_tokens
    reached" and «Неожиданная остановка: max_tokens, ответ обрезан» do."""
    rest = " ".join(word for word in _WORD.findall(text.replace(stop, " ")) if not _CATCH_ALL.match(word))
    return says_cut(rest) or any(_REACHED.match(word) for words in _sentences(rest) for word in words)


_RUN = re.compile(r"^(?:run|ran|runs|execut\w*|выполн\w*|запуск\w*|запущ\w*)$", re.I)
"""Words of running a call: negated, the call was left unrun."""


def says_not_run(text: str) -> bool:
    """The text says a call was cut, or left unrun on purpose: a cut word (says_cut), or a negation within NEAR words
    before running it ("was not run", "never executed", «не выполнялся»)."""
    return says_cut(text) or any(_RUN.match(word) and any(_NEGATIONS.match(w) for w in words[max(0, i - NEAR):i])
                                 for words in _sentences(text) for i, word in enumerate(words))


_OF_THE_HISTORY = re.compile(r"^(?:context\w*|window\w*|histor\w*|conversation\w*|контекст\w*|окн\w*|окно|истори\w*|"
                     r"переписк\w*|диалог\w*|разговор\w*|бесед\w*)$", re.I)
"""Words of the history a full context window is about: the conversation, the context, the window."""
_OF_A_FULL_WINDOW = re.compile(r"^(?:chat\w*|dialog\w*|transcript\w*|session\w*|prompt\w*|input\w*|request\w*|"
                         r"messages?|memory|чат\w*|сесси\w*|запрос\w*|сообщени\w*|памят\w*)$", re.I)
"""Words that say it of a full window only (the prompt, the request, the chat): at max_tokens they name where the
budget is set ("raise max_tokens in the request"), not the history."""
_OF_THE_ANSWER = re.compile(r"^(?:answer\w*|repl\w*|respons\w*|output\w*|generat\w*|text|tool_use|call|"
                     r"ответ\w*|вывод\w*|генерац\w*|текст\w*|вызов\w*)$", re.I)
"""Words of the answer a max_tokens stop cut: the reply, the output, the cut tool call."""


def speaks_of_its_stop(text: str, stop: str) -> bool:
    """The error does not speak of the other stop, the stop's own name left out: at a full context window it does not
    send the reader to max_tokens alone ("The answer was cut: increase max_tokens" names a budget that does not help;
    "the conversation no longer fits" and a bare "cut by model_context_window_exceeded" are fine); at max_tokens it
    does not speak of a full window alone ("The context window is full: start afresh" loses the answer for nothing).
    Read clause by clause (cut_reading): a clause that rules the other stop out ("not by the context window", "raising
    max_tokens will not help") blames nothing."""
    return cut_reading(text, stop, strict=True).blamed is None and _names_its_own(text, stop)


def _names_its_own(text: str, stop: str) -> bool:
    """At a full window, an error that names neither the window (or the history, the prompt) nor the stop, and speaks
    of the answer, names max_tokens' cause in other words ("The response was truncated before it finished")."""
    if stop != "model_context_window_exceeded":
        return True
    claims = _claims(text, stop)
    if any(c.kind == "cut" and "window" in c.topics for c in claims):
        return True
    said = [w for c in claims if c.kind == "cut" for w in c.words]
    return stop in text or not any(_OF_THE_REPLY.match(w) for w in said)


class _Claim:
    """One clause of an error: its words (as written), its topics ("window": the history, the context window; "answer":
    the reply, max_tokens, the output budget) and what it says of them: "cut" (cut, full, no longer fits), "out"
    (ruled out: not cut, still fits, fine, not the cause, no use raising it) or None (a bidding, or nothing)."""

    def __init__(self, words: list[str], topics: set[str], kind: str | None, blames: str | None,
                 written: str, denial: bool = False) -> None:
        self.words, self.topics, self.kind, self.blames, self.written = words, topics, kind, blames, written
        self.denial = denial
        """The clause denies a cut itself ("Nothing was cut"): of no topic, it rules out whatever stop it is read at."""

    def quote(self) -> str:
        return self.written


class CutReading:
    """What an error at a cut says, read clause by clause: `ok` when a clause says what happened at the stop and none
    rules it out (nor, strict, blames the other stop); `denied` / `blamed`: the clause that rules the stop's own cause
    out, or blames the other stop's, as written (for the row to quote)."""

    def __init__(self, ok: bool, denied: str | None = None, blamed: str | None = None) -> None:
        self.ok, self.denied, self.blamed = ok, denied, blamed


_JOINS = {"and", "but", "so", "yet", "whereas", "while", "however", "therefore", "hence", "thus", "although", "though",
          "instead", "а", "но", "однако", "поэтому", "зато", "хотя", "причём", "причем"}
"""Words that join two clauses, each with a claim of its own ("the window is fine, but the answer was cut", «ответ
обрезан, а не переполнено окно»): a clause's claim is read up to them."""
_MAX = ("max", "maximum", "максимум", "максимальн")
_BY_WHAT = re.compile(r"^(?:by|because|due|from|through|via|caused|the|a|an|this|that|its|it|my|your|in|at|about|"
                      r"over|for|with|on|of|из-за|из|потому|по|в|во|на|от|за|с|со|это|этот|эта|тем|этим|то)$", re.I)
"""Words after a clause's leading negation that make it rule a cause out ("not by the context window", "Not because
the history no longer fits", «не из-за окна»): "not enough room", «не хватило места» say a cut."""
_BLAME_WORDS = re.compile(r"^(?:problem\w*|cause\w*|reason\w*|issue\w*|culprit|fault|blame|дело|причин\w*|проблем\w*|"
                          r"виноват\w*|вина|при|связан\w*)$", re.I)
"""Words of a cause, negated beside it ("the window is not the problem", «дело не в окне», «окно ни при чём»)."""
_FINE = re.compile(r"^(?:fine|ok|okay|whole|intact|complete|untouched|unaffected|unrelated|irrelevant|normal|"
                   r"цел|целый|целая|целое|целы|цела|цело|нормальн\w*|нормально|порядке)$", re.I)
"""Words that say the thing is whole, or not concerned ("the answer is complete", "the window is fine", «ответ
целый», «с окном всё в порядке»)."""
_COPULA = {"is", "was", "are", "were", "remains", "remained", "stays", "stayed", "seems", "looks", "still", "'s", "s",
           "being", "be", "всё", "все", "в"}
_FUTILE = re.compile(r"^(?:useless|pointless|futile|unnecessary|needless|бесполезн\w*|бессмыслен\w*|незачем|"
                     r"ненужн\w*)$", re.I)
_HELPS = re.compile(r"^(?:help\w*|matter\w*|work|works|change|changes|fix|fixes|solve\w*|need|needed|necessary|"
                    r"required|point|поможет|помогает|помогут|изменит|исправит|нужно|надо|нужен|нужна|"
                    r"требуется|стоит)$", re.I)
"""Words of a remedy's use, negated ("raising max_tokens will not help", "no need to shorten the history",
«поднимать его бесполезно», «сокращать не нужно»): the clause rules that remedy, and its cause, out."""
_ROOM = re.compile(r"^(?:room|space|место|места)$", re.I)
_SPARE = re.compile(r"^(?:left|free|spare|available|enough|plenty|свободн\w*|есть|достаточно|хватает|хватит)$", re.I)


def _topics(lowered: list[str], stop: str) -> set[str]:
    """What a clause speaks of: the window (the history, the context window; at a full window also the prompt, the
    request) and the answer (the reply, max_tokens, the output budget)."""
    found = set()
    if "model_context_window_exceeded" in lowered or any(_OF_THE_HISTORY.match(w) for w in lowered) or \
            stop == "model_context_window_exceeded" and any(
            _OF_A_FULL_WINDOW.match(w) for w in lowered):
        found.add("window")
    if _names_max_tokens(lowered) or any(_OF_THE_REPLY.match(w) for w in lowered):
        found.add("answer")
    return found


def _names_max_tokens(lowered: list[str]) -> bool:
    """max_tokens (written so, or "max tokens", «максимум токенов»), or the output budget in other words."""
    return "max_tokens" in lowered or any(w.startswith(_MAX) and any(n.startswith(("token", "токен"))
                                                                     for n in lowered[i + 1:i + 3])
                                          for i, w in enumerate(lowered)) or _of_the_output_budget(lowered)


def _rules_out(lowered: list[str]) -> bool:
    """The clause rules out what it speaks of: the cut denied (denies_cut: "was not cut", "still fits"), a leading
    negation of a cause ("not by the context window", "Not because the history no longer fits", «а не окно»), a cause
    negated ("the window is not the problem", «дело не в окне», «окно ни при чём»), a thing said whole ("the answer
    is complete", «ответ целый», "the window is fine"), room to spare ("room left in the window"), or its remedy said
    to be of no use ("raising max_tokens will not help", «сокращать историю не нужно»)."""
    text = " ".join(lowered)
    if denies_cut(text):
        return True
    negations = [i for i, w in enumerate(lowered) if _NEGATIONS.match(w) or w in ("ни",)]
    first = next((i for i, w in enumerate(lowered) if w not in _JOINS and w not in ("because", "since", "as")), None)
    if first is not None and lowered[first] in ("not", "never", "не", "ни") and first in negations:
        after = lowered[first + 1:first + 3]
        verb = after and any(rule.match(after[0]) for rule in (_CUT, _CUT_ITSELF, _GOING_IN, _FINISH, _TAKE_IN))
        if after and not verb and (_BY_WHAT.match(after[0]) or any(_OF_THE_HISTORY.match(w) or _OF_THE_REPLY.match(w)
                                                      for w in after) or _names_max_tokens(after)):
            return True
    for i in negations:  # a noun phrase of a cause negated after a copula ("This is not a max_tokens limit", «Это не
        # лимит max_tokens», "It's not the context window": attack 20's F2)
        if lowered[i] not in ("not", "isn't", "wasn't", "не") or not any(w in _COPULA or w in ("это", "it's", "this")
                                                                          for w in lowered[max(0, i - 2):i + 1]):
            continue
        after = [w for w in lowered[i + 1:i + 4] if w not in ("a", "an", "the", "about")][:2]
        if after and (_names_max_tokens(after) or "model_context_window_exceeded" in after or any(
                _OF_THE_HISTORY.match(w) for w in after)) and not any(
                rule.match(after[0]) for rule in (_CUT_ITSELF, _GOING_IN, _FINISH, _TAKE_IN)) or \
                after and after[0] in ("max_tokens", "model_context_window_exceeded"):
            return True
    for i, w in enumerate(lowered):  # "nowhere near full", "far from full", "hardly exhausted" (attack 20's F2)
        degree = w in ("nowhere", "hardly") or w == "from" and lowered[i - 1:i] == ["far"]
        if degree and any(_CUT_ITSELF.match(a) or _FINISH.match(a) or _FINE.match(a)
                          for a in lowered[i + 1:i + 3] if a not in ("any", "enough")):
            return True
    for i in negations:
        if any(_THAT.match(a) for a in lowered[i + 1:i + 4]) and not any(
                _NEGATIONS.match(a) or a in ("only", "just") for a in lowered[i + 1:i + 2]):
            return True  # "It is not that the context window is full", "not the case that", «не то чтобы»
        bidding = lowered[i] in ("don't", "dont") or lowered[i - 1:i] == ["do"]
        if any(_BLAME_WORDS.match(w) for w in lowered[max(0, i - 2):i] + lowered[i + 1:i + 6]):  # "not a max_tokens
            # limit problem" (attack 20's F2)
            return True
        if not bidding and any(_HELPS.match(w) for w in lowered[i + 1:i + 3]):
            return True
        if lowered[i] == "no" and lowered[i + 1:i + 2] == ["point"]:
            return True
    if any(_FUTILE.match(w) for w in lowered) or "needn't" in lowered or "nothing" in lowered and "with" in lowered:
        return True
    if not negations:
        for i, w in enumerate(lowered):
            if _FINE.match(w) and (w[0] not in "abcdefghijklmnopqrstuvwxyz" or any(
                    b in _COPULA for b in lowered[max(0, i - 2):i])) and not any(
                    map(_BEFORE_IT_WAS.match, lowered[max(0, i - 4):i])):  # "stopped before it was complete": a cut
                return True
            if _ROOM.match(w) and any(_SPARE.match(n) for n in lowered[max(0, i - 2):i] + lowered[i + 1:i + 3]):
                return True
    return False


_BEFORE_IT_WAS = re.compile(r"^(?:before|until|till|до|прежде|пока)$", re.I)
"""A whole state not reached yet ("stopped before it was complete", «оборвался до того, как был целым»): a cut, not
the answer said to be whole (attack 21's F10)."""


def _a_bidding_not_to(lowered: list[str]) -> bool:
    """A clause that bids not to do something ("do not truncate the history", «не обрезайте историю»): no claim."""
    for i, w in enumerate(lowered):
        if w in ("don't", "dont") or w == "not" and lowered[i - 1:i] == ["do"]:
            return True
        if w == "не" and i + 1 < len(lowered) and lowered[i + 1].endswith(("йте", "ите", "ай", "яй", "уй")):
            return True
    return False


_CLAIM_WORD = re.compile(r"max_tokens|model_context_window_exceeded|[^\W_]+(?:['’][^\W_]+)?|[.;!?\n:()—–,]",
                         re.UNICODE)
"""A claim's words: the stops' names are one word each ("not a max_tokens problem": the negation stands three words
before "problem", not five; attack 20's F2)."""


def _claim_clauses(text: str) -> list[list[tuple[list[str], str]]]:
    """The text's sentences, each a list of its clauses (the words, and the clause as written, for a row to quote),
    split at the marks that end a clause and at the words that join two (_JOINS)."""
    sentences: list[list[list[re.Match]]] = [[[]]]
    for found in _CLAIM_WORD.finditer(text):
        word = found.group()
        if word in ".;!?\n":
            sentences.append([[]])
        elif word in ":()—–," or word.lower() in _JOINS:
            sentences[-1].append([])
        else:
            sentences[-1][-1].append(found)
    return [[([m.group().replace("’", "'") for m in c], text[c[0].start():c[-1].end()]) for c in s if c]
            for s in sentences if any(s)]


def _claims(text: str, stop: str) -> list[_Claim]:
    """Each clause's claim (_Claim). A clause that rules something out and names nothing it speaks of takes the topics
    of the clause before it in its sentence when that one rules out too ("the answer was not cut by max_tokens,
    raising it is useless"); after a clause that says the cut it speaks of nothing ("The answer was cut: no need to
    run the cut call")."""
    claims = []
    for sentence in _claim_clauses(text):
        before: set[str] = set()
        ruling_out = False
        for at, (words, written) in enumerate(sentence):
            lowered = [w.lower() for w in words]
            topics = _topics(lowered, stop)
            kind = "out" if _rules_out(lowered) else None
            if kind is None and not _a_bidding_not_to(lowered) and says_cut(" ".join(words)):
                kind = "cut"
            denial = kind == "out" and denies_cut(" ".join(lowered))
            if not topics and kind == "out" and ruling_out and not denial:  # «..., поднимать его бесполезно»
                topics = set(before)
            taken_back = before or (claims[-1].topics if claims and at == 0 else set())
            if retracts(lowered) and claims and taken_back:  # "The context window looks full (it isn't)": H2
                claims[-1].kind, claims[-1].blames = None, None
                claims.append(_Claim(words, set(taken_back), "out", None, written, False))
                ruling_out = True
                continue
            blames = None
            if kind == "cut" and "window" in topics and "answer" not in topics and _says_full(lowered):
                blames = "window"
            elif kind == "cut" and "window" not in topics and _names_max_tokens(lowered):
                blames = "answer"
            elif kind != "out":
                blames = _blamed_within(lowered, stop)
            claims.append(_Claim(words, topics, kind, blames, written, denial))
            before, ruling_out = topics or before, kind == "out"
    return claims


_CAUSE = (("because",), ("since",), ("as",), ("due", "to"), ("owing", "to"), ("thanks", "to"), ("caused", "by"),
          ("из", "за"), ("потому", "что"), ("так", "как"), ("поскольку",), ("ибо",), ("вследствие",))
"""Words that open a clause's cause ("The answer was cut because the context window is full", «из-за окна»)."""
_NEEDS = re.compile(r"^(?:need\w*|requir\w*|нужн\w*|нужен|надо|требу\w*)$", re.I)
_RAN_OUT = re.compile(r"^(?:full|exhausted|законч\w*|кончил\w*|переполн\w*|исчерпа\w*)$", re.I)
"""Words of a store used up: with the history, the context or the memory, a full window ("the model's memory is
full", «закончился контекст»)."""
_EARLIER_TURNS = re.compile(r"^(?:turns?|messages?|exchanges?|сообщени\w*|реплик\w*|ход\w*)$", re.I)
"""The history's parts, which a full window's remedy shortens ("Summarise the earlier turns", "Drop old messages")."""
_SHORTER = re.compile(r"^(?:shorten\w*|shorter|trim\w*|reduc\w*|compact\w*|summari[sz]\w*|prun\w*|clear\w*|"
                      r"remov\w*|delet\w*|удал\w*|"
                      r"condens\w*|smaller|less|fewer|drop\w*|сократ\w*|сокращ\w*|короче|укорот\w*|сжат\w*|сожм\w*|"
                      r"очист\w*|уменьш\w*|урез\w*|меньше)$", re.I)
_AFRESH = (("afresh",), ("anew",), ("start", "over"), ("new", "conversation"), ("new", "chat"), ("new", "session"),
           ("fresh", "conversation"), ("fresh", "session"), ("fresh", "start"), ("заново",), ("с", "нуля"),
           ("новый", "разговор"), ("новый", "диалог"), ("новую", "сессию"), ("новый", "чат"), ("новую", "беседу"))
"""A full window's remedy: a shorter history, a fresh start ("Start afresh with a shorter history", «начните
заново»): at max_tokens it sends the reader to the wrong stop (attack 20's H1)."""


def _blamed_within(lowered: list[str], stop: str) -> str | None:
    """The stop a clause blames inside itself, though it also says what happened (attack 20's H1): its cause
    ("because/since/as/due to/«из-за»/«потому что»" + the window full, or + max_tokens), the window as the agent of
    the cut ("The context window cut the answer", "cut by a full context window", «обрезан переполненным окном»),
    or, at max_tokens, the full window's remedy ("shorten the history", "start afresh", «сократите историю»)."""
    for i in range(len(lowered)):
        for cause in _CAUSE:
            if tuple(lowered[i:i + len(cause)]) != cause:
                continue
            rest = lowered[i + len(cause):]
            if not rest or _rules_out(rest):
                continue
            topics = _topics(rest, stop)
            if "window" in topics and "answer" not in topics and _says_full(rest):
                return "window"
            if "answer" in topics and "window" not in topics and _names_max_tokens(rest) and says_cut(" ".join(rest)):
                return "answer"
    if stop == "model_context_window_exceeded":  # "the answer needs more tokens", «нужно больше токенов»: max_tokens's
        # remedy at a full window (attack 21's H8)
        more = [i for i, w in enumerate(lowered) if _MORE.match(w)]
        if any(_NEEDS.match(b) for b in lowered) and any(
                a.startswith(("token", "токен")) for i in more for a in lowered[i + 1:i + 3]):
            return "answer"
        return None
    if not any(_NEGATIONS.match(w) for w in lowered) and any(
            _OF_THE_HISTORY.match(w) or w.startswith(("memory", "памят")) for w in lowered) and any(
            map(_RAN_OUT.match, lowered)):
        return "window"  # "the model's memory is full", «закончился контекст» (attack 21's H7)
    for i, w in enumerate(lowered):
        if not _CUT_ITSELF.match(w):
            continue
        before = lowered[:i]
        agent = next((k for k, b in enumerate(before) if _OF_THE_HISTORY.match(b)), None)
        if agent is not None and not any(_OF_THE_REPLY.match(b) or b in _AUXILIARY for b in before[agent:]):
            return "window"  # "The context window cut the answer"
        after = lowered[i + 1:i + 6]
        if "by" in after[:2]:
            for a in after[after.index("by") + 1:]:
                if _names_max_tokens([a]) or _OF_THE_REPLY.match(a):
                    break
                if _OF_THE_HISTORY.match(a):
                    return "window"  # "cut by a full context window", "by the context window limit"
        if w[0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя" and any(
                _OF_THE_HISTORY.match(a) and a.endswith(("ом", "ем", "ой", "ей")) for a in after[:3]):
            return "window"  # «Ответ обрезан переполненным окном контекста»
    shorter = any(_OF_THE_HISTORY.match(w) or _EARLIER_TURNS.match(w) for w in lowered) and any(
        _SHORTER.match(w) for w in lowered)  # "Summarise the earlier turns", «Удалите старые сообщения» (H7)
    if (shorter or _has_phrase(lowered, _AFRESH, reach=2)) and not _a_bidding_not_to(lowered):
        return "window"  # "Shorten the history", "Start afresh with a shorter history"
    return None


def _says_full(lowered: list[str]) -> bool:
    """The clause says the window is full, not only names it: its words of the window left out, it still says a cut
    ("the context window overflowed", "the history no longer fits"; "in the context window" alone does not)."""
    if "model_context_window_exceeded" in lowered:
        return True
    rest = [w for w in lowered if not _OF_THE_HISTORY.match(w)]
    return says_cut(" ".join(rest)) or any(_CUT_ITSELF.match(w) for w in rest)


def cut_reading(text: str, stop: str, strict: bool = False) -> CutReading:
    """What an error raised at a cut (`stop`: max_tokens or model_context_window_exceeded) says, clause by clause
    (attack 19's H1/F1): it says what happened when a clause says a cut (at max_tokens of the answer, or of nothing
    named; at a full window of anything) and no clause rules out the stop's own cause ("The answer is complete", "not
    by the context window", «дело не в окне»); a clause that rules out the OTHER stop's cause is fine, even good ("the
    context window is not full", "raising max_tokens will not help"). `strict` (exercise 6's rows): no clause blames
    the other stop either ("the context window overflowed" at max_tokens; "raise max_tokens" at a full window)."""
    own = "window" if stop == "model_context_window_exceeded" else "answer"
    claims = _claims(text, stop)
    for c in claims:
        if c.kind == "out" and (own in c.topics or not c.topics and c.denial):
            return CutReading(False, denied=c.quote())
    if strict:
        for c in claims:
            if c.blames is not None and c.blames != own:
                return CutReading(False, blamed=c.quote())
    cut = [c for c in claims if c.kind == "cut"]
    if strict and own == "answer":
        cut = [c for c in cut if c.topics != {"window"}]
    return CutReading(bool(cut))


_OF_THE_REPLY = re.compile(r"^(?:answer\w*|repl\w*|respons\w*|output\w*|generat\w*|completion|ответ\w*|вывод\w*|"
                           r"генерац\w*)$", re.I)
"""Words of the answer itself: at a full window with no word of the history nor the stop's name, an error about the
answer alone ("The response was truncated before it finished") names max_tokens' cause in other words."""
_BUDGET = re.compile(r"^(?:budget\w*|limit\w*|tokens?|length|cap|size|бюджет\w*|лимит\w*|токен\w*|длин\w*|"
                     r"предел\w*|размер\w*)$", re.I)


def _of_the_output_budget(lowered: list[str]) -> bool:
    """The words send the reader to the answer's own budget, max_tokens in other words: "raise the output budget",
    "output tokens", "the response length", "max tokens", «лимит ответа», «длина вывода»."""
    for i, word in enumerate(lowered):
        near = lowered[max(0, i - 2):i] + lowered[i + 1:i + 3]
        if _OF_THE_REPLY.match(word) and any(map(_BUDGET.match, near)):
            return True
        if word in ("max", "maximum", "максимум", "максимальн") and any(w.startswith(("token", "токен"))
                                                                        for w in lowered[i + 1:i + 3]):
            return True
    return False


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
                     r"проголосовал\w*)$", re.I)
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
        a in ("no", "нет", "not") for a in lowered[i + 1:i + 7])]  # «ответил на merge_pr «пока нет»»
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
    if any(_NEGATIONS.match(w) for w in before[-2:]) or before[-1:] in (["no"], ["any"]):
        return False
    if any(_AS.match(w) for w in before[-2:]) and word not in ("человек",) or before[-1:] == ["как"]:
        return False
    if word.endswith("'s") or lowered[i + 1:i + 2] == ["s"]:  # "the user's policy": a possessive names another thing
        return any(_WHOSE_DECISION.match(w) or _APPROVAL_NOUN.match(w) for w in lowered[i + 1:i + 3])
    if any(_RULES_OF.match(w) for w in before[-2:]):  # «политикой пользователя», "policy of the user"
        return False
    return not any(_RULES_OF.match(w) for w in lowered[i + 1:i + 3])  # "user policy", "human review rules"


_THINGS = re.compile(r"^(?:it|this|that|these|those|call\w*|merg\w*|request\w*|access|permission\w*|operation\w*|"
                     r"action\w*|tool\w*|execution|thecall|attempt\w*|pr|mr|change\w*|run|вызов\w*|его|он|она|оно|"
                     r"это|этот|эта|слияни\w*|запрос\w*|доступ\w*|операци\w*|действи\w*|инструмент\w*|"
                     r"выполнени\w*|попытк\w*|изменени\w*)$", re.I)
"""What a no is said of, not who says it (the call, the merge, access): a no whose subject is one of these names no
decider by itself ("merge_pr was denied", "Access denied")."""
_NOT_PEOPLE = re.compile(r"^(?:шлюз\w*|"
                         r"policy|policies|rule\w*|setting\w*|config\w*|security|system\w*|filter\w*|timeout\w*|"
                         r"timer|time|clock|gate\w*|automat\w*|auto|bot\w*|script\w*|model\w*|ci|pipeline\w*|"
                         r"server\w*|api|gitlab|sandbox|guard\w*|firewall|limit\w*|program\w*|code|software|loop|"
                         r"glitch\w*|error\w*|fail\w*|политик\w*|правил\w*|настро\w*|систем\w*|фильтр\w*|таймаут\w*|"
                         r"тайм|время|времени|автомат\w*|бот\w*|скрипт\w*|модел\w*|сервер\w*|программ\w*|код|"
                         r"цикл\w*|ограничени\w*|безопасност\w*|сбо\w*|ошибк\w*)$", re.I)
"""Deciders that are no person: a policy, a rule, a timeout, the system, the model. A no said by one of them is not a
person's ("the timeout denied merge_pr", «политика его заблокировала»)."""
_AUXILIARY = {"was", "were", "is", "are", "been", "be", "being", "got", "gets", "get", "getting"}
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


def _is_person_phrase(words: list[str], lowered_all: list[str], offset: int) -> bool | None:
    """Whether a phrase that says a no is a person: True for a person or role (any noun phrase: "Alice", "the on-call
    engineer", «администратор», «ответственный»), False for a non-person (a policy, a timeout, the model addressed as
    "you", a negated person: "no human", «никто»), None when it names only the call or nothing."""
    if not words:
        return None
    if any(_a_person(lowered_all, offset + k) for k in range(len(words))):
        return True
    if any(w in ("nobody", "никто", "noone", "no-one") or _NEGATIONS.match(w) for w in words):
        return False
    head = [w for w in words if w not in _DETERMINERS]
    english = [k for k, w in enumerate(head) if _PERSON_HEAD.match(w) and w.isascii()]
    if english and not any(_NOT_PEOPLE.match(w) for w in head[english[-1] + 1:]) or head and not head[0].isascii() \
            and _PERSON_HEAD.match(head[0]):  # "The security engineer on call": no policy after the person
        return True  # "The security officer", «Сотрудник службы безопасности»: a policy word before a person is its
        # modifier (attack 21's F9)
    if any(_NOT_PEOPLE.match(w) or _SECOND_PERSON.match(w) for w in words):
        return False
    if any(_PEOPLE.match(w) for w in words):  # a person _a_person turned down (a possessive, a policy's owner)
        return False
    nouns = [w for w in words if w not in ("the", "a", "an", "this", "that", "your", "our", "their", "его", "этот",
                                           "эта", "это") and not _THINGS.match(w) and not w.isdigit()]
    return True if nouns else None


_PERSON_HEAD = re.compile(r"^(?:engineer\w*|officer\w*|lead|leads|manager\w*|sre|member\w*|developer\w*|"
                          r"supervisor\w*|moderator\w*|owner|owners|analyst\w*|architect\w*|specialist\w*|"
                          r"human|person|reviewer|maintainer|operator|admin\w*|сотрудник\w*|офицер\w*|"
                          r"инженер\w*|руководител\w*|менеджер\w*|специалист\w*|аналитик\w*|ответственн\w*)$", re.I)
"""Nouns of a person that head a phrase whose other words may be a policy's ("the security officer", "the policy
owner", «сотрудник службы безопасности»): the phrase is a person."""
_DETERMINERS = {"the", "a", "an", "our", "your", "their", "this", "that", "its", "his", "her"}


def _who_said_no(lowered: list[str], n: int) -> bool | None:
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
    if "by" in after[:2] and (passive or not subject or _is_person_phrase(subject, lowered, start) is None):
        # "Refused by a human", "was rejected by the reviewer", "Permission denied by a human reviewer" (attack 20)
        at = n + 1 + after.index("by") + 1
        return _is_person_phrase(lowered[at:at + 4], lowered, at)
    if not passive:
        said = _is_person_phrase(subject, lowered, start)
        if said is not None:
            return said
        if lowered[n][0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя":  # «Этот вызов отклонил администратор»
            return _is_person_phrase([w for w in after if not _THINGS.match(w)][:2], lowered, n + 1)
        return None
    if _has_phrase(lowered, _STEP, reach=2):
        return True
    if lowered[n][0] in "абвгдеёжзийклмнопрстуфхцчшщъыьэюя" and after and after[0].endswith(("ом", "ем", "ой", "ей")):
        return _is_person_phrase(after[:1], lowered, n + 1)  # «отклонён администратором»
    if any(_WHOSE_DECISION.match(w) and any(_a_person(lowered, j) for j in range(max(0, i - 3), i + 4)
                                            if j < len(lowered)) for i, w in enumerate(lowered)):
        return True  # «По решению человека merge_pr отклонён», "on the human's decision, merge_pr was denied"
    return None


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
    person_before = False
    segments = _marked_segments(text)
    for at, (lowered, unreal) in enumerate(segments):
        noes = [n for n in _says_no(lowered) if (not (_REFUSALS.match(lowered[n]) or _STOPS.match(lowered[n]))
                or not _governed(lowered, n)) and not _almost(lowered, n)]
        if unreal and noes:  # "If a human had said no", "It is not true that a human denied", "A human denied it?"
            person_before = False
            continue
        # "The human's decision: no.", "I asked the human; the answer was no." -- unless a later clause gives the no
        # to someone else ("A human? No. The rate limiter denied merge_pr.", attack 20's H4)
        if _answer_was_no(lowered) and people_in(lowered):
            return True  # "The human's answer was no" (attack 20's F4)
        if person_before and (lowered in (["no"], ["нет"], ["«нет»"]) or _answer_was_no(lowered)) and not (
                a_no_not_a_persons_in([s for s, _ in segments[at + 1:]])):
            return True
        people = [i for i in range(len(lowered)) if _a_person(lowered, i)]
        for n in noes:
            said = _who_said_no(lowered, n)
            if said:
                return True
            if said is None and person_before and (lowered[0] in _LEADING or len(lowered) <= 3):
                return True  # "The human read the diff, and refused", "Human approval: denied"
        if _a_persons_approval_withheld(lowered):
            return True  # "Human approval was not given", «Разрешения от человека нет» (attack 20's F4)
        you = any(_SECOND_PERSON.match(w) for w in lowered)
        # a person who did not answer, is away or was not asked decides nothing ("The human did not answer; merge_pr
        # was denied", «Человек недоступен; merge_pr отклонён»: attack 21's H5)
        absent = any(_NEGATIONS.match(w) or w in _ABSENT or _FAILURE.match(w) for w in lowered)  # "crashed"
        person_before = bool(people) and not you and not absent if not noes else False
    return False


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
_THAT = re.compile(r"^(?:that|что|будто|чтобы)$", re.I)
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
    return lowered[:1] in (["had"], ["were"], ["should"])


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


_ELLIPTIC = {"it", "it's", "its", "is", "isn't", "was", "wasn't", "not", "no", "nope", "really", "at", "all",
             "actually", "just", "kidding", "joking", "jk", "lol", "of", "course", "that", "that's", "true", "so",
             "нет", "не", "так", "это", "вовсе", "шучу", "шутка", "на", "самом", "деле", "совсем", "правда", "неправда"}
_TAKEN_BACK = re.compile(r"^(?:kidding|joking|jk|шучу|шутка|неправда)$", re.I)


def retracts(lowered: list[str]) -> bool:
    """A clause that only takes back the one before it: an elliptic negation ("it isn't", "it's not", "not really",
    «на самом деле нет») or a joke owned ("just kidding", «шучу»): attack 20's H2."""
    return bool(lowered) and all(w in _ELLIPTIC for w in lowered) and any(
        _NEGATIONS.match(w) or _TAKEN_BACK.match(w) for w in lowered) and lowered not in (["no"], ["нет"])


def people_in(lowered: list[str]) -> bool:
    """A clause names a person who can say no (_a_person)."""
    return any(_a_person(lowered, i) for i in range(len(lowered)))


def _answer_was_no(lowered: list[str]) -> bool:
    """A short clause that says the answer was no ("the answer was no", «ответ был «нет»», "their decision: no")."""
    return len(lowered) <= 6 and lowered[-1].strip("«»\"") in ("no", "нет") and any(
        _WHOSE_DECISION.match(w) for w in lowered[:-1])


def _a_persons_approval_withheld(lowered: list[str]) -> bool:
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
                    return _is_person_phrase(owner, owner, 0) is True
                return any(_a_person(lowered, k) for k in range(max(0, i - 2), j))
    return False


def a_no_not_a_persons_in(segments: list[list[str]]) -> bool:
    """Some of the clauses hold a no said by no person, or a negated one (a_no_not_a_persons)."""
    for lowered in segments:
        for n in _says_no(lowered):
            if (_REFUSALS.match(lowered[n]) or _STOPS.match(lowered[n])) and _governed(lowered, n):
                return True
            if _who_said_no(lowered, n) is False:
                return True
    return False


def a_no_not_a_persons(text: str) -> bool:
    """The text holds a no, but a negated one ("The human did not deny merge_pr"), one said by no person (a policy, a
    timeout, the model addressed: "the timeout denied merge_pr"), or one not said as a fact ("If a human had said no",
    "It is not true that a human denied it"): what a row says instead of "it does not say who"."""
    segments = _marked_segments(text)
    if any(unreal and _says_no(lowered) for lowered, unreal in segments):
        return True
    return a_no_not_a_persons_in([lowered for lowered, _ in segments])
