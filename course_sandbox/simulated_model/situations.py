"""A situation the user describes, matched to the tool that remedies it: "my cat hasn't eaten for two days" asks for
a vet, "the post didn't come again" for a missed-delivery report, "it's boiling in the office, cool it to 20" for
the thermostat, «в номере течёт душ» for a repair request, though none of them names a tool.

A small bilingual lexicon of concepts (_CONCEPTS): for each, the everyday words and stems a request says it with
(English and Russian, as regular expressions over the request) and the words a tool that deals with it is named or
described with (over the tool's name and description). Every offered tool is scored by the concepts it shares with
the request, a concept in its name counting 3 and one only in its description 1; the best tool is picked only when
it scores 2 or more and beats every other by 2 or more, so one weak word never picks a tool, and a situation that
fits no offered tool picks none (the caller answers in text). The concepts are situations and needs, never one
domain's nouns: a car is in both an insurance quote's and a claim's words; "scratched" is only in a claim's.
"""

import re

from .tool_roles import ToolSpec

_W = r"(?<![\w-])"
"""A word's start: not after a letter, a digit or a hyphen."""

_CONCEPTS_TABLE: list[tuple[str, str, str]] = [
    # (concept, what a request says, what a tool for it is named or described with)
    ("vet",
     _W + r"(?:cat|cats|dog|dogs|puppy|kitten|pet|rabbit|hamster|parrot|кот\w*|кошк\w*|собак\w*|пёс|пса|псу|щен\w*|"
          r"котён\w*|котен\w*|питом\w*|попуга\w*|хомяк\w*|кролик\w*)\b.{0,60}?" + _W +
          r"(?:sick|ill|unwell|hasn'?t eaten|has not eaten|hasn'?t been eating|not eating|won'?t eat|stopped eating|"
          r"limp\w*|vomit\w*|throwing up|letharg\w*|cough\w*|sneez\w*|injur\w*|hurt|bleed\w*|"
          r"не ест|не ел\w*|перестал\w* есть|заболел\w*|болеет|хромает|хромать|рв[её]т|тошнит|чихает|кашля\w*|"
          r"вял\w*|поранил\w*|кровь)",
     r"\bvet\b|\bvets\b|veterinar|ветеринар|ветклиник"),
    ("doctor",
     _W + r"(?:toothache|tooth hurts|sore throat|fever|headache|migraine|feel(?:ing)? (?:sick|ill|unwell)|rash|"
          r"болит (?:зуб|горло|голова|живот|спина)|зубн\w* боль|температур\w* (?:у меня|поднялась|держится)|"
          r"плохо себя чувству\w*|сыпь)",
     r"doctor|dentist|clinic|physician|\bgp\b|checkup|check-up|врач|доктор|стоматолог|клиник|поликлиник|терапевт"),
    ("missed_delivery",
     _W + r"(?:(?:post|mail|letters?|parcels?|packages?|delivery|deliveries|courier|newspaper)\b.{0,40}?"
          r"(?:didn'?t|did not|never|hasn'?t|has not|haven'?t|still not|wasn'?t|was not|isn'?t|not)\s+(?:\w+\s+)?"
          r"(?:come|came|arrive\w*|show\w* up|turn\w* up|been delivered|delivered|here)|"
          r"(?:no|nothing in the) (?:post|mail)\b|missed (?:my |the )?(?:delivery|post|parcel)|"
          r"(?:почт\w*|письм\w*|посылк\w*|доставк\w*|курьер\w*|газет\w*)\b.{0,40}?не\s+(?:\w+\s+)?"
          r"(?:пришл\w*|пришёл|пришел|приход\w*|принес\w*|принёс\w*|привез\w*|привёз\w*|доставил\w*|доставлен\w*))",
     r"miss(?:ed|ing)|undelivered|non-delivery|not arrive|did not arrive|didn't arrive|пропущ|недостав|не пришл|"
     r"не доставл|неполуч"),
    ("temperature",
     _W + r"(?:(?:boiling|hot|cold|freezing|chilly|stuffy|warm|cool)\b.{0,40}?\b(?:office|room|bedroom|kitchen|"
          r"house|flat|apartment|home|here|lounge|living room|class ?room|studio)\b|"
          r"(?:office|room|bedroom|kitchen|house|flat|apartment|home|in here|lounge|living room)\b.{0,30}?\b"
          r"(?:boiling|too hot|too cold|freezing|chilly|stuffy)|"
          r"(?:cool|warm|heat)\s+(?:it|the \w+|things)\s+(?:up|down)?|turn (?:up|down) the heat\w*|"
          r"\bto \d{2}(?:\.\d)?\s*(?:°|degrees)|"
          r"(?:жарко|холодно|душно|прохладно|мороз\w* в (?:офисе|комнате|квартире|доме))|"
          r"(?:сделай|поставь|установи)\w*\s+(?:\w+\s+)?\d{2}\s*(?:°|градус\w*)|"
          r"(?:прибавь|убавь|подними|опусти)\w*\s+(?:\w+\s+)?(?:температур\w*|тепл\w*|отоплени\w*)|"
          r"(?:тепле|прохладне|холодне)е)",
     r"thermostat|temperature|heating|cooling|climate|air ?condition|\bhvac\b|\bheat\b|термостат|температур|"
     r"отоплен|кондиционер|климат"),
    ("light",
     _W + r"(?:too dark|so dark|pitch dark|can'?t see|too bright|dim the|brighten|"
          r"темно|темновато|ничего не видно|слишком ярко|светлее|темнее|приглуши)",
     r"\blights?\b|\blamps?\b|brightness|dimm|свет|ламп|яркост|освещен"),
    ("owed",
     _W + r"(?:overdue|do i (?:still )?owe|i owe|owed|outstanding|late fees?|fines?|"
          r"(?:я )?должен|должна|задолж\w*|долг(?:и|ов|а|у|ом|ам)?|штраф\w*|просроч\w*)",
     r"\bfines?\b|\bfees?\b|\bowe|outstanding|overdue|debt|штраф|задолж|долг|пени"),
    ("repair",
     _W + r"(?:leak\w*|broken|broke|doesn'?t work|does not work|isn'?t working|not working|won'?t (?:turn on|start|"
          r"open|close|flush|drain)|stopped working|clogged|dripping|drips|cracked|flicker\w*|"
          r"no hot water|out of order|"
          r"теч[её]т|протека\w*|протёк\w*|протек\w*|сломал\w*|слома\w*|не работает|перестал\w* работать|засор\w*|"
          r"капает|треснул\w*|разбил\w*|мига\w*|нет горячей воды|не включается|не открывается|не закрывается)",
     r"repair|maintenance|\bfix\b|broken|technician|handyman|plumber|faulty|ремонт|починк|почин|неисправн|"
     r"мастер|сантехник|обслуживани"),
    ("attendance",
     _W + r"(?:how many (?:people |guests |students |participants )?(?:came|attended|showed up|turned up|"
          r"signed up|registered|have signed up|are coming|joined|were there)|"
          r"сколько (?:\w+ )?(?:пришло|пришли|было|записалось|записались|зарегистрировал\w*|участвовал\w*))",
     r"attend|attendee|participant|signed up|sign-ups|registrations|turnout|посещаем|участник|записавш|пришедш|"
     r"явк"),
    ("availability",
     _W + r"(?:seats?|spots?|places?|spaces?|room for)\b.{0,20}?\b(?:left|free|available|remaining)|"
          + _W + r"(?:any|free|available|open)\s+(?:seats?|spots?|places?|spaces?)|\bis\b.{0,40}?\bfull\b|"
          r"sold out|fully booked|"
          + _W + r"(?:свободн\w* мест\w*|мест\w* (?:есть|осталось|остались|свободн\w*)|есть ли мест\w*|"
          r"остались ли мест\w*|осталось ли мест\w*|все места заняты|мест\w* нет)",
     r"availab|free (?:spots|places|seats)|spots|seats|vacanc|capacity|свободн|мест|наличи"),
    ("price",
     _W + r"(?:how much (?:would|will|does|is|do)|what (?:would|will|does) it cost|cost|price|quote|"
          r"сколько (?:будет )?стоит|сколько будет стоить|стоимост\w*|цен\w*)",
     r"quote|price|pricing|cost|estimate|стоимост|цен|расч[её]т"),
    ("insurance",
     _W + r"(?:insur\w*|cover (?:my|our|the)|coverage|страхов\w*|застрах\w*|полис\w*|каско|осаго)",
     r"insur|coverage|страх|полис"),
    ("damage",
     _W + r"(?:scratch\w*|dent\w*|crash\w*|hit my|rear-ended|accident|damaged|vandali\w*|flooded|"
          r"поцарапал\w*|помял\w*|разбил\w*|авари\w*|дтп|затопил\w*|повредил\w*|ударил\w*|царапин\w*|вмятин\w*)",
     r"claim|damage|accident|incident|ущерб|повреж|страховой случай|убыт|авари"),
    ("cleaning",
     _W + r"(?:dirty|messy|filthy|stain\w*|spill\w*|smells? bad|грязн\w*|бардак|пятн\w*|пролил\w*|воняет)",
     r"clean|housekeeping|уборк|убрат|чистк"),
    ("lockout",
     _W + r"(?:locked out|lost (?:my |the )?keys?|can'?t get in|заперл\w* снаружи|потерял\w* ключ\w*|"
          r"не могу (?:попасть|войти|зайти))",
     r"locksmith|unlock|lockout|access|key|ключ|замок|доступ|вскрыт"),
    ("noise",
     _W + r"(?:too loud|so loud|loud music|noisy|noise|шумн\w*|шум\w*|громк\w* музык\w*)",
     r"noise|complaint|жалоб|шум"),
    ("double_charge",
     _W + r"(?:charged (?:me )?twice|double[- ]charged|overcharged|charged the wrong|wrong amount|"
          r"списали дважды|списали два раза|списали лишн\w*|двойн\w* списани\w*)",
     r"refund|dispute|chargeback|возврат|оспор|претенз"),
]
_CONCEPTS = [(name, re.compile(f"(?:{said})(?!\\w)", re.I), re.compile(tool_words, re.I))
             for name, said, tool_words in _CONCEPTS_TABLE]
