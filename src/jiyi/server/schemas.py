"""Request and response models of the HTTP API (pydantic lives here, at the boundary).

Request fields use the Python API's argument names, so ``mem.search("q", user_id="u1",
limit=5)`` is ``POST /v1/memories/search {"query": "q", "user_id": "u1", "limit": 5}``.
Requests are strict (no ``"5"`` for 5, no unknown fields): a typo is an error, not a
silently ignored option. The core still validates meaning (ids, lengths, times).
Responses mirror the records' ``to_dict()``; ``tests/server`` checks they stay in step.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from jiyi.read.recent import MAX_RECENT
from jiyi.write.validate import MAX_CONTENT_CHARS, MAX_MESSAGE_CHARS, MAX_OFFSET, MIN_OFFSET

MAX_QUERY_CHARS = 4000  # Memory.search and Memory.context refuse longer queries
MAX_MESSAGES = 1000  # the default max_messages_per_add

KindName = Literal["fact", "preference", "event", "relation", "episode", "summary", "behavior"]
StatusName = Literal["active", "superseded", "merged", "expired", "deleted", "archived"]
StatusFilter = Literal["active", "superseded", "merged", "expired", "deleted", "archived", "all"]
VisibilityName = Literal["normal", "sensitive", "secret"]
EventName = Literal["ADD", "UPDATE", "MERGE", "SUPERSEDE", "EXPIRE", "DELETE", "RESTORE", "PURGE", "ARCHIVE", "NONE"]
# The document states the rules the core enforces (jiyi.userid, jiyi.write.validate); the core stays
# the one place that enforces them, so a client gets the same message at every door. JSON Schema has
# no Unicode categories: the id pattern leaves out controls and the usual format and private-use
# characters of the BMP; an unassigned or private-use code point elsewhere is refused by the core all the
# same (and the pattern stays within what ECMA, Rust and Python regex engines read alike).
_NOT_IN_ID = ("\\s\\x00-\\x1f\\x7f-\\x9f\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u180e\\u200b-\\u200f"
              "\\u2028-\\u202e\\u2060-\\u206f\\ue000-\\uf8ff\\ufeff\\ufff0-\\uffff")
_ID_CHAR = f"[^{_NOT_IN_ID}]"
#: A user, session or agent id: 1-128 characters, no leading/trailing whitespace, no invisible ones.
ID_RULE: dict[str, Any] = {"minLength": 1, "maxLength": 128,
                           "pattern": f"^{_ID_CHAR}(?:(?:{_ID_CHAR}| )*{_ID_CHAR})?$"}
#: A memory, message or job id: 1-128 letters, digits and ``._:-/@#``.
RECORD_ID_RULE: dict[str, Any] = {"minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z0-9_.:/@#-]{1,128}$"}
#: An ISO 8601 time between 1900 and 2999 (UTC), e.g. 2025-03-02T09:15:00+08:00.
TIME_RULE: dict[str, Any] = {"pattern": (
    "^(?:190[1-9]|19[1-9][0-9]|2[0-8][0-9]{2}|29[0-8][0-9]|299[0-8])-"
    "(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    "(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,6})?)?(?:Z|[+-](?:0[0-9]|1[0-3]):[0-5][0-9])?)?$")}


def text_rule(max_chars: int) -> dict[str, Any]:
    """Text the core strips of whitespace and NUL, then wants non-empty and at most ``max_chars``."""
    return {"minLength": 1, "maxLength": max_chars, "pattern": "[^\\s\\x00]"}


#: A speaker name: 1-64 printable characters (spaces allowed, no controls or invisible characters).
NAME_RULE: dict[str, Any] = {"minLength": 1, "maxLength": 64, "pattern": f"^ *{_ID_CHAR}(?:{_ID_CHAR}| )*$"}


def _whole_number(value: Any) -> Any:
    """JSON has one number type: ``5.0`` is the integer 5 to JSON Schema, so it is to us too."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: An integer field that also takes a whole JSON number written with a fraction (``10.0``).
