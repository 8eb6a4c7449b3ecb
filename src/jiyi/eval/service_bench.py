"""``jiyi bench-service``: search latency over HTTP, SQLite and PostgreSQL side by side in one run.

What it does, per backend: one user gets N memories (realistic Chinese and English
texts from :mod:`jiyi.eval.synth`), written straight through ``Store.apply`` in large
change sets by :func:`jiyi.eval.benchstore.build_store`; their vectors come from a
pool of texts embedded once with the real e5 model (cached on disk), blended and
perturbed so rows spread like real paraphrases. Pushing 10k messages through the
write pipeline would take most of an hour here and measure extraction, not search.
Then a real ``jiyi serve`` (its own process, 127.0.0.1, a fresh API key) serves the
store, and the same queries go through :class:`~jiyi.client.JiyiClient` to each
server, and through ``Memory.search`` in this process for comparison.

Fairness: every target gets the same warm-up queries first, the measured queries
are new to every target (no query-embedding cache hits: each search embeds its
query with e5, as in production), and the order of targets rotates per query, so
load from other tenants of a shared machine lands on all of them alike. BLAS runs on
one thread everywhere (two threads on two busy cores are many times slower).

PostgreSQL is an embedded 18 + pgvector server (:mod:`jiyi.eval.pg_embedded`) unless
a URI is given; either way the bench works in a schema of its own, dropped at the end.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from jiyi.eval.metrics import percentile

TENANT = "bench"
USER = "one-user"
BACKENDS = ("sqlite", "postgres")
PATHS = ("http", "embedded")
Progress = Callable[[str], None]


@dataclass(slots=True, frozen=True)
class ServiceBenchOptions:
    """What to measure. ``pool`` texts are embedded for real (at most ``memories``)."""

    memories: int = 10_000
    queries: int = 200
    warmup: int = 20
    limit: int = 10
    pool: int = 2_000
    seed: int = 1
    pg_url: str | None = None
    cache_dir: Path | None = None


@dataclass(slots=True, frozen=True)
class Latency:
    """Milliseconds over ``n`` searches."""

    n: int
    p50: float
    p95: float
    mean: float
    min: float
    max: float

    @classmethod
    def of(cls, ms: list[float]) -> Latency:
        """Summarise samples (milliseconds; at least one)."""
        return cls(len(ms), percentile(ms, 50), percentile(ms, 95), sum(ms) / len(ms), min(ms), max(ms))


@dataclass(slots=True)
class BackendResult:
    """One backend: how long the load took, and search latency over HTTP and in process."""

    rows: int
    load_seconds: float
    latency: dict[str, Latency]
    hits_per_query: dict[str, float]


@dataclass(slots=True)
class ServiceBenchReport:
    """Everything one run measured; ``to_dict`` is the ``--json`` output, :func:`format_report` the table."""

    options: ServiceBenchOptions
    backends: dict[str, BackendResult]
    pool_texts: int
    pool_seconds: float
    postgres: str
    overlap: float  # mean share of top-k ids the two backends have in common (HTTP)
    environment: dict[str, Any] = field(default_factory=dict)

    def ratio(self, path: str) -> dict[str, float]:
        """postgres / sqlite for p50, p95 and mean of ``path`` (``http`` or ``embedded``)."""
        pg, lite = self.backends["postgres"].latency[path], self.backends["sqlite"].latency[path]
        return {k: getattr(pg, k) / getattr(lite, k) for k in ("p50", "p95", "mean")}

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (a given ``pg_url`` is not repeated: it may hold a password)."""
        opts = asdict(self.options)
        opts["cache_dir"] = str(opts["cache_dir"]) if opts["cache_dir"] else None
        opts["pg_url"] = "given" if opts["pg_url"] else None
        return {"options": opts, "backends": {name: asdict(b) for name, b in self.backends.items()},
                "ratio_postgres_sqlite": {p: self.ratio(p) for p in PATHS}, "pool_texts": self.pool_texts,
                "pool_seconds": self.pool_seconds, "postgres": self.postgres, "overlap_top_k": self.overlap,
                "environment": self.environment}


@dataclass(slots=True)
class _Target:
    backend: str
    path: str
    search: Callable[..., Any]
    ms: list[float] = field(default_factory=list)
    ids: list[list[str]] = field(default_factory=list)


