"""People and pets in the user's life: their names, and statements about them.

我老婆苏琳 / my wife Anna is a ``relation`` memory; single-valued relations (wife,
mother, boss…) carry a ``relation/<role>`` slot so a new name supersedes the old one,
many-valued ones (children, friends, pets) carry none. A clause whose subject is a
relative (我妈住在杭州, 她喜欢郁金香 right after 我老婆苏琳) becomes a statement about
that relative, never a fact about the user.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jiyi.extractors.rules.clauses import RecentRelation
from jiyi.extractors.rules.drafts import Clause, Draft, fact
from jiyi.records import Kind
from jiyi.text.person import third_person, tidy_zh
from jiyi.text.relations import SINGLE_VALUED, en_relation_names, zh_relation_names

if TYPE_CHECKING:
    from jiyi.extractors.rules.message import MessageExtraction


def relations(work: MessageExtraction, c: Clause) -> list[Draft]:
    """Names of people (我老婆苏琳 / my wife Anna) and statements about them."""
    out: list[Draft] = []
    if work.lang == "zh":
        named = zh_relation_names(c.text)
    else:
        named = en_relation_names(c.text)
    for word, key, name in named:
        slot = f"relation/{key}" if key in SINGLE_VALUED else None
        template = f"用户的{word}叫{{v}}" if work.lang == "zh" else f"User's {word} is named {{v}}"
        out.append(fact(template.format(v=name), slot, name, kind=Kind.RELATION, importance=0.7,
                        confidence=0.85, template=template))
    if c.subject == "rel" and not c.question and not work.qualifying(c):
        out += _relation_statement(work, c, [n for _, _, n in named])
    return out


def _relation_statement(work: MessageExtraction, c: Clause, names: list[str]) -> list[Draft]:
    if work.lang == "zh":
        text = work.content(c)
        if not text.startswith("用户"):  # 她喜欢… resolved to the relative just mentioned
            text = f"用户的{c.rel}{c.rel_name or ''}" + third_person(tidy_zh(c.body), "zh")
        rest = text.removeprefix(f"用户的{c.rel}")
    else:
        text = work.content(c)
        if text.lower().startswith(("he ", "she ", "it ", "they ")):
            text = f"User's {c.rel}{' ' + c.rel_name if c.rel_name else ''} " + text.split(" ", 1)[1]
        rest = text.split(c.rel or "", 1)[-1]
    for name in names + ([c.rel_name] if c.rel_name else []):
        rest = rest.replace(name, "", 1)
    if len(rest.strip(" ，,。.")) < 2:
        return []
    importance = 0.8 if re.search(r"过敏|allerg", text, re.IGNORECASE) else 0.6
    values = names + ([c.rel_name] if c.rel_name else [])
    return [Draft(Kind.RELATION, text, None, values, importance, 0.8)]


def recent_relation(c: Clause, found: list[Draft], recent: RecentRelation | None) -> RecentRelation | None:
    """The relative a following 她/他/she/he most likely refers to."""
    named = [d for d in found if d.kind is Kind.RELATION and d.template]
    if named:
        word = re.sub(r"^(?:用户的|User's )|(?:叫\{v\}| is named \{v\})$", "", named[-1].template or "")
        return word, named[-1].values[0] if named[-1].values else None
    if c.subject == "rel" and c.rel:
        return c.rel, c.rel_name
    return recent
