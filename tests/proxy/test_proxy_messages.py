"""The request rewriting and SSE collection the proxy relies on (pure functions)."""

from __future__ import annotations

import json

from jiyi.proxy.forward import StreamText, request_headers
from jiyi.proxy.messages import inject_context, last_user_text, pick_user


def test_pick_user_prefers_the_header() -> None:
    assert pick_user({"user": "field"}, {"x-jiyi-user": "header"}) == "header"
    assert pick_user({"user": " field "}, {}) == " field "  # as sent: the proxy refuses it, never trims it
    assert pick_user({"user": ""}, {"x-jiyi-user": ""}) is None
    assert pick_user({"user": 42}, {}) is None


def test_last_user_text_reads_multimodal_text_only() -> None:
    msgs = [{"role": "user", "content": "first"}, {"role": "assistant", "content": "a"},
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:x"}},
                                         {"type": "text", "text": "看这张图"}]}]
    assert last_user_text(msgs) == "看这张图"
    assert last_user_text([{"role": "system", "content": "s"}]) == ""
    assert last_user_text("not a list") == ""


def test_inject_context_keeps_the_input_and_every_message() -> None:
    msgs = [{"role": "system", "content": "SYS"}, {"role": "user", "content": "q"}]
    out = inject_context(msgs, "<memories>M</memories>")
    assert out[0]["content"] == "<memories>M</memories>\n\nSYS" and out[1:] == msgs[1:]
    assert msgs[0]["content"] == "SYS"  # not modified in place
    parts = inject_context([{"role": "system", "content": [{"type": "text", "text": "SYS"}]}], "B")
    assert parts[0]["content"] == [{"type": "text", "text": "B"}, {"type": "text", "text": "SYS"}]
    assert inject_context([{"role": "user", "content": "q"}], "B") == [
        {"role": "system", "content": "B"}, {"role": "user", "content": "q"}]


def _event(content: str | None = None, finish: str | None = None) -> bytes:
    delta = {"content": content} if content is not None else {}
    return f"data: {json.dumps({'choices': [{'delta': delta, 'finish_reason': finish}]})}\n\n".encode()


def test_stream_text_across_arbitrary_chunk_boundaries() -> None:
    stream = b"".join([_event("你"), b": keep-alive\n\n", _event("好，"), _event("世界"), _event(finish="stop"),
                       b"data: [DONE]\n\n"])
    collector = StreamText()
    for i in range(0, len(stream), 7):
        collector.feed(stream[i : i + 7])
    assert collector.text == "你好，世界" and collector.complete and collector.done


def test_a_cut_stream_is_not_complete() -> None:
    collector = StreamText()
    collector.feed(_event("半句") + _event("话"))
    assert collector.text == "半句话" and not collector.complete


def test_request_headers_drop_hop_by_hop_and_jiyi() -> None:
    out = request_headers({"Authorization": "Bearer k", "Host": "proxy", "Content-Length": "3",
                           "X-Jiyi-User": "u", "OpenAI-Organization": "org"})
    assert out == {"Authorization": "Bearer k", "OpenAI-Organization": "org"}
