"""Run BLAS on one thread while jiyi multiplies vectors.

Measured here (shared/bench/README.md, docs/performance.md): OpenBLAS with two
threads on two busy cores made a 10k × 384 matrix-vector product 13–18× *slower*
than one thread (p50 0.19 ms → 16–20 ms), because the second thread waits for a
core. A search is one small product, so a second thread never pays for itself.

Setting ``OPENBLAS_NUM_THREADS=1`` would be process-wide and must happen before
numpy loads, which a library cannot decide for its host. Instead, the vector path
calls :func:`one_blas_thread` around its products: it sets the BLAS thread count to
1 through threadpoolctl's handle on the loaded library (a C call, ~1 µs) and
restores it when the last concurrent user leaves, so the host's own BLAS work keeps
its setting. Without threadpoolctl it does nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_lock = threading.Lock()
_users = 0
_saved: list[tuple[Any, int]] = []
_controllers: list[Any] | None = None


def _blas_controllers() -> list[Any]:
    global _controllers
    if _controllers is None:
        try:
            from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
        except ImportError:  # optional: without it BLAS keeps its own setting
            _controllers = []
        else:
            _controllers = [c for c in ThreadpoolController().lib_controllers if c.user_api == "blas"]
    return _controllers


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS uses one thread inside the block (re-entrant, thread-safe)."""
    global _users
    with _lock:
        if _users == 0:
            _saved.clear()
            for ctl in _blas_controllers():
                threads = ctl.get_num_threads()
                if threads != 1:
                    _saved.append((ctl, threads))
                    ctl.set_num_threads(1)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                for ctl, threads in _saved:
                    ctl.set_num_threads(threads)
                _saved.clear()
