"""Every endpoint of the HTTP API, on a live server."""

from __future__ import annotations

import json
import re

import httpx
from server_support import add_sync, error_code


def test_healthz_answers_without_a_key(anon: httpx.Client) -> None:
    resp = anon.get("/healthz")
    assert resp.status_code == 200
    assert resp.json()["status"] == "ok"


def test_add_sync_then_search_context_list_and_get(acme: httpx.Client, uid: str) -> None:
    body = add_sync(acme, uid, "记住，我对花生过敏。我住在上海。")
    assert body["messages"] == 1 and body["job_id"]
    assert body["events"], "a sync add reports what it stored"
    assert {e["event"] for e in body["events"]} <= {"ADD", "MERGE", "SUPERSEDE", "UPDATE", "NONE"}

    hits = acme.post("/v1/memories/search", json={"query": "花生", "user_id": uid, "limit": 5}).json()["hits"]
    assert hits and any("花生" in h["content"] for h in hits)
    assert all(h["user_id"] == uid and h["tenant"] == "acme" for h in hits)
    assert isinstance(hits[0]["score"], float) and hits[0]["scores"]

    ctx = acme.post("/v1/context", json={"query": "花生", "user_id": uid, "budget_tokens": 300}).json()["context"]
    assert "花生" in ctx

    listed = acme.get("/v1/memories", params={"user_id": uid}).json()
    assert listed["offset"] == 0 and listed["memories"]
    first = listed["memories"][0]
    got = acme.get(f"/v1/memories/{first['id']}", params={"user_id": uid})
    assert got.status_code == 200 and got.json() == first


def test_add_accepts_a_message_list_with_ids_and_timestamps(acme: httpx.Client, uid: str) -> None:
    msgs = [{"role": "user", "content": "我下周三要去深圳出差", "id": "m1",
             "timestamp": "2025-03-05T09:00:00+08:00"},
            {"role": "assistant", "content": "好的，祝出差顺利！", "id": "m2"}]
    add_sync(acme, uid, "", messages=msgs, session_id="s1")
    rows = acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"]
    assert any("m1" in r["source_ids"] for r in rows)


def test_add_without_sync_is_durable_and_flush_processes_it(acme: httpx.Client, uid: str) -> None:
    resp = acme.post("/v1/memories", json={"messages": "我叫李雷，在杭州工作", "user_id": uid})
    assert resp.status_code == 200
    assert resp.json()["pending"] is True and resp.json()["events"] == []
    assert acme.post("/v1/flush", json={"timeout": 60}).json() == {"idle": True}
    rows = acme.get("/v1/memories", params={"user_id": uid}).json()["memories"]
    assert any("杭州" in r["content"] for r in rows)


def test_end_session_summarises_and_needs_a_session_id(acme: httpx.Client, uid: str) -> None:
    msgs = [{"role": "user", "content": f"我这周第{n}次去健身房练腿"} for n in range(4)]
    add_sync(acme, uid, "", messages=msgs, session_id="gym")
    resp = acme.post("/v1/sessions/end", json={"user_id": uid, "session_id": "gym"})
    assert resp.status_code == 200, resp.text
    summaries = resp.json()["memories"]
    assert all(r["kind"] == "summary" and r["user_id"] == uid for r in summaries)
    assert acme.post("/v1/sessions/end", json={"user_id": uid}).status_code == 422


def test_the_short_term_buffer_can_be_read_and_cleared(acme: httpx.Client, uid: str) -> None:
    acme.post("/v1/memories", json={"messages": "我刚到机场", "user_id": uid, "session_id": "trip"})
    acme.post("/v1/memories", json={"messages": "今天天气不错", "user_id": uid, "session_id": "chat"})
    trip = acme.get("/v1/buffer", params={"user_id": uid, "session_id": "trip"}).json()["messages"]
    assert [(m["content"], m["session_id"]) for m in trip] == [("我刚到机场", "trip")]
    assert len(acme.get("/v1/buffer", params={"user_id": uid}).json()["messages"]) == 2
    assert acme.delete("/v1/buffer", params={"user_id": uid, "session_id": "trip"}).json() == {"cleared": 1}
    assert [m["session_id"] for m in acme.get("/v1/buffer", params={"user_id": uid}).json()["messages"]] == ["chat"]
    acme.post("/v1/flush")


