"""Re-sealing stored values under the current encryption key (``jiyi reencrypt``).

Rotation: put the new key first (``JIYI_ENCRYPTION_KEY=new,old`` or the new key on the
key file's first line), run ``jiyi reencrypt``, then drop the old key. Every memory
whose values were sealed with another key is sealed again with the first one; memories
stored before any key was set (sensitive values kept as typed) are masked and sealed
now, re-embedded and re-indexed from the masked text, and every other copy the engine
keeps of them goes the same way: the entities (and so the entity table and the keyword
index, merged after), the history texts of those memories (cleared, the events kept),
string metadata, the short-term buffer and the extraction window of every session.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from jiyi.privacy.protect import protect_record, protect_text
from jiyi.privacy.seal import SEALED_KEY, Keyring, SealError
from jiyi.records import MemoryRecord, Scope
from jiyi.stores.conflicts import redo_on_conflict
from jiyi.stores.protocol import ChangeSet, RecordFilter, Store, Upsert
from jiyi.write.embed import CachedEmbedder
from jiyi.write.episodes import index_keywords, stored_vectors, turns_by_message

EVERYTHING = RecordFilter(statuses=None)


@dataclass(slots=True)
class ResealReport:
    key_id: str
    users: int = 0
    resealed: int = 0  # sealed again under the first key
    masked: int = 0  # values that were stored in clear, now masked and sealed

    def to_dict(self) -> dict[str, object]:
        return {"key_id": self.key_id, "users": self.users, "resealed": self.resealed, "masked": self.masked}


def reseal(store: Store, embedder: CachedEmbedder, keyring: Keyring, now: datetime, *,
           context_mode: str = "joint") -> ResealReport:
    """Seal every stored value of every tenant with ``keyring``'s first key (see the module docstring)."""
    report = ResealReport(keyring.primary_id)
    for tenant in store.tenants():
        for user in store.users(tenant):
            scope = Scope(tenant, user)
            report.users += 1
            resealed, masked = redo_on_conflict(
                partial(_reseal_user, store, embedder, keyring, scope, now, context_mode),
                f"reencrypt of {tenant}/{user}")
            report.resealed += resealed
            report.masked += masked
    return report


def _reseal_user(store: Store, embedder: CachedEmbedder, keyring: Keyring, scope: Scope, now: datetime,
                 context_mode: str) -> tuple[int, int]:
    records = store.list(scope, EVERYTHING)
    state = _protected_state(store, scope, keyring, {r.session_id for r in records})
    changed: list[tuple[MemoryRecord, MemoryRecord]] = []
    for rec in records:
        blob = rec.metadata.get(SEALED_KEY)
        if blob is not None:
            try:
                keyring.open(blob)
            except SealError:
                continue  # sealed under a key we do not hold: left as it is, never dropped
        new = protect_record(rec, keyring)
        if new != rec or keyring.needs_reseal(blob):
            changed.append((rec, new))
    if not changed and not state:
        return 0, 0
    masked = [(old, new) for old, new in changed if new.content != old.content]
    turns = turns_by_message(new for _, new in changed) | turns_by_message(records)
    vectors = stored_vectors([new for _, new in masked], turns, embedder, context_mode) if masked else []
    fresh = {new.id: vec for (_, new), vec in zip(masked, vectors)}
    changes = ChangeSet(scope, state=state, clear_history=[new.id for old, new in masked])
    for old, new in changed:
        rec = new.replace(updated_at=now)
        if new.id in fresh:
            changes.upserts.append(Upsert(rec, fresh[new.id], index_keywords(rec), expect=old.updated_at))
        else:
            changes.upserts.append(Upsert(rec, keywords=index_keywords(rec), expect=old.updated_at))
    store.apply(changes)
    return len(changed) - len(masked), len(masked)


def _protected_state(store: Store, scope: Scope, keyring: Keyring,
                     sessions: set[str | None]) -> dict[str, Any]:
    """The user's buffer and extraction windows with their values masked (sealed with the turn
    where a turn keeps them), only those that changed."""
    from jiyi.write.buffer import BUFFER_KEY

    out: dict[str, Any] = {}
    for key in [BUFFER_KEY, *(f"extract:{s or '-'}" for s in sorted(sessions, key=lambda s: s or ""))]:
        value = store.state_get(scope, key)
        new = _protected_value(value, keyring)
        if new != value:
            out[key] = new
    return out


def _protected_value(value: Any, keyring: Keyring) -> Any:
    """``value`` (a state entry: lists and dicts of turns) with each turn's content masked."""
    if isinstance(value, list):
        return [_protected_value(v, keyring) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _protected_value(v, keyring) for k, v in value.items() if k != SEALED_KEY}
    if SEALED_KEY in value:
        out[SEALED_KEY] = value[SEALED_KEY]
    content = value.get("content")
    if isinstance(content, str):
        p = protect_text(content, keyring)
        if p.text != content:
            out["content"] = p.text
            if p.pairs and "role" in value:
                out[SEALED_KEY] = keyring.seal(p.pairs)
    return out
