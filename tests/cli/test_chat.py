"""`jiyi chat` driven through stdin against the real local OpenAI-compatible server.

The fake server plays every role by looking at the system prompt: the chat model
(answering from the memory block it was given), the conflict judge (SUPERSEDE for a
candidate in the same slot as a memory shown, else ADD) and the session summariser.
``JIYI_UPDATE_TRANSCRIPT=1 pytest tests/cli/test_chat.py`` rewrites docs/chat-transcript.md
from the piped-stdin run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `import fake_openai`

from fake_openai import FakeOpenAI, Recorded, Reply, chat, chat_json, error

from jiyi import Memory
from jiyi.cli import cli

REPO = Path(__file__).resolve().parents[2]
SCRIPT = [
    "你好，我叫王小明，住在上海。",
    "记住，我对花生过敏。",
    "我下周三要去北京出差。",
    "我上个月搬到杭州了。",
    "我现在住在哪？能吃花生酱吗？",
    "/mem",
    "/quit",
]
SUMMARY = "用户王小明从上海搬到了杭州，对花生过敏，下周三去北京出差；询问了自己住在哪、能否吃花生酱。"


def play(request: Recorded) -> Reply:
    """The fake model: routes on the system prompt's role."""
    system = request.messages[0]["content"] if request.messages else ""
    if "冲突裁决器" in system:
        return judge(request.prompt)
    if "会话摘要器" in system:
        return chat_json({"summary": SUMMARY}, prompt_tokens=260, completion_tokens=40)
    return chat(answer(request), prompt_tokens=180, completion_tokens=25)


def judge(prompt: str) -> Reply:
    match = re.search(r"<<<MEMORIES ([0-9a-f]{12})>>>\n(.*)\n<<<END MEMORIES \1>>>", prompt, re.DOTALL)
    assert match is not None
    lines = [json.loads(line) for line in match.group(2).split("\n")]
    cand = lines[-1]
    same = [line for line in lines[:-1] if cand.get("slot") and line.get("slot") == cand["slot"]]
    if same:
        return chat_json({"action": "SUPERSEDE", "target": same[0]["id"], "reason": "用户搬家了，新城市取代旧城市"},
                         prompt_tokens=150, completion_tokens=20)
    return chat_json({"action": "ADD", "target": None, "reason": "新的信息，与已有记忆不冲突"},
                     prompt_tokens=150, completion_tokens=20)


def answer(request: Recorded) -> str:
    system, question = request.messages[0]["content"], request.messages[-1]["content"]
    block = system.split("<memories>")[-1] if "<memories>" in system else ""
    if "住在哪" in question:
        city = re.search(r"用户(?:住在|搬到了)(\w\w)", block)
        allergic = "花生" in block and "过敏" in block
        where = f"你现在住在{city.group(1)}。" if city else "我还不知道你住在哪。"
        return where + ("你对花生过敏，花生酱不能吃哦。" if allergic else "")
    if "叫" in question:
        return "你好，小明！很高兴认识你。"
    return "好的，我记住了。"


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(rule=play) as fake:
        yield fake


def env_for(fake: FakeOpenAI, home: Path) -> dict[str, str]:
    return {"JIYI_LLM_BASE_URL": fake.base_url, "JIYI_LLM_MODEL": "fake-model", "JIYI_LLM_API_KEY": "sk-test",
            "JIYI_LLM_TIMEOUT": "2", "JIYI_LLM_MAX_RETRIES": "0", "JIYI_HOME": str(home)}


