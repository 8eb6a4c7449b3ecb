"""The scenario file (docs/scenarios.md): multi-session histories and probes, loaded and validated.

A file is ``{"format": "jiyi-scenarios/1", "scenarios": [...]}``; each scenario holds
sessions of messages (who said what, when) and probes (a query asked at a moment, with
expectations on the ``build_context`` block and/or the top-k ``search`` hits). Every
problem is reported as a :class:`ScenarioFileError` naming the place in the file
(``scenarios[2].probes[0].at: ...``), before anything runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from jiyi.errors import InvalidInput

FORMAT = "jiyi-scenarios/1"
ROLES = ("user", "assistant", "system")
#: A message without a timestamp comes this long after the one before it.
DEFAULT_STEP = timedelta(seconds=30)
DEFAULT_BUDGET = 800
DEFAULT_K = 10
#: Files shipped in the package, loadable by name (``jiyi eval --scenarios dev``).
BUNDLED = ("dev", "followup", "blind1", "blind2a", "blind2b", "blind3a", "blind3b", "blind4a", "blind4b", "blind5a", "blind5b",
           "blind6a", "blind6b", "blind7a", "blind7b", "blind8a", "blind8b",
           "blind9a", "blind9b", "blind10a", "blind10b", "blind11a", "blind11b", "blind12a", "blind12b",
           "blind13a", "blind13b", "blind14a", "blind14b", "blind15a", "blind15b", "blind16a", "blind16b", "blind17a", "blind17b",
           "blind18a", "blind18b", "blind19a", "blind19b", "blind20a", "blind20b", "blind21a", "blind21b",
           "blind22a", "blind22b", "blind23a", "blind23b", "blind24a", "blind24b",
           "blind25a", "blind25b", "blind26a", "blind26b", "blind27a", "blind27b",
           "blind28a", "blind28b", "blind29a", "blind29b", "blind30a", "blind30b", "blind31a", "blind31b",
           "blind32a", "blind32b", "blind33a", "blind33b")


class ScenarioFileError(InvalidInput):
    """The scenario file is malformed; the message names the place and what is expected there."""


@dataclass(slots=True, frozen=True)
class Needle:
    """One phrasing: plain text, a regular expression, or a calendar date in any common rendering."""

    text: str | None = None
    regex: str | None = None
    date: date | None = None

    def describe(self) -> str:
        if self.regex is not None:
            return f"/{self.regex}/"
        if self.date is not None:
            return f"date {self.date.isoformat()}"
        return json.dumps(self.text, ensure_ascii=False)


#: Alternatives: the group holds when any one of them is found.
Group = tuple[Needle, ...]


@dataclass(slots=True, frozen=True)
class Exclude:
    needles: Group
    unless_marked_past: bool = False


@dataclass(slots=True, frozen=True)
class RanksAbove:
    above: Group
    below: Group


@dataclass(slots=True, frozen=True)
class BlockExpect:
    include: tuple[Group, ...] = ()
    exclude: tuple[Exclude, ...] = ()
    well_formed: bool = False
    nonempty: bool = False


@dataclass(slots=True, frozen=True)
class HitsExpect:
    k: int = DEFAULT_K
    include: tuple[Group, ...] = ()
    exclude: tuple[Exclude, ...] = ()
    ranks_above: tuple[RanksAbove, ...] = ()


@dataclass(slots=True, frozen=True)
class RecentMessage:
    """One message of the probe's conversation before its query (``search(..., recent=...)``)."""

    role: str
    content: str


@dataclass(slots=True, frozen=True)
class Probe:
    id: str
    category: str
    user: str
    at: datetime
    query: str
    budget_tokens: int = DEFAULT_BUDGET
    include_sensitive: bool = False
    block: BlockExpect | None = None
    hits: HitsExpect | None = None
    note: str = ""
    lang: str = ""  # "zh" / "en" for the report's language rows; "" = from the query's script
    recent: tuple[RecentMessage, ...] = ()  # the conversation just before the query, oldest first


