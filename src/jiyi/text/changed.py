"""Does a statement tell that something changed? The broad reading, for pairing a turn with an older one by
other means (likeness, a rare word both say): moved, swapped, raised or cut (text/replaced.py), put off, called
off, out of use, given up, sold, lost, left, ended (text/topics.py), or "the old place" it speaks of now. Given the
message's vector, a probe on the embedding (text/probe.py, trained on 3,580 messages written blind by two writers) also reads
changes said in words no rule knows ("仓库那摊子不归我管了 现在坐前台")."""

from __future__ import annotations

import re

import numpy as np

from jiyi.text import topics
from jiyi.text.language import detect_language
from jiyi.text.probe import probe_says
from jiyi.text.replaced import moved_or_swapped
from jiyi.text.script import simplified

#: put off, brought forward, called off, moved elsewhere, out of use (besides text/replaced.py's moved or swapped)
_PUT_OFF = re.compile(r"推迟|延期|延后|顺延|改期|提前到|取消|不办了|停用|停办|暂停|(?:迁|搬|挪)(?:到|去|至)|"
                      r"(?i:\bpostponed?\b|\bpush(?:ed)?\b|\bdelayed\b|\bbrought\s+forward\b|\bcancell?ed\b|"
                      r"\bcalled\s+off\b|\bmoved\b|\bchange\s+to\b|\bscrap(?:ped)?\s+(?:the|that|it)\b|\binstead\b(?!\s+of)|"
                      r"\bchange\s+of\s+plans?\b|\bplans?\s+(?:have\s+|has\s+)?changed\b)|push咗|推咗|"  # ("venue change to Room 3")
                      # a thing swapped for another: 编辑器也换了, 换掉了, 改用, 转neovim了
                      r"(?:也|都|早就?|已经)换(?:了|掉)|换掉了|(?:改|转)用|(?<![运旋扭])转(?=[A-Za-z][\w+-]*了)")
#: what held before, spoken of as such: 以前那家健身房, 原来那个房子, "the old place", "my old gym"
_FORMER = re.compile(r"(?:以前|之前|原来|原先)(?:那|的那|住的|上班的|的)(?:家|个|间|套|份|辆|只|条)|"
                     r"(?i:\b(?:the|my)\s+old\s+(?:place|one|job|gym|flat|apartment|house|car|team|school|company|"
                     r"office|number|phone)\b)")


#: the change probe's chance from which a message tells a change (0.7 over 0.8 on the regression files; on held-out
#: folds of its second writer's messages the probe is 84% right at 0.5)
CHANGE_CHANCE = 0.7


def tells_change(text: str, vector: np.ndarray | None = None, model: str = "") -> bool:
    """Does ``text`` tell that something changed (see the module)? ``vector`` is its embedding by ``model``."""
    lang = detect_language(text)
    read = simplified(text)
    if (moved_or_swapped(text, lang) is not None or _PUT_OFF.search(read) is not None
            or _FORMER.search(read) is not None or topics.change_of(text, lang) is not None):
        return True
    return probe_says("change", vector, model, CHANGE_CHANCE)


#: a condition of the body, a diet, a faith's food: a change beside it (a move, a new job) never ends it; only words
#: about it do (read/group_said.py, read/nearest_change.py)
CONDITION = re.compile(r"(?i)过敏|不耐受|哮喘|糖尿病|高血压|血糖|血压|怀孕|孕|预产期|吃素|素食|忌口|清真|回族|穆斯林|"
                       r"病|炎|晕车|晕船|手术|骨折|椎|(?<!心)疼|(?<!心)痛(?!快)|不吃|唔食|不喝|戒口|拜佛|拜观音|信佛|"
                       r"allerg|intoleran|asthma|diabet|pregnan|vegan|vegetarian|celiac|gluten|halal|kosher|muslim|"
                       r"\bjain\b|religio|\bno\s+(?:pork|beef|meat|onion|garlic)|don'?t\s+eat|sick|disease|injur|surgery|"
                       r"\bpain|\bache|\bhurts?\b")