def test_chat_through_piped_stdin_recalls_stores_and_summarises(server: FakeOpenAI, tmp_path: Path) -> None:
    env = {**os.environ, **env_for(server, tmp_path), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-c", "from jiyi.cli import main; main()", "chat", "--user", "xiaoming",
         "--session", "demo-1"],
        input="\n".join(SCRIPT) + "\n", capture_output=True, text=True, encoding="utf-8", env=env, timeout=240,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    turns = out.split("you> ")
    assert len(turns) == len(SCRIPT) + 1  # every piped line was read and echoed
    first, move, question, mem_listing = turns[1], turns[4], turns[5], turns[6]
    assert "recalled: nothing" in first and "ADD       fact       用户住在上海" in first
    assert "bot> 你好，小明！" in first and "tokens:" in first
    assert re.search(r"SUPERSEDE fact\s+用户搬到了杭州  \(was: 用户住在上海\)", move)
    # The question recalls the new city and the allergy with scores, and the answer uses them.
    recalled = question.split("bot>")[0]
    assert re.search(r"\d\.\d{3} fact\s+用户搬到了杭州", recalled) and "花生" in recalled
    assert "bot> 你现在住在杭州。你对花生过敏，花生酱不能吃哦。" in question
    assert "用户对花生过敏" in mem_listing and "用户住在上海" not in mem_listing
    assert "session summary (llm, " in out and SUMMARY in out and out.rstrip().endswith("bye")

    judged = [r for r in server.requests if "冲突裁决器" in r.prompt]
    assert judged and all("<<<MEMORIES" in r.prompt for r in judged)
    usage = re.search(r"LLM usage this run: (\d+) prompt \+ (\d+) completion tokens", out)
    assert usage is not None
    chats = [r for r in server.requests if "冲突裁决器" not in r.prompt and "会话摘要器" not in r.prompt]
    assert int(usage.group(1)) == 180 * len(chats) + 150 * len(judged) + 260
    assert int(usage.group(2)) == 25 * len(chats) + 20 * len(judged) + 40

    with Memory(home=tmp_path, background_worker=False) as mem:
        (summary,) = mem.get_all(user_id="xiaoming", kinds=["summary"])
        assert summary.content == SUMMARY and summary.session_id == "demo-1" and len(summary.source_ids) == 10
        (old,) = mem.get_all(user_id="xiaoming", status="superseded")
        assert mem.history(old.id, user_id="xiaoming")[-1].reason == "llm:fake-model: 用户搬家了，新城市取代旧城市"
    if os.environ.get("JIYI_UPDATE_TRANSCRIPT"):
        write_transcript(out)


def test_chat_forget_and_llm_failure_through_the_runner(server: FakeOpenAI, tmp_path: Path) -> None:
    runner = CliRunner()
    env = env_for(server, tmp_path)
    args = ["--home", str(tmp_path), "chat", "-u", "u1", "--session", "s1"]
    first = runner.invoke(cli, args, input="记住，我对花生过敏。\n我喜欢爬山。\n", env=env, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    assert "you> 记住，我对花生过敏。" in first.output and "session summary" in first.output  # EOF closes

    with Memory(home=tmp_path, background_worker=False) as mem:
        allergy = next(r for r in mem.get_all(user_id="u1", kinds=["fact"]) if "花生" in r.content)
    server.rule = None
    server.push(error(500))  # the chat model fails for the next turn
    second = runner.invoke(cli, args, input=f"/forget {allergy.id[:8]}\n/forget\n/help\n今天好累\n/mem\n/quit\n",
                           env=env, catch_exceptions=False)
    out = second.output
    assert second.exit_code == 0, out
    assert f"forgot {allergy.id[:8]}: 用户对花生过敏" in out and "usage: /forget ID" in out
    assert out.count("commands: /mem") == 2  # the banner and /help
    assert "the LLM failed" in out and "turn is still remembered" in out
    listing = out.split("you> /mem")[1]
    assert "fact       用户对花生过敏" not in listing and "preference 用户喜欢爬山" in listing
    with Memory(home=tmp_path, background_worker=False) as mem:
        assert any(r.content == "今天好累" for r in mem.get_all(user_id="u1", kinds=["episode"]))
        assert mem.get(allergy.id, user_id="u1").status.value == "deleted"  # type: ignore[union-attr]

    wiped = runner.invoke(cli, args, input="/forget all\n/mem\n", env=env, catch_exceptions=False)
    assert "forgot everything about u1" in wiped.output and "(nothing remembered)" in wiped.output


def test_chat_without_an_llm_is_a_clean_error(tmp_path: Path) -> None:
    env = {"JIYI_LLM_BASE_URL": "", "JIYI_LLM_MODEL": "", "JIYI_HOME": str(tmp_path)}
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "chat", "-u", "u1"], input="你好\n", env=env)
    assert result.exit_code != 0 and "jiyi chat needs an LLM" in result.output


def write_transcript(out: str) -> None:
    body = "\n".join(line.rstrip() for line in out.strip().splitlines())
    (REPO / "docs" / "chat-transcript.md").write_text(
        "# `jiyi chat` transcript\n\n"
        "Recorded by `tests/cli/test_chat.py` (`JIYI_UPDATE_TRANSCRIPT=1`): the script below piped into\n"
        "`jiyi chat --user xiaoming --session demo-1` with `JIYI_LLM_BASE_URL` pointing at the test suite's\n"
        "local OpenAI-compatible server (tests/fake_openai.py), which answers as the chat model, the\n"
        "conflict judge and the session summariser. Everything else is the real pipeline: the offline\n"
        "rules extractor, the e5 embedder, SQLite.\n\n"
        "```text\n$ printf '%s\\n' " + " ".join(f"'{line}'" for line in SCRIPT)
        + " | jiyi chat --user xiaoming --session demo-1\n" + body + "\n```\n",
        encoding="utf-8",
    )
