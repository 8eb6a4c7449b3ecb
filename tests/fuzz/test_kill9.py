"""kill -9 at random points of an ingest: every message whose ``add`` returned is stored in the end.

A writer process adds messages (queued and sync, short and long) with its background
worker running, printing each message id once ``add`` returned; it is SIGKILLed at a
seeded random point (while adding, or while its worker drains the queue). A new process
then flushes: every accepted message must have its episodes, and no job failed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from datetime import timedelta
from pathlib import Path

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock, utc_now

RUNS = 3
MESSAGES = 40  # per run (every 7th a long one)
WRITER = textwrap.dedent("""
    import sys
    from jiyi import Memory
    path, home, tag, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    mem = Memory(path=path, home=home, embedder="hash")
    for i in range(n):
        mid = f"{tag}-{i}"
        text = f"第{i}条：我今天在{tag}学了第{i}课。" * (60 if i % 7 == 0 else 1)  # some long ones
        mem.add([{"role": "user", "content": text, "id": mid}], user_id=f"u{i % 3}", sync=i % 5 == 0)
        print(mid, flush=True)
    print("done", flush=True)
    mem.flush()
""")


def stored_sources(mem: Memory) -> set[str]:
    return {s for u in ("u0", "u1", "u2") for r in mem.get_all(user_id=u, kinds=[Kind.EPISODE], limit=1000)
            for s in r.source_ids}


def test_kill9_at_random_points_loses_no_accepted_message(tmp_path: Path, clock: FrozenClock) -> None:
    rng = random.Random(19)
    db, accepted = tmp_path / "jiyi.db", set()
    for run in range(RUNS):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(tmp_path), f"r{run}", str(MESSAGES)],
                                stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        assert proc.stdout is not None
        kill_after = rng.randint(5, MESSAGES + 10)  # past the last line: killed while the worker drains
        for seen, line in enumerate(proc.stdout, 1):
            if line.strip() != "done":
                accepted.add(line.strip())
            if seen >= kill_after:
                time.sleep(rng.random() * 0.3)
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
    clock.set(utc_now() + timedelta(days=1))  # the dead workers' leases (real time) have run out
    with Memory(path=db, home=tmp_path, embedder="hash", clock=clock, background_worker=False) as mem:
        assert mem.flush(timeout=300) is True
        assert mem.failed_jobs() == []
        missing = accepted - stored_sources(mem)
    print(f"\nkill -9: {RUNS} runs, {len(accepted)} accepted messages, {len(missing)} missing")
    assert not missing
