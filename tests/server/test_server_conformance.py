"""The API document states the rules the core enforces, and 405s name every method of the path."""

from __future__ import annotations

import re

import httpx
import pytest

from jiyi.server.schemas import ID_RULE, RECORD_ID_RULE, TIME_RULE, text_rule
from jiyi.userid import user_id_problem
from jiyi.write.validate import InvalidInput, check_record_id, check_text, check_time

GOOD_IDS = ["u1", "张三", "wa 1", "a/b@c#d", "x" * 128, "ユーザー:7", "😀"]
BAD_IDS = ["", " u1", "u1 ", "u\t1", "u\n1", "u\x00", "a\u200bb", "a\u2028b", "\x85", "x" * 129, "\ufeffu"]


def _fits(rule: dict[str, object], value: str) -> bool:
    return (int(rule.get("minLength", 0)) <= len(value) <= int(rule.get("maxLength", 10**9))  # type: ignore[call-overload]
            and re.search(str(rule["pattern"]), value) is not None)


@pytest.mark.parametrize("value", GOOD_IDS + BAD_IDS)
def test_id_rule_agrees_with_the_core(value: str) -> None:
    assert _fits(ID_RULE, value) == (user_id_problem(value) is None), value


@pytest.mark.parametrize("value", ["m_1", "2025:a/b@c#d-e.f", "", "a b", "a\nb", "x" * 129, "a,b"])
def test_record_id_rule_accepts_only_what_the_core_accepts(value: str) -> None:
    try:
        check_record_id(value)
        accepted = True
    except InvalidInput:
        accepted = False
    if _fits(RECORD_ID_RULE, value):
        assert accepted, value


@pytest.mark.parametrize("value", ["2025-03-02T09:15:00+08:00", "1901-01-01", "2998-12-31T23:59Z",
                                   "2024-02-29", "2025-02-29", "9999-12-31T23:59:59Z", "1899-12-31", "", "明天"])
def test_time_rule_accepts_only_what_the_core_accepts(value: str) -> None:
    if _fits(TIME_RULE, value):
        check_time(value, "t")  # raises when the document promised too much


@pytest.mark.parametrize("value", ["x", " 花生 ", "\x00a", "", " ", "\x00", "\t\n", "y" * 2001])
def test_text_rule_accepts_only_what_the_core_accepts(value: str) -> None:
    if _fits(text_rule(2000), value):
        check_text(value, "content", 2000)


def test_405_allows_every_method_of_the_path(acme: httpx.Client, uid: str) -> None:
    for path, methods in {"/v1/memories": {"GET", "POST"}, "/v1/buffer": {"GET", "DELETE"},
                          "/v1/memories/m1": {"GET", "PATCH", "DELETE"},
                          f"/v1/users/{uid}/export": {"GET", "DELETE"}}.items():
        resp = acme.put(path)
        assert resp.status_code == 405, path
        allowed = {m.strip() for m in resp.headers["allow"].split(",")}
        assert methods <= allowed, (path, allowed)
        assert "PUT" not in allowed


def test_a_whole_number_with_a_fraction_is_an_integer(acme: httpx.Client, uid: str) -> None:
    resp = acme.post("/v1/memories/search", json={"query": "花生", "user_id": uid, "limit": 5.0})
    assert resp.status_code == 200, resp.text
    assert acme.post("/v1/memories/search", json={"query": "花生", "user_id": uid, "limit": 5.5}).status_code == 422
    assert acme.post("/v1/memories/search", json={"query": "花生", "user_id": uid, "limit": "5"}).status_code == 422
