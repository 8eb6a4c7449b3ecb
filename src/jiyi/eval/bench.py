"""``jiyi bench``: search latency per route, write throughput, memory and disk, cold open, at N per user.

For each size N, one store holds a large user with N memories, a probe user with
1,000, and 100 users of uneven size (:mod:`jiyi.eval.benchstore`). Searches run
through ``Memory.search`` with every route on (recency and entity get weight 0.1;
the default configuration leaves them off, so real searches are cheaper), and
their time is split with the recall trace: query analysis, each route, fusion +
ranking, hit recording, and the rest of the facade. Query embedding is timed on
its own with the real model and excluded from the search figures (the query
cache answers repeats). ``compare=("numpy",)`` times plain numpy brute force
(one BLAS thread, the same k as the vector route) over the same vectors in the
same run, so every figure can be read as a ratio to it on this machine's load.

The vector route is timed as the read path calls it (top 200 plus the statistics of
every score, which fusion needs), against numpy's product and sorted top 200; the
plain deep list of 1,000 (what a store without statistics returns) is timed too,
against numpy's top 1,000.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from jiyi.eval.benchstore import LARGE_USER, PROBE_USER, TENANT, build_store, user_sizes
from jiyi.eval.benchwrite import WritePlan, run_writes
from jiyi.eval.metrics import percentile
from jiyi.eval.synth import PoolEmbedder, VectorPool, queries
from jiyi.records import Scope
from jiyi.stores.protocol import RecordFilter

if TYPE_CHECKING:
    from jiyi.memory import Memory
    from jiyi.read.recall import RecallTrace

Progress = Callable[[str], None]
ROUTES = ("vector", "context", "keyword", "recency", "entity")
#: Timed parts of a search besides the routes (the recall trace's names).
STEPS = ("analyze", *ROUTES, "session_keyword", "rank")
BENCH_WEIGHTS = {"recency": 0.1, "entity": 0.1}
VECTOR_K = 200  # what the read path's vector routes list (read/fuse.py FUSE_DEPTH), with statistics …
DEEP_K = 1000  # … of every score, and the score at this rank (read/routes.py ROUTE_K): the old deep list
PAUSE = 0.2  # seconds before each paused search (``BenchOptions.paused`` of them) and numpy run


@dataclass(slots=True)
class BenchOptions:
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000)
    others: int = 100
    queries: int = 1_000  # p95 is the 50th slowest: one stretch of a noisy machine or one hit batch does not decide it
    pool_size: int = 2_000
    embedder: str = "e5"
    compare: tuple[str, ...] = ()
    workdir: Path | None = None
    cache_dir: Path | None = None
    writes: WritePlan | None = field(default_factory=WritePlan)
    cold_open: bool = True
    paused: int = 40  # searches with a pause before each (0: none)
    seed: int = 1


def run_bench(opts: BenchOptions, progress: Progress = lambda _: None) -> dict[str, Any]:
    """Everything in one run; returns the JSON-ready report."""
    from jiyi.stores.sqlite.blas import one_blas_thread

    with tempfile.TemporaryDirectory(prefix="jiyi-bench-") as tmp, one_blas_thread():
        folder = Path(opts.workdir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        embedder = _embedder(opts.embedder)
        report: dict[str, Any] = {"machine": _machine(), "options": _options(opts), "notes": []}
        started = time.perf_counter()
        cache = (opts.cache_dir or folder) / f"pool-{embedder.model}-{opts.pool_size}.npz"
        was_cached = cache.is_file()
        pool = VectorPool.build(embedder.embed_passages, opts.pool_size, cache=cache, progress=progress)
        report["pool"] = {"texts": opts.pool_size, "model": embedder.model, "cached": was_cached,
                          "seconds": time.perf_counter() - started}
        report["notes"].append(
            f"bulk rows: vectors are Dirichlet blends of {opts.pool_size:,} template texts embedded once with "
            f"{embedder.model} plus noise (σ=0.015, cos≈0.96 to the blend); queries are embedded for real")
        qtexts = queries(opts.queries, opts.seed)
        qvecs, embed_ms = _embed_queries(embedder, qtexts)
        report["query_embedding_ms"] = _stats(embed_ms)
        report["levels"] = [_level(folder, n, opts, pool, embedder, qtexts, qvecs, progress) for n in opts.sizes]
        if opts.writes is not None:
            progress("write throughput")
            real = embedder if opts.embedder != "pool" else None
            report["writes"] = run_writes(folder, PoolEmbedder(pool, embedder.model), real, opts.writes)
        report["seconds"] = time.perf_counter() - started
        return report


def _level(folder: Path, n: int, opts: BenchOptions, pool: VectorPool, embedder: Any, qtexts: list[str],
           qvecs: np.ndarray, progress: Progress) -> dict[str, Any]:
    from jiyi.stores.sqlite.store import SQLiteStore

    path = folder / f"bench-{n}.db"
    sizes = user_sizes(n, opts.seed, opts.others)
    progress(f"N={n:,}: building {sum(sizes.values()):,} memories for {len(sizes)} users")
    _remove_store(path)
    store = SQLiteStore(path, background_index=False, cache_bytes=4 * 1024**3)
    built = build_store(store, pool, sizes, model=embedder.model, seed=opts.seed, progress=progress)
    out: dict[str, Any] = {"n": n, "users": len(sizes), "memories": sum(sizes.values()),
                           "others_total": built.others_total, "build_seconds": built.seconds,
                           "build_rows_per_s": built.rows_per_second}
    large = Scope(TENANT, LARGE_USER)
    started = time.perf_counter()
    for channel in ("content", "context"):  # load matrices and (for large users) build the index
        store.vector_search(large, qvecs[0], 1, RecordFilter(), channel)
    out["index_seconds"] = time.perf_counter() - started
    out["index"] = "ivf" if n >= store._cache.ann_min_rows else "exact"
    progress(f"N={n:,}: searching")
    out["search_ms"] = _searches(store, embedder, qtexts, qvecs, LARGE_USER)
    out["probe_ms"] = _searches(store, embedder, qtexts, qvecs, PROBE_USER)["total"]
    out["vector_route_ms"] = _vector_route(store, large, qvecs)
    out["vector_list_ms"] = _vector_list(store, large, qvecs)
    exact = _exact_vectors(store, large)
    out["recall_at_10"] = _recall(store, large, exact, qvecs)
    if "numpy" in opts.compare:
        out["numpy_ms"] = _numpy(exact[1], qvecs, VECTOR_K)
        out["numpy_deep_ms"] = _numpy(exact[1], qvecs, DEEP_K)
    if opts.paused:
        matrix = exact[1] if "numpy" in opts.compare else None
        out.update(_paused(store, embedder, qtexts[: opts.paused], qvecs, LARGE_USER, matrix))
    store.close()
    disk = sum(p.stat().st_size for p in folder.glob(f"bench-{n}.db*") if p.is_file())
    disk += sum(p.stat().st_size for p in (folder / f"bench-{n}.db.index").glob("*") if p.is_file())
    out["disk_bytes_per_memory"] = disk / out["memories"]
    if opts.cold_open:
        out["cold_open"] = _cold_open(path, qvecs[:5], n)
    return out


def _searches(store: Any, embedder: Any, qtexts: list[str], qvecs: np.ndarray, user: str) -> dict[str, Any]:
    """Per-part latency of ``Memory.search`` with every route on (query embedding excluded)."""
    mem = _bench_memory(store, embedder, qtexts, qvecs)
    hit_ms: list[float] = []
    record = mem._hits.record

    def timed_record(scope: Scope, ids: list[str]) -> None:
        t = time.perf_counter()
        record(scope, ids)
        hit_ms.append((time.perf_counter() - t) * 1000)

    mem._hits.record = timed_record  # type: ignore[method-assign]
    parts: dict[str, list[float]] = {k: [] for k in ("total", *STEPS, "hits", "other")}
    try:
        mem.search(qtexts[0], user_id=user)  # load the user's matrices outside the timing
        # No pause before the loop: the searches right after one (the CPU idled) run up to 1.8x
        # slower. The loop outlasts the hit writer's linger several times, so its batches land inside.
        for q in qtexts:
            total, tr = _timed_search(mem, q, user)
            parts["total"].append(total)
            for key in STEPS:
                parts[key].append(tr.timings_ms.get(key, 0.0))
            parts["hits"].append(hit_ms[-1] if hit_ms else 0.0)
            known = sum(tr.timings_ms.get(k, 0.0) for k in STEPS) + parts["hits"][-1]
            parts["other"].append(max(0.0, total - known))
        mem._hits.flush()
    finally:
        mem.close()
    return {k: _stats(v) for k, v in parts.items()}


def _bench_memory(store: Any, embedder: Any, qtexts: list[str], qvecs: np.ndarray) -> Memory:
    """A ``Memory`` over ``store`` with every route on, answering the bench's questions from their vectors."""
    from jiyi.memory import Memory

    return Memory(store=store, embedder=_Precomputed(embedder, dict(zip(qtexts, qvecs))), tenant=TENANT,
                  weights=BENCH_WEIGHTS, background_worker=False, home=store.path.parent)


