"""What a message says is over, by the names it says: 瑞幸那份工作结束了, 和佳怡彻底断了, "no more pinecone".

:mod:`jiyi.text.topics` reads a change by its class and the family it changes. Many changes
name what ended instead (a place, an employer, a person, a pet's name, a diet's word) with a
word of ending that belongs to no class: 退租, 断了, 停了, "done with", "out of". Beside a name
a standing memory gave, such a word ends that memory whatever its family
(:func:`jiyi.write.resolve.topic_targets`), and the speaker's earlier turns that name it
(:func:`named_over`).

:func:`ends_named` holds the guards: the name and the word of ending in one clause, close
together; the name not the agent of what happens to something else (凯文把我的耳机弄丢了,
"nate dumped all his old clothes"); no preposition between them ("left my keys at rosa's").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from jiyi.text.places import place_at_start
from jiyi.text.topics import CLAUSE_CUT, ENDINGS, ENDS_A_THING, SAID_OF_ANYONE, Lex, names
from jiyi.text.verb_senses import degree_complement

_P = re.compile

#: words that say something is over, whatever it is
_OVER = Lex(_P(r"结束了|断了|没了|不在了|甩了|离开|退租|转租|租出去|卖了|卖掉|送人|送给|送走|转让|倒闭|关门|(?<=[店铺档摊馆室])(?:也|都)?关了|关店|注销|退坑|卸载|删了|扔了|"
               r"拉黑|告别|到期|毕业了|离了|不干了|不做了|不去了|不养了|不开了|不骑了|不玩了|再见了|拜拜了|停了|算了|破戒|坚持不下去|"
               r"不学了|不练了|不续了|不续费了|退卡|(?:卡|会员)(?:也|都)?退了|退会|退群|退团|退社|退出了?|"
               r"前(?:男友|女友|男朋友|女朋友|任|夫|妻)|"  # 我前男友阿凯: the one it names is an ex
               r"(?:没过(?!多久|几天|一会|两天|几分钟|敏|来|去|年|节|生日)|没通过|被刷|被拒|落选|没录上|没被录取)"
               r"(?![^。！？!?]{0,10}?(?:再|重考|下次|二战|继续|明年))"),  # 初审没过: applied for, turned down
            _P(r"(?i)\b(?:gone(?!\s+(?:for|to|till|until|out|on|off|home|back|shopping|away|crazy|wild|up|down))|ghosted|"
               r"ended|closed|shut\s+down|deleted|uninstalled|cancel+ed|returned|"
               r"handed\s+(?:back|in)|anymore|no\s+more|no\s+longer|done\s+with|passed\s+away|sold|dumped|quit|"
               r"left|broke\s+up|split|rehomed|gave\s+away|put\s+down|(?:moved|got|finally|officially)\s+out\s+of|"
               r"(?:is|was|'s)\s+(?:over|finished|done)|(?:thing|plan|diet|experiment|idea|project|streak|phase|era)\s+"
               r"(?:is|was|'s)\s+dead|(?:experiment|streak|challenge|phase)\s+over|didn'?t\s+last|"
               r"broke|caved|dropped(?!\s+(?:off|by|in)\b)|(?<=[a-z])(?:'s|\s+has)\s+(?:gotta|got\s+to)\s+go|"
               r"(?:was|is)n'?t\s+(?:really\s+)?for\s+me|my\s+ex(?:-?(?:bf|gf|boyfriend|girlfriend|husband|wife))?|"
               # applied for, turned down: "didn't get the residency", "the fellowship rejected me", "iloilo said no"
               r"didn'?t\s+get\s+(?=(?:the|a|an|my|that)\s+(?:[\w-]+\s+)?(?:job|role|position|offer|place|spot|residency|"
               r"fellowship|scholarship|grant|visa|internship|flat|apartment|house|loan|promotion|lease)\b)|"
               r"rejected\s+(?:me|us)|turned\s+(?:me|us)\s+down|(?<=[a-z])\s+said\s+no)\b"))
#: every word of ending: the change classes' that end something, and the rest
_ENDERS: tuple[Lex, ...] = (*ENDINGS, _OVER)
#: the words of ending that end a thing the speaker had or did, whatever it is (text/ended.py)
ENDING_WORDS: tuple[Lex, ...] = (*ENDS_A_THING, _OVER)
#: what a name does to something else when it stands before it: 凯文把我的耳机弄丢了, 雨桐跟她前男友断了
_ZH_AGENT = _P(r"^(?:把|给|让|帮|替)|^(?:跟|和|与|对)(?!我|用户)")
_EN_AGENT = _P(r"(?i)^(?:'s\s+(?!not\b|been\b|gone\b|no\b|never\b|over\b|done\b|dead\b)\w+|"
               r"\s+(?:\w+\s+)?(?:\w+ed|lost|left|broke|sold|quit|gave|took)\s+(?:all\s+)?"
               r"(?:his|her|their|the|a|an|some|our|its|my)\b)")
#: how far apart the name and the word of ending may stand (characters)
_NEAR = {"zh": 10, "en": 30}
#: a preposition between the ending and the name: the name is where, not what, ended ("left my keys at rosa's")
_EN_ASIDE = _P(r"(?i)\b(?:at|to|from|for|in|on|into|by|near)\b")
#: a diet or a regimen named by its word, not by a name: its word is what a change names
_DIET_WORDS = Lex(_P(r"吃素|素食|纯素|蛋奶素|鱼素|生酮|断食|轻断食|减脂餐|低脂饮食|低脂|低碳|控糖|戒糖"),
                  _P(r"(?i)\b(?:vegan|vegetarian|pescatarian|keto|paleo|whole\s?30|carnivore|low-carb|"
                     r"(?:sugar|dairy|gluten|meat)-free|intermittent\s+fasting)\b"))


def says_over(text: str, lang: str) -> int | None:
    """Where the first word of ending of :data:`_OVER` ends in ``text``, or None."""
    m = _OVER.search(text, lang)
    return m.end() if m else None


def ends_named(text: str, lang: str, name: str) -> bool:
    """Does ``text`` say that what ``name`` names is over (the guards: module docstring)?"""
    low, key = text.lower(), name.lower()
    if len(key) < 2 or key not in low:
        return False
    for m in re.finditer(re.escape(key), low):
        if (_ZH_AGENT if lang == "zh" else _EN_AGENT).match(text[m.end():]):
            continue
        cuts = [c.end() for c in CLAUSE_CUT.finditer(text, 0, m.start())]
        start = cuts[-1] if cuts else 0
        end = (CLAUSE_CUT.search(text, m.end()) or re.search(r"$", text)).start()
        clause = text[start:end]
        for lex in _ENDERS:
            for e in (lex.zh if lang == "zh" else lex.en).finditer(clause):
                if lang == "zh" and (degree_complement(clause, e) or SAID_OF_ANYONE.fullmatch(e.group(0))):
                    continue  # 小橘热死了: very hot, not gone; 阿强电话挂了: a call, not a death
                gap = max(e.start() + start - m.end(), m.start() - (e.end() + start))
                if lang == "en" and gap < 0:
                    continue  # the word is the ending's own ("Wrapped up at the Alliance": no name "Wrapped")
                between = text[e.end() + start:m.start()] if m.start() > e.end() + start else ""
                if gap <= _NEAR[lang] and not (lang == "en" and _EN_ASIDE.search(between)):
                    return True
    return False


def named_over(text: str, lang: str, also: Iterable[str] = ()) -> tuple[str, ...]:
    """The names ``text`` says are over: those it says itself (places typed without capitals too), and
    those of ``also`` (the names of the memories a change closed)."""
    said = [*names(text, lang), *(places_said(text) if lang == "en" else ()), *also]
    return tuple(n for n in dict.fromkeys(said) if n not in ("User", "用户") and ends_named(text, lang, n))


#: a workplace said by what it is (那个破扫地机厂子, 之前那家奶茶店, 原来的单位): not where a leave is headed
_ZH_WORKPLACE = _P(r"(?<![去到进跳转调在的])(?:那个|那家|这个|这家|之前那?家?|原来的?|以前的?|老)?破?"
                   r"(?P<v>(?![我你他她在的那这个家])[\u4e00-\u9fff]{1,6}?(?:厂子|工厂|厂|公司|单位|店|门店|铺子|集团|机构|"
                   r"工作室|事务所))"
                   r"(?=[^，。,！!？?]{0,6}?(?:我|俺|老子|终于|已经|总算)?[^，。,！!？?]{0,4}?"
                   r"(?:跑路|辞职|离职|辞了|不干了|不待了|不做了|走人|溜了|撤了))")


def workplace_left(text: str, lang: str) -> tuple[str, ...]:
    """The workplace a Chinese leave names by what it is, before the verb ("那个破扫地机厂子我跑路了" → 扫地机厂子)."""
    if lang != "zh":
        return ()
    return tuple(dict.fromkeys(m.group("v") for m in _ZH_WORKPLACE.finditer(text) if len(m.group("v")) >= 3))


def regimen_words(content: str, lang: str) -> tuple[str, ...]:
    """The diet words a standing memory says (用户在吃减脂餐 → 减脂餐; "User is on keto" → keto)."""
    return tuple(m.group(0) for m in (_DIET_WORDS.zh if lang == "zh" else _DIET_WORDS.en).finditer(content))


def places_said(text: str) -> tuple[str, ...]:
    """Known places an English text names, typed with capitals or not ("out of dallas" → Dallas)."""
    out: list[str] = []
    for m in re.finditer(r"(?<![\w'-])[A-Za-z][\w.'-]*", text):
        if (found := place_at_start(re.split(r"[,.;:!?()]", text[m.start():], maxsplit=1)[0])) is not None:
            out.append(found[0])
    return tuple(dict.fromkeys(out))
