"""A turn that says the speaker is done with something ends what their earlier words said of it.

"可乐我戒了" after "我每天两罐可乐"; "cancelled my peakform membership" after "at Peakform
four nights a week"; "德语我不学了" after "每天背30个德语单词". :func:`jiyi.text.ended.ended_terms` reads
the words of what is over; this module finds the speaker's earlier turns and memories that say
those words and marks them ``metadata["ended_by"] = <the ending turn's id>``. A block shows them
under its past heading (read/curate.py) and the profile leaves them out (read/profile.py); search
ranks them as before: what was true then is still the evidence of what happened.

Guards: the earlier record is the same speaker's (never the bot's), of another message, said
before the ending; it does not itself say the thing ended (用户戒了奶茶 is the ending, not what it
ends); and a word the speaker uses in more than :data:`COMMON_TURNS` earlier turns names too
many things to end one of them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from jiyi.records import Kind, MemoryRecord
from jiyi.text.consumption import consumed_words, kinds_of
from jiyi.text.ended import (
    ENDED_KEY,
    ended_terms,
    ends_bare,
    ends_something,
    ends_unnamed,
    forbidden,
    lost_names,
    named_in,
)
from jiyi.text.language import detect_language
from jiyi.text.over import workplace_left
from jiyi.text.replaced import replaced_terms
from jiyi.text.script import restore, rules_reading

#: a word said in more of the speaker's earlier turns than this names no one thing
COMMON_TURNS = 6
#: earlier records looked at per word, and the newest looked at for a kind (coffee, smoking)
PER_TERM = 60
PER_KIND = 200


@dataclass(slots=True, frozen=True)
class Ending:
    """A turn of the speaker's that says the things of ``terms`` are over."""

    turn: MemoryRecord
    terms: tuple[str, ...]
    #: False for a routine moved or swapped ("夜班调到周五了"): the old one is past, yet the turn ends nothing itself
    says_over: bool = True


def endings(turns: Iterable[MemoryRecord]) -> list[Ending]:
    """The user turns among ``turns`` (a conversation's, in order) that say something is over, with its words."""
    out = []
    turns = [t for t in turns if t.kind is Kind.EPISODE]
    for i, turn in enumerate(turns):
        if turn.metadata.get("role") == "assistant":
            continue
        lang = detect_language(turn.content)
        read = rules_reading(turn.content).text  # "Ashfall 我卸了" as "Ashfall我卸了": the name is one word (text/mixed.py)
        terms = (ended_terms(read, lang) or lost_names(read, lang) or forbidden(read, lang)
                 or workplace_left(read, lang))
        if not terms and (asked := clarified(turns[i + 1:i + 3])) and ends_unnamed(turn.content, lang):
            terms = asked  # (the bot's asking back is looked at first: it is rare, and reading the turn again is not)
        elif not terms and i and (asked := clarified(turns[i - 1:i + 1])) and ends_something(turn.content, lang):
            terms = asked  # 您是说烟吗？ — 对 十来天没碰了: the yes that tells the ending itself
        if i and ends_bare(turn.content, lang):
            # 最近烟抽得怎么样了？ — 三个月没碰了: the 烟; 医生说少喝功能饮料 … 那种东西全断了: the drink just named
            about = asked_about(turns[i - 1]) or (() if terms else just_named(turns[max(0, i - _LOOK_BACK):i]))
            terms = (*terms, *(t for t in about if t not in terms))
        if terms:
            out.append(Ending(turn, _as_typed(terms, turns[max(0, i - _LOOK_BACK):i + 3])))
        elif swapped := replaced_terms(read, lang):
            out.append(Ending(turn, _as_typed(swapped, [turn]), says_over=False))  # 夜班调到周五了: the Wednesday shifts are past
    return out


def _as_typed(terms: Sequence[str], turns: Sequence[MemoryRecord]) -> tuple[str, ...]:
    """``terms``, read from the rules' readings (text/mixed.py), in the characters ``turns`` typed them in:
    奔云 is looked for as 奔雲 in what a Taiwanese user said, "Halcyon Games" with its space."""
    sources = [rules_reading(t.content) for t in turns]
    return tuple(dict.fromkeys(restore(term, sources) for term in terms))


#: a reply that says yes to what the bot asked back
_YES = re.compile(r"^\s*(?:[对是嗯]|(?:没错|就是)\b|(?i:yes+|yeah|yep|yup|ya|right|exactly|correct|mhm)\b)")
#: the bot asking back what a word pointed at: "您是说奶茶吗？", "you mean the gym?"
_ASKS_BACK = re.compile(r"(?i)是说|是指|指的是|说的是|\byou\s+mean\b|\bmeaning\b|\bdo\s+you\s+mean\b")


