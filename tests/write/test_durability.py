"""Accepted writes survive crashes; concurrent writers from threads and processes lose nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from datetime import timedelta
from pathlib import Path

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock, utc_now

WRITER = textwrap.dedent("""
    import sys
    from jiyi import Memory
    path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    mem = Memory(path=path, home=sys.argv[4])
    for i in range(n):
        mid = f"{tag}-{i}"
        mem.add([{"role": "user", "content": f"第{i}条消息：我今天在{tag}学习了第{i}课的内容", "id": mid}],
                user_id="shared")
        print(mid, flush=True)
    mem.flush()
    mem.close()
""")


def episode_sources(mem: Memory, user_id: str) -> set[str]:
    return {s for r in mem.get_all(user_id=user_id, kinds=[Kind.EPISODE]) for s in r.source_ids}


def test_kill_mid_ingest_loses_no_accepted_message(tmp_path: Path, make_memory: object, clock: FrozenClock) -> None:
    db = tmp_path / "jiyi.db"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), "crash", "400", str(tmp_path)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    accepted = []
    for line in proc.stdout:
        accepted.append(line.strip())
        if len(accepted) == 60:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    clock.set(utc_now() + timedelta(days=1))  # the dead worker's leases (real time) have run out
    mem = make_memory(path=db)  # type: ignore[operator]
    assert mem.flush(timeout=120)
    assert set(accepted) <= episode_sources(mem, "shared")


def test_concurrent_threads_lose_nothing(make_memory: object) -> None:
    mem = make_memory(background_worker=True)  # type: ignore[operator]
    ids: list[str] = []
    lock = threading.Lock()

    def writer(t: int) -> None:
        for i in range(15):
            mid = f"t{t}-{i}"
            mem.add([{"role": "user", "content": f"线程{t}的第{i}条笔记：周{i % 7}去图书馆", "id": mid}],
                    user_id="shared")
            with lock:
                ids.append(mid)

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert mem.flush(timeout=120)
    assert set(ids) == episode_sources(mem, "shared")


def test_concurrent_processes_lose_nothing(tmp_path: Path, make_memory: object) -> None:
    db = tmp_path / "jiyi.db"
    make_memory(path=db).close()  # type: ignore[operator]
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), f"p{k}", "25", str(tmp_path)],
                              stdout=subprocess.PIPE, text=True) for k in range(2)]
    printed = []
    for p in procs:
        out, _ = p.communicate(timeout=300)
        assert p.returncode == 0
        printed += out.split()
    mem = make_memory(path=db)  # type: ignore[operator]
    assert mem.flush(timeout=60)
    assert len(printed) == 50
    assert set(printed) == episode_sources(mem, "shared")
