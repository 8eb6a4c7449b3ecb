"""REST edges of issue 25: a NUL in metadata is a 422 (not a 503 that invites retries); flush of one user."""

from __future__ import annotations

import httpx


def test_nul_in_metadata_is_a_422_over_rest(acme: httpx.Client, uid: str) -> None:
    r = acme.post("/v1/memories", json={"messages": "我住在杭州", "user_id": uid, "sync": True,
                                        "metadata": {"source": "qq\u0000group"}})
    assert r.status_code == 422 and "NUL" in r.json()["error"]["message"], r.text


def test_flush_of_one_user(acme: httpx.Client, uid: str) -> None:
    assert acme.post("/v1/memories", json={"messages": "我养了一只猫", "user_id": uid}).status_code in (200, 202)
    r = acme.post("/v1/flush", json={"timeout": 30, "user_id": uid})
    assert r.status_code == 200 and r.json()["idle"] is True, r.text
    assert acme.get("/v1/memories", params={"user_id": uid, "status": "all"}).status_code == 200
