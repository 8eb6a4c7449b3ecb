"""``jiyi chat``: talk to the configured LLM with memory on, and watch what it recalls and stores.

Every line read from stdin is one user turn:

1. recall: ``search`` finds the memories for it, shown with their scores;
2. reply: ``build_context`` puts them in the system prompt and the LLM answers;
3. store: the turn and the reply go through ``add(sync=True)``; its events are shown.

Commands: ``/mem`` lists what is remembered, ``/forget ID`` forgets one memory
(``/forget all`` everything about the user), ``/quit`` (or the end of input) closes
the session, which writes its summary. Reading plain lines from stdin keeps it
scriptable: ``printf '我叫小明\\n/quit\\n' | jiyi chat --user u1``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import click

from jiyi.cli.common import open_memory, user_option
from jiyi.errors import JiyiError, ProviderError
from jiyi.records import EventType, Hit, Kind, WriteEvent

SYSTEM_PROMPT = (
    "你是一个友好、简洁的助手，能记住用户说过的事。下面的记忆块是你对这位用户的长期记忆："
    "相关时自然地用上，不相关就忽略，不要逐条复述，也不要编造记忆里没有的事。"
    "用用户使用的语言回答。"
)
_PARTS = (("vector_raw", "vector"), ("keyword_raw", "keyword"), ("freshness", "fresh"))
HELP = "commands: /mem (what is remembered), /forget ID | /forget all, /quit"


def register(cli: click.Group) -> None:
    cli.add_command(chat)


@click.command()
@user_option
@click.option("--session", "session_id", default=None, help="Session id (default: chat-<date-time>).")
@click.option("--budget", default=600, show_default=True, help="Token budget of the memory block.")
@click.option("--limit", "-n", default=5, show_default=True, help="Memories recalled per turn.")
@click.option("--history", "history_turns", default=6, show_default=True,
              help="Recent messages of this chat sent along with each turn.")
@click.option("--compress", is_flag=True, help="Let the LLM compress memories that exceed the budget.")
def chat(user_id: str, session_id: str | None, budget: int, limit: int, history_turns: int,
         compress: bool) -> None:
    """Chat with the configured LLM, memory on; shows what is recalled and stored each turn.

    Needs JIYI_LLM_BASE_URL and JIYI_LLM_MODEL (and JIYI_LLM_API_KEY if the server wants one).
    Reads one message per line from stdin. /mem lists memories, /forget ID forgets one
    (/forget all: everything about the user), /quit ends and writes the session summary.
    """
    stdin = sys.stdin  # (CliRunner swaps it in tests; click.get_text_stream is deprecated in Click 8.5)
    with open_memory() as mem:
        if mem.llm is None:
            raise click.ClickException(
                "jiyi chat needs an LLM: set JIYI_LLM_BASE_URL (a URL or a preset such as deepseek, "
                "qwen, ollama) and JIYI_LLM_MODEL")
        sid = session_id or f"chat-{mem.clock.now():%Y%m%d-%H%M%S}"
        options = ChatOptions(budget=budget, limit=limit, history=history_turns, compress=compress)
        ChatSession(mem, user_id, sid, options).run(stdin, echo_input=not stdin.isatty())


@dataclass(slots=True)
class ChatOptions:
    budget: int = 600
    limit: int = 5
    history: int = 6
    compress: bool = False


@dataclass
class ChatSession:
    """One chat: ``mem`` is a Memory with an LLM; ``out`` prints a line (click.echo by default)."""

    mem: Any
    user_id: str
    session_id: str
    options: ChatOptions = field(default_factory=ChatOptions)
    out: Callable[[str], None] = click.echo
    messages: list[dict[str, str]] = field(default_factory=list)

    def run(self, lines: Iterable[str], *, echo_input: bool = False) -> None:
        """Read turns and commands until /quit or the end of input, then close the session."""
        self.out(f"jiyi chat · user {self.user_id} · session {self.session_id} · model {self.mem.llm.model}")
        self.out(HELP)
        for raw in lines:
            line = raw.strip()
            if not line:
                continue
            if echo_input:
                self.out(f"you> {line}")
            if line.startswith("/"):
                if not self.command(line):
                    break
                continue
            self.turn(line)
        self.close()

    def turn(self, text: str) -> None:
        """One round: recall, reply, store."""
        hits = self.mem.search(text, user_id=self.user_id, limit=self.options.limit)
        self._show_recalled(hits)
        context = self.mem.build_context(text, user_id=self.user_id, budget_tokens=self.options.budget,
                                         compress=self.options.compress or None)  # None: the setting
        prompt = [{"role": "system", "content": f"{SYSTEM_PROMPT}\n\n{context}".strip()},
                  *self.messages[-self.options.history:], {"role": "user", "content": text}]
        before = _usage(self.mem.llm)
        try:
            reply: str | None = self.mem.llm.complete(prompt, temperature=0.7).text.strip()
        except ProviderError as exc:
            self.out(f"  (the LLM failed: {exc}; the turn is still remembered)")
            reply = None
        turn = [{"role": "user", "content": text}]
        if reply:
            self.out(f"bot> {reply}")
            turn.append({"role": "assistant", "content": reply})
        self.messages.extend(turn)
        result = self.mem.add(turn, user_id=self.user_id, session_id=self.session_id, sync=True)
        self._show_stored(result.events)
        self._show_tokens(before)

    def command(self, line: str) -> bool:
        """Run a /command; False means stop."""
        name, _, arg = line.partition(" ")
        arg = arg.strip()
        if name in ("/quit", "/exit", "/q"):
            return False
        if name == "/mem":
            self._show_memories()
        elif name == "/forget":
            self._forget(arg)
        else:
            self.out(HELP)
        return True

    def close(self) -> None:
        """End the session: pending extraction runs and its summary is written."""
        summaries = self.mem.end_session(user_id=self.user_id, session_id=self.session_id)
        for rec in summaries:
            how = rec.metadata.get("summary", "")
            self.out(f"  session summary ({how}, {len(rec.source_ids)} turns): {rec.content}")
        usage = _usage(self.mem.llm)
        if usage is not None:
            self.out(f"  LLM usage this run: {usage[0]} prompt + {usage[1]} completion tokens")
        self.out("bye")

    def _show_recalled(self, hits: list[Hit]) -> None:
        if not hits:
            self.out("  recalled: nothing")
            return
        self.out("  recalled:")
        for h in hits:
            parts = ", ".join(f"{label} {h.scores[key]:.2f}" for key, label in _PARTS if key in h.scores)
            self.out(f"    {h.score:.3f} {h.kind.value:10} {h.content}" + (f"  ({parts})" if parts else ""))

    def _show_stored(self, events: list[WriteEvent]) -> None:
        episodes = sum(1 for e in events if e.kind is Kind.EPISODE)
        others = [e for e in events if e.kind is not Kind.EPISODE]
        self.out(f"  stored: {episodes} turn(s) verbatim" + ("" if others else "; no new memory"))
        for e in others:
            was = f"  (was: {e.previous})" if e.previous and e.previous != e.memory else ""
            self.out(f"    {e.event.value:9} {e.kind.value:10} {e.memory}{was}")
            why = self._judged_reason(e)
            if why:
                self.out(f"              why: {why}")

    def _judged_reason(self, event: WriteEvent) -> str | None:
        """The LLM judge's reason for this write, from the memory's history (None if the rules decided)."""
        if event.event not in (EventType.ADD, EventType.UPDATE, EventType.MERGE, EventType.SUPERSEDE):
            return None
        history = self.mem.history(event.id, user_id=self.user_id)
        return history[-1].reason if history and history[-1].actor == "llm" else None

    def _show_tokens(self, before: tuple[int, int] | None) -> None:
        after = _usage(self.mem.llm)
        if before is None or after is None:
            return
        self.out(f"  tokens: {after[0] - before[0]} prompt + {after[1] - before[1]} completion")

    def _show_memories(self) -> None:
        records = [r for r in self.mem.get_all(user_id=self.user_id, limit=200) if r.kind is not Kind.EPISODE]
        if not records:
            self.out("  (nothing remembered)")
        for r in records:
            self.out(f"  {r.id[:8]} {r.kind.value:10} {r.content}")

    def _forget(self, arg: str) -> None:
        if not arg:
            self.out("  usage: /forget ID (from /mem) or /forget all")
            return
        if arg == "all":
            count = self.mem.delete_all(user_id=self.user_id)
            self.messages.clear()
            self.out(f"  forgot everything about {self.user_id} ({count} memories)")
            return
        matches = [r for r in self.mem.get_all(user_id=self.user_id, limit=None) if r.id.startswith(arg)]
        if len(matches) != 1:
            self.out(f"  no single memory starts with {arg!r}")
            return
        try:
            self.mem.delete(matches[0].id, user_id=self.user_id)
        except JiyiError as exc:
            self.out(f"  could not forget it: {exc}")
            return
        self.out(f"  forgot {matches[0].id[:8]}: {matches[0].content}")


def _usage(llm: object) -> tuple[int, int] | None:
    usage = getattr(llm, "usage", None)
    if usage is None:
        return None
    return int(usage.prompt_tokens), int(usage.completion_tokens)
