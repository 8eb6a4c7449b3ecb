"""A NUL in metadata is a 422 (invalid input), not a 503 that invites retries."""

from __future__ import annotations

import httpx


def test_nul_in_metadata_is_a_422_over_rest(acme: httpx.Client, uid: str) -> None:
    r = acme.post("/v1/memories", json={"messages": "我住在杭州", "user_id": uid, "sync": True,
                                        "metadata": {"source": "qq\u0000group"}})
    assert r.status_code == 422 and "NUL" in r.json()["error"]["message"], r.text
