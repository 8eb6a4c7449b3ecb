"""How the speaker feels about what a turn names: liking (+1), disliking (-1), or neither (0).

"超爱螺蛳粉 一周三顿" then "螺蛳粉吃伤了 现在闻到就想吐"; "ramen is my love language" then "so sick of it now"; "最讨厌
跑步" then "爱上跑步了"; "在追《长夜灯》 太好看了" then "长夜灯烂尾了 气死". A newer turn whose feeling about a thing
turns over tells that the old feeling no longer holds (read/overtaken.py). The feeling is the last one the turn
says (以前超爱 现在吃伤了: disliking now); what it is about is what both turns name.
"""

from __future__ import annotations

import re

from jiyi.text.turn_topics import TURN_CLAUSE

_P = re.compile

#: disliking, or no longer liking (a negated liking is read first: 不喜欢 is no 喜欢)
_ZH_DISLIKE = _P(r"(?:不|没|别)(?:太|怎么|那么|再|咋)?(?:喜欢|爱[吃喝看玩]?|想[吃喝看]|感兴趣)|讨厌|烦死|[吃喝看玩听]腻|腻了|"
                 r"[吃喝]伤|想吐|恶心|受不了|难吃|难喝|难看|烂尾|弃[了剧坑]|脱粉|粉转黑|踩雷|不香了|无感|劝退|拉黑|"
                 r"别(?:再)?(?:给我)?推(?:荐)?")
_ZH_LIKE = _P(r"喜欢|爱上|迷上|爱[吃喝看玩]|[最超好真热]爱|好吃|好喝|好看|上头|入坑|真香|太香|绝了|离不开|上瘾")
_EN_DISLIKE = _P(r"(?i)\b(?:hate[sd]?|hating|sick\s+of|tired\s+of|fed\s+up|can'?t\s+stand|cannot\s+stand|gross|"
                 r"done\s+with|over\s+it|not\s+a\s+fan|no\s+longer\s+(?:like|love|into)|(?:don'?t|do\s+not|doesn'?t)\s+"
                 r"(?:like|love|enjoy)|stopped\s+(?:liking|loving|enjoying)|ruined|dropped\s+it|gave\s+up\s+on)\b")
_EN_LIKE = _P(r"(?i)\b(?:love[sd]?|loving|obsessed|favou?rite|fave?|can'?t\s+get\s+enough|hooked|really\s+into|"
              r"big\s+fan|addicted|enjoy(?:s|ed|ing)?)\b")
#: the feeling's object after its word (讨厌跑步, 爱上跑步, 迷上了攀岩): a word of two characters or more
_ZH_OBJECT = _P(r"(?:喜欢|爱上|迷上|讨厌|受不了|[最超好真热]爱)(?:上|了|的)?(?P<o>[\u4e00-\u9fff]{2,4}?)(?=[了的啊呀吧啦呢，,。！!？?\s]|$)")


def feeling(text: str, lang: str) -> int:
    """The speaker's last said feeling in ``text``: +1 liking, -1 disliking, 0 none."""
    dislike, like = (_ZH_DISLIKE, _ZH_LIKE) if lang == "zh" else (_EN_DISLIKE, _EN_LIKE)
    for clause in reversed([c for c in TURN_CLAUSE.split(text) if c.strip()]):
        if dislike.search(clause):
            return -1
        if like.search(clause):
            return 1
    return 0


def liked_objects(text: str, lang: str, stop: frozenset[str] = frozenset()) -> set[str]:
    """What a feeling may be about in ``text`` beyond the nouns a turn names: the object of a feeling word in
    Chinese (跑步 of 最讨厌跑步), the words of four letters or more in English (ramen), less ``stop``."""
    if lang == "zh":
        return {m.group("o") for m in _ZH_OBJECT.finditer(text)}
    return {w for w in re.findall(r"[a-z][a-z']{3,}", text.lower())
            if w not in stop and not _EN_LIKE.fullmatch(w) and not _EN_DISLIKE.fullmatch(w)}
