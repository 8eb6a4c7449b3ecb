"""Forget by message: "忘记我的住址" / "forget my address" / "把我的手机号删了" / "forget everything".

A user's request to forget is an instruction, not a memory: the turn that says it is not
stored, and the memories it names (facts, and the raw turns that said them) are deleted,
in the sender's own scope only. Policy for "everything" ("忘记我说过的所有话",
"forget everything you know about me"): every memory of that user is deleted and the
write result lists each one, so the bot can say what it forgot (docs/privacy.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jiyi.privacy.detect import PLACEHOLDER, find_values
from jiyi.records import MemoryRecord, Status

#: topic → (words that name it in a request, words / slot parts that show it in a memory, value kinds)
TOPICS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "address": (r"住址|地址|家庭住址|住在哪|家在哪|address|where\s+i\s+live",
                r"住址|地址|住在|家在|address|lives?\s+at", ("address",)),
    "phone": (r"手机号?|电话(?:号码?)?|号码|联系方式|phone(?:\s+number)?|mobile(?:\s+number)?|cell(?:\s+number)?|^number$",
              r"手机|电话|phone|mobile", ("phone",)),
    "email": (r"邮箱|邮件地址|e-?mail", r"邮箱|e-?mail", ("email",)),
    "id_number": (r"身份证号?|证件号?|护照号?|id\s+number|passport|ssn|social\s+security",
                  r"身份证|证件|护照|id\s+number|passport|ssn", ("id_number",)),
    "password": (r"[\w\u4e00-\u9fff]{0,4}密码|口令|pin\s*码?|passwords?|passcodes?|\bpin\b",
                 r"密码|口令|password|passcode|\bpin\b", ("password",)),
    "bank_card": (r"银行卡号?|卡号|信用卡|(?:credit\s+|debit\s+|bank\s+)?card(?:\s+number)?",
                  r"银行卡|卡号|信用卡|card", ("bank_card",)),
    "code": (r"验证码|动态码|one[-\s]time\s+codes?|otp|verification\s+codes?", r"验证码|动态码|code|otp", ("code",)),
    "api_key": (r"密钥|秘钥|api\s*keys?|tokens?", r"密钥|秘钥|api\s*key|token", ("api_key",)),
}

_ZH_VERB = r"(?:忘记|忘掉|删掉|删除|清除|抹掉|抹去|别再?记(?:住|着)?|不要再?记(?:住|着)?|不用再?记(?:住|着)?)"
_ZH_FORGET = (
    re.compile(rf"^(?:请|麻烦你?|你)?(?:帮我)?{_ZH_VERB}(?:掉|了)?(?P<t>.+?)(?:吧|了|啊|呀|哦|好吗|可以吗)*$"),
    re.compile(r"^(?:请|麻烦你?|你)?(?:帮我)?(?:把|将)(?P<t>.+?)(?:给我|都|全)?"
               r"(?:忘记|忘掉|忘了|删掉|删了|删除|清除|清空|抹掉|去掉)(?:吧|了|啊|呀|哦|好吗|可以吗)*$"),
)
_EN_FORGET = re.compile(
    r"(?i)^(?:please\s+|hey,?\s+|ok,?\s+)?(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:forget|delete|erase|remove|wipe|clear|stop\s+remembering|don'?t\s+remember|do\s+not\s+remember)"
    r"\s+(?:about\s+)?(?P<t>.+?)(?:\s+(?:please|anymore|any\s+more|for\s+good|from\s+(?:your\s+)?memory))*"
    r"[\s.!?]*$")
_EVERYTHING = re.compile(
    r"(?i)^(?:我说过的|我讲过的|我告诉你的|关于我的|我的)?(?:所有|全部|一切)(?:的)?(?:话|事|事情|内容|东西|记忆|信息|资料)?"
    r"$|^(?:我说过的|我讲过的|我告诉你的)(?:话|事|内容|东西)?$"
    r"|^(?:everything|all)(?:\s+(?:you\s+know|i(?:'ve)?\s+(?:said|told\s+you)|about\s+me|of\s+it))*$"
    r"|^(?:all\s+)?(?:of\s+)?(?:my\s+)?(?:memories|data|info(?:rmation)?)(?:\s+about\s+me)?$"
    r"|^(?:what|everything)\s+i(?:'ve)?\s+(?:said|told\s+you)$")
_OWN = re.compile(r"(?i)^(?:关于)?我(?:的|家的?)?|^(?:about\s+)?(?:my|me)\b")
_TRAILING = re.compile(r"(?:这件事|这事|的事|这个|信息|记录|吧|了|啊)+$|(?i:\s+(?:info(?:rmation)?|details?|too))+$")


@dataclass(slots=True, frozen=True)
class ForgetRequest:
    """What a message asks to forget: named topics, free words, or everything."""

    everything: bool = False
    topics: tuple[str, ...] = ()
    words: str = ""  # a free target ("我喜欢猫", "my birthday") when no topic names it
    said: str = ""  # the request as said (for the history)
    sources: tuple[str, ...] = ()  # ids of the messages that asked (their turns are not kept either)

    def describe(self) -> str:
        if self.everything:
            return "everything"
        return ", ".join(self.topics) or self.words


def detect_forget(text: str) -> ForgetRequest | None:
    """The forget request in ``text``, or None. Only a request about the user's own things counts:
    "忘了带伞" or "forget it" is not one."""
    s = text.strip().rstrip("。！!.？?~～ ")
    target = None
    for pattern in (*_ZH_FORGET, _EN_FORGET):
        if m := pattern.match(s):
            target = m.group("t").strip(" ，,：:")
            break
    if not target:
        return None
    if _EVERYTHING.match(target) or _EVERYTHING.match(_OWN.sub("", target).strip()):
        return ForgetRequest(everything=True, said=text)
    own = _OWN.match(target)
    core = _TRAILING.sub("", _OWN.sub("", target).strip(" 的")).strip()
    topics = tuple(t for t, (asked, _, _) in TOPICS.items() if re.search(rf"(?i)(?:{asked})", core))
    if topics:
        return ForgetRequest(topics=topics, said=text)
    if own and len(core) >= 2:
        return ForgetRequest(words=core, said=text)
    return None


def matches(rec: MemoryRecord, req: ForgetRequest) -> bool:
    """True when ``rec`` is one of the memories ``req`` names (a deleted one never is)."""
    return rec.status is not Status.DELETED and mentions(rec.content, req, slot=rec.slot)


def mentions(text: str, req: ForgetRequest, *, slot: str | None = None) -> bool:
    """True when ``text`` (a memory's content, a buffered turn) is about what ``req`` names."""
    if req.everything:
        return True
    if req.topics:
        return any(_about_topic(text, slot, topic) for topic in req.topics)
    return _about_words(text, req.words)


def _about_topic(text: str, slot: str | None, topic: str) -> bool:
    _, shown, kinds = TOPICS[topic]
    if re.search(rf"(?i)(?:{shown})", f"{slot or ''} {text}"):
        return True
    if any(re.search(rf"(?i)(?:{shown})", m.group("label")) for m in PLACEHOLDER.finditer(text)):
        return True
    return any(f.kind in kinds for f in find_values(text))


def _about_words(content: str, words: str) -> bool:
    text = content.lower()
    w = words.lower()
    if w in text or w.replace("我", "用户") in text:
        return True
    parts = [p for p in re.split(r"\W+", w) if len(p) >= 3]
    return bool(parts) and all(p in text for p in parts)


def forgotten(records: Iterable[MemoryRecord], requests: Sequence[ForgetRequest]) -> list[MemoryRecord]:
    """The records any of ``requests`` names (each once)."""
    return [r for r in records if any(matches(r, q) for q in requests)]
