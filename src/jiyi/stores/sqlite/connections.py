"""SQLite connections: one per thread, WAL, and write transactions that survive contention.

The engine calls the store from the caller's thread and from a background worker,
and several processes (CLI, server, bot) may open the same file. One connection per
thread lets WAL readers run while a writer commits; every write uses
``BEGIN IMMEDIATE`` so that it takes the write lock up front (a deferred transaction
that upgrades later can fail with SQLITE_BUSY without waiting), and a whole write is
retried with back-off if the lock stays busy past ``busy_timeout``.

A file its owner may not write (an operator's ``chmod a-w``, mode 0400 or 0444) is opened
read-only: reads work, and every write is refused with a :class:`StoreError` saying why
(even for root, which the file system would let write).
"""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from jiyi.errors import StoreError

T = TypeVar("T")
BUSY_TIMEOUT_MS = 10_000
WRITE_RETRIES = 5
WAL_AUTOCHECKPOINT_PAGES = 4_000


class ConnectionPool:
    """Hands each thread its own connection to one database file."""

    def __init__(self, path: Path, *, tracer: Callable[[str], None] | None = None) -> None:
        self.path = path
        self._tracer = tracer
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._closed = False
        self.read_only = read_only_file(path)

    def get(self) -> sqlite3.Connection:
        """This thread's connection, opened (and configured) on first use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._closed:
            raise StoreError(f"the store at {self.path} is closed")
        try:
            conn = self._connect()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc
        self._local.conn = conn
        with self._lock:
            self._prune_dead_threads()
            self._open[threading.get_ident()] = (threading.current_thread(), conn)
        return conn

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves. check_same_thread=False
        # only so that close() may close other threads' connections; each is used by one thread.
        private_file(self.path)
        if self.read_only:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                   check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            return conn
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
        )
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # freed space is overwritten with zeros: an erased memory leaves no bytes behind in the file
        conn.execute("PRAGMA secure_delete = ON")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(
                f"could not switch {self.path} to WAL mode (got {mode}); is it on a network drive?"
            )
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(
            "PRAGMA synchronous = FULL"
        )  # an accepted message survives power loss (SPEC §2.10)
        # A batched add writes ~500 WAL pages: at the default 1,000 nearly every other add
        # also paid a checkpoint (two more fsyncs). 16 MB of WAL between checkpoints.
        conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
        if self._tracer is not None:
            conn.set_trace_callback(self._tracer)
        return conn

    def _prune_dead_threads(self) -> None:
        """Close connections whose thread has ended (thread pools come and go)."""
        for ident, (thread, conn) in list(self._open.items()):
            if not thread.is_alive():
                conn.close()
                del self._open[ident]

    def close(self) -> None:
        """Close every connection this pool opened."""
        with self._lock:
            self._closed = True
            errors = []
            for _thread, conn in self._open.values():
                try:
                    conn.close()
                except sqlite3.Error as exc:
                    errors.append(exc)
            self._open.clear()
        self._local = threading.local()
        if errors:
            raise StoreError(f"closing the store at {self.path} failed: {errors[0]}") from errors[0]

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot across several SELECTs (a deferred read transaction)."""
        conn = self.get()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")

    def write(self, fn: Callable[[sqlite3.Connection], T], *, durable: bool = True) -> T:
        """Run ``fn`` in one ``BEGIN IMMEDIATE`` transaction, retried while the file is busy.

        ``durable=False`` commits without waiting for the disk (``synchronous=NORMAL``):
        for data that can be recomputed or lost (embedding cache, hit counters). In WAL
        mode the next durable commit syncs those pages too; a power cut loses at most
        them, never a write acknowledged as durable. Saves one fsync (~3.4 ms here).
        """
        if self.read_only:
            self.refuse_write()
        conn = self.get()
        if not durable:
            conn.execute("PRAGMA synchronous = NORMAL")
            try:
                return self._write(conn, fn)
            finally:
                conn.execute("PRAGMA synchronous = FULL")
        return self._write(conn, fn)

    def refuse_write(self) -> None:
        raise StoreError(f"the store at {self.path} is read-only (its file mode is "
                         f"{_mode(self.path)}, no write permission for its owner): writes are refused; "
                         f"`chmod u+w {self.path}` to write to it again")

    def _write(self, conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
        for attempt in range(WRITE_RETRIES + 1):
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or attempt == WRITE_RETRIES:
                    raise StoreError(f"could not lock {self.path} for writing: {exc}") from exc
                time.sleep(0.05 * (2**attempt) * (1 + random.random()))
                continue
            try:
                result = fn(conn)
                conn.execute("COMMIT")
                return result
            except BaseException as exc:
                if conn.in_transaction:  # some errors (disk full) already rolled back
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                if isinstance(exc, sqlite3.OperationalError):  # read-only file, disk full, I/O error
                    raise StoreError(f"writing to the store at {self.path} failed: {exc}") from exc
                raise
        raise AssertionError("unreachable")


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _special(path: Path) -> bool:
    return str(path) == ":memory:" or str(path).startswith("file:")


def _mode(path: Path) -> str:
    try:
        return oct(stat.S_IMODE(path.stat().st_mode))
    except OSError:
        return "unknown"


def read_only_file(path: Path) -> bool:
    """True when ``path`` exists and its owner's write bit is off (an operator made it read-only)."""
    if _special(path):
        return False
    try:
        return not path.stat().st_mode & stat.S_IWUSR
    except OSError:
        return False


def _private_mode(mode: int) -> int:
    """The owner's read and write bits of ``mode`` only: 0644 → 0600, 0444 → 0400, 0400 stays."""
    return stat.S_IMODE(mode) & 0o600


def private_file(path: Path) -> None:
    """Make ``path`` a file only its owner can read (0600), creating it empty if absent.

    SQLite creates the ``-wal`` and ``-shm`` files with the database file's permissions, so
    they follow. An existing file that others could read is tightened by taking the group's
    and others' bits away, nothing added: a mode stricter than 0600 (0400, read-only) is kept.
    Special names (``:memory:``) are left alone.
    """
    if _special(path):
        return
    # Never open and close a descriptor of an existing database: closing any descriptor of a file
    # drops every POSIX lock this process holds on it, SQLite's included. Only a new file is
    # created here (O_EXCL: nobody can have it open); an existing one is changed by path.
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        try:
            mode = path.stat().st_mode
            if mode & 0o077:
                path.chmod(_private_mode(mode))
        except OSError:
            pass  # not our file: leave its mode to its owner
    except OSError:
        return  # a read-only place or a missing folder: sqlite3.connect reports it properly
    for suffix in ("-wal", "-shm"):
        side = Path(f"{path}{suffix}")
        try:
            if side.exists() and side.stat().st_mode & 0o077:
                side.chmod(_private_mode(side.stat().st_mode) | 0o600)  # SQLite writes them even to read
        except OSError:
            pass