@dataclass(slots=True, frozen=True)
class ScenarioMessage:
    user: str
    session: str
    role: str
    content: str
    timestamp: datetime
    name: str | None = None
    id: str | None = None
    #: the offset its time was written with, minutes east of UTC: its speaker's clock (+00:00 too); None for "Z" (UTC's)
    utc_offset: int | None = None


@dataclass(slots=True, frozen=True)
class Scenario:
    id: str
    description: str
    messages: tuple[ScenarioMessage, ...]  # in time order
    probes: tuple[Probe, ...]

    @property
    def users(self) -> frozenset[str]:
        return frozenset(m.user for m in self.messages)


@dataclass(slots=True)
class ScenarioFile:
    name: str
    scenarios: list[Scenario]
    timezone: str | None = None
    description: str = ""
    extra_past_markers: tuple[str, ...] = field(default_factory=tuple)

    @property
    def probes(self) -> list[Probe]:
        return [p for s in self.scenarios for p in s.probes]


def resolve_path(spec: str | Path) -> Path:
    """A file path, or the name of a bundled file (``dev``)."""
    p = Path(spec)
    if p.exists():
        return p
    if str(spec) in BUNDLED:
        ref = resources.files("jiyi.eval.scenarios").joinpath(f"{spec}.json")
        return Path(str(ref))
    raise ScenarioFileError(f"no scenario file {str(spec)!r}: give a path to a JSON file or one of {', '.join(BUNDLED)}")


