"""The proxy hands recall the conversation's previous messages (``recent``) besides the question."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
from fake_openai import FakeOpenAI, chat
from proxy_harness import serve_proxy

from jiyi.memory import Memory
from jiyi.proxy import ProxyOptions, create_app
from jiyi.proxy.messages import recent_turns


def test_recent_turns_are_the_messages_before_the_question() -> None:
    messages = [{"role": "system", "content": "Be kind."},
                {"role": "user", "content": "We had dinner at a tiny ramen bar in Kyoto"},
                {"role": "assistant", "content": [{"type": "text", "text": "Sounds lovely!"},
                                                  {"type": "image_url", "image_url": {"url": "data:x"}}]},
                {"role": "tool", "content": "{}"},
                {"role": "user", "content": "what was that place called again?"}]
    assert recent_turns(messages) == [{"role": "user", "content": "We had dinner at a tiny ramen bar in Kyoto"},
                                      {"role": "assistant", "content": "Sounds lovely!"}]
    assert recent_turns(messages, 1) == [{"role": "assistant", "content": "Sounds lovely!"}]
    assert recent_turns(messages, 0) == [] and recent_turns("nope") == []
    assert recent_turns([{"role": "user", "content": "x" * 5000}, {"role": "user", "content": "q"}])[0][
        "content"] == "x" * 4000  # cut to what recall takes


def _proxy(tmp_path: Path, upstream: FakeOpenAI, turns: int) -> Iterator[tuple[str, Memory]]:
    with Memory(path=tmp_path / f"r{turns}.db", home=tmp_path, background_worker=False) as mem:
        mem.remember("The user's favourite ramen bar is Menya Kaze", user_id="kai")
        app = create_app(mem, upstream.base_url, ProxyOptions(recall_timeout=20.0, record=False, recent_turns=turns))
        for url in serve_proxy(app):
            yield url, mem


def test_the_recent_turns_reach_recall(tmp_path: Path) -> None:
    """Black box: 55 previous messages, of which recall takes at most 50. Passing 8 of them the
    block comes back; asked to pass 55, recall refuses the request's ``recent`` (InvalidInput) and
    the proxy sends the chat on without memory, so the turns did reach recall."""
    history = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} about ramen"}
               for i in range(55)]
    body = {"model": "m", "user": "kai", "messages": [*history, {"role": "user", "content": "which ramen bar?"}]}
    with FakeOpenAI() as upstream:
        for turns, injected in ((8, True), (55, False)):
            for url, _ in _proxy(tmp_path, upstream, turns):
                upstream.push(chat("ok"))
                assert httpx.post(f"{url}/chat/completions", json=body, timeout=30).status_code == 200
                system = upstream.requests[-1].messages[0]
                assert (system["role"] == "system" and "Menya Kaze" in system["content"]) is injected, turns
