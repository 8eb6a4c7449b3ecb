"""Chinese chat written in a dialect's characters, read as Mandarin: 车卖咗 → 车卖了, 酒唔沾 → 酒不沾.

Cantonese speakers (Guangdong, Guangxi, Hong Kong) type their grammar words with characters of
their own: 咗 for the 了 of a finished action, 唔 for 不, 冇 for 没, 佢 for 他, 嘅 for 的, 喺 for 在,
係 for 是, 啲 for 些, 哋 for 们, 睇 for 看, 嗰 for 那, 而家 for 现在, 梗系 for 肯定. Northern and north-western chat ends a sentence with 咧
or 嘞 where Mandarin has 了 (那台车我卖咧), as Cantonese does with 喇 (唔做喇), south-western chat with 咯 (送给我舅咯), Changsha chat with 哒 (不搞哒, 掰哒) and
chat anywhere with 啦 (冇做啦); Wenzhou chat writes that 了 as 爻 (宝马卖爻了, 号码也换爻). Teochew and Hokkien say 许 for 那 before a measure word (许间厂: that factory),
毋 and 呣 for 不, 袂 for 不会 (去袂成: could not go), 阮 for 我 before a verb (阮毋做啊) and 啊 for the 了 after an ending verb
(阮辞啊, 毋做啊). Wu chat (Suzhou, Shanghai) writes 覅 and 勿 for 不, 伲 for 我 and ends a change with 哉 (茶伲覅吃哉 →
茶我不吃了); Wuhan chat says 克 for 去 (冇克成); Shanxi and Inner Mongolia chat 额 for 我 (额不去了). The rules that read a change (:mod:`jiyi.text.topics`,
:mod:`jiyi.text.ended`) are written in Mandarin; they read :func:`standard_zh` of a statement.

Each character maps to one character, so every index into the result is an index into the text
as typed (callers cut the original at the positions they found).
"""

from __future__ import annotations

import re

from jiyi.text.script import simplified

#: one dialect character -> its Mandarin word of one character (grammar words only: no content word
#: is rewritten, so a name or a place is never changed)
_ONE_FOR_ONE = str.maketrans({"咗": "了", "唔": "不", "冇": "没", "佢": "他", "嘅": "的", "喺": "在", "係": "是",
                              "啲": "些", "哋": "们", "睇": "看", "嚟": "来", "畀": "给", "嗰": "那", "𠮶": "那",
                              "伫": "在", "爻": "了", "毋": "不", "呣": "不", "袂": "不", "覅": "不", "勿": "不", "伲": "我"})  # Hokkien 佇 (伫 once simplified): 阮佇泉州 = 我们在泉州
#: dialect grammar words of two characters, each for a Mandarin word of two (而家住喺Camden: 现在住在Camden)
_TWO_FOR_TWO = {"而家": "现在", "宜家": "现在", "依家": "现在", "梗系": "肯定", "梗係": "肯定"}
_TWO = re.compile("|".join(_TWO_FOR_TWO))
#: Teochew / Hokkien 许 / 彼 (that) before a measure word: 许间厂我唔做了, 鞋厂彼爿 (许个 is also 许个愿, 许家 a family: left alone)
_THAT = re.compile(r"[许彼](?=[间只条阵位块搭摆件部辆爿])")
#: 咧 / 嘞 after a verb at the end of a clause: the 了 of a finished action (卖咧, 不干嘞); 咧嘴 is a grin
_FINAL_LE = re.compile(r"(?<=[\u4e00-\u9fff])(?<!么)[咧嘞喇啦咯哉哒](?=$|[\s，,。.!！?？~～…]|[啊呀哈])")
#: Hokkien 啊 for the 了 of a change, after a verb of ending or one negated by 毋 / 呣 / 袂 at the end of a clause (阮辞啊,
#: 鞋厂阮毋做啊); 好啊 / 是啊 are left alone
_ENDING_A = re.compile(r"(?:(?<=[辞卖退换搬])|(?<=[毋呣袂][\u4e00-\u9fff]))啊(?=$|[\s，,。.!！?？~～…])")
#: a pronoun of the speaker in a dialect, before a verb or a word of time or negation (阮佇泉州, 额不去了); 阮 is
#: also a surname (阮文), 额 a word of its own (额度, 额头): neither is read then
_SPEAKER = re.compile(r"(?:^|(?<=[\s，,。.!！?？~～…：:爿边]))[阮额](?=[佇伫在有毋呣袂不没冇欲要想是食吃做辞攏拢嘛也都就已现今去翁尪某囝])")
#: Wuhan 克 for 去 after a negation or before 成 (冇克成, 没克成): 克服 / 克制 are left alone
_WUHAN_GO = re.compile(r"(?<=[冇没不])克(?=成|了|过|$|[\s，,。!！])")


def standard_zh(text: str) -> str:
    """``text`` with its dialect grammar characters read as Mandarin, each position where it was, in simplified
    characters (車賣咗 → 车卖了: text/script.py)."""
    text = simplified(text)
    text = _THAT.sub("那", _TWO.sub(lambda m: _TWO_FOR_TWO[m.group(0)], text))
    text = _WUHAN_GO.sub("去", _SPEAKER.sub("我", _ENDING_A.sub("了", text)))
    return _FINAL_LE.sub("了", text.translate(_ONE_FOR_ONE))


__all__ = ["standard_zh"]
