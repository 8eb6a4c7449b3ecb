"""Who sees what, in a real browser: end-user links, CSRF, tenants, expiry, forgetting.

An end user's link shows their own memories and nothing else; forged or missing CSRF
tokens and cross-site posts are refused; no session of one tenant reaches another's
data, even for the same user id.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from web_support import NOW, Site, csrf_of, remember_all, shoot, sign_in, user_link

from jiyi.cli import cli

pytestmark = pytest.mark.slow


def test_end_user_link_shows_only_that_user(page: Any, site: Site) -> None:
    page.goto(user_link(site, "acme", "alice"))
    assert page.url.endswith("/ui/memories")  # the token left the address bar
    assert page.locator("h1").inner_text() == "alice 的记忆"
    nav = page.get_by_role("navigation", name="主导航")
    assert nav.get_by_role("link", name="用户").count() == 0 and nav.get_by_role("link", name="统计").count() == 0
    assert "GLOBEX" not in page.content() and "赵大海" not in page.content()
    shoot(page, "end-user")

    for path in ("/ui/memories?user=bob", "/ui/timeline?user=bob", "/ui/graph?user=bob", "/ui/export?user=bob",
                 "/ui/forget?user=bob"):
        resp = page.goto(site.url + path)
        assert resp.status == 403, path
        assert page.locator("#error-message").inner_text() == "你无权查看其他用户的记忆。"
    assert page.goto(f"{site.url}/ui/stats").status == 403
    page.goto(f"{site.url}/ui/")
    assert page.url.endswith("/ui/memories")

    bob_id = site.memory("acme").get_all(user_id="bob")[0].id
    assert page.goto(f"{site.url}/ui/memories/{bob_id}").status == 404
    page.goto(f"{site.url}/ui/memories")
    token = csrf_of(page)
    for action in ("delete", "edit"):
        resp = page.request.post(f"{site.url}/ui/memories/{bob_id}/{action}",
                                 form={"csrf": token, "content": "hacked", "user": "alice"})
        assert resp.status == 404, action
    resp = page.request.post(f"{site.url}/ui/memories", form={"csrf": token, "ids": bob_id, "user": "bob"})
    assert resp.status == 403
    bob = site.memory("acme").get(bob_id, user_id="bob")
    assert bob is not None and bob.status.value == "active" and bob.content != "hacked"


def test_forged_or_missing_csrf_is_refused(page: Any, site: Site, uid: str) -> None:
    rec = remember_all(site, "acme", uid, ["用户喜欢下围棋"])[0]
    sign_in(page, site)
    page.goto(f"{site.url}/ui/memories?user={uid}")
    good = csrf_of(page)
    url = f"{site.url}/ui/memories/{rec.id}/delete"
    forged = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    assert page.request.post(url, form={"csrf": forged, "user": uid}).status == 403
    assert page.request.post(url, form={"user": uid}).status == 403
    assert page.request.post(url, form={"csrf": good, "user": uid},
                             headers={"Origin": "https://evil.example"}).status == 403
    assert page.request.post(f"{site.url}/ui/memories/{rec.id}/edit",
                             form={"csrf": forged, "user": uid, "content": "被改了"}).status == 403
    assert page.request.post(f"{site.url}/ui/forget", form={"csrf": forged, "user": uid, "confirm": "yes"}).status == 403
    kept = site.memory("acme").get(rec.id, user_id=uid)
    assert kept is not None and kept.status.value == "active" and kept.content == "用户喜欢下围棋"

    # the same forged token through the page itself: the browser shows the refusal
    page.locator("#bulk input[name=csrf]").evaluate("(el, v) => el.value = v", forged)
    page.locator(f"#sel-{rec.id}").check()
    page.get_by_role("button", name="删除所选").click()
    assert page.locator("#error-message").inner_text() == "请求未通过 CSRF 校验。请刷新页面后重试。"
    shoot(page, "csrf-refused")
    # and through htmx (an inline row action): the refusal replaces the page body
    page.goto(f"{site.url}/ui/memories?user={uid}")
    page.locator(f"#row-{rec.id} input[name=csrf]").evaluate("(el, v) => el.value = v", forged)
    page.evaluate("document.body.setAttribute('hx-headers', '{}')")
    page.locator(f"#row-{rec.id}").get_by_role("button", name="删除").click()
    page.wait_for_selector("#error-message")
    assert page.locator("#error-message").inner_text() == "请求未通过 CSRF 校验。请刷新页面后重试。"
    # and the real token still works
    assert page.request.post(url, form={"csrf": good, "user": uid}).status == 200
    assert site.memory("acme").get(rec.id, user_id=uid).status.value == "deleted"


def test_sign_in_form_needs_its_csrf_token_too(page: Any, site: Site) -> None:
    page.goto(f"{site.url}/ui/login")
    resp = page.request.post(f"{site.url}/ui/login", form={"key": site.keys["acme"], "csrf": "forged"})
    assert resp.status == 403
    page.goto(f"{site.url}/ui/")
    assert page.url.endswith("/ui/login")  # not signed in


def test_tenants_never_see_each_other(browser: Any, site: Site) -> None:
    acme_ctx, globex_ctx = browser.new_context(), browser.new_context()
    try:
        acme, globex = acme_ctx.new_page(), globex_ctx.new_page()
        sign_in(acme, site, "acme")
        sign_in(globex, site, "globex")
        assert set(globex.locator("table tbody th").all_inner_texts()) == {"alice"}
        globex.goto(f"{site.url}/ui/memories?user=alice&status=")
        assert "GLOBEX" in globex.content() and "北京" not in globex.content()
        acme.goto(f"{site.url}/ui/memories?user=alice&status=")
        assert "GLOBEX" not in acme.content() and "用户住在北京" in acme.content()
        acme.goto(f"{site.url}/ui/stats")
        assert "GLOBEX" not in acme.content()

        secret_id = site.memory("globex").get_all(user_id="alice")[0].id
        assert acme.goto(f"{site.url}/ui/memories/{secret_id}?user=alice").status == 404
        acme.goto(f"{site.url}/ui/memories?user=alice")
        resp = acme.request.post(f"{site.url}/ui/memories/{secret_id}/delete",
                                 form={"csrf": csrf_of(acme), "user": "alice"})
        assert resp.status == 404
        assert site.memory("globex").get(secret_id, user_id="alice").status.value == "active"
        acme.goto(f"{site.url}/ui/debug?user=alice")
        acme.get_by_label("输入一条消息").fill("我住在哪里？")
        acme.get_by_role("button", name="运行召回").click()
        acme.wait_for_selector("#context-block")
        assert "GLOBEX" not in acme.locator("#debug-result").inner_text()

        # a globex end-user link opens globex's alice, never acme's
        page = browser.new_context().new_page()
        page.goto(user_link(site, "globex", "alice"))
        assert "GLOBEX" in page.content() and "北京" not in page.content()
        page.context.close()
    finally:
        acme_ctx.close()
        globex_ctx.close()


def test_tampered_and_expired_links_are_refused(page: Any, site: Site) -> None:
    url = user_link(site, "acme", "alice", ttl="2m")
    body, mac = url.rsplit("/", 1)[1].split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["t"] = "globex"
    evil = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).rstrip(b"=").decode()
    resp = page.goto(f"{site.url}/ui/u/{evil}.{mac}")
    assert resp.status == 403 and page.locator("#error-message").inner_text().startswith("链接无效或已过期")
    try:
        site.clock.set(NOW + timedelta(minutes=3))
        assert page.goto(url).status == 403
    finally:
        site.clock.set(NOW)
    page.goto(url)
    assert page.url.endswith("/ui/memories")
    try:
        site.clock.set(NOW + timedelta(minutes=3))  # the session ends with the link
        page.goto(f"{site.url}/ui/memories")
        assert page.url.endswith("/ui/login?next=%2Fui%2Fmemories")
    finally:
        site.clock.set(NOW)


def test_ui_link_cli_link_opens_in_the_browser(page: Any, site: Site) -> None:
    result = CliRunner().invoke(cli, ["--home", str(site.home), "ui-link", "--user", "bob", "--tenant", "acme",
                                      "--ttl", "2d", "--base-url", site.url])  # the CLI reads the real clock
    assert result.exit_code == 0, result.output
    url = result.output.strip().splitlines()[0]
    assert re.fullmatch(re.escape(site.url) + r"/ui/u/[\w\-]+\.[\w\-]+", url)
    page.goto(url)
    assert page.locator("h1").inner_text() == "bob 的记忆" and "赵大海" in page.content()


def test_forget_me_asks_for_confirmation_then_erases_everything(page: Any, site: Site) -> None:
    uid = "carol"  # a stable name: it shows in the screenshot
    remember_all(site, "acme", uid, ["用户喜欢喝乌龙茶", "用户住在苏州"])
    page.goto(user_link(site, "acme", uid))
    page.get_by_role("link", name="忘记我").click()
    assert "全部 2 条记忆" in page.inner_text("main")
    page.locator("#confirm").evaluate("el => el.required = false")  # get past the browser's own check
    page.get_by_role("button", name="永久删除全部记忆").click()
    assert page.locator("#forget-error").inner_text() == "请先勾选确认框。"
    assert len(site.memory("acme").get_all(user_id=uid, status=None)) == 2
    shoot(page, "forget")
    page.get_by_label("我明白，这无法撤销").check()
    page.get_by_role("button", name="永久删除全部记忆").click()
    assert page.locator("#forgotten").inner_text() == "已忘记。删除了 2 条记忆。"
    assert site.memory("acme").get_all(user_id=uid, status=None) == []
    page.goto(f"{site.url}/ui/memories")
    assert "/ui/login" in page.url  # the link's session ended with the forgetting


def test_revoking_the_key_ends_operator_sessions(page: Any, site: Site) -> None:
    from jiyi.server.keys import KeyStore

    keys = KeyStore.in_home(site.home)
    info, key = keys.create("acme", name="short-lived")
    page.goto(f"{site.url}/ui/login")
    page.get_by_label("API 密钥").fill(key)
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(re.compile(r"/ui/$"))
    keys.revoke(info.id)
    page.goto(f"{site.url}/ui/memories?user=alice")
    assert "/ui/login" in page.url


def test_link_endpoint_needs_an_api_key_and_a_sane_ttl(site: Site) -> None:
    import httpx

    assert httpx.post(f"{site.url}/v1/ui-links", json={"user_id": "alice"}).status_code == 401
    bad = httpx.post(f"{site.url}/v1/ui-links", json={"user_id": "alice", "ttl": "1000d"},
                     headers={"Authorization": f"Bearer {site.keys['acme']}"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_input"
    for huge in ("9999999999999999", "999999999999999w"):  # seconds and weeks past what a timedelta holds
        bad = httpx.post(f"{site.url}/v1/ui-links", json={"user_id": "alice", "ttl": huge},
                         headers={"Authorization": f"Bearer {site.keys['acme']}"})
        assert bad.status_code == 422 and "between 1 second and 90 days" in bad.json()["error"]["message"]
    ok = httpx.post(f"{site.url}/v1/ui-links", json={"user_id": "alice", "ttl": "30m"},
                    headers={"X-API-Key": site.keys["globex"]}).json()
    assert ok["tenant"] == "globex" and ok["path"].startswith("/ui/u/")
    assert ok["expires_at"].startswith((NOW + timedelta(minutes=30)).isoformat()[:16])
