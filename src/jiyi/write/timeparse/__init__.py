"""Time expressions → absolute spans, resolved against the MESSAGE's timestamp.

"明天" in a message sent on 2025-03-05 means 2025-03-06 forever, whenever the message
is processed, so every function here takes the reference time explicitly and never
reads the clock. The same code serves extraction (a plan's ``valid_from``) and query
understanding (``上个月`` → a window), so both sides agree on what a phrase means.

A :class:`TimeSpan` is ``[start, end)`` — end exclusive — in aware UTC, with a
granularity. Calendar arithmetic happens in ``tz`` (default: the reference's zone,
i.e. UTC for validated messages), so pass the user's zone when it is known.

Conventions (each is a choice; tests pin them):
- weeks start on Monday. ``下周三``/"next Wednesday" is the Wednesday of next week,
  ``这周五``/"this Friday" of this week, ``上周二``/"last Tuesday" of last week.
- a bare Chinese weekday (``周四``) is in the week of the last day mentioned in the
  same text, else this week; a bare English weekday ("on Friday") is the next one on or
  after today, or the last one on or before today when the sentence is in the past
  tense. ``周末``/"the weekend" is Saturday–Sunday of the week chosen the same way.
- a month and day without a year (``5月3日``, "May 8") take the year that puts the
  date nearest to the reference; a bare month (``五月``, "in May") the reference year;
  "last May" the latest May before this month, "next May" the first after it.
- a bare day of month (``26号``) is in the month of the last date mentioned in the
  same text (``12月16号到19号``), else the reference month.
- ``N个月前``/"3 months ago" is the whole month it lands in; likewise weeks and years;
  days are days. Clock times (``下午3点``, "at 3pm") are one-hour spans.
- ``X到Y``/"X to Y" becomes one span from X's start to Y's end.
- lunar dates (腊月二十六, 正月初八, 年廿八, 中秋, 除夕: :mod:`.lunar`) take the lunar year nearest to
  the reference; so do fixed solar holidays (国庆, 五一, 元旦, 618, 双十一, Christmas, Halloween…).
- anything after ``每``/"every" is a habit, not a date, and is skipped.

Modules: :mod:`.spans` (:class:`TimeSpan`, calendar arithmetic), :mod:`.numbers`
(numerals, numeric formats), :mod:`.zh` and :mod:`.en` (each language's rules),
:mod:`.engine` (scanning, attaching times of day, ranges).
"""

from __future__ import annotations

from jiyi.write.timeparse.engine import find_time_expressions, resolve_time
from jiyi.write.timeparse.numbers import cn_to_int
from jiyi.write.timeparse.spans import TimeSpan

__all__ = ["TimeSpan", "cn_to_int", "find_time_expressions", "resolve_time"]
