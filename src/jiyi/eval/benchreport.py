"""The text table of a ``jiyi bench`` report (the JSON report holds the same figures)."""

from __future__ import annotations

from typing import Any

SEARCH_ROWS = (
    ("all routes + ranking", "total"),
    ("  vector (content)", "vector"),
    ("  context (turn + previous)", "context"),
    ("  keyword (bm25)", "keyword"),
    ("  recency", "recency"),
    ("  entity", "entity"),
    ("  session keywords (bm25)", "session_keyword"),
    ("  fusion + ranking", "rank"),
    ("  hit recording", "hits"),
    ("  query analysis", "analyze"),
    ("  other (facade)", "other"),
)


def format_report(report: dict[str, Any]) -> str:
    levels = report.get("levels", [])
    lines = [_header(report), ""]
    if levels:
        lines += _search_table(levels)
        lines += [""] + _store_table(levels)
    if "writes" in report:
        lines += [""] + _writes_table(report["writes"])
    lines += ["", *(f"note: {n}" for n in report.get("notes", []))]
    return "\n".join(lines)


def _header(report: dict[str, Any]) -> str:
    m = report.get("machine", {})
    pool = report.get("pool", {})
    q = report.get("query_embedding_ms", {})
    blas = "; ".join(m.get("blas", [])) or "unknown BLAS"
    made = "read from cache" if pool.get("cached") else f"embedded in {pool.get('seconds', 0):.0f} s"
    return (f"jiyi bench: {m.get('cpus')} cores, load {m.get('load_average', '?')}, Python {m.get('python')}, "
            f"numpy {m.get('numpy')} ({blas}; the vector path runs it on 1 thread), "
            f"int8 pass {m.get('int8', '?')}\n"
            f"embedder {pool.get('model')}: query embedding p50 {q.get('p50', 0):.1f} ms, p95 {q.get('p95', 0):.1f} ms "
            f"(excluded below); vector pool of {pool.get('texts', 0):,} texts "
            f"{made}; "
            f"total run {report.get('seconds', 0):.0f} s")


def _cell(stat: dict[str, float], base: dict[str, float] | None, key: str) -> str:
    value = stat.get(key, 0.0)
    text = f"{value:8.3f}"
    if base is not None and base.get(key):
        text += f" {value / base[key]:6.2f}x"
    return text


def _search_table(levels: list[dict[str, Any]]) -> list[str]:
    compare = all("numpy_ms" in lv for lv in levels)
    width = 17 if compare else 9
    head = f"{'search, ms (p50 | p95)':30s}" + "".join(
        f"{'N=' + format(lv['n'], ','):>{2 * width}s} [{lv['index']}]" for lv in levels)
    lines = [head]
    if compare:
        lines.append(" " * 30 + "   ratios are to numpy brute force over the same vectors, same k (200 but where k=1000), same run")

    def row(label: str, stats: list[dict[str, float]], base_key: str = "numpy_ms") -> str:
        cells = []
        for lv, st in zip(levels, stats):
            base = lv.get(base_key) if compare else None
            cells.append(_cell(st, base, "p50") + _cell(st, base, "p95") + " " * 8)
        return f"{label:30s}" + "".join(cells)

    for label, key in SEARCH_ROWS:
        lines.append(row(label, [lv["search_ms"].get(key, {}) for lv in levels]))
    lines.append(row("vector route alone (k=200+stats)", [lv["vector_route_ms"] for lv in levels]))
    if compare:
        lines.append(row("numpy brute force, k=200", [lv["numpy_ms"] for lv in levels]))
    lines.append(row("vector list, k=1000, no stats", [lv["vector_list_ms"] for lv in levels], "numpy_deep_ms"))
    if compare:
        lines.append(row("numpy brute force, k=1000", [lv["numpy_deep_ms"] for lv in levels], "numpy_deep_ms"))
    lines.append(row("probe user (1k memories)", [lv["probe_ms"] for lv in levels]))
    if all("paused_ms" in lv for lv in levels):  # ratios to numpy run the same way, in turn with them
        lines.append(row("all routes, 0.2 s apart", [lv["paused_ms"] for lv in levels], "numpy_paused_ms"))
        if compare:
            lines.append(row("numpy, k=200, 0.2 s apart", [lv["numpy_paused_ms"] for lv in levels],
                             "numpy_paused_ms"))
    return lines


def _store_table(levels: list[dict[str, Any]]) -> list[str]:
    lines = [f"{'store':30s}" + "".join(f"{'N=' + format(lv['n'], ','):>18s}" for lv in levels)]

    def row(label: str, values: list[str]) -> None:
        lines.append(f"{label:30s}" + "".join(f"{v:>18s}" for v in values))

    row("memories (all users)", [f"{lv['memories']:,}" for lv in levels])
    row("other users' memories", [f"{lv['others_total']:,}" for lv in levels])
    row("bulk write, rows/s", [f"{lv['build_rows_per_s']:,.0f}" for lv in levels])
    row("load + index large user, s", [f"{lv['index_seconds']:.2f}" for lv in levels])
    row("vector recall@10, k=10", [f"{lv['recall_at_10']['k10']:.4f}" for lv in levels])
    row("vector recall@10, k=200", [f"{lv['recall_at_10']['k200']:.4f}" for lv in levels])
    row("vector recall@10, k=1000", [f"{lv['recall_at_10']['k1000']:.4f}" for lv in levels])
    row("disk, bytes/memory", [f"{lv['disk_bytes_per_memory']:,.0f}" for lv in levels])
    if all("cold_open" in lv for lv in levels):
        row("RSS, bytes/memory (large)", [f"{lv['cold_open']['rss_bytes_per_memory']:,.0f}" for lv in levels])
        row("cold open + first search, s", [f"{lv['cold_open']['first_search_s']:.2f}" for lv in levels])
    return lines


def _writes_table(writes: dict[str, Any]) -> list[str]:
    lines = [f"{'add, messages/s':30s}{'no embedding':>16s}{'with embedding':>16s}"]
    for path, modes in writes.items():
        for mode, runs in modes.items():
            cells = []
            for key in ("without_embedding", "with_embedding"):
                r = runs.get(key)
                cells.append(f"{r['messages_per_s']:>10,.0f} (b={r['batch']})" if r else f"{'-':>16s}")
            lines.append(f"{path + ' path, ' + mode:30s}" + "".join(f"{c:>16s}" for c in cells))
    return lines