JsonInt = Annotated[int, BeforeValidator(_whole_number)]

UserId = Field(description="The end user whose memories these are: 1-128 characters, no leading or trailing "
               "whitespace, no control or invisible characters.", examples=["u1"], json_schema_extra=ID_RULE)

SessionId = Field(None, description="A conversation session (same rule as user_id).", json_schema_extra=ID_RULE)
AgentId = Field(None, description="The bot or agent (same rule as user_id).", json_schema_extra=ID_RULE)


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _valid_unicode(cls, data: Any) -> Any:
        """JSON may escape a lone surrogate (``"\\ud800"``), which no store can encode: refuse it here."""
        _check_unicode(data)
        return data


def _check_unicode(value: Any) -> None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text contains an unpaired UTF-16 surrogate; send valid Unicode") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_unicode(k)
            _check_unicode(v)
    elif isinstance(value, list):
        for v in value:
            _check_unicode(v)


class MessageIn(Request):
    """One conversation message (``add`` also takes a bare string or a single message)."""

    role: Literal["user", "assistant", "system"] = "user"
    content: str = Field(description="The message text.", examples=["我对花生过敏"],
                         json_schema_extra=text_rule(MAX_MESSAGE_CHARS))
    id: str | JsonInt | None = Field(None, description="Your message id; memories point back to it.",
                                 json_schema_extra=RECORD_ID_RULE)
    timestamp: str | None = Field(None, description="ISO 8601; relative times (明天) are resolved against it.",
                                  examples=["2025-03-05T09:00:00+08:00"], json_schema_extra=TIME_RULE)
    name: str | None = Field(None, description="Speaker name.", json_schema_extra=NAME_RULE)
    created_at: str | None = Field(None, description="Alias of timestamp.", json_schema_extra=TIME_RULE)
    message_id: str | JsonInt | None = Field(None, description="Alias of id.", json_schema_extra=RECORD_ID_RULE)
    utc_offset: JsonInt | None = Field(None, ge=MIN_OFFSET, le=MAX_OFFSET, examples=[480],
                                       description="The speaker's UTC offset in minutes, for their 明天 / 'tomorrow'; "
                                       "by default the offset the timestamp is written with (one at UTC tells nothing).")


class AddRequest(Request):
    messages: str | MessageIn | list[MessageIn] = Field(
        description="A string (one user message), one message, or a list of messages.",
        json_schema_extra={**text_rule(MAX_MESSAGE_CHARS), "minItems": 1, "maxItems": MAX_MESSAGES})
    user_id: str = UserId
    session_id: str | None = SessionId
    agent_id: str | None = AgentId
    metadata: dict[str, Any] | None = None
    sync: bool = Field(False, description="Wait until extraction has run and return what it did.")
    group: bool = Field(False, description="session_id is a group chat stored per sender: members who all say "
                                           "so see each other's standing facts from it in their context blocks.")


class EndSessionRequest(Request):
    user_id: str = UserId
    session_id: str = Field(min_length=1, description="The session to close.", json_schema_extra=ID_RULE)


class RememberRequest(Request):
    content: str = Field(description="One self-contained statement.", examples=["用户对花生过敏"],
                         json_schema_extra=text_rule(MAX_CONTENT_CHARS))
    user_id: str = UserId
    kind: KindName | None = None
    importance: float | None = Field(None, ge=0, le=1)
    valid_until: str | None = Field(None, description="ISO 8601: when it stops being true.",
                                    json_schema_extra=TIME_RULE)
    expires_at: str | None = Field(None, description="ISO 8601: after this it is no longer recalled.",
                                   json_schema_extra=TIME_RULE)
    slot: str | None = Field(None, examples=["user/居住城市"], json_schema_extra=text_rule(200))
    session_id: str | None = SessionId
    visibility: VisibilityName | None = None