def _timed_search(mem: Memory, query: str, user: str) -> tuple[float, RecallTrace]:
    """ms of one ``mem.search``, query embedding excluded, and its recall trace."""
    from jiyi.read.recall import RecallTrace

    tr = RecallTrace()
    t = time.perf_counter()
    mem.search(query, user_id=user, trace=tr)
    return (time.perf_counter() - t) * 1000 - tr.timings_ms.get("embed", 0.0), tr


def _paused(store: Any, embedder: Any, qtexts: list[str], qvecs: np.ndarray, user: str,
            matrix: np.ndarray | None) -> dict[str, dict[str, float]]:
    """``Memory.search`` of ``user`` with a :data:`PAUSE` before each, as a bot searches between replies
    (``paused_ms``), and with ``matrix``, numpy's brute force the same way in turn (``numpy_paused_ms``).

    After a pause the user's rows and the code's working set come from memory again, not
    from the CPU caches the back-to-back loops keep warm: this is the latency a bot sees.
    """
    mem = _bench_memory(store, embedder, qtexts, qvecs)
    searches, brute = [], []
    try:
        for q, vec in zip(qtexts, qvecs):
            time.sleep(PAUSE)
            searches.append(_timed_search(mem, q, user)[0])
            if matrix is not None:
                time.sleep(PAUSE)
                t = time.perf_counter()
                _brute(matrix, vec, min(VECTOR_K, len(matrix)))
                brute.append((time.perf_counter() - t) * 1000)
    finally:
        mem.close()
    out = {"paused_ms": _stats(searches)}
    if matrix is not None:
        out["numpy_paused_ms"] = _stats(brute)
    return out


