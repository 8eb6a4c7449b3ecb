"""The panel in a real headless Chromium, as an operator: every page, with seeded data.

Each test saves a screenshot of its page into docs/screenshots/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from web_support import Site, remember_all, shoot, sign_in

pytestmark = pytest.mark.slow


def test_sign_in_needs_a_valid_key(page: Any, site: Site) -> None:
    page.goto(f"{site.url}/ui/")
    assert page.url.endswith("/ui/login")
    shoot(page, "login")
    page.get_by_label("API 密钥").fill("jiyi_000000000000_not-a-real-key")
    page.get_by_role("button", name="登录").click()
    assert page.locator("#login-error").inner_text() == "密钥无效或已吊销。"
    page.get_by_label("API 密钥").fill(site.keys["acme"])
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(re.compile(r"/ui/$"))
    users = page.locator("table tbody th").all_inner_texts()
    assert "alice" in users and "bob" in users
    shoot(page, "users")
    assert not page.js_errors


def test_memories_search_filter_and_paging(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/ui/memories?user=alice")
    assert page.locator("tbody tr").count() == 25 and page.locator("a[rel=next]").count() == 1
    shoot(page, "memories")
    page.get_by_label("搜索内容").fill("北京")  # htmx filters as you type
    page.wait_for_function("() => document.querySelectorAll('#results tbody tr').length < 10")
    texts = page.locator("#results tbody .text").all_inner_texts()
    assert texts and all("北京" in t for t in texts)
    assert "q=%E5%8C%97%E4%BA%AC" in page.url  # the filter state is in the URL (bookmarkable)
    page.get_by_label("搜索内容").fill("")
    page.locator("input[name=kind][value=relation]").check()
    page.wait_for_function("() => [...document.querySelectorAll('#results tbody .badge')]"
                           ".every(b => !b.className.includes('kind-') || b.className.includes('kind-relation'))")
    assert page.locator("#results tbody tr").count() >= 2
    page.goto(f"{site.url}/ui/memories?user=alice&status=superseded")
    assert page.locator("#results tbody .text").all_inner_texts() == ["用户住在上海"]
    page.goto(f"{site.url}/ui/memories?user=alice&sensitive=only&status=")
    assert all("13812345678" in t for t in page.locator("#results tbody .text").all_inner_texts())
    page.goto(f"{site.url}/ui/memories?user=alice&since=2026-11-01&until=2026-11-30")
    assert page.locator("#results tbody tr").count() >= 4
    page.goto(f"{site.url}/ui/memories?user=alice&page=2")  # the rest of alice's memories after the first 25
    assert 1 <= page.locator("#results tbody tr").count() <= 25 and "第 2 / 2 页" in page.inner_text(".pager")
    assert not page.js_errors


def test_edit_inline_delete_and_restore(page: Any, site: Site, uid: str) -> None:
    recs = remember_all(site, "acme", uid, ["用户喜欢爬山", "用户养了一只狗"])
    sign_in(page, site)
    page.goto(f"{site.url}/ui/memories?user={uid}")
    row = page.locator(f"#row-{recs[0].id}")
    row.get_by_role("link", name="编辑").click()
    box = page.get_by_label("修改内容")
    assert box.evaluate("el => el === document.activeElement")  # focus moves into the editor
    box.fill("用户喜欢爬山和露营")
    page.get_by_role("button", name="保存").click()
    page.wait_for_selector(f"#row-{recs[0].id} .text:text('用户喜欢爬山和露营')")
    assert site.memory("acme").get(recs[0].id, user_id=uid).content == "用户喜欢爬山和露营"

    page.locator(f"#row-{recs[1].id}").get_by_role("button", name="删除").click()
    page.wait_for_selector(f"#row-{recs[1].id} .badge.status-deleted")
    assert site.memory("acme").get(recs[1].id, user_id=uid).status.value == "deleted"
    page.locator(f"#row-{recs[1].id}").get_by_role("button", name="恢复").click()
    page.wait_for_selector(f"#row-{recs[1].id} >> role=button[name='删除']")
    assert site.memory("acme").get(recs[1].id, user_id=uid).status.value == "active"

    page.goto(f"{site.url}/ui/memories/{recs[0].id}?user={uid}")
    history = page.locator("table tbody").inner_text()
    assert "UPDATE" in history and "用户喜欢爬山" in history
    assert not page.js_errors


def test_delete_many_then_restore_from_the_deleted_filter(page: Any, site: Site, uid: str) -> None:
    recs = remember_all(site, "acme", uid, ["用户喜欢苹果", "用户喜欢香蕉", "用户喜欢樱桃"])
    sign_in(page, site)
    page.goto(f"{site.url}/ui/memories?user={uid}")
    for r in recs[:2]:
        page.locator(f"#sel-{r.id}").check()
    page.get_by_role("button", name="删除所选").click()
    assert page.get_by_role("status").inner_text() == "已删除 2 条（可恢复）。"
    assert page.locator("#results tbody tr").count() == 1
    page.locator("a.chip", has_text="已删除").click()
    assert page.locator("#results tbody tr").count() == 2
    page.locator(f"#row-{recs[0].id}").get_by_role("button", name="恢复").click()
    page.wait_for_selector(f"#row-{recs[0].id} >> role=button[name='删除']")
    statuses = {r.id: site.memory("acme").get(r.id, user_id=uid).status.value for r in recs}
    assert statuses == {recs[0].id: "active", recs[1].id: "deleted", recs[2].id: "active"}


def test_everything_works_without_javascript(browser: Any, site: Site, uid: str) -> None:
    recs = remember_all(site, "acme", uid, ["用户周末喜欢看电影"])
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1000, "height": 800})
    try:
        page = ctx.new_page()
        sign_in(page, site)
        page.goto(f"{site.url}/ui/memories?user={uid}&q=电影")
        page.locator(f"#row-{recs[0].id}").get_by_role("link", name="编辑").click()  # the plain link: detail page
        page.get_by_label("修改内容").fill("用户周末喜欢看纪录片")
        page.get_by_role("button", name="保存").click()
        assert page.get_by_role("status").inner_text() == "已保存修改。"
        assert page.locator("#memory-content").inner_text() == "用户周末喜欢看纪录片"
        page.get_by_role("button", name="删除").click()
        assert page.get_by_role("status").inner_text() == "已删除（可恢复）。"
        page.get_by_role("button", name="恢复").click()
        assert site.memory("acme").get(recs[0].id, user_id=uid).status.value == "active"
    finally:
        ctx.close()


def test_timeline_shows_chains_and_greys_the_past(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/ui/timeline?user=alice")
    chain = page.locator("li.event .chain").filter(has_text="用户住在北京")
    assert chain.count() == 1
    assert chain.locator(".was").inner_text() == "用户住在上海"
    assert re.search(r"曾经\s*用户住在上海.*→\s*现在\s*用户住在北京", chain.inner_text())
    trip = page.locator("li.event", has_text="成都出差").filter(has=page.locator(".badge.kind-event"))
    assert "greyed" in trip.get_attribute("class")
    assert page.locator("#timeline-axis .dot").count() == page.locator("li.event").count()
    assert [m.inner_text() for m in page.locator("li.month > h2").all()][:2] == ["2026-11", "2026-10"]
    shoot(page, "timeline")
    assert not page.js_errors


def test_entity_graph_renders_with_data(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/ui/graph?user=alice")
    page.wait_for_selector("#graph[data-ready]")
    stats = page.evaluate("() => ({nodes: jiyiGraph.nodes().length, edges: jiyiGraph.edges().length,"
                          " entities: jiyiGraph.nodes('[group = \"entity\"]').map(n => n.data('label'))})")
    assert stats["nodes"] > 10 and stats["edges"] >= 10
    assert {"李红", "王小雨", "北京"} <= set(stats["entities"])
    assert page.locator("canvas").count() >= 1
    # the entity whose own summary names 李红 (another entity's memories may mention her: 医生)
    li = page.locator("ul.entities > li").filter(has=page.locator("summary", has_text=re.compile(r"^\s*李红")))
    li.locator("summary").click()
    assert "用户的妈妈叫李红" in li.inner_text()
    shoot(page, "graph")
    assert not page.js_errors


def test_recall_debugger_shows_routes_scores_and_context(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/ui/debug?user=alice")
    page.get_by_label("输入一条消息").fill("我住在哪里？")
    page.get_by_label("上下文预算（token）").fill("120")
    page.get_by_role("button", name="运行召回").click()
    page.wait_for_selector("#hits-table")
    first = page.locator("#hits-table tbody tr").first
    assert float(first.locator("td.score").inner_text()) > 0
    headers = page.locator("#hits-table thead th").all_inner_texts()
    assert any(h.endswith("_raw") for h in headers) and "freshness" in headers
    assert "用户住在北京" in page.locator("#hits-table").inner_text()
    for route in ("vector", "keyword"):  # the routes this build has; each one gets a table
        assert page.locator(f"#route-{route}").count() == 1
    assert page.locator("#route-vector tbody tr").count() > 3
    block = page.locator("#context-block").inner_text()
    assert block.startswith("<memories>") and "用户住在北京" in block
    used, budget = map(int, re.findall(r"\d+", page.locator("#context-tokens").inner_text()))
    assert budget == 120 and 0 < used <= 120
    page.set_viewport_size({"width": 1200, "height": 1250})
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "debugger")
    assert not page.js_errors


def test_operator_stats_and_gc_dry_run(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.get_by_role("link", name="统计").click()
    assert int(page.locator("#stat-users").inner_text()) >= 2
    assert int(page.locator("#stat-total").inner_text()) >= 30
    matrix = page.locator("#kind-status")
    assert "事实" in matrix.inner_text() and "已替代" in matrix.inner_text()
    assert page.locator("#growth-chart rect.bar").count() == 60
    before = site.memory("acme").get_all(user_id="alice", status=None)
    page.get_by_role("button", name="运行 gc 预演").click()
    report = page.locator("#gc-report").inner_text()
    assert "expire_events" in report
    after = site.memory("acme").get_all(user_id="alice", status=None)
    assert [(r.id, r.status) for r in before] == [(r.id, r.status) for r in after]  # a dry run changes nothing
    shoot(page, "stats", full_page=True)


def test_export_jsonl_download(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/ui/memories?user=bob")
    with page.expect_download() as info:
        page.get_by_role("link", name="导出 JSONL").click()
    download = info.value
    assert download.suggested_filename == "jiyi-bob.jsonl"
    rows = [json.loads(line) for line in Path(download.path()).read_text(encoding="utf-8").splitlines()]
    assert rows and {r["user_id"] for r in rows} == {"bob"} and any("深圳" in r["content"] for r in rows)


def test_english_is_one_click_away(page: Any, site: Site) -> None:
    sign_in(page, site)
    page.goto(f"{site.url}/ui/memories?user=alice")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    page.get_by_role("link", name="切换到英文").click()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("navigation", name="Main").get_by_role("link", name="Memories").count() == 1
    assert "user=alice" in page.url and page.get_by_label("Search text").count() == 1
    shoot(page, "memories-en")
    page.get_by_role("link", name="Switch to Chinese").click()
    assert page.locator("h1").inner_text() == "alice 的记忆"


def test_phone_width_has_no_sideways_scroll(browser: Any, site: Site) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        sign_in(page, site)
        for path in ("/ui/memories?user=alice", "/ui/timeline?user=alice", "/ui/graph?user=alice",
                     "/ui/debug?user=alice", "/ui/stats"):
            page.goto(site.url + path)
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{path} scrolls sideways by {overflow}px"
        page.goto(f"{site.url}/ui/memories?user=alice")
        page.locator("#results").scroll_into_view_if_needed()
        shoot(page, "phone")
    finally:
        ctx.close()


def test_keyboard_and_labels(page: Any, site: Site) -> None:
    sign_in(page, site)
    for path in ("/ui/memories?user=alice", "/ui/debug?user=alice", "/ui/timeline?user=alice"):
        page.goto(site.url + path)
        unlabeled = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
            .filter(el => el.type !== 'hidden')
            .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
            .map(el => el.outerHTML)""")
        assert unlabeled == [], f"{path}: {unlabeled}"
    page.goto(f"{site.url}/ui/memories?user=alice")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "q"  # straight into the search box
    page.keyboard.type("拿铁")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#results tbody tr').length <= 3")
    assert all("拿铁" in t for t in page.locator("#results tbody .text").all_inner_texts())
