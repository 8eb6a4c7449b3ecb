"""The service's small parts on their own: token buckets and the key store."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiyi.errors import InvalidInput, NotFound
from jiyi.server.keys import KeyStore
from jiyi.server.ratelimit import RateLimiter


class Ticker:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    tick = Ticker()
    limiter = RateLimiter(2.0, 3, clock=tick)
    assert [limiter.take("k") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("k") == pytest.approx(0.5)  # empty: one token comes back every 0.5 s
    assert limiter.take("other") == 0.0
    tick.t += 0.5
    assert limiter.take("k") == 0.0
    tick.t += 100
    waits = [limiter.take("k") for _ in range(4)]
    assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] > 0, "refills only up to the burst"
    assert RateLimiter(0, 1, clock=tick).take("k") == 0.0, "rate 0 means unlimited"


def test_key_store_verifies_only_the_exact_active_key(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "k.db")
    assert store.active_count() == 0 and not (tmp_path / "k.db").exists(), "counting creates nothing"
    info, key = store.create("acme", name="bot")
    prefix, key_id, secret = key.split("_", 2)
    assert prefix == "jiyi" and key_id == info.id and len(secret) >= 40
    assert store.verify(key) == info
    assert store.verify(f"  {key}\n") == info
    for wrong in (key[:-1], key + "x", f"jiyi_{key_id}_", f"other_{key_id}_{secret}", "", "jiyi__x"):
        assert store.verify(wrong) is None, wrong
    _, second = store.create("acme")
    assert store.active_count() == 2 and [k.tenant for k in store.list()] == ["acme", "acme"]
    store.revoke(key)  # by the whole key
    assert store.verify(key) is None and store.verify(second) is not None
    with pytest.raises(NotFound):
        store.revoke(info.id)
    with pytest.raises(InvalidInput):
        store.create("has space")


def test_the_engine_loads_the_tokenizers_before_the_first_request(tmp_path: Path) -> None:
    """In a fresh process (this one's jieba may be loaded already): building the engine loads
    jieba's dictionary and the English stemmer, which the first request would wait for."""
    import subprocess
    import sys

    script = (
        "import sys; from pathlib import Path\n"
        "from jiyi.config import Settings\n"
        "from jiyi.server.tenants import Engine\n"
        "from jiyi.text import tokens, zh\n"
        "before = (zh._ready, tokens._stemmer.cache_info().currsize)\n"
        "engine = Engine.build(Settings(home=Path(sys.argv[1]), embedder='hash'))\n"
        "print(before, (zh._ready, tokens._stemmer.cache_info().currsize))\n"
        "engine.store.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                         timeout=120, check=True).stdout.strip()
    assert out == "(False, 0) (True, 1)"
