"""A readable text report of an evaluation (the JSON form is ``EvalResult.to_dict``)."""

from __future__ import annotations

from typing import Any


def _pick_k(ks: list[int]) -> int:
    """The k shown for all@k and session recall: 10 when measured, else the largest."""
    return 10 if 10 in ks else max(ks)


def format_report(data: dict[str, Any]) -> str:
    """The table a person reads: one row per category, the overall row, then the special reports."""
    ks: list[int] = data["ks"]
    kk = _pick_k(ks)
    head = (f"{'category':<18}{'n':>5}" + "".join(f"{'R@' + str(k):>7}" for k in ks)
            + f"{'all@' + str(kk):>8}{'sess@' + str(kk):>9}{'hsess@' + str(kk):>10}{'nDCG@10':>9}{'MRR':>7}")
    title = (f"jiyi eval: {data['dataset']} ({data['schema']}), {len(data['ingest']['per_conversation'])} "
             f"conversations, {data['questions_total']} questions, {data['ingest']['turns']} turns")
    lines = [title, "", head, "-" * len(head)]
    apart = set(data.get("apart", []))
    for name, summary in data["categories"].items():
        if summary["n"]:
            lines.append(_row(name + (" *" if name in apart else ""), summary, ks, kk))
    lines.append("-" * len(head))
    lines.append(_row("overall", data["overall"], ks, kk))
    if apart:
        lines.append(f"  * reported apart, not in overall: {', '.join(sorted(apart))}")
    lines.append(f"  sess@{kk}: evidence sessions among the first {kk} sessions reached; "
                 f"hsess@{kk}: among the sessions of the top {kk} hits")
    lines.append("")
    lines.extend(_extras(data))
    return "\n".join(lines)


def _row(name: str, s: dict[str, Any], ks: list[int], kk: int) -> str:
    if not s["n"]:
        return f"{name:<18}{0:>5}"
    return (f"{name:<18}{s['n']:>5}" + "".join(f"{s['recall'][f'@{k}']:>7.3f}" for k in ks)
            + f"{s['all'][f'@{kk}']:>8.3f}{s['session_recall'][f'@{kk}']:>9.3f}"
            + f"{s['hit_session_recall'][f'@{kk}']:>10.3f}{s['ndcg@10']:>9.3f}{s['mrr']:>7.3f}")


def _extras(data: dict[str, Any]) -> list[str]:
    out: list[str] = []
    ku = data.get("knowledge_update") or {}
    if ku:
        out.append(f"knowledge_update: latest turn ranked above the outdated ones in "
                   f"{ku['latest_first']:.1%} of {ku['n']} questions")
    ab = data.get("abstention") or {}
    if ab:
        a, b, cut = ab["abstention"], ab["answerable"], ab.get("best_cut") or {}
        out.append(f"abstention top-hit score: p25/p50/p75 {a['p25']:.3f}/{a['p50']:.3f}/{a['p75']:.3f} "
                   f"(n={a['n']}) vs answerable {b['p25']:.3f}/{b['p50']:.3f}/{b['p75']:.3f} (n={b['n']})")
        if cut:
            out.append(f"  best cut {cut['threshold']:.3f}: balanced accuracy {cut['balanced_accuracy']:.1%} "
                       f"(answerable kept {cut['answerable_kept']:.1%}, abstention caught "
                       f"{cut['abstention_caught']:.1%})")
    ms = data["search_ms"]
    ing = data["ingest"]
    rate = ing["turns"] / ing["seconds"] if ing["seconds"] else 0.0
    out.append(f"search: p50 {ms['p50']:.1f} ms, p95 {ms['p95']:.1f} ms (query embedding included)")
    out.append(f"ingest: {ing['seconds']:.1f} s for {ing['turns']} turns ({rate:.0f} turns/s)")
    rep, unres = data.get("evidence_repaired", []), data.get("evidence_unresolved", [])
    if rep or unres:
        out.append(f"evidence ids: {len(rep)} repaired {rep}, {len(unres)} unresolved and dropped {unres}")
    if data.get("broad_hits"):
        out.append(f"hits with more than 5 source turns (digests), counted as covering none: {data['broad_hits']}")
    if data.get("questions_without_evidence"):
        out.append(f"questions without evidence (not in recall averages): {data['questions_without_evidence']}")
    return out
