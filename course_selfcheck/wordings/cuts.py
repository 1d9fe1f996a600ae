"""Exercise 6's readings of a learner's error at a stop: does it say the answer was cut, or the context window full,
and does it blame the right one (`cut_reading`, `says_cut`, `names_the_cause`, `speaks_of_its_stop`)."""

import re

from .words import _AUXILIARY, _CLAUSE, _NEGATIONS, _SUCCESS, _THAT, _WORD, NEAR, _has_phrase, _sentences, retracts

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
        verb = after and after[0] not in ("max_tokens", "model_context_window_exceeded") and any(
            rule.match(after[0]) for rule in (_CUT, _CUT_ITSELF, _GOING_IN, _FINISH, _TAKE_IN))  # «а не max_tokens мал»
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
        if word == "?" and any(sentences[-1]):  # a question: an empty clause marks it for the answer after it
            sentences[-1].append([found])
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
    asked: list[_Claim] = []
    for sentence in _claim_clauses(text):
        before: set[str] = set()
        ruling_out = False
        if sentence[-1][0] == ["?"]:  # "The answer was cut? No.": what the question claims waits for its answer
            sentence = sentence[:-1]
            start = len(claims)
        else:
            start = None
        if asked and [w.lower() for w in sentence[0][0]] in (["no"], ["nope"], ["нет"]):
            for c in asked:  # the question answered no: its claim is taken back (attack 22's H-6c)
                c.kind, c.blames = None, None
            claims.append(_Claim(sentence[0][0], {t for c in asked for t in c.topics}, "out", None, sentence[0][1]))
            sentence = sentence[1:]
        asked = []
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
        if start is not None:
            asked = claims[start:]
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
    if _the_input_too_big(lowered):
        return "window"  # "because the prompt is too long", "too many messages in the history" (attack 22's H-6c)
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
    shorter = any(_OF_THE_HISTORY.match(w) or _EARLIER_TURNS.match(w) or w.startswith(("chat", "чат"))
                  for w in lowered) and any(_SHORTER.match(w) for w in lowered)
    # "Summarise the earlier turns", «Удалите старые сообщения» (H7), "Clear the chat" (attack 22's H-6c)
    larger = [i for i, w in enumerate(lowered) if w in ("larger", "bigger", "longer", "большим", "большее",
                                                         "большой", "больший")]
    if any(_OF_THE_HISTORY.match(a) for i in larger for a in lowered[i + 1:i + 4]) and not _a_bidding_not_to(lowered):
        return "window"  # "use a model with a larger context window", «модель с большим контекстным окном»
    if (shorter or _has_phrase(lowered, _AFRESH, reach=2)) and not _a_bidding_not_to(lowered):
        return "window"  # "Shorten the history", "Start afresh with a shorter history"
    return None


def _the_input_too_big(lowered: list[str]) -> bool:
    """The clause says the input is too big, of the words after its cause if it has one ("cut because the prompt is
    too long", "too many messages in the history", «слишком много сообщений в чате»): a full window's cause, not
    max_tokens'; not when it speaks of the answer there too ("the answer is too long for max_tokens") or negates."""
    at = next((i + len(c) for i in range(len(lowered)) for c in _CAUSE if tuple(lowered[i:i + len(c)]) == c), 0)
    rest = lowered[at:]
    if any(_NEGATIONS.match(w) for w in rest) or any(_OF_THE_REPLY.match(w) or _names_max_tokens([w]) for w in rest):
        return False
    too = any(_TOO.match(w) and (_TOO_WHAT.match(a) or a == "many") for w, a in zip(rest, rest[1:], strict=False))
    return too and any(_OF_THE_HISTORY.match(w) or _OF_A_FULL_WINDOW.match(w) or _EARLIER_TURNS.match(w)
                       for w in rest)


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
        near = lowered[max(0, i - 3):i] + lowered[i + 1:i + 3]  # "the token limit of the response" (attack 22's H-6c)
        if _OF_THE_REPLY.match(word.removesuffix("'s")) and any(map(_BUDGET.match, near)):
            return True
        if word in ("max", "maximum", "максимум", "максимальн") and any(w.startswith(("token", "токен"))
                                                                        for w in lowered[i + 1:i + 3]):
            return True
    return False
