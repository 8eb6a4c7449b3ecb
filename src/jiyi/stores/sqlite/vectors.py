"""Vector search over one user's vectors, kept in memory as a contiguous float32 matrix.

Each (tenant, user, channel) gets one :class:`UserMatrix`, loaded on the user's first
search, patched in place by every ``apply`` of this process (appends, tombstones,
batch updates; never rebuilt per query), and trusted only while the user's
generation number in the database equals the one it was built at: a write from
another process bumps the number and the next search reloads. Filters are numpy
masks over per-row columns kept next to the matrix (cached per filter until the
next change), never SQL per row.

Small users are searched exactly (one matrix-vector product on one BLAS thread; from
2,000 rows a first pass over int8 codes of the rows, then the best 1.5·k rescored from
float32: :mod:`.int8`). Users with at least ``ann_min_rows`` rows get an IVF index
(:mod:`.ivf`): the rows are reordered cluster by cluster and a search scans the best
clusters plus the unclustered tail. The index is built and rebuilt on a background
thread and persisted beside the database; until it exists, or when a filter leaves too
few rows for it to help, the exact path answers.
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from jiyi.clock import ensure_utc
from jiyi.errors import EmbeddingMismatch
from jiyi.records import Kind, MemoryRecord, Status, Visibility
from jiyi.stores.protocol import Pairs, Ranking, RecordFilter, ScoreStats
from jiyi.stores.sqlite import int8, ivf
from jiyi.stores.sqlite.blas import one_blas_thread

log = logging.getLogger("jiyi.stores.sqlite.vectors")
KIND_CODE = {k: i for i, k in enumerate(Kind)}
STATUS_CODE = {s: i for i, s in enumerate(Status)}
CacheKey = tuple[str, str, str]  # tenant, user_id, channel
#: Users with at least this many rows in a channel get an IVF index: the measured crossover
#: (docs/performance.md, round 7). With the int8 first pass an exact scan costs ~0.02 µs a
#: row, the IVF scan its probe and per-cluster calls: equal at ~13k rows (10k: exact 0.36
#: against IVF 0.42 ms; 16k: 0.46 against 0.41). With float32 rows only (no numkong) the
#: crossover is ~7k (round 4).
ANN_MIN_ROWS = 12_000 if int8.available() else 8_000
#: Clustered rows sampled (evenly) to estimate the statistics of the rows an IVF search skips.
STATS_SAMPLE = 512
#: Rebuild once the unclustered tail exceeds this share of the rows (and REBUILD_MIN_TAIL).
REBUILD_FRACTION = 0.1
REBUILD_MIN_TAIL = 2_000
_COLUMNS = ("ids", "matrix", "codes", "unit", "alive", "kind", "status", "sensitive", "session", "agent", "created",
            "rid", "label", "vtick")
_MASK_CACHE = 8


@dataclass(slots=True, frozen=True)
class RowMeta:
    """The fields of a memory that a vector-search filter may look at."""

    memory_id: str
    kind: Kind
    status: Status
    sensitive: bool
    session_id: str | None
    agent_id: str | None
    created_ts: float

    @classmethod
    def of(cls, rec: MemoryRecord) -> RowMeta:
        return cls(rec.id, rec.kind, rec.status, rec.visibility is not Visibility.NORMAL, rec.session_id,
                   rec.agent_id, ensure_utc(rec.created_at).timestamp())


@dataclass(slots=True)
class MatrixColumns:
    """A user's rows as loaded from the database (storage order)."""

    ids: list[str]
    rids: np.ndarray
    kinds: np.ndarray
    statuses: np.ndarray
    sensitive: np.ndarray
    sessions: list[str | None]
    agents: list[str | None]
    created: np.ndarray
    vectors: np.ndarray


