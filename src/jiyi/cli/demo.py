"""``jiyi demo``: a scripted Chinese conversation over three sessions on a fresh store.

Shows extraction, recall with scores, a move superseding the old city, an event that
expires, and the rendered context blocks (standing facts first, no small talk). Offline: the bundled model, one temp file.
"""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import click

from jiyi.cli.common import console
from jiyi.cli.memories import print_hits
from jiyi.clock import FrozenClock

CST = timezone(timedelta(hours=8))
SESSIONS: list[tuple[datetime, list[tuple[str, str]]]] = [
    (datetime(2025, 3, 5, 9, 30, tzinfo=CST), [
        ("user", "你好"),
        ("assistant", "你好！有什么可以帮你？"),
        ("user", "我叫王小明，住在上海，在腾讯做产品经理。"),
        ("assistant", "很高兴认识你，小明！"),
        ("user", "记住，我对花生过敏。"),
        ("user", "我女朋友叫小雅，她喜欢猫。"),
        ("user", "下周三我要去深圳出差。"),
        ("user", "今天中午想吃兰州拉面。"),
    ]),
    (datetime(2025, 4, 20, 20, 0, tzinfo=CST), [
        ("user", "跟你说个事，我上周搬家了，搬到杭州了。"),
        ("assistant", "恭喜乔迁！杭州很美。"),
        ("user", "我不喜欢太长的回答，回复简短一点。"),
    ]),
]
QUERIES = ["我现在住在哪个城市？", "推荐一个零食给我", "我中午吃什么来着？", "我女朋友是谁？"]
#: Blocks a bot would get: the profile (the allergy) is there though neither query names it.
CONTEXT_QUERIES = ["推荐一个零食给我", "周末想和女朋友出去吃饭，有什么建议？"]


def register(cli: click.Group) -> None:
    cli.add_command(demo)


@click.command()
@click.option("--keep", is_flag=True, help="Keep the demo database and print its path.")
def demo(keep: bool) -> None:
    """A tour: two sessions of Chinese chat, then recall, supersede, expiry and context."""
    from jiyi.memory import Memory

    out = console()
    tmp = Path(tempfile.mkdtemp(prefix="jiyi-demo-"))
    clock = FrozenClock(SESSIONS[0][0])
    with Memory(path=tmp / "demo.db", home=tmp, clock=clock, background_worker=False) as mem:
        for n, (start, turns) in enumerate(SESSIONS, 1):
            clock.set(start)
            out.rule(f"会话 {n} · {start:%Y-%m-%d %H:%M}")
            for i, (role, text) in enumerate(turns):
                at = start + timedelta(minutes=i)
                result = mem.add({"role": role, "content": text, "timestamp": at.isoformat()},
                                 user_id="xiaoming", session_id=f"s{n}", sync=True)
                out.print(f"[bold]{'用户' if role == 'user' else '助手'}[/]: {text}")
                for ev in result.events:
                    if ev.kind.value != "episode":
                        extra = f"  (取代: {ev.previous})" if ev.previous and ev.event.value == "SUPERSEDE" else ""
                        out.print(f"    [green]{ev.event.value}[/] {ev.kind.value}: {ev.memory}{extra}")
        clock.set(SESSIONS[-1][0] + timedelta(hours=1))
        out.rule("回忆 (recall with scores)")
        for q in QUERIES:
            out.print(f"[bold cyan]问[/]: {q}")
            print_hits(mem.search(q, user_id="xiaoming", limit=3))
        out.rule("记忆状态 (superseded and expired)")
        for rec in mem.get_all(user_id="xiaoming", status=None):
            if rec.kind.value != "episode":
                out.print(f"  {rec.status.value:10} {rec.kind.value:10} {rec.content}")
        report = mem.gc(dry_run=False)
        out.print(f"gc: {report.counts}")
        for q in CONTEXT_QUERIES:
            out.rule(f"build_context (budget 300 tokens): {q}")
            out.print(mem.build_context(q, user_id="xiaoming", budget_tokens=300), markup=False)
    if keep:
        click.echo(f"demo database: {tmp / 'demo.db'}")