def test_remember_update_history_delete_restore(acme: httpx.Client, uid: str) -> None:
    rec = acme.post("/v1/remember", json={"content": "用户喜欢喝乌龙茶", "user_id": uid, "kind": "preference",
                                          "importance": 0.9}).json()
    assert rec["kind"] == "preference" and rec["importance"] == 0.9 and rec["status"] == "active"
    mid = rec["id"]

    upd = acme.patch(f"/v1/memories/{mid}", json={"content": "用户喜欢喝普洱茶", "user_id": uid})
    assert upd.status_code == 200 and upd.json()["content"] == "用户喜欢喝普洱茶"

    deleted = acme.request("DELETE", f"/v1/memories/{mid}", params={"user_id": uid})
    assert deleted.status_code == 200 and deleted.json()["status"] == "deleted"
    hits = acme.post("/v1/memories/search", json={"query": "普洱茶", "user_id": uid}).json()["hits"]
    assert mid not in {h["id"] for h in hits}

    restored = acme.post(f"/v1/memories/{mid}/restore", json={"user_id": uid})
    assert restored.status_code == 200 and restored.json()["status"] == "active"

    events = acme.get(f"/v1/memories/{mid}/history", params={"user_id": uid}).json()["events"]
    assert [e["event"] for e in events] == ["ADD", "UPDATE", "DELETE", "RESTORE"]
    assert events[1]["old"] == "用户喜欢喝乌龙茶" and events[1]["new"] == "用户喜欢喝普洱茶"


def test_user_id_from_query_or_body(acme: httpx.Client, uid: str) -> None:
    mid = acme.post("/v1/remember", json={"content": "用户养了一只狗", "user_id": uid}).json()["id"]
    assert acme.request("DELETE", f"/v1/memories/{mid}", json={"user_id": uid}).status_code == 200
    patched = acme.patch(f"/v1/memories/{mid}", params={"user_id": uid}, json={"content": "用户养了两只狗"})
    assert patched.status_code == 200
    missing = acme.get(f"/v1/memories/{mid}")  # no body here: the document marks ?user_id= required
    assert missing.status_code == 422 and error_code(missing) == "validation_error"
    assert "user_id" in missing.text
    no_user = acme.patch(f"/v1/memories/{mid}", json={"content": "x"})  # neither query nor body
    assert no_user.status_code == 422 and error_code(no_user) == "invalid_input"
    clash = acme.patch(f"/v1/memories/{mid}", params={"user_id": uid}, json={"content": "x", "user_id": "other"})
    assert clash.status_code == 422 and "differ" in clash.json()["error"]["message"]


def test_unknown_memory_is_404_with_a_stable_code(acme: httpx.Client, uid: str) -> None:
    for resp in (acme.get("/v1/memories/nope", params={"user_id": uid}),
                 acme.patch("/v1/memories/nope", json={"content": "x", "user_id": uid}),
                 acme.request("DELETE", "/v1/memories/nope", params={"user_id": uid}),
                 acme.get("/v1/memories/nope/history", params={"user_id": uid})):
        assert resp.status_code == 404, resp.text
        assert error_code(resp) == "not_found"


def test_list_filters_by_kind_and_status_and_pages(acme: httpx.Client, uid: str) -> None:
    ids = [acme.post("/v1/remember", json={"content": f"用户的第{i}个爱好是{h}", "user_id": uid,
                                           "kind": "preference"}).json()["id"]
           for i, h in enumerate(["游泳", "登山", "围棋"])]
    acme.post("/v1/remember", json={"content": "用户的生日是五月一日", "user_id": uid, "kind": "fact"})
    prefs = acme.get("/v1/memories", params={"user_id": uid, "kind": "preference"}).json()["memories"]
    assert {r["id"] for r in prefs} == set(ids)
    both = acme.get("/v1/memories", params={"user_id": uid, "kind": ["preference", "fact"]}).json()["memories"]
    assert len(both) == 4
    page1 = acme.get("/v1/memories", params={"user_id": uid, "limit": 2}).json()["memories"]
    page2 = acme.get("/v1/memories", params={"user_id": uid, "limit": 2, "offset": 2}).json()["memories"]
    assert len(page1) == 2 and len(page2) == 2 and not {r["id"] for r in page1} & {r["id"] for r in page2}

    acme.request("DELETE", f"/v1/memories/{ids[0]}", params={"user_id": uid})
    active = acme.get("/v1/memories", params={"user_id": uid}).json()["memories"]
    deleted = acme.get("/v1/memories", params={"user_id": uid, "status": "deleted"}).json()["memories"]
    everything = acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"]
    assert ids[0] not in {r["id"] for r in active}
    assert [r["id"] for r in deleted] == [ids[0]]
    assert len(everything) == 4
    bad = acme.get("/v1/memories", params={"user_id": uid, "kind": "gossip"})
    assert bad.status_code == 422 and error_code(bad) == "validation_error"


def test_export_streams_jsonl_and_forget_removes_everything(acme: httpx.Client, uid: str) -> None:
    add_sync(acme, uid, "我女朋友叫小雅，她喜欢猫")
    acme.post("/v1/remember", json={"content": "用户对海鲜过敏", "user_id": uid})
    resp = acme.get(f"/v1/users/{uid}/export")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("application/x-ndjson")
    rows = [json.loads(line) for line in resp.text.splitlines()]
    assert rows and all(r["user_id"] == uid and r["tenant"] == "acme" and "history" in r for r in rows)

    assert uid in acme.get("/v1/users").json()["users"]
    gone = acme.delete(f"/v1/users/{uid}")
    assert gone.status_code == 200 and gone.json()["deleted"] == len(rows)
    assert acme.get(f"/v1/users/{uid}/export").text == ""
    assert acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).json()["memories"] == []
    assert uid not in acme.get("/v1/users").json()["users"]