def _vector_route(store: Any, scope: Scope, qvecs: np.ndarray) -> dict[str, float]:
    """The store's vector route alone as the read path calls it: content channel, top 200 with statistics."""
    return _per_query(qvecs, lambda q: store.vector_ranking(scope, q, VECTOR_K, RecordFilter(), deep=DEEP_K))


def _vector_list(store: Any, scope: Scope, qvecs: np.ndarray) -> dict[str, float]:
    """A plain deep list (top 1,000, no statistics), as a store without statistics serves the route."""
    return _per_query(qvecs, lambda q: store.vector_search(scope, q, DEEP_K, RecordFilter()))


def _per_query(qvecs: np.ndarray, run: Callable[[np.ndarray], object]) -> dict[str, float]:
    """Latency statistics of ``run(q)`` over the queries, in ms."""
    times = []
    for q in qvecs:
        t = time.perf_counter()
        run(q)
        times.append((time.perf_counter() - t) * 1000)
    return _stats(times)


def _exact_vectors(store: Any, scope: Scope) -> tuple[list[str], np.ndarray]:
    """The user's active content vectors, as plain arrays (for numpy and recall)."""
    ids = [r.id for r in store.list(scope, RecordFilter())]
    found = store.vectors(scope, ids, "content")
    ids = [i for i in ids if i in found]
    return ids, np.ascontiguousarray(np.stack([found[i] for i in ids]), dtype=np.float32)


def _numpy(matrix: np.ndarray, qvecs: np.ndarray, k: int) -> dict[str, float]:
    """Plain per-user brute force: one product and a sorted top ``k``, one BLAS thread."""
    k = min(k, len(matrix))
    return _per_query(qvecs, lambda q: _brute(matrix, q, k))


def _brute(matrix: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
    """Rows of the ``k`` best scores, best first: one product and a sorted top ``k``."""
    scores = matrix @ q
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top])]