class RecentIn(Request):
    """One earlier message of the current conversation (``recent``)."""

    role: Literal["user", "assistant", "system"] = "user"
    content: str = Field(json_schema_extra=text_rule(MAX_QUERY_CHARS))
    name: str | None = Field(None, json_schema_extra=NAME_RULE)
    timestamp: str | None = Field(None, json_schema_extra=TIME_RULE)


Recent = Field(None, max_length=MAX_RECENT, description=(
    "The current conversation's previous messages, oldest first (strings or {role, content}); they resolve "
    "what the query refers to, the query weighs most."), examples=[["我昨天去了一家新开的面馆"]])


def plain_recent(items: list[str | RecentIn] | None) -> list[str | dict[str, Any]] | None:
    """``recent`` as the core takes it (strings and message dicts)."""
    if items is None:
        return None
    return [i if isinstance(i, str) else i.model_dump(exclude_none=True) for i in items]


class SearchRequest(Request):
    query: str = Field(examples=["能吃花生酱吗"], json_schema_extra=text_rule(MAX_QUERY_CHARS))
    user_id: str = UserId
    limit: JsonInt = Field(10, ge=1, le=1000)
    kinds: list[KindName] | None = None
    at: str | None = Field(None, description="Recall as of this ISO 8601 time (default now).",
                           json_schema_extra=TIME_RULE)
    include_sensitive: bool = False
    filters: dict[str, Any] | None = Field(
        None, description="session_id, agent_id, created_after, created_before.",
        json_schema_extra={"additionalProperties": False, "properties": {
            "session_id": {"anyOf": [{"type": "string", **ID_RULE}, {"type": "null"}]},
            "agent_id": {"anyOf": [{"type": "string", **ID_RULE}, {"type": "null"}]},
            "created_after": {"anyOf": [{"type": "string", **TIME_RULE}, {"type": "null"}]},
            "created_before": {"anyOf": [{"type": "string", **TIME_RULE}, {"type": "null"}]}}})
    recent: list[Annotated[str, Field(json_schema_extra=text_rule(MAX_QUERY_CHARS))] | RecentIn] | None = Recent


class ContextRequest(Request):
    query: str = Field(json_schema_extra=text_rule(MAX_QUERY_CHARS))
    user_id: str = UserId
    budget_tokens: JsonInt = Field(800, ge=1, le=100_000)
    limit: JsonInt = Field(20, ge=1, le=1000)
    include_sensitive: bool = False
    compress: bool | None = Field(None, description="Let the configured LLM fold memories that exceed the "
                                                    "budget into fewer lines (default: the server's setting).")
    recent: list[Annotated[str, Field(json_schema_extra=text_rule(MAX_QUERY_CHARS))] | RecentIn] | None = Recent


class UpdateRequest(Request):
    content: str = Field(json_schema_extra=text_rule(MAX_CONTENT_CHARS))
    user_id: str | None = Field(None, description="Here or as ?user_id=.", json_schema_extra=ID_RULE)


class UserRequest(Request):
    """Optional body of DELETE /v1/memories/{id} and POST .../restore (or use ?user_id=)."""

    user_id: str | None = Field(None, json_schema_extra=ID_RULE)


class GcRequest(Request):
    dry_run: bool = Field(True, description="Only report what each rule would do.")
    user_id: str | None = Field(None, description="One user, or every user of the tenant.", json_schema_extra=ID_RULE)
    now: str | None = Field(None, description="Evaluate the rules as of this ISO 8601 time.",
                            json_schema_extra=TIME_RULE)


class FlushRequest(Request):
    timeout: float = Field(60.0, gt=0, le=300)
    user_id: str | None = Field(None, description="Wait for this user's writes only (default: the tenant's).",
                                json_schema_extra=ID_RULE)


class JobsRequest(Request):
    ids: list[Annotated[str, Field(json_schema_extra=text_rule(64))]] | None = Field(None, max_length=1000,
                                  description="Failed job ids; leave out (or null) for every failed job of the tenant.")


