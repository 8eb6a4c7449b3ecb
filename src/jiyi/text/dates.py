"""Does a statement carry a calendar date as the write path renders one (2026年10月3日, 2026-10-03, October 2026)?

A memory that names its day is a happening or an appointment, not a standing state: the resolver
closes no such memory on a change of topic, and the block does not count it as lasting news.
"""

from __future__ import annotations

import re

DATED = re.compile(r"\d{4}年\d{1,2}月|\b\d{4}-\d{2}-\d{2}\b|\b(?:January|February|March|April|May|June|July|"
                   r"August|September|October|November|December) \d{4}\b")


def names_a_date(text: str) -> bool:
    return DATED.search(text) is not None