def _recall(store: Any, scope: Scope, exact: tuple[list[str], np.ndarray], qvecs: np.ndarray) -> dict[str, float]:
    """recall@10 of the store's vector search against exact top-10, asked at k=10 and at the route's k."""
    ids, matrix = exact
    truths = [{ids[i] for i in np.argsort(-(matrix @ q))[:10]} for q in qvecs]
    out = {}
    for k in (10, VECTOR_K, DEEP_K):
        got = []
        for q, truth in zip(qvecs, truths):
            found = {i for i, _ in store.vector_search(scope, q, k, RecordFilter())[:10]}
            got.append(len(truth & found) / len(truth))
        out[f"k{k}"] = float(np.mean(got))
    return out


def _cold_open(path: Path, qvecs: np.ndarray, n: int) -> dict[str, float]:
    """Open the store in a fresh process and search the large user (matrices and index load from disk)."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as worker:
        result: dict[str, float] = worker.apply(_cold_open_child, (str(path), qvecs))
    result["rss_bytes_per_memory"] = result.pop("rss_delta") / n
    return result


def _cold_open_child(path: str, qvecs: np.ndarray) -> dict[str, float]:
    from jiyi.stores.sqlite.store import SQLiteStore
    from jiyi.text.tokens import tokenize

    tokens = tokenize("杭州 花生 Caroline")  # load jieba's dictionary outside the timing
    base = _rss()
    t = time.perf_counter()
    store = SQLiteStore(path, background_index=False, cache_bytes=4 * 1024**3)
    scope = Scope(TENANT, LARGE_USER)
    for channel in ("content", "context"):
        store.vector_search(scope, qvecs[0], DEEP_K, RecordFilter(), channel)
    store.keyword_search(scope, tokens, 1000, RecordFilter())
    first = time.perf_counter() - t
    t = time.perf_counter()
    store.vector_search(scope, qvecs[1], DEEP_K, RecordFilter())
    second = time.perf_counter() - t
    rss = _rss() - base
    store.close()
    return {"first_search_s": first, "next_vector_search_ms": second * 1000, "rss_delta": rss}


def _rss() -> float:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024.0


class _Precomputed:
    """The real embedder, answering the bench's queries from vectors embedded up front."""

    def __init__(self, inner: Any, table: dict[str, np.ndarray]) -> None:
        self.inner, self.table, self.model, self.dim = inner, table, inner.model, inner.dim

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.inner.embed_passages(texts), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        vec = self.table.get(text)
        return vec if vec is not None else self.inner.embed_query(text)


def _embed_queries(embedder: Any, texts: list[str]) -> tuple[np.ndarray, list[float]]:
    out, times = [], []
    for text in texts:
        t = time.perf_counter()
        out.append(np.asarray(embedder.embed_query(text), dtype=np.float32))
        times.append((time.perf_counter() - t) * 1000)
    return np.stack(out), times


def _embedder(name: str) -> Any:
    from jiyi import registry
    from jiyi.config import Settings

    if name == "pool":
        raise ValueError("the pool embedder needs a real one to build its pool; use e5 or hash")
    model = "hash-384" if name == "hash" else None
    return registry.create("embedder", name, Settings(embedder=name, embedder_model=model))  # type: ignore[call-arg]


def _stats(values: Sequence[float]) -> dict[str, float]:
    vals = list(values)
    if not vals:
        return {"p50": 0.0, "p95": 0.0, "n": 0}
    return {"p50": float(np.percentile(vals, 50)), "p95": percentile(vals, 95), "n": len(vals)}


def _machine() -> dict[str, Any]:
    from jiyi.stores.sqlite import int8

    info: dict[str, Any] = {"cpus": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
                            "platform": platform.platform(terse=True), "int8": int8.describe()}
    try:
        from threadpoolctl import threadpool_info  # type: ignore[import-untyped]

        info["blas"] = [f"{i.get('internal_api')} {i.get('version')} ({i.get('num_threads')} threads)"
                        for i in threadpool_info() if i.get("user_api") == "blas"]
    except ImportError:
        info["blas"] = []
    try:
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return info


def _options(opts: BenchOptions) -> dict[str, Any]:
    return {"sizes": list(opts.sizes), "others": opts.others, "queries": opts.queries, "pool_size": opts.pool_size,
            "embedder": opts.embedder, "compare": list(opts.compare)}


def _remove_store(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    index = Path(str(path) + ".index")
    if index.is_dir():
        for p in index.glob("*"):
            p.unlink()


def write_json(report: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
