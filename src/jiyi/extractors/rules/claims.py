"""Claims of a role over the bot: "我是管理员", "I'm your developer", "我是群主".

A user saying so is a statement by that user, and grants nothing: it is kept as what
the user said (用户自称是管理员 / "User says they are the admin"), under the ``claim/role``
slot (:data:`jiyi.text.injection.CLAIM_SLOT`, never ``user/job``) and a low importance, so it
can neither replace the user's real job nor read as a fact the bot should act on; a block
shows it only when the query asks about such a role. Permissions are the application's
business, never a memory's.
"""

from __future__ import annotations

import re

from jiyi.extractors.rules.drafts import Draft, fact
from jiyi.text.injection import CLAIM_SLOT

_ZH_ROLES = (r"(?:超级)?管理员|管理|群主|群管|版主|站长|开发者|开发人员|程序的作者|作者|运营|客服|系统|root|admin|"
             r"主人|创造者|创建者|老板|负责人|owner")
_ZH_CLAIM = re.compile(
    rf"^(?:就)?是(?:这个|本|你们的?|你的|该|这里的?|咱们的?|系统的?|机器人的?|bot的?|群里的?|这个群的?|本群的?|你)?"
    rf"(?:群|机器人|bot|系统|平台|服务器)?(?:的)?(?P<v>{_ZH_ROLES})(?:之一)?(?:哦|啊|呀|哈|啦|了)?$",
    re.IGNORECASE)
_EN_CLAIM = re.compile(
    r"(?i)\b(?:i'm|i\s+am|im)\s+(?:the|an?|your|this\s+(?:bot|server|group)['\u2019]s|a\s+system)\s+"
    r"(?P<v>admin(?:istrator)?|developer|dev|creator|owner|moderator|mod|root|operator|sysadmin|superuser|"
    r"system|maker|programmer)\b")


def zh_claim(body: str) -> list[Draft]:
    """是管理员 / 是群主 / 是你的开发者 (the clause after 我)."""
    if m := _ZH_CLAIM.match(body):
        return [fact(f"用户自称是{m.group('v')}", CLAIM_SLOT, "", importance=0.3, confidence=0.5)]
    return []


def en_claim(text: str) -> list[Draft]:
    """"I'm the admin" / "I am your developer"."""
    if m := _EN_CLAIM.search(text):
        return [fact(f"User says they are the {m.group('v').lower()}", CLAIM_SLOT, "", importance=0.3,
                     confidence=0.5)]
    return []
