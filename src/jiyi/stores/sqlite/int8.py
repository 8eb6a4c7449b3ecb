"""Int8 codes of stored vectors: a first pass over a quarter of the bytes, then exact scores.

A search reads every scanned row of its matrix: at the 10k bench user, 10,000 content rows
and 4,735 context rows, ~22 MB of float32 per search, and the product runs at the speed
memory delivers them. Each row is therefore also kept as int8 codes with its own
scale (``unit`` = max |x| / 127, so ``codes · unit`` ≈ the row), the query is coded the
same way, and numkong's SIMD int8 dot products (AVX-512 VNNI, AVX2 or NEON, picked at run
time; integer sums, exact) score the rows from 384 bytes each instead of 1,536.

The coarse scores only choose: :meth:`~jiyi.stores.sqlite.vectors.UserMatrix.ranking`
keeps the best ``REFINE × k`` of them (at least ``k + REFINE_EXTRA``), scores those exactly from the float32 rows and
returns the top ``k`` of the exact scores (on the 10k bench user, k = 200: one of the
exact top 200 missed in 40,000, no top 10 changed). The coarse error has a part common to
all rows (the query's rounding against the direction all e5 vectors share); the mean
difference over the rescored rows measures it, and the route's statistics (mean, floor)
are shifted by it: their error is then ~0.006 of a standard deviation on the bench user
(docs/performance.md, round 7).

Without numkong (a platform with no wheel) :func:`available` is false and the matrices
score float32 rows with BLAS, as before.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

_nk: Any
try:
    _nk = importlib.import_module("numkong")
except ImportError:  # pragma: no cover - numkong is a dependency; a platform may lack a wheel
    _nk = None

#: Rows rescored exactly: REFINE per result wanted, and at least REFINE_EXTRA more (a short
#: list needs the margin: at 1M rows, k = 10 with 15 rescored lost recall@10 0.9995 → 0.9975).
REFINE = 1.5
REFINE_EXTRA = 64
#: Use the codes only when at least this many rows are scanned, and this many per result
#: wanted: below them the float32 rows sit in the CPU's caches, or rescoring costs what the
#: codes save (10k rows: k = 200 through codes 0.36 against 0.67 ms float32; k = 1,000
#: 0.72 against 0.67).
MIN_ROWS = 2_000
MIN_ROWS_PER_RESULT = 12
_enabled = _nk is not None


def available() -> bool:
    """Are int8 kernels loaded and switched on (:func:`set_enabled`)?"""
    return _enabled


def describe() -> str:
    """What runs the int8 pass, for reports: ``numkong <version>``, or why it is off."""
    if _nk is None:
        return "off (numkong is not installed)"
    return f"numkong {getattr(_nk, '__version__', '?')}" if _enabled else "off"


def set_enabled(on: bool) -> bool:
    """Switch the int8 pass on or off for this process (tests compare both); returns the old setting.

    Switching it on without numkong installed leaves it off.
    """
    global _enabled
    old = _enabled
    _enabled = bool(on) and _nk is not None
    return old


def encode(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes (int8, same shape) and per-row units (float32) of float rows: ``codes * unit[:, None]`` ≈ rows."""
    rows = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)
    codes = np.empty(rows.shape, dtype=np.int8)
    unit = np.empty(len(rows), dtype=np.float32)
    encode_into(rows, codes, unit)
    return codes, unit


def encode_into(rows: np.ndarray, codes: np.ndarray, unit: np.ndarray, step: int = 4096) -> None:
    """:func:`encode` into given arrays, ``step`` rows at a time (the temporaries stay in cache:
    half the time of one pass over all rows, 1.33 → 0.7 s for a million 384-d rows)."""
    if codes.shape != rows.shape or unit.shape != (len(rows),):
        raise ValueError(f"codes {codes.shape} and units {unit.shape} do not fit rows {rows.shape}")
    for a in range(0, len(rows), step):
        chunk = rows[a : a + step]
        peak = np.abs(chunk).max(axis=1) if chunk.shape[1] else np.zeros(len(chunk), dtype=np.float32)
        part = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
        scaled = chunk / part[:, None]
        np.rint(scaled, out=scaled)
        codes[a : a + step] = scaled
        unit[a : a + step] = part


@dataclass(slots=True, frozen=True)
class CodedQuery:
    """A query in codes, ready for :func:`dots_into`."""

    codes: np.ndarray  # (1, dim) int8
    unit: float


def code_query(query: np.ndarray) -> CodedQuery:
    """:func:`encode` for one float32 vector (a few µs: it runs once per search and channel)."""
    peak = float(np.abs(query).max()) if len(query) else 0.0
    unit = peak / 127.0 if peak > 0 else 1.0
    codes = np.rint(query * np.float32(1.0 / unit)).astype(np.int8)
    return CodedQuery(codes.reshape(1, -1), unit)


def dots_into(codes: np.ndarray, query: CodedQuery, out: np.ndarray) -> None:
    """``out[i]`` = codes of row i · the query's codes (an exact integer, as float32; ``out`` contiguous).

    Times the rows' units and the query's unit, that is the coarse score of row i.
    """
    _nk.cdist(query.codes, codes, metric="dot", out=out.reshape(1, -1))