def load_scenarios(spec: str | Path) -> ScenarioFile:
    """Read and validate a scenario file (a path or a bundled name such as ``dev``)."""
    path = resolve_path(spec)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ScenarioFileError(f"{path.name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except OSError as exc:
        raise ScenarioFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return parse_scenarios(raw, name=path.name)


def parse_scenarios(raw: Any, *, name: str = "scenarios") -> ScenarioFile:
    """Validate already-decoded JSON data."""
    r = _Reader(name)
    top = r.obj(raw, "", {"format", "description", "timezone", "past_markers", "scenarios"})
    fmt = top.get("format", FORMAT)
    if fmt != FORMAT:
        r.fail("format", f"expected {FORMAT!r}, got {fmt!r}")
    scen_raw = r.list_(top.get("scenarios"), "scenarios", nonempty=True)
    scenarios = [_scenario(r, s, f"scenarios[{i}]") for i, s in enumerate(scen_raw)]
    _unique(r, [(f"scenarios[{i}].id", s.id) for i, s in enumerate(scenarios)], "scenario id")
    _unique(r, [(f"scenarios[{i}].probes[{j}].id", p.id) for i, s in enumerate(scenarios)
                for j, p in enumerate(s.probes)], "probe id")
    tz = top.get("timezone")
    if tz is not None:
        tz = r.str_(tz, "timezone")
    markers = tuple(r.str_(m, f"past_markers[{i}]") for i, m in enumerate(r.list_(top.get("past_markers", []),
                                                                                     "past_markers")))
    return ScenarioFile(name=name, scenarios=scenarios, timezone=tz,
                        description=str(top.get("description", "")), extra_past_markers=markers)


def _unique(r: _Reader, items: list[tuple[str, str]], what: str) -> None:
    seen: set[str] = set()
    for where, value in items:
        if value in seen:
            r.fail(where, f"duplicate {what} {value!r}")
        seen.add(value)


def _scenario(r: _Reader, raw: Any, where: str) -> Scenario:
    s = r.obj(raw, where, {"id", "description", "sessions", "probes"}, required=("id", "sessions", "probes"))
    sid = r.id_(s["id"], f"{where}.id")
    messages: list[ScenarioMessage] = []
    for i, sess in enumerate(r.list_(s["sessions"], f"{where}.sessions", nonempty=True)):
        messages.extend(_session(r, sess, f"{where}.sessions[{i}]", default_id=f"s{i + 1}"))
    messages.sort(key=lambda m: m.timestamp)  # stable: a session's order is kept within a timestamp
    users = {m.user for m in messages}
    probes = [_probe(r, p, f"{where}.probes[{i}]", users) for i, p in enumerate(r.list_(s["probes"], f"{where}.probes",
                                                                                        nonempty=True))]
    return Scenario(id=sid, description=str(s.get("description", "")), messages=tuple(messages), probes=tuple(probes))


def _session(r: _Reader, raw: Any, where: str, default_id: str) -> list[ScenarioMessage]:
    s = r.obj(raw, where, {"id", "user", "start", "messages"}, required=("messages",))
    sid = r.id_(s.get("id", default_id), f"{where}.id")
    user = r.id_(s["user"], f"{where}.user") if "user" in s else None
    clock = r.when(s["start"], f"{where}.start") if "start" in s else None
    offset = _written_offset(s["start"], clock) if clock is not None else None
    out: list[ScenarioMessage] = []
    for i, m in enumerate(r.list_(s["messages"], f"{where}.messages", nonempty=True)):
        mw = f"{where}.messages[{i}]"
        msg = r.obj(m, mw, {"role", "content", "name", "speaker", "timestamp", "user", "id"}, required=("content",))
        role = msg.get("role", "user")
        if role not in ROLES:
            r.fail(f"{mw}.role", f"must be one of {', '.join(ROLES)}, got {role!r}")
        content = r.str_(msg["content"], f"{mw}.content")
        if "timestamp" in msg:
            ts = r.when(msg["timestamp"], f"{mw}.timestamp")
            if clock is not None and ts < clock:
                r.fail(f"{mw}.timestamp", "goes back in time within its session")
            clock, offset = ts, _written_offset(msg["timestamp"], ts)
        elif clock is None:
            r.fail(mw, "no timestamp: give the session a 'start' or the message a 'timestamp'")
        else:
            clock = clock + DEFAULT_STEP if out else clock
        if "name" in msg and "speaker" in msg and msg["name"] != msg["speaker"]:
            r.fail(mw, "'name' and 'speaker' are the same field; give one")
        name = msg.get("name", msg.get("speaker"))
        who = msg.get("user", user)
        if who is None:
            r.fail(mw, "no user: give the session a 'user' or the message a 'user'")
        assert clock is not None
        out.append(ScenarioMessage(user=r.id_(who, f"{mw}.user"), session=sid, role=role, content=content,
                                   timestamp=clock, name=r.str_(name, f"{mw}.name") if name is not None else None,
                                   id=r.id_(msg["id"], f"{mw}.id") if "id" in msg else None, utc_offset=offset))
    return out


def _written_offset(raw: Any, at: datetime) -> int | None:
    """The offset ``at`` (the time ``raw`` was read as) is written with, in minutes; None when written with Z (UTC's
    clock)."""
    offset = at.utcoffset()
    return None if str(raw).strip()[-1:] in "Zz" or offset is None else int(offset.total_seconds() // 60)


_PROBE_KEYS = {"id", "category", "user", "at", "query", "budget_tokens", "include_sensitive", "block", "hits", "note",
               "lang", "recent"}


def _probe(r: _Reader, raw: Any, where: str, users: set[str]) -> Probe:
    p = r.obj(raw, where, _PROBE_KEYS, required=("id", "category", "user", "at", "query"))
    user = r.id_(p["user"], f"{where}.user")
    if user not in users:
        r.fail(f"{where}.user", f"{user!r} says nothing in this scenario (users: {', '.join(sorted(users))})")
    budget = p.get("budget_tokens", DEFAULT_BUDGET)
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        r.fail(f"{where}.budget_tokens", "must be a positive integer")
    sensitive = p.get("include_sensitive", False)
    if not isinstance(sensitive, bool):
        r.fail(f"{where}.include_sensitive", "must be true or false")
    lang = p.get("lang", "")
    if lang not in ("", "zh", "en"):
        r.fail(f"{where}.lang", f"must be 'zh' or 'en', got {lang!r}")
    recent = _recent(r, p.get("recent", []), f"{where}.recent")
    block = _block(r, p["block"], f"{where}.block") if "block" in p else None
    hits = _hits(r, p["hits"], f"{where}.hits") if "hits" in p else None
    if block is None and hits is None:
        r.fail(where, "no expectations: give 'block' and/or 'hits'")
    return Probe(id=r.id_(p["id"], f"{where}.id"), category=r.id_(p["category"], f"{where}.category"), user=user,
                 at=r.when(p["at"], f"{where}.at"), query=r.str_(p["query"], f"{where}.query"),
                 budget_tokens=budget, include_sensitive=sensitive, block=block, hits=hits,
                 note=str(p.get("note", "")), lang=lang, recent=recent)


#: At most this many recent messages per probe (as ``search`` takes).
MAX_RECENT = 50


def _recent(r: _Reader, raw: Any, where: str) -> tuple[RecentMessage, ...]:
    """``["text", {"role": "assistant", "content": "..."}, ...]``: strings are the user's."""
    items = r.list_(raw, where)
    if len(items) > MAX_RECENT:
        r.fail(where, f"{len(items)} messages; at most {MAX_RECENT}")
    out = []
    for i, item in enumerate(items):
        iw = f"{where}[{i}]"
        if isinstance(item, str):
            out.append(RecentMessage("user", r.str_(item, iw)))
            continue
        m = r.obj(item, iw, {"role", "content"}, required=("content",))
        role = m.get("role", "user")
        if role not in ROLES:
            r.fail(f"{iw}.role", f"must be one of {', '.join(ROLES)}, got {role!r}")
        out.append(RecentMessage(role, r.str_(m["content"], f"{iw}.content")))
    return tuple(out)


def _block(r: _Reader, raw: Any, where: str) -> BlockExpect:
    b = r.obj(raw, where, {"include", "exclude", "well_formed", "nonempty"})
    for flag in ("well_formed", "nonempty"):
        if not isinstance(b.get(flag, False), bool):
            r.fail(f"{where}.{flag}", "must be true or false")
    out = BlockExpect(include=_includes(r, b.get("include"), f"{where}.include"),
                      exclude=_excludes(r, b.get("exclude"), f"{where}.exclude"),
                      well_formed=b.get("well_formed", False), nonempty=b.get("nonempty", False))
    if not (out.include or out.exclude or out.well_formed or out.nonempty):
        r.fail(where, "empty: give include, exclude, well_formed or nonempty")
    return out


def _hits(r: _Reader, raw: Any, where: str) -> HitsExpect:
    h = r.obj(raw, where, {"k", "include", "exclude", "ranks_above"})
    k = h.get("k", DEFAULT_K)
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 100:
        r.fail(f"{where}.k", "must be an integer between 1 and 100")
    pairs = []
    for i, item in enumerate(r.list_(h.get("ranks_above", []), f"{where}.ranks_above")):
        iw = f"{where}.ranks_above[{i}]"
        if isinstance(item, dict):
            pair = r.obj(item, iw, {"above", "below"}, required=("above", "below"))
            above, below = pair["above"], pair["below"]
        elif isinstance(item, list) and len(item) == 2:
            above, below = item
        else:
            r.fail(iw, 'expected {"above": ..., "below": ...} or a pair [above, below]')
        pairs.append(RanksAbove(_group(r, above, f"{iw}.above"), _group(r, below, f"{iw}.below")))
    out = HitsExpect(k=k, include=_includes(r, h.get("include"), f"{where}.include"),
                     exclude=_excludes(r, h.get("exclude"), f"{where}.exclude"), ranks_above=tuple(pairs))
    if not (out.include or out.exclude or out.ranks_above):
        r.fail(where, "empty: give include, exclude or ranks_above")
    return out


def _includes(r: _Reader, raw: Any, where: str) -> tuple[Group, ...]:
    """``"x"`` / ``["x", "y"]`` (one group of alternatives) / ``[["x", "y"], ["z"]]`` (every group must hold)."""
    if raw is None:
        return ()
    if isinstance(raw, list) and raw and all(isinstance(g, list) for g in raw):
        return tuple(_group(r, g, f"{where}[{i}]") for i, g in enumerate(raw))
    return (_group(r, raw, where),)


def _excludes(r: _Reader, raw: Any, where: str) -> tuple[Exclude, ...]:
    """A list of needles (each one forbidden), or objects ``{"any": [...], "unless_marked_past": true}``."""
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for i, item in enumerate(items):
        iw = f"{where}[{i}]"
        if isinstance(item, dict) and ("any" in item or "unless_marked_past" in item):
            e = r.obj(item, iw, {"any", "unless_marked_past"}, required=("any",))
            past = e.get("unless_marked_past", False)
            if not isinstance(past, bool):
                r.fail(f"{iw}.unless_marked_past", "must be true or false")
            out.append(Exclude(_group(r, e["any"], f"{iw}.any"), past))
        else:
            out.append(Exclude((_needle(r, item, iw),)))
    return tuple(out)


def _group(r: _Reader, raw: Any, where: str) -> Group:
    items = raw if isinstance(raw, list) else [raw]
    if not items:
        r.fail(where, "empty list of alternatives")
    return tuple(_needle(r, x, f"{where}[{i}]" if isinstance(raw, list) else where) for i, x in enumerate(items))


def _needle(r: _Reader, raw: Any, where: str) -> Needle:
    if isinstance(raw, str):
        if not raw.strip():
            r.fail(where, "empty text")
        return Needle(text=raw)
    if isinstance(raw, dict) and len(raw) == 1:
        (key, value), = raw.items()
        if key == "regex" and isinstance(value, str) and value:
            try:
                re.compile(value)
            except re.error as exc:
                r.fail(where, f"bad regex {value!r}: {exc}")
            return Needle(regex=value)
        if key == "date" and isinstance(value, str):
            try:
                return Needle(date=date.fromisoformat(value))
            except ValueError:
                r.fail(where, f"date must be YYYY-MM-DD, got {value!r}")
    r.fail(where, 'expected a string, {"regex": "..."} or {"date": "YYYY-MM-DD"}')


class _Reader:
    """Type checks that fail with the place in the file."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, msg: str) -> NoReturn:
        place = f"{self.name}: {where}" if where else self.name
        raise ScenarioFileError(f"{place}: {msg}")

    def obj(self, raw: Any, where: str, keys: set[str], required: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(raw, dict):
            self.fail(where, f"expected an object, got {type(raw).__name__}")
        unknown = set(raw) - keys
        if unknown:
            self.fail(where, f"unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(keys))}")
        missing = [k for k in required if k not in raw]
        if missing:
            self.fail(where, f"missing {', '.join(missing)}")
        return raw

    def list_(self, raw: Any, where: str, nonempty: bool = False) -> list[Any]:
        if not isinstance(raw, list):
            self.fail(where, f"expected a list, got {type(raw).__name__}")
        if nonempty and not raw:
            self.fail(where, "empty list")
        return raw

    def str_(self, raw: Any, where: str) -> str:
        if not isinstance(raw, str) or not raw.strip():
            self.fail(where, "expected a non-empty string")
        return raw

    def id_(self, raw: Any, where: str) -> str:
        return self.str_(raw, where).strip()

    def when(self, raw: Any, where: str) -> datetime:
        text = self.str_(raw, where).strip()
        try:
            dt = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in "Zz" else text)
        except ValueError:
            self.fail(where, f"{text!r} is not ISO-8601 (e.g. 2026-12-08T19:30:00+08:00)")
        if dt.tzinfo is None:
            self.fail(where, f"{text!r} has no UTC offset: write it like 2026-12-08T19:30:00+08:00")
        return dt
