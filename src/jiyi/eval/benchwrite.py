"""Write throughput for ``jiyi bench``: the episode path and the extraction path.

Each scenario runs through the public ``Memory.add(..., sync=True)`` on a fresh
store, so it pays everything a bot pays: validation, the durable job, the
short-term buffer, the worker, episodes, extraction, embedding (unless excluded),
resolution and the one atomic commit. "Single" adds one message per call;
"batched" adds ``batch`` messages per call. Embedding is excluded by the
:class:`~jiyi.eval.synth.PoolEmbedder` (a lookup, microseconds) and included with
the real embedder.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from jiyi.clock import FrozenClock
from jiyi.eval.benchstore import NOW
from jiyi.eval.synth import CITIES_EN, CITIES_ZH, FOODS_EN, FOODS_ZH, NAMES_EN, NAMES_ZH, generate
from jiyi.records import Message
from jiyi.text.tokens import keywords_text


class NullExtractor:
    """Proposes nothing: isolates the episode path from extraction."""

    name = "none"
    cheap = True

    def extract(self, messages: Sequence[Message], *, language_hint: str | None = None) -> list[Any]:
        return []


@dataclass(slots=True, frozen=True)
class WritePlan:
    """How many messages each scenario writes."""

    single: int = 200
    batched: int = 2_000
    batch: int = 100
    embedded_single: int = 10
    embedded_batched: int = 40


def chat_messages(n: int, seed: int) -> list[str]:
    """Conversation turns without memory signals (the episode path)."""
    return [m.content for m in generate(n, seed)]


def fact_messages(n: int, seed: int) -> list[str]:
    """Turns the rules extractor turns into memories (the extraction path)."""
    r = random.Random(seed)
    forms = [
        lambda: f"我住在{r.choice(CITIES_ZH)}，平时喜欢吃{r.choice(FOODS_ZH)}",
        lambda: f"记住，我对{r.choice(FOODS_ZH)}过敏",
        lambda: f"我姐姐叫{r.choice(NAMES_ZH)}，她在{r.choice(CITIES_ZH)}工作",
        lambda: f"I live in {r.choice(CITIES_EN)} and I'm allergic to {r.choice(FOODS_EN)}",
        lambda: f"My sister's name is {r.choice(NAMES_EN)}, remember that",
        lambda: f"I never eat {r.choice(FOODS_EN)}, I always order {r.choice(FOODS_EN)} instead",
    ]
    return [r.choice(forms)() + f" ({i})" for i in range(n)]


def run_writes(folder: Path, pool_embedder: Any, real_embedder: Any, plan: WritePlan, *,
               seed: int = 3) -> dict[str, Any]:
    """messages/s for {episode, extraction} × {single, batched} × {without, with embedding}."""
    out: dict[str, Any] = {}
    for path_name, extractor, texts in (("episode", NullExtractor(), chat_messages),
                                        ("extraction", None, fact_messages)):
        for embedded, embedder in (("without_embedding", pool_embedder), ("with_embedding", real_embedder)):
            if embedder is None:
                continue
            singles = plan.embedded_single if embedded == "with_embedding" else plan.single
            batched = plan.embedded_batched if embedded == "with_embedding" else plan.batched
            for mode, count, batch in (("single", singles, 1), ("batched", batched, plan.batch)):
                db = folder / f"writes-{path_name}-{embedded}-{mode}.db"
                rate, memories = _throughput(db, embedder, extractor, texts(count, seed), min(batch, count))
                out.setdefault(path_name, {}).setdefault(mode, {})[embedded] = {
                    "messages": count, "batch": min(batch, count), "messages_per_s": rate, "memories": memories}
                seed += 1
    return out


def _throughput(db: Path, embedder: Any, extractor: Any, texts: list[str], batch: int) -> tuple[float, int]:
    from jiyi.memory import Memory

    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    clock = FrozenClock(NOW)
    kw: dict[str, Any] = {"extractor": extractor} if extractor is not None else {}
    with Memory(path=db, home=db.parent, clock=clock, embedder=embedder, background_worker=False, **kw) as mem:
        keywords_text("预热分词 warm up")  # jieba loads its dictionary once per process: not per message
        mem.add("你好，我们开始吧", user_id="writer", session_id="s1", sync=True)  # open the store, warm caches
        mem.search("开始", user_id="writer")
        started = time.perf_counter()
        for i in range(0, len(texts), batch):
            at = NOW + timedelta(seconds=i)
            msgs = [{"role": "user", "content": t, "timestamp": at.isoformat(), "id": f"w{i + j}"}
                    for j, t in enumerate(texts[i : i + batch])]
            mem.add(msgs, user_id="writer", session_id="s1", sync=True)
        seconds = time.perf_counter() - started
        memories = len(mem.get_all(user_id="writer"))
    return len(texts) / max(seconds, 1e-9), memories