def run_service_bench(options: ServiceBenchOptions, progress: Progress | None = None) -> ServiceBenchReport:
    """Load both backends, serve each, and time the same searches against all of them."""
    say = progress or (lambda _msg: None)
    environment = {"cpus": os.cpu_count(), "load_average": _loadavg()}
    with ExitStack() as stack:
        environment["blas_threads"] = stack.enter_context(_one_blas_thread())
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="jiyi-bench-service-")))
        from jiyi.embedders.e5 import E5Embedder

        embedder = E5Embedder(threads=1)
        pool, pool_texts, pool_seconds = _vector_pool(embedder, options, say)
        pg_uri, pg_version = _postgres_schema(stack, options.pg_url, say)
        stores = {"sqlite": None, "postgres": pg_uri}
        targets: list[_Target] = []
        results: dict[str, BackendResult] = {}
        for backend in BACKENDS:
            home = work / backend
            home.mkdir()
            rows, seconds = _open_backend(stack, backend, home, stores[backend], embedder, pool, options, say,
                                          targets)
            results[backend] = BackendResult(rows, seconds, {}, {})
        asked = _query_set(options)
        say(f"warm-up: {options.warmup} queries on each of {len(targets)} targets")
        _measure(targets, asked[: options.warmup], options.limit)
        for t in targets:
            t.ms.clear()
            t.ids.clear()
        say(f"measuring: {options.queries} queries on each target, order rotated per query")
        _measure(targets, asked[options.warmup :], options.limit)
        environment["load_average_end"] = _loadavg()
    for t in targets:
        results[t.backend].latency[t.path] = Latency.of(t.ms)
        results[t.backend].hits_per_query[t.path] = sum(map(len, t.ids)) / len(t.ids)
    http = {t.backend: t.ids for t in targets if t.path == "http"}
    return ServiceBenchReport(options, results, pool_texts, pool_seconds, pg_version,
                              _overlap(http["sqlite"], http["postgres"]), environment)