"""Each concept's request words end a word: "cost" is no "costume", «долги» no «долго»."""

PICK = 2
"""The score the best tool needs, and its margin over every other: a concept in its name, or two in its
description (a concept in one tool's name beats the same concept in another's description)."""


def concepts(text: str) -> set[str]:
    """The situations and needs the request describes."""
    return {name for name, said, _ in _CONCEPTS if said.search(text)}


def _score(tool: ToolSpec, said: set[str]) -> int:
    name = tool.name.replace("_", " ").replace("-", " ")
    total = 0
    for concept, _, tool_words in _CONCEPTS:
        if concept not in said:
            continue
        if tool_words.search(name):
            total += 3
        elif tool_words.search(tool.description or ""):
            total += 1
    return total


def remedy(tools: list[ToolSpec], text: str) -> ToolSpec | None:
    """The one offered tool that deals with the situation the request describes, or None when none clearly does."""
    said = concepts(text)
    if not said or not tools:
        return None
    scored = sorted(((_score(t, said), i, t) for i, t in enumerate(tools)), key=lambda x: (-x[0], x[1]))
    best = scored[0][0]
    runner_up = scored[1][0] if len(scored) > 1 else 0
    if best >= PICK and best - runner_up >= PICK and _score(scored[0][2], said - _WEAK):
        return scored[0][2]
    return None


_WEAK = {"price"}
"""Concepts too common to pick a tool alone ("how much does the premium plan cost?"): only beside another."""