def clarified(after: Sequence[MemoryRecord]) -> tuple[str, ...]:
    """What an ending that named nothing (那玩意儿我断了) ended, from the two turns ``after`` it: the bot asking
    back which thing it was ("您是说奶茶吗？") and the speaker saying yes ("对 …"): the words the bot named."""
    if len(after) < 2 or after[0].metadata.get("role") != "assistant" or after[1].metadata.get("role") == "assistant":
        return ()
    question, reply = after[0].content, after[1].content
    if not _ASKS_BACK.search(question) or not re.search(r"[?？]", question) or not _YES.match(reply):
        return ()
    return named_in(question, detect_language(question))


#: what a question names is one thing, or two at most, to be what a bare answer ends
_ASKED_THINGS = 2


def asked_about(turn: MemoryRecord) -> tuple[str, ...]:
    """The thing the bot's question ``turn`` asks about ("最近烟抽得怎么样了？" → 烟, "still doing the keto thing?"
    → keto), or () when it is no question of the bot's or names more than :data:`_ASKED_THINGS`."""
    if turn.metadata.get("role") != "assistant" or not re.search(r"[?？]\s*$", turn.content):
        return ()
    asked = [s for s in re.split(r"(?<=[。！!.?？])\s*", turn.content.strip()) if s][-1]  # its last sentence
    named = named_in(asked, detect_language(asked))
    return named if 0 < len(named) <= _ASKED_THINGS else ()


#: the turns before a bare ending looked at for what it ends
_LOOK_BACK = 3


def just_named(before: Sequence[MemoryRecord]) -> tuple[str, ...]:
    """The drink or the smoking the nearest of the turns ``before`` names, when it names one kind only."""
    for turn in reversed(before):
        named = consumed_words(turn.content)
        if named:
            return named if len({k for w in named for k in kinds_of(w)}) == 1 else ()
    return ()


def says(content: str, term: str) -> bool:
    """Does ``content`` say ``term`` (an English word whole, case aside; Chinese as a substring)?"""
    if term.isascii():
        return re.search(rf"(?<![A-Za-z]){re.escape(term)}(?![A-Za-z])", content, re.IGNORECASE) is not None
    return term in content


def ended_by(ending: Ending, term: str, records: Sequence[MemoryRecord],
             groups: Collection[str] = ()) -> list[MemoryRecord]:
    """Those of ``records`` that ``ending`` ends by ``term``: those that say the word (none when the speaker
    says it too often to mean one thing), and those that name a thing of its kind (戒咖啡 ends "每天两杯美式").
    ``groups`` are the user's group chats (stored per sender): what the user said there is their own, under
    whatever name the group shows (write/groups.py)."""
    turn = ending.turn
    own = [r for r in records if _earlier_own(r, turn, groups)]
    said = [r for r in own if says(words := _without_name(r), term) or _said_in_parts(words, term)]
    if sum(r.kind is Kind.EPISODE for r in said) > COMMON_TURNS:
        said = []
    kinds = kinds_of(term)
    if kinds:
        said += [r for r in own if r not in said and kinds & kinds_of(_without_name(r))]
    return [r for r in said if not r.metadata.get(ENDED_KEY) and not _ends_it(r, term, kinds)]


#: a Chinese activity named by when it is done and its verb (晨跑, 夜跑, 午睡, 晚练): the time said in full
_WHEN_PREFIX = {"晨": "(?:早上|早晨|清晨|每天早|晨)", "早": "(?:早上|早晨|每天早)", "夜": "(?:晚上|夜里|每晚|夜)",
                "晚": "(?:晚上|每晚|晚)", "午": "(?:中午|午)"}


def said_in_parts(term: str) -> bool:
    """Is ``term`` an activity that may be said in its parts (晨跑: 早上…跑)?"""
    return len(term) == 2 and term[0] in _WHEN_PREFIX and "\u4e00" <= term[1] <= "\u9fff"


def _said_in_parts(content: str, term: str) -> bool:
    """Does ``content`` say the activity ``term`` in its parts: "每天早上都跑" for 晨跑, "每晚都练" for 晚练?"""
    if not said_in_parts(term):
        return False
    return re.search(f"{_WHEN_PREFIX[term[0]]}[^，。,！!？?\\s]{{0,8}}{term[1]}", content) is not None


def _without_name(rec: MemoryRecord) -> str:
    """``rec``'s words less its speaker's display name ("晚晴不吃香菜要求回复简短" names no 香菜)."""
    return rec.content.replace(rec.speaker, " ") if rec.speaker else rec.content