def _open_backend(stack: ExitStack, backend: str, home: Path, pg_uri: str | None, embedder: Any, pool: Any,
                  options: ServiceBenchOptions, say: Progress, targets: list[_Target]) -> tuple[int, float]:
    """Fill the backend's store, start its server; append its HTTP and in-process targets."""
    from jiyi import registry
    from jiyi.client import JiyiClient
    from jiyi.config import Settings
    from jiyi.eval.benchstore import build_store
    from jiyi.eval.live_server import served
    from jiyi.memory import Memory
    from jiyi.server.keys import KeyStore

    engine: dict[str, Any] = {"home": home, "tenant": TENANT, "embedder": "e5", "embedder_threads": 1}
    if pg_uri is None:
        engine.update(store="sqlite", path=home / "jiyi.db")
    else:
        engine["store"] = pg_uri
    settings = Settings(**engine)
    store = registry.create("store", settings.store_backend(), settings)
    stack.callback(store.close)
    say(f"{backend}: writing {options.memories:,} memories of one user")
    built = build_store(store, pool, {USER: options.memories}, model=embedder.model, seed=options.seed)
    say(f"{backend}: {options.memories:,} memories in {built.seconds:.1f} s; starting jiyi serve")
    mem = Memory(store=store, embedder=embedder, background_worker=False,
                 **{k: v for k, v in engine.items() if k not in ("store", "embedder")})
    stack.callback(mem.close)
    keys_db = home / "keys.db"
    _, key = KeyStore(keys_db).create(TENANT, name="bench-service")
    env = {**os.environ, **{f"JIYI_{k.upper()}": str(v) for k, v in engine.items()},
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    url = stack.enter_context(served(env, keys_db, home / "server.log"))
    client = stack.enter_context(JiyiClient(url, api_key=key))
    targets += [_Target(backend, "http", client.search), _Target(backend, "embedded", mem.search)]
    return options.memories, built.seconds


def _measure(targets: list[_Target], asked: list[str], limit: int) -> None:
    """Each query on every target; the starting target moves one place per query."""
    for i, query in enumerate(asked):
        k = i % len(targets)
        for t in targets[k:] + targets[:k]:
            started = time.perf_counter()
            hits = t.search(query, user_id=USER, limit=limit)
            t.ms.append((time.perf_counter() - started) * 1000.0)
            t.ids.append([h.id for h in hits])


def _query_set(options: ServiceBenchOptions) -> list[str]:
    """``warmup + queries`` questions, distinct while the generator has enough, shuffled."""
    from jiyi.eval.synth import queries

    wanted = options.warmup + options.queries
    distinct = list(dict.fromkeys(queries(wanted * 3, options.seed)))
    picked = distinct[:wanted] if len(distinct) >= wanted else (distinct * (wanted // len(distinct) + 1))[:wanted]
    random.Random(options.seed).shuffle(picked)
    return picked


def _vector_pool(embedder: Any, options: ServiceBenchOptions, say: Progress) -> tuple[Any, int, float]:
    from jiyi.eval.synth import VectorPool

    size = max(1, min(options.pool, options.memories))
    cache = None
    if options.cache_dir is not None:
        cache = options.cache_dir / f"pool-{embedder.model}-{size}-{options.seed}.npz"
    say(f"vector pool: {size:,} texts embedded with {embedder.model}" + (f" (cache {cache})" if cache else ""))
    started = time.perf_counter()
    pool = VectorPool.build(embedder.embed_passages, size, seed=options.seed, cache=cache)
    return pool, size, time.perf_counter() - started


def _postgres_schema(stack: ExitStack, pg_url: str | None, say: Progress) -> tuple[str, str]:
    """A URI on a fresh schema (of ``pg_url``'s database, or of an embedded server), dropped at exit.

    ``pg_url`` may carry the store's ``jiyi_*`` options (``jiyi_vector=halfvec``...), as
    ``JIYI_STORE`` does: they are kept for the store and kept away from libpq.
    """
    from jiyi.eval import pg_embedded

    if pg_url is None:
        say("starting an embedded PostgreSQL")
        server = pg_embedded.start_embedded()
        stack.callback(server.stop)
        base, store_options, where = server.uri, "", "embedded"
    else:
        base, store_options = split_store_options(pg_url)
        pg_embedded.prepare(base)
        where = "given" + (f", {store_options}" if store_options else "")
    name, uri = pg_embedded.create_schema(base, prefix="jiyi_bench")
    stack.callback(pg_embedded.drop_schema, base, name)
    return uri + (f"&{store_options}" if store_options else ""), \
        f"PostgreSQL {pg_embedded.server_version(base)} ({where})"


def split_store_options(uri: str) -> tuple[str, str]:
    """``uri`` without its ``jiyi_*`` query parameters, and those parameters as a query string.

    Split by hand: ``urlunsplit`` turns ``postgresql:///db`` (a unix-socket URI) into
    ``postgresql:/db``, which libpq rejects.
    """
    base, _, query = uri.partition("?")
    pairs = parse_qsl(query, keep_blank_values=True)
    rest = urlencode([(k, v) for k, v in pairs if not k.startswith("jiyi_")], quote_via=quote)
    return (f"{base}?{rest}" if rest else base), urlencode([p for p in pairs if p[0].startswith("jiyi_")],
                                                           quote_via=quote)


@contextmanager
def _one_blas_thread() -> Iterator[int | None]:
    """BLAS and OpenMP pools of this process on one thread; yields 1, or None without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:
        yield None
        return
    with threadpool_limits(limits=1):
        yield 1


def _overlap(a: list[list[str]], b: list[list[str]]) -> float:
    shares = [len(set(x) & set(y)) / max(len(x), len(y), 1) for x, y in zip(a, b)]
    return sum(shares) / len(shares) if shares else 0.0


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def format_report(report: ServiceBenchReport) -> str:
    """The table printed by ``jiyi bench-service``."""
    o = report.options
    lines = [(f"search latency, one user with {o.memories:,} memories: {o.queries} queries (limit {o.limit}) "
              f"after {o.warmup} warm-up, each path, order rotated per query; e5 query embedding included"),
             "",
             f"{'backend':<10}{'path':<11}{'p50 ms':>9}{'p95 ms':>9}{'mean ms':>9}{'hits/q':>8}"]
    for name, b in report.backends.items():
        for path in PATHS:
            lat = b.latency[path]
            lines.append(f"{name:<10}{path:<11}{lat.p50:>9.1f}{lat.p95:>9.1f}{lat.mean:>9.1f}"
                         f"{b.hits_per_query[path]:>8.1f}")
    for path in PATHS:
        r = report.ratio(path)
        lines.append(f"{'pg/sqlite':<10}{path:<11}{r['p50']:>8.2f}x{r['p95']:>8.2f}x{r['mean']:>8.2f}x")
    env = report.environment
    loads = ", ".join(f"{n} {b.rows:,} rows in {b.load_seconds:.1f} s" for n, b in report.backends.items())
    lines += ["",
              f"load: {loads}; vector pool {report.pool_texts:,} texts in {report.pool_seconds:.1f} s",
              f"{report.postgres}; top-{o.limit} overlap sqlite/postgres {report.overlap:.2f}",
              (f"CPUs {env.get('cpus')}, BLAS threads {env.get('blas_threads') or 'not limited'}, "
               f"load average {env.get('load_average')} → {env.get('load_average_end')}")]
    return "\n".join(lines)