class ImportRequest(Request):
    records: list[dict[str, Any]] = Field(description="Rows produced by export (JSONL lines, parsed).")


# ---- responses -------------------------------------------------------------------------------


class MemoryOut(BaseModel):
    """A memory record (SPEC §1); datetimes are ISO 8601 UTC strings."""

    id: str
    tenant: str
    user_id: str
    content: str
    kind: KindName
    created_at: str
    updated_at: str
    slot: str | None = None
    entities: list[str] = []
    importance: float
    confidence: float
    valid_from: str | None = None
    valid_until: str | None = None
    expires_at: str | None = None
    status: StatusName
    visibility: VisibilityName
    hit_count: int
    last_hit_at: str | None = None
    strength: float
    source_ids: list[str] = []
    session_id: str | None = None
    agent_id: str | None = None
    speaker: str | None = None
    links: list[str] = []
    superseded_by: str | None = None
    embedding_model: str | None = None
    metadata: dict[str, Any] = {}


class HitOut(MemoryOut):
    score: float
    scores: dict[str, float] = Field(description="Each ranking component, for explanations.")


class WriteEventOut(BaseModel):
    id: str
    event: EventName
    memory: str
    kind: KindName
    previous: str | None = None


class AddResultOut(BaseModel):
    events: list[WriteEventOut]
    job_id: str | None
    pending: bool = Field(description="True when the job is queued and not yet processed.")
    messages: int
    forget: list[str] = Field(default_factory=list, description="Forget requests the messages made "
                              "(\"address\", \"everything\"): the DELETE events list what was forgotten.")


class HistoryEventOut(BaseModel):
    event: EventName
    memory_id: str
    at: str
    old: str | None = None
    new: str | None = None
    reason: str | None = None
    actor: str


class SearchOut(BaseModel):
    hits: list[HitOut]


class MemoryListOut(BaseModel):
    memories: list[MemoryOut]
    limit: int | None
    offset: int


class SummariesOut(BaseModel):
    memories: list[MemoryOut] = Field(description="The session summaries written (may be empty).")


class BufferedMessageOut(BaseModel):
    role: str
    content: str
    timestamp: str
    id: str | None = None
    name: str | None = None
    session_id: str | None = None


class BufferOut(BaseModel):
    messages: list[BufferedMessageOut] = Field(description="The short-term buffer, oldest first.")


class ClearedOut(BaseModel):
    cleared: int


class HistoryOut(BaseModel):
    events: list[HistoryEventOut]


class ContextOut(BaseModel):
    context: str


class DeletedOut(BaseModel):
    deleted: int


class PurgeRequest(Request):
    """Body of POST /v1/memories/purge."""

    user_id: str = UserId
    memory_id: str | None = Field(None, min_length=1, max_length=128, json_schema_extra=RECORD_ID_RULE,
                                  description="One memory (any status); omitted: every deleted memory of the user.")
    vacuum: bool = Field(False, description="Also rewrite the database (SQLite VACUUM, PostgreSQL VACUUM FULL).")


class PurgedOut(BaseModel):
    purged: int


class GcReportOut(BaseModel):
    dry_run: bool
    counts: dict[str, int]
    ids: dict[str, list[str]]


class FlushOut(BaseModel):
    idle: bool


class FailedJobOut(BaseModel):
    id: str
    user_id: str
    kind: str
    attempts: int
    error: str | None
    failed_at: str
    created_at: str


class FailedJobsOut(BaseModel):
    jobs: list[FailedJobOut]


class JobsCountOut(BaseModel):
    count: int


class ImportOut(BaseModel):
    imported: int


class UsersOut(BaseModel):
    users: list[str]


class StatsOut(BaseModel):
    tenant: str
    stats: dict[str, Any]


class HealthOut(BaseModel):
    status: Literal["ok"]
    version: str


class ErrorDetail(BaseModel):
    code: str = Field(examples=["not_found"])
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorOut(BaseModel):
    error: ErrorDetail
