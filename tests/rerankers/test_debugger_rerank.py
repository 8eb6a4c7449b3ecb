"""The recall debugger shows the reranker's scores (and its failure) from a real search."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace

from fake_rerank import Answer, FakeRerank
from jinja2 import Environment, FileSystemLoader, select_autoescape

from jiyi.memory import Memory
from jiyi.web import i18n
from jiyi.web.debugger import DebugResult, run_debug
from jiyi.web.panel import PREFIX, TEMPLATES


def render(result: DebugResult, lang: str = "en") -> str:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(PREFIX=PREFIX, KINDS=i18n.KIND_ORDER)
    session = SimpleNamespace(signed_in=True, is_operator=True, tenant="default", user_id=None, csrf="x")
    url = SimpleNamespace(path="/ui/debug", query="user=u1")
    ctx = SimpleNamespace(request=SimpleNamespace(url=url, method="POST"))
    return env.get_template("debug.html").render(
        ctx=ctx, t=lambda key, **kw: i18n.translate(lang, key, **kw), lang=lang, session=session, csrf="x", uid="u1",
        uq="u1", here_url="/ui/debug", result=result, message=result.query, budget=400, limit=10, sensitive=False)


def test_debugger_lists_the_reranker_scores(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory()
    fake_rerank.score = lambda _q, doc: 10.0 if "bicycle" in doc else (5.0 if "Hangzhou" in doc else 0.0)
    result = run_debug(mem, user_id="u1", message="which city do I live in", budget=400, limit=10,
                       include_sensitive=False)
    assert result.rerank is not None and result.rerank.backend == "api" and result.rerank.failed is None
    raw = [c.score for c, _ in result.rerank.candidates]
    assert raw == sorted(raw, reverse=True) and raw[0] == 10.0
    first, z = result.rerank.candidates[0]
    assert first.record is not None and "bicycle" in first.record.content and z > 0
    assert {"rerank", "rerank_z"} <= set(result.components)
    html = render(result)
    table = html[html.index('id="rerank-table"'):]
    rows = re.findall(r'<td class="content">([^<]*)</td>\s*<td class="num">([\d.-]+)</td>', table)
    assert "bicycle" in rows[0][0] and float(rows[0][1]) == 10.0
    assert "Reranker" in html and "api" in html


def test_debugger_shows_a_failed_rerank(rerank_memory: Callable[..., Memory], fake_rerank: FakeRerank) -> None:
    mem = rerank_memory()
    fake_rerank.push(Answer(500, {"error": "overloaded"}))
    result = run_debug(mem, user_id="u1", message="which city do I live in", budget=400, limit=10,
                       include_sensitive=False)
    assert result.rerank is not None and "HTTP 500" in (result.rerank.failed or "")
    assert "rerank_failed" in result.components
    html = render(result, "zh")
    assert 'id="rerank-failed"' in html and "保持融合顺序" in html and 'id="rerank-table"' not in html