def test_import_puts_exported_rows_into_the_callers_tenant(acme: httpx.Client, globex: httpx.Client,
                                                           uid: str) -> None:
    acme.post("/v1/remember", json={"content": "用户的车是白色特斯拉", "user_id": uid})
    rows = [json.loads(line) for line in acme.get(f"/v1/users/{uid}/export").text.splitlines()]
    resp = globex.post("/v1/import", json={"records": rows})
    assert resp.status_code == 200 and resp.json() == {"imported": len(rows)}
    copied = globex.get("/v1/memories", params={"user_id": uid}).json()["memories"]
    assert [r["content"] for r in copied] == ["用户的车是白色特斯拉"]
    assert copied[0]["tenant"] == "globex"
    bad = globex.post("/v1/import", json={"records": [{"content": "no kind, no user"}]})
    assert bad.status_code == 422 and error_code(bad) == "invalid_input"


def test_gc_reports_by_default_and_acts_when_asked(acme: httpx.Client, uid: str) -> None:
    acme.post("/v1/remember", json={"content": "用户今天中午吃拉面", "user_id": uid, "kind": "event",
                                    "valid_until": "2020-01-01T00:00:00Z"})
    dry = acme.post("/v1/gc", json={"user_id": uid})
    assert dry.status_code == 200
    report = dry.json()
    assert report["dry_run"] is True and set(report["counts"]) == set(report["ids"])
    applied = acme.post("/v1/gc", json={"user_id": uid, "dry_run": False, "now": "2031-01-01T00:00:00Z"}).json()
    assert applied["dry_run"] is False
    assert acme.post("/v1/gc").json()["dry_run"] is True  # no body at all: a dry run of the whole tenant
    bad = acme.post("/v1/gc", json={"now": "next tuesday"})
    assert bad.status_code == 422 and error_code(bad) == "invalid_input"


def test_stats_are_the_callers_tenant(acme: httpx.Client, globex: httpx.Client) -> None:
    assert acme.get("/v1/stats").json()["tenant"] == "acme"
    body = globex.get("/v1/stats").json()
    assert body["tenant"] == "globex" and "pending_jobs" in body["stats"]


def test_metrics_label_routes_by_template_and_report_queue_depth(acme: httpx.Client, anon: httpx.Client,
                                                                 uid: str) -> None:
    mid = acme.post("/v1/remember", json={"content": "用户会说粤语", "user_id": uid}).json()["id"]
    acme.get(f"/v1/memories/{mid}", params={"user_id": uid})
    assert anon.get("/metrics").status_code == 401
    resp = acme.get("/metrics")  # acme is an operator tenant of this server (conftest)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    text = resp.text
    assert re.search(r'jiyi_http_requests_total\{method="GET",route="/v1/memories/\{memory_id\}",status="200"\} \d+',
                     text)
    assert 'jiyi_http_request_duration_seconds_bucket{method="POST",route="/v1/remember",le="+Inf"}' in text
    assert re.search(r"^jiyi_jobs_pending \d+", text, re.M)
    assert mid not in text and uid not in text, "ids must not become label values"


def test_unknown_routes_and_methods_answer_json(anon: httpx.Client, acme: httpx.Client) -> None:
    nope = anon.get("/v2/whatever")
    assert nope.status_code == 404 and error_code(nope) == "not_found"
    wrong = acme.put("/v1/memories/search", json={})
    assert wrong.status_code == 405 and error_code(wrong) == "method_not_allowed"


def test_a_group_chat_added_per_sender_shares_standing_facts_between_its_members(acme: httpx.Client,
                                                                                 uid: str) -> None:
    group, hao, tang = f"group-{uid}", f"{uid}-hao", f"{uid}-tang"
    for user, name, text in ((hao, "阿豪", "我对猫毛过敏"), (tang, "糖糖", "周末来我家玩吧")):
        resp = acme.post("/v1/memories", json={"messages": [{"role": "user", "content": text, "name": name}],
                                               "user_id": user, "session_id": group, "group": True, "sync": True})
        assert resp.status_code == 200, resp.text
    ctx = acme.post("/v1/context", json={"query": "我想养只猫", "user_id": tang}).json()["context"]
    assert re.search(r"(?m)^- 阿豪.*猫毛", ctx), ctx
    bad = acme.post("/v1/memories", json={"messages": "hi", "user_id": tang, "group": True})
    assert bad.status_code == 422 and "session_id" in bad.text
