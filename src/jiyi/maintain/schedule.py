"""Maintenance that runs by itself: gc (expiry, the restore window's purge, archiving…) on a schedule.

``jiyi serve`` and ``jiyi worker`` start a :class:`GcSchedule` over their store (every tenant);
an embedding host (the AstrBot plugin) starts one over its ``Memory`` with :func:`for_memory`
or calls :meth:`GcSchedule.run_if_due` from a hook of its own. Every ``gc_interval_hours``
(``JIYI_GC_INTERVAL_HOURS``, 6; 0 turns it off) the rules of :mod:`jiyi.maintain.gc` are applied
for real, so a deleted memory is erased once its 7-day restore window has passed without a
cron job.

The last run is kept in a small JSON file in ``$JIYI_HOME`` (one per store): processes sharing
the store and the home skip a run another did within the interval, and ``jiyi doctor`` shows
the last run, its counts or error, and when the next is due (:func:`status`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jiyi.clock import Clock, SystemClock, parse_iso
from jiyi.maintain.gc import run_gc
from jiyi.records import GcReport, Scope
from jiyi.stores.protocol import Store

if TYPE_CHECKING:
    from jiyi.config import Settings
    from jiyi.memory import Memory

log = logging.getLogger("jiyi.maintain.schedule")

#: The first run waits this long after start (not on the path of a starting server).
FIRST_DELAY = timedelta(minutes=1)

Scopes = Callable[[], list[Scope]]


def status_path(settings: Settings) -> Path:
    """The status file of the store ``settings`` name, in ``settings.home``."""
    store = str(settings.sqlite_path().resolve()) if settings.store_backend() == "sqlite" else settings.store
    digest = hashlib.sha256(store.encode()).hexdigest()[:12]
    return Path(settings.home) / f"gc-schedule-{digest}.json"


def every_scope(store: Store) -> Scopes:
    """Every user of every tenant of ``store`` (what a server or a worker maintains)."""
    return lambda: [Scope(t, u) for t in store.tenants() for u in store.users(t)]


def tenant_scopes(store: Store, tenant: str) -> Scopes:
    return lambda: [Scope(tenant, u) for u in store.users(tenant)]


class GcSchedule:
    """Runs gc every ``interval``; :meth:`start` in a daemon thread, :meth:`stop` at shutdown."""

    def __init__(self, store: Store, scopes: Scopes, *, interval: timedelta, path: Path,
                 clock: Clock | None = None, first_delay: timedelta = FIRST_DELAY) -> None:
        self._store, self._scopes, self.interval, self.path = store, scopes, interval, path
        self._clock = clock or SystemClock()
        self._first = self._clock.now() + first_delay
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # ---- when ----------------------------------------------------------------------------------
    def next_run(self) -> datetime:
        """Due ``interval`` after the last run (by any process sharing the status file), or soon after start."""
        last = _last_run(read_status(self.path))
        return max(self._first, last + self.interval) if last is not None else self._first

    def run_if_due(self) -> GcReport | None:
        """Run gc now if it is due (a host's own timer or message hook may call this); else None."""
        with self._lock:
            if self._clock.now() < self.next_run():
                return None
            return self._run()

    def run_now(self) -> GcReport:
        with self._lock:
            return self._run()

    def _run(self) -> GcReport:
        started = self._clock.now()
        entry: dict[str, Any] = {"last_run": started.isoformat(), "interval_hours": self.interval.total_seconds() / 3600,
                                 "pid": os.getpid()}
        try:
            report = run_gc(self._store, self._scopes(), started, dry_run=False)
        except Exception as exc:
            entry["error"] = f"{type(exc).__name__}: {exc}"[:500]
            _write_status(self.path, entry)
            log.exception("scheduled gc failed; next try in %s", self.interval)
            raise
        entry["counts"] = report.counts
        _write_status(self.path, entry)
        if any(report.counts.values()):
            log.info("scheduled gc: %s", ", ".join(f"{k} {v}" for k, v in report.counts.items() if v))
        return report

    # ---- thread --------------------------------------------------------------------------------
    def start(self) -> GcSchedule:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="jiyi-gc-schedule", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            wait = (self.next_run() - self._clock.now()).total_seconds()
            if wait > 0:
                self._stop.wait(min(wait, 5.0))  # wakes every few seconds: the clock and the file may move
                continue
            try:
                self.run_if_due()
            except Exception:  # noqa: BLE001 - logged in _run; the next interval tries again
                self._stop.wait(min(self.interval.total_seconds(), 60.0))


def interval_of(settings: Settings) -> timedelta | None:
    """The configured interval, None when scheduled gc is off."""
    hours = float(settings.gc_interval_hours)
    return timedelta(hours=hours) if hours > 0 else None


def for_store(store: Store, settings: Settings, *, clock: Clock | None = None) -> GcSchedule | None:
    """The schedule of a server or worker over ``store`` (every tenant), not started; None when off."""
    interval = interval_of(settings)
    if interval is None:
        return None
    return GcSchedule(store, every_scope(store), interval=interval, path=status_path(settings), clock=clock)


def for_memory(mem: Memory, *, start: bool = True) -> GcSchedule | None:
    """The schedule of one embedded ``Memory`` (its tenant), started unless ``start=False``; None
    when off. For hosts such as the AstrBot plugin: ``stop()`` it before closing the Memory."""
    interval = interval_of(mem.settings)
    if interval is None:
        return None
    schedule = GcSchedule(mem.store, tenant_scopes(mem.store, mem.scope_tenant), interval=interval,
                          path=status_path(mem.settings), clock=mem.clock)
    return schedule.start() if start else schedule


def status(settings: Settings, *, clock: Clock | None = None) -> dict[str, Any]:
    """What ``jiyi doctor`` shows: on/off, the interval, the last run (counts or error), the next due."""
    interval = interval_of(settings)
    if interval is None:
        return {"enabled": False, "why": "gc_interval_hours = 0 (JIYI_GC_INTERVAL_HOURS)"}
    saved = read_status(status_path(settings))
    out: dict[str, Any] = {"enabled": True, "interval_hours": interval.total_seconds() / 3600,
                           "last_run": saved.get("last_run", "never")}
    for key in ("counts", "error"):
        if key in saved:
            out[key] = saved[key]
    last = _last_run(saved)
    out["next_run"] = (last + interval).isoformat() if last is not None else \
        "a minute after `jiyi serve` or `jiyi worker` starts"
    if last is not None and (clock or SystemClock()).now() > last + 2 * interval:
        out["overdue"] = True  # nothing has been running it: start a server or worker, or run `jiyi gc --apply`
    return out


def read_status(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _last_run(saved: dict[str, Any]) -> datetime | None:
    value = saved.get("last_run")
    try:
        return parse_iso(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _write_status(path: Path, entry: dict[str, Any]) -> None:
    """Atomically (a rename), private (0600); a home we cannot write only loses the status."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(entry, fh)
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not write the gc schedule's status to %s: %s", path, exc)