class UserMatrix:
    """One user's vectors of one channel plus filter columns; rows are tombstoned, not shifted."""

    def __init__(self, dim: int, gen: int, capacity: int = 16) -> None:
        self.dim = dim
        self.gen = gen
        self.n = 0
        self.ids = np.empty(capacity, dtype=object)  # memory id per row (an array: results gather ids in C)
        self.index: dict[str, int] = {}
        self.matrix = np.zeros((capacity, dim), dtype=np.float32)
        self.codes = np.zeros((capacity, dim), dtype=np.int8)  # the rows as int8 (:mod:`.int8`)
        self.unit = np.ones(capacity, dtype=np.float32)
        self.alive = np.zeros(capacity, dtype=bool)
        self.kind = np.zeros(capacity, dtype=np.int8)
        self.status = np.zeros(capacity, dtype=np.int8)
        self.sensitive = np.zeros(capacity, dtype=bool)
        self.session = np.full(capacity, -1, dtype=np.int32)
        self.agent = np.full(capacity, -1, dtype=np.int32)
        self.created = np.zeros(capacity, dtype=np.float64)
        self.rid = np.zeros(capacity, dtype=np.int64)
        self.label = np.full(capacity, -1, dtype=np.int32)
        self.vtick = np.zeros(capacity, dtype=np.int64)
        self.clusters: ivf.Clusters | None = None
        self.tick = 0  # bumps on every vector write; vtick[row] = tick of the row's last one
        self.layout = 0  # bumps whenever rows move (compaction, clustering)
        self._codes: dict[str, int] = {}
        self._masks: OrderedDict[RecordFilter, tuple[np.ndarray, int]] = OrderedDict()

    @classmethod
    def from_columns(cls, dim: int, gen: int, cols: MatrixColumns) -> UserMatrix:
        """A matrix holding the loaded rows, filled column-wise (a user's first search pays this once)."""
        n = len(cols.ids)
        m = cls(dim, gen, capacity=max(16, n))
        m.n = n
        m.index = {mid: i for i, mid in enumerate(cols.ids)}
        if n:
            m.ids[:n] = cols.ids
            m.matrix[:n] = cols.vectors
            int8.encode_into(m.matrix[:n], m.codes[:n], m.unit[:n])
            m.alive[:n] = True
            m.kind[:n] = cols.kinds
            m.status[:n] = cols.statuses
            m.sensitive[:n] = cols.sensitive
            m.session[:n] = [m._code(s) for s in cols.sessions]
            m.agent[:n] = [m._code(a) for a in cols.agents]
            m.created[:n] = cols.created
            m.rid[:n] = cols.rids
        return m

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes + self.codes.nbytes) + 52 * len(self.alive)

    @property
    def live(self) -> int:
        return len(self.index)

    @property
    def tail(self) -> int:
        """Rows no cluster covers (all of them without an index)."""
        return self.n - (self.clusters.end if self.clusters is not None else 0)

    # -- writes ---------------------------------------------------------------------------------

    def upsert_many(self, rows: Sequence[tuple[RowMeta, np.ndarray | None, int]]) -> None:
        """Set rows' filter columns, and their vectors when given (a new id needs one).

        ``rows`` are ``(meta, vector or None, rid)``. A clustered row whose vector
        changes is tombstoned and appended to the tail, so clusters stay truthful.
        """
        self._masks.clear()
        known: list[tuple[int, RowMeta, np.ndarray | None]] = []
        fresh: list[tuple[RowMeta, np.ndarray, int]] = []
        end = self.clusters.end if self.clusters is not None else 0
        for meta, vec, rid in rows:
            if vec is not None and vec.shape[0] != self.dim:
                raise EmbeddingMismatch(f"vector of dimension {vec.shape[0]} in a matrix of {self.dim}")
            row = self.index.get(meta.memory_id)
            if row is not None and vec is not None and row < end:
                self._tombstone(row)
                row = None
            if row is None:
                if vec is not None:
                    fresh.append((meta, vec, rid))
            else:
                known.append((row, meta, vec))
        for row, meta, vec in known:
            self._set_meta(row, meta)
            if vec is not None:
                self.tick += 1
                self.matrix[row] = vec
                int8.encode_into(self.matrix[row : row + 1], self.codes[row : row + 1], self.unit[row : row + 1])
                self.vtick[row] = self.tick
        if fresh:
            self._append(fresh)

    def remove(self, memory_id: str) -> None:
        row = self.index.get(memory_id)
        if row is not None:
            self._masks.clear()
            self._tombstone(row)
        if self.n > 64 and len(self.index) < self.n // 2:
            self._compact()

    def _tombstone(self, row: int) -> None:
        del self.index[self.ids[row]]
        self.alive[row] = False

    def _set_meta(self, row: int, meta: RowMeta) -> None:
        self.kind[row] = KIND_CODE[meta.kind]
        self.status[row] = STATUS_CODE[meta.status]
        self.sensitive[row] = meta.sensitive
        self.session[row] = self._code(meta.session_id)
        self.agent[row] = self._code(meta.agent_id)
        self.created[row] = meta.created_ts

    def _append(self, rows: list[tuple[RowMeta, np.ndarray, int]]) -> None:
        start, count = self.n, len(rows)
        if start + count > len(self.alive):
            self._resize(max(16, 2 * (start + count)))
        end = start + count
        self.matrix[start:end] = np.stack([np.asarray(v, dtype=np.float32) for _, v, _ in rows])
        int8.encode_into(self.matrix[start:end], self.codes[start:end], self.unit[start:end])
        self.alive[start:end] = True
        self.kind[start:end] = [KIND_CODE[m.kind] for m, _, _ in rows]
        self.status[start:end] = [STATUS_CODE[m.status] for m, _, _ in rows]
        self.sensitive[start:end] = [m.sensitive for m, _, _ in rows]
        self.session[start:end] = [self._code(m.session_id) for m, _, _ in rows]
        self.agent[start:end] = [self._code(m.agent_id) for m, _, _ in rows]
        self.created[start:end] = [m.created_ts for m, _, _ in rows]
        self.rid[start:end] = [rid for _, _, rid in rows]
        self.label[start:end] = -1
        self.vtick[start:end] = np.arange(self.tick + 1, self.tick + 1 + count)
        self.ids[start:end] = [m.memory_id for m, _, _ in rows]
        self.tick += count
        for i, (meta, _, _) in enumerate(rows):
            if meta.memory_id in self.index:  # the same id twice in one batch: the last one wins
                self._tombstone(self.index[meta.memory_id])
            self.index[meta.memory_id] = start + i
        self.n = end

    def _resize(self, capacity: int) -> None:
        """Grow or shrink every column to ``capacity`` rows (amortised doubling on append)."""
        for name in _COLUMNS:
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            keep = min(len(old), capacity)
            new[:keep] = old[:keep]
            setattr(self, name, new)

    def _compact(self) -> None:
        """Drop tombstoned rows once they are the majority, so searches stop paying for them."""
        live = np.flatnonzero(self.alive[: self.n])
        self._permute(live)
        self._resize(max(16, 2 * self.n))

    def _permute(self, rows: np.ndarray) -> None:
        """Keep only ``rows``, in that order; cluster bounds follow the labels."""
        end = self.clusters.end if self.clusters is not None else 0
        for name in _COLUMNS:
            col = getattr(self, name)
            col[: len(rows)] = col[rows]
        self.n = len(rows)
        self.index = {mid: i for i, mid in enumerate(self.ids[: self.n].tolist())}
        self.alive[self.n :] = False
        self.layout += 1
        self._masks.clear()
        if self.clusters is not None:
            new_end = int(np.count_nonzero(rows < end))
            labels = self.label[:new_end]
            bounds = np.searchsorted(labels, np.arange(len(self.clusters.centroids) + 1))
            self.clusters = ivf.Clusters(self.clusters.centroids, bounds.astype(np.int64), new_end)

    # -- clusters ----------------------------------------------------------------------------------

    def install_clusters(self, centroids: np.ndarray, labels: np.ndarray) -> None:
        """Reorder the live rows cluster by cluster (``labels[row]``; -1 goes to the tail)."""
        n = self.n
        labels = np.where(self.alive[:n], labels[:n], -2)
        clustered = np.flatnonzero(labels >= 0)
        clustered = clustered[np.argsort(labels[clustered], kind="stable")]
        tail = np.flatnonzero(labels == -1)
        self.label[:n] = labels
        self.clusters = None
        self._permute(np.concatenate([clustered, tail]))
        end = len(clustered)
        self.label[end : self.n] = -1
        bounds = np.searchsorted(self.label[:end], np.arange(len(centroids) + 1))
        self.clusters = ivf.Clusters(np.ascontiguousarray(centroids, dtype=np.float32), bounds.astype(np.int64), end)

    def drop_clusters(self) -> None:
        self.clusters = None
        self.label[: self.n] = -1

    def needs_index(self, min_rows: int) -> bool:
        """Should a (re)build run: big enough and no index yet, or the tail has grown too long?"""
        if self.live < min_rows:
            return False
        if self.clusters is None:
            return True
        return self.tail > max(REBUILD_MIN_TAIL, REBUILD_FRACTION * self.live)

    # -- search ------------------------------------------------------------------------------------

    def search(self, query: np.ndarray, k: int, flt: RecordFilter) -> list[tuple[str, float]]:
        """Top ``k`` ids by dot product (= cosine: vectors are normalised) among rows passing ``flt``."""
        return list(self.ranking(query, k, flt).hits)

    def ranking(self, query: np.ndarray, k: int, flt: RecordFilter, deep: int | None = None) -> Ranking:
        """:meth:`search`, with the statistics of every filtered row's score when ``deep`` is given.

        The exact path has all the scores at hand (the product is the cost; their mean and
        variance add ~1%). The IVF path scores only the probed clusters and the tail; the
        rest of the rows are estimated from an even sample of them (:func:`sampled_stats`).
        """
        if query.shape[0] != self.dim:
            raise EmbeddingMismatch(
                f"query vector has dimension {query.shape[0]} but stored vectors have {self.dim}; "
                "open the store with the embedder it was built with, or run `jiyi reembed`"
            )
        mask, candidates = self._mask(flt)
        if k <= 0 or candidates == 0:
            return Ranking([])
        k = min(k, candidates)
        with one_blas_thread():
            found = self._search_clusters(query, k, mask, candidates, deep)
            if found is None:
                found = self._search_all(query, k, mask, candidates, deep)
        rows, top, stats = found
        return Ranking(Pairs(self.ids[rows].tolist(), top), stats)

    def _search_all(self, query: np.ndarray, k: int, mask: np.ndarray, candidates: int, deep: int | None
                    ) -> tuple[np.ndarray, np.ndarray, ScoreStats | None]:
        """Every row scored (the exact path: no index, or one that would not save anything)."""
        coded = self._coded(query, candidates, k)
        scores = self._scores(query, [(0, self.n)], coded)
        live = scores
        if candidates < self.n:  # the common unfiltered case skips the masking pass
            live = scores[mask]
            np.copyto(scores, -np.inf, where=~mask)
        rows, top, shift = self._best(query, scores, k, candidates, coded)
        stats = None if deep is None else _shifted(score_stats(live, deep), shift)
        return rows, top, stats

    def _search_clusters(self, query: np.ndarray, k: int, mask: np.ndarray, candidates: int, deep: int | None = None
                         ) -> tuple[np.ndarray, np.ndarray, ScoreStats | None] | None:
        """Best clusters + tail, exactly scored; None when scanning would not save anything.

        With ``deep``, also the statistics of all ``candidates`` rows' scores: exact over the
        scanned rows, estimated from an even sample for the others.
        """
        cl = self.clusters
        if cl is None:
            return None
        budget = ivf.probe_rows(cl.end, k, candidates / self.n)
        if budget >= cl.end // 2:
            return None
        ranges = cl.probe(query, budget)
        if cl.end < self.n:
            ranges.append((cl.end, self.n))
        width = sum(b - a for a, b in ranges)
        coded = self._coded(query, width * candidates // self.n, k)
        scores = self._scores(query, ranges, coded)
        keep = None if candidates == self.n else np.concatenate([mask[a:b] for a, b in ranges])
        scanned = len(scores) if keep is None else int(np.count_nonzero(keep))
        if scanned < k:
            return None
        starts = np.array([a for a, _ in ranges], dtype=np.int64)
        stops = np.array([b for _, b in ranges], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(stops - starts)])
        exact = scores if keep is None else scores[keep]  # the statistics' copy (none needed unfiltered)
        if keep is not None:
            scores[~keep] = -np.inf

        def rows_at(pos: np.ndarray) -> np.ndarray:
            part = np.searchsorted(offsets, pos, side="right") - 1
            return starts[part] + (pos - offsets[part])  # type: ignore[no-any-return]

        rows, top, shift = self._best(query, scores, k, scanned, coded, rows_at)
        stats = None
        if deep is not None:  # the sample is exact: coarse scores are shifted before they meet it
            sample = self._unscanned_sample(query, starts, stops, mask, cl.end)
            stats = sampled_stats(exact - shift if shift else exact, sample, candidates - scanned, deep)
        return rows, top, stats

    def _coded(self, query: np.ndarray, rows: int, k: int) -> int8.CodedQuery | None:
        """The query in codes when an int8 first pass over ``rows`` rows pays for itself (:mod:`.int8`)."""
        if rows >= max(int8.MIN_ROWS, int8.MIN_ROWS_PER_RESULT * k) and int8.available():
            return int8.code_query(query)
        return None

    def _scores(self, query: np.ndarray, ranges: Sequence[tuple[int, int]], coded: int8.CodedQuery | None
                ) -> np.ndarray:
        """Scores of the rows in ``ranges``, one after the other in one buffer (no concatenation):
        exact products, or the int8 pass's coarse ones with ``coded``."""
        scores = np.empty(sum(b - a for a, b in ranges), dtype=np.float32)
        at = 0
        for a, b in ranges:
            if b > a:
                out = scores[at : at + b - a]
                if coded is None:
                    np.matmul(self.matrix[a:b], query, out=out)
                else:
                    int8.dots_into(self.codes[a:b], coded, out)
            at += b - a
        if coded is not None:  # one pass of units for all ranges (two per range cost ~2 µs each)
            units = self.unit[ranges[0][0] : ranges[0][1]] if len(ranges) == 1 else np.concatenate(
                [self.unit[a:b] for a, b in ranges])
            np.multiply(scores, units, out=scores)
            scores *= np.float32(coded.unit)
        return scores

    def _best(self, query: np.ndarray, scores: np.ndarray, k: int, passing: int, coded: int8.CodedQuery | None,
              rows_at: Callable[[np.ndarray], np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """Rows and exact scores of the ``k`` best, best first, and how far the coarse scores
        sit above the exact ones on average over the rescored rows (0 without codes).

        ``scores`` (non-passing rows at -inf) are exact, or coarse with ``coded``: then the
        best ``REFINE · k`` (at least ``k + REFINE_EXTRA``) coarse ones (all ``passing`` rows,
        if fewer) are scored again from the float32 rows. ``rows_at`` maps positions in
        ``scores`` to rows.
        """
        if coded is None:
            pos, top = _top(scores, k)
            return (pos if rows_at is None else rows_at(pos)), top, 0.0
        wide = min(max(int(int8.REFINE * k), k + int8.REFINE_EXTRA), passing)
        cut = len(scores) - wide  # (no negated copy: the largest ``wide`` sit above the cut)
        pos = np.argpartition(scores, cut)[cut:] if cut > 0 else np.arange(len(scores))
        rows = pos if rows_at is None else rows_at(pos)
        exact = self.matrix[rows] @ query
        order = np.argsort(-exact)[:k]  # a few hundred: sorting them all beats partition + sort
        shift = (float(scores[pos].sum(dtype=np.float64)) - float(exact.sum(dtype=np.float64))) / len(pos)
        return rows[order], exact[order], shift

    def _unscanned_sample(self, query: np.ndarray, starts: np.ndarray, stops: np.ndarray, mask: np.ndarray,
                          end: int) -> np.ndarray:
        """Scores of every ``stride``-th clustered row that passes the mask and lies in no scanned
        range (``starts[i]:stops[i]``, ascending).

        Rows are stored cluster by cluster, so an even stride samples every cluster in
        proportion to its size (a strided product reads only those rows: ~0.04 ms).
        """
        stride = max(1, end // STATS_SAMPLE)
        rows = np.arange(0, end, stride)
        at = np.searchsorted(starts, rows, side="right") - 1
        scanned = (at >= 0) & (rows < stops[np.maximum(at, 0)])
        use = mask[rows] & ~scanned
        scores: np.ndarray = (self.matrix[0:end:stride] @ query)[use]
        return scores

    def _mask(self, flt: RecordFilter) -> tuple[np.ndarray, int]:
        hit = self._masks.get(flt)
        if hit is not None:
            return hit
        n = self.n
        mask = self.alive[:n] & filter_mask(flt, self._codes, lambda name: getattr(self, name)[:n], n)
        entry = (mask, int(np.count_nonzero(mask)))
        self._masks[flt] = entry
        if len(self._masks) > _MASK_CACHE:
            self._masks.popitem(last=False)
        return entry

    def _code(self, value: str | None) -> int:
        if value is None:
            return -1
        return self._codes.setdefault(value, len(self._codes))


def filter_mask(flt: RecordFilter, codes: dict[str, int], column: Callable[[str], np.ndarray], n: int) -> np.ndarray:
    """Which of ``n`` rows pass ``flt`` (text aside); ``column(name)`` gives a filter column at those rows.

    Shared by the vector matrices (whole columns) and the keyword/entity index
    (:mod:`.textindex`, columns taken at candidate rows: only those the filter looks at
    are taken). ``codes`` maps session and agent ids to the codes in ``session``/``agent``.
    """
    mask = np.ones(n, dtype=bool)
    if flt.kinds is not None:
        mask &= _among(column("kind"), [KIND_CODE[k] for k in flt.kinds])
    if flt.statuses is not None:
        mask &= _among(column("status"), [STATUS_CODE[s] for s in flt.statuses])
    if not flt.include_sensitive:
        mask &= ~column("sensitive")
    if flt.session_id is not None:
        mask &= column("session") == codes.get(flt.session_id, -2)
    if flt.agent_id is not None:
        mask &= column("agent") == codes.get(flt.agent_id, -2)
    if flt.created_after is not None:
        mask &= column("created") >= _ts(flt.created_after)
    if flt.created_before is not None:
        mask &= column("created") < _ts(flt.created_before)
    return mask


def _among(column: np.ndarray, codes: list[int]) -> np.ndarray:
    """``np.isin``, with one code as a comparison (the usual ACTIVE-only filter: ~15 µs less a call)."""
    return column == codes[0] if len(codes) == 1 else np.isin(column, codes)


def score_stats(scores: np.ndarray, deep: int, floor: float | None = None) -> ScoreStats:
    """Count, mean and variance of ``scores`` (in float64), and the score at rank ``deep``
    (``floor``, when the caller has it)."""
    n = len(scores)
    if floor is None:
        floor = scores.min() if n <= deep else np.partition(scores, n - deep)[n - deep]
    centred = scores.astype(np.float64)
    mean = float(centred.sum()) / n
    centred -= mean
    return ScoreStats(n, mean, float(centred @ centred) / n, float(floor))  # a dot: half of np.var's time


def sampled_stats(exact: np.ndarray, sample: np.ndarray, rest: int, deep: int) -> ScoreStats:
    """:func:`score_stats` of ``exact`` plus ``rest`` more rows, of which ``sample`` is an even sample.

    Each sampled score stands for ``rest / len(sample)`` rows. The floor (the score at
    rank ``deep``) is the weighted rank: scanned rows count once, sampled ones for their
    weight. Measured at 10k and 100k rows against the exact statistics: docs/performance.md.
    """
    if rest <= 0 or not len(sample):
        stats = score_stats(exact, deep)
        return ScoreStats(len(exact) + max(rest, 0), stats.mean, stats.var, stats.floor)
    weight = rest / len(sample)
    n = len(exact) + rest
    e64, s64 = exact.astype(np.float64), sample.astype(np.float64)
    mean = (float(e64.sum()) + weight * float(s64.sum())) / n
    e64 -= mean
    s64 -= mean
    var = (float(e64 @ e64) + weight * float(s64 @ s64)) / n
    return ScoreStats(n, mean, var, _weighted_floor(exact, sample, weight, deep))


def _weighted_floor(exact: np.ndarray, sample: np.ndarray, weight: float, deep: int) -> float:
    """The score at rank ``deep`` when each ``exact`` score is one row and each sampled one ``weight`` rows.

    Finds the lowest sampled score ``s[j]`` that still has ``deep`` rows at or above it;
    between it and the next sampled score only scanned rows count, so the floor is the
    scanned score of the remaining rank there, or ``s[j]`` itself (~15 µs for 2,000 + 500
    scores, where a weighted sort of both took 60 µs).
    """
    if len(exact) > 2 * deep:  # the floor lies among the best 2·deep scanned scores
        exact = np.partition(exact, len(exact) - 2 * deep)[len(exact) - 2 * deep :]
        sample = sample[sample >= exact.min()]
    e, s = np.sort(exact), np.sort(sample)
    rows_at = (len(e) - np.searchsorted(e, s)) + weight * (len(s) - np.arange(len(s)))  # rows ≥ s[j]
    reached = np.flatnonzero(rows_at >= deep - 1e-9)
    j = int(reached[-1]) if reached.size else -1
    rank = math.ceil(deep - weight * (len(s) - j - 1) - 1e-9)  # scanned rows needed above s[j]
    if 1 <= rank <= len(e):
        x = float(e[len(e) - rank])
        if j < 0 or x >= s[j]:
            return x
    if j >= 0:
        return float(s[j])
    return float(min(e[0] if len(e) else np.inf, s[0] if len(s) else np.inf))  # fewer rows than deep


def _shifted(stats: ScoreStats, shift: float) -> ScoreStats:
    """``stats`` of coarse scores that sat ``shift`` above the exact ones (:mod:`.int8`)."""
    if not shift:
        return stats
    return ScoreStats(stats.count, stats.mean - shift, stats.var, stats.floor - shift)


def _top(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions and values of the ``k`` best scores, best first.

    Exact ties come out in a fixed but unspecified order: the default (SIMD) sort takes a
    third of a stable one's time at k = 1,000, and float32 cosines tie in a third of
    the bench's 1k-row searches, so a stable fallback would cost the tail what it saves.
    """
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    top = top[np.argsort(-scores[top])]
    return top, scores[top]


def _ts(dt: datetime) -> float:
    return ensure_utc(dt).timestamp()