def _ends_it(rec: MemoryRecord, term: str, kinds: frozenset[str]) -> bool:
    """Does ``rec`` itself say the thing is over (用户戒了咖啡 is the ending, not what it ends)?"""
    said = ended_terms(rec.content, detect_language(rec.content))
    return term in said or bool(kinds and any(kinds & kinds_of(t) for t in said))


def _earlier_own(rec: MemoryRecord, turn: MemoryRecord, groups: Collection[str] = ()) -> bool:
    """Is ``rec`` the turn's speaker's (not the bot's), of another message, said before it (or with it: a
    batch's turns may share one time; the caller offers only those before it)?"""
    return (rec.kind is not Kind.SUMMARY and rec.metadata.get("role") != "assistant"
            and _speaker(rec, groups) == _speaker(turn, groups)
            and not set(rec.source_ids) & set(turn.source_ids)
            and (rec.created_at <= turn.created_at  # (a plan said before, for a day after: 下个月入职)
                 or (rec.valid_from or rec.created_at) <= (turn.valid_from or turn.created_at)))


#: how soon after a turn the bot's answer and the speaker's reply to it carry the same thread on
THREAD_MINUTES = 15


def carried_on(turn: MemoryRecord, after: Sequence[MemoryRecord], term: str) -> list[MemoryRecord]:
    """The speaker's reply that carries on ``turn``'s talk of ``term``: the bot's next turn names it too, and the
    speaker answers right after ("生酮第三周 瘦了四斤" → "生酮期间注意补充电解质" → "嗯嗯 米饭面条一口不碰": the
    rice is the diet's). ``after`` holds the conversation's turns from ``turn`` on; each turn names the one before
    it (``metadata["prev_id"]``), else their times give the order."""
    answer, reply = _next(turn, after), None
    if answer is not None and answer.metadata.get("role") == "assistant" and says(answer.content, term):
        reply = _next(answer, after)
    elif answer is not None and answer.metadata.get("role") != "assistant" and _names_nothing(answer.content):
        reply = answer  # "办了张健身年卡" → "打算逢一三五收工去练": the next turn, naming nothing, goes on about it
    if reply is None or reply.metadata.get("role") == "assistant" or (reply.speaker or None) != (turn.speaker or None):
        return []
    return [reply] if (reply.created_at - turn.created_at).total_seconds() <= THREAD_MINUTES * 60 else []


#: nouns that name no thing a turn could be about: when, and the day's routine
_NO_THING = frozenset({"收工", "下班", "上班", "放学", "周末", "时间", "晚上", "早上", "平时", "以后", "之后", "到时候"})


def _names_nothing(text: str) -> bool:
    """Is ``text`` a Chinese turn that names no thing of its own and does something (打算逢一三五收工去练, 每周去三次):
    a clause whose object was said in the turn before it."""
    if detect_language(text) != "zh" or len(text) > 30:
        return False
    from jiyi.text.lexical import tagged

    words = tagged(text)
    return (any(t == "v" for _, t in words)
            and not any(t in ("n", "nz", "nw", "vn", "PER", "LOC", "ORG", "r") and w not in _NO_THING for w, t in words))


def _next(turn: MemoryRecord, after: Sequence[MemoryRecord]) -> MemoryRecord | None:
    """The turn right after ``turn`` among ``after``."""
    linked = [t for t in after if t.metadata.get("prev_id") in turn.source_ids]
    if linked or turn.metadata.get("prev_id") or any(t.metadata.get("prev_id") for t in after):
        return linked[0] if linked else None
    later = [t for t in after if t.created_at >= turn.created_at and t.id != turn.id]
    return min(later, key=lambda t: t.created_at, default=None)


def said_alongside(rec: MemoryRecord) -> bool:
    """Is ``rec`` a memory that ends with the thing its turn was about: the speaker's own unkeyed statement
    ("用户每周六下午上课" beside "报了个尤克里里班"), not a keyed fact (a city, a job, an allergy holds on its
    own), nor someone else's, nor an event with its own day?"""
    return (rec.kind in (Kind.FACT, Kind.BEHAVIOR, Kind.PREFERENCE) and rec.slot is None
            and not rec.content.startswith(("用户的", "User's", "user's")) and not rec.metadata.get(ENDED_KEY))


def _speaker(rec: MemoryRecord, groups: Collection[str]) -> str | None:
    """Who said ``rec``: None for the user themselves, which they are in a group chat stored per sender."""
    return None if rec.session_id in groups else (rec.speaker or None)


def marked(rec: MemoryRecord, ending: Ending) -> MemoryRecord:
    """``rec`` marked as ended by ``ending``'s turn."""
    return rec.replace(metadata={**rec.metadata, ENDED_KEY: ending.turn.id})
