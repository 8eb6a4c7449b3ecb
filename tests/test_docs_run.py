"""Docs that run: every ```bash / ```sh / ```python block of README.md and docs/ is run as written.

Each document gets a fresh temporary directory (the working directory) and a fresh
``JIYI_HOME``; its blocks run in document order, in one shell each (``bash -e``), Python
blocks that follow each other as one script (a reader runs them in one session). The test
fails on a non-zero exit status or an error body (``"error": …``) printed by a command.

A block may be marked by an HTML comment right above it:

- ``<!-- docs-run: skip REASON -->``: not run; the reason says why it cannot run here
  (a remote host, an API key, the network, minutes of benchmark);
- ``<!-- docs-run: background PORT -->``: a server; it is started, must answer on PORT
  (loopback) within a minute, and runs until the document's other blocks are done;
- ``<!-- docs-run: needs NAME,… -->``: a Python block that uses names the reader brings
  (their chat model ``llm``, a ``prompt``): :data:`FIXTURES` defines them first.

``pip install …`` commands are not run (they would change the environment this test runs
in); each extra they name must exist in pyproject.toml, the rest of the line runs.
docs/integrations/astrbot.md belongs to the AstrBot end-to-end suite
(tests/integrations/test_astrbot_e2e.py), which follows it in a real AstrBot.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted(p for p in (ROOT / "docs" / "integrations").glob("*.md") if p.name != "astrbot.md")]
BLOCK = re.compile(r"(?:<!--\s*docs-run:\s*(?P<mark>[^>]*?)\s*-->\s*\n)?```(?P<lang>bash|sh|python)\n(?P<code>.*?)^```",
                   re.DOTALL | re.MULTILINE)
PIP = re.compile(r"^\s*pip install\s+(?P<args>[^&|;\n]*?)\s*(?:&&\s*(?P<rest>.*))?(?:#.*)?$", re.MULTILINE)
ERROR_BODY = re.compile(r'"error"\s*:\s*\{')
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])

FIXTURES = {  # what a block's reader brings along; offline stand-ins of the same kind
    "llm@langchain": (
        "from langchain_core.language_models.fake_chat_models import FakeListChatModel\n"
        "from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder\n"
        "prompt = ChatPromptTemplate.from_messages([('system', 'You are a helpful assistant.'),\n"
        "                                           MessagesPlaceholder('history'), ('human', '{question}')])\n"
        "llm = FakeListChatModel(responses=['团子是个好名字。'])\n"),
    "llm@llamaindex": "from llama_index.core.llms.mock import MockLLM\nllm = MockLLM()\n",
    "JIYI_API_KEY": ("import os, subprocess\n"
                     "os.environ['JIYI_API_KEY'] = subprocess.run(['jiyi', 'keys', 'create', '--tenant', 'mybot'],"
                     " check=True, capture_output=True, text=True).stdout.strip()\n"),
}
COUNTS = {"run": 0, "skipped": 0, "pip-only": 0}


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    code: str
    mark: str

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    return [Block(doc, text.count("\n", 0, m.start("code")), m.group("lang"), m.group("code"), m.group("mark") or "")
            for m in BLOCK.finditer(text)]


def shell_code(block: Block) -> str:
    """The block with its ``pip install`` commands checked and left out."""
    def check(m: re.Match[str]) -> str:
        for extra in re.findall(r"\[([^\]]+)\]", m.group("args")):
            missing = set(extra.split(",")) - EXTRAS
            assert not missing, f"{block.where}: pip install names extras {missing} pyproject.toml lacks"
        return m.group("rest") or ""

    return PIP.sub(check, block.code)


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JIYI_", "OPENAI_", "DEEPSEEK_"))}
    env.update(JIYI_HOME=str(home), PYTHONPATH=os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]),
               PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]))
    return env


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class DocRun:
    """One document's blocks in one directory and home; background servers stopped at the end."""

    def __init__(self, tmp: Path) -> None:
        self.cwd = tmp / "work"
        self.cwd.mkdir()
        self.env = environment(tmp / "home")
        self.servers: list[subprocess.Popen[bytes]] = []
        self.python: list[Block] = []

    def run(self, items: list[Block]) -> None:
        for i, block in enumerate(items):
            if block.mark.startswith("skip"):
                assert block.mark[4:].strip(), f"{block.where}: a skipped block says why"
                COUNTS["skipped"] += 1
                continue
            if block.lang == "python":
                self.python.append(block)
                if i + 1 == len(items) or items[i + 1].lang != "python" or items[i + 1].mark.startswith("skip"):
                    self.run_python()
                continue
            code = shell_code(block)
            if not code.strip("\n #"):
                COUNTS["pip-only"] += 1
                continue
            if block.mark.startswith("background"):
                self.start(block, code, int(block.mark.split()[1]))
            else:
                self.shell(block, code)
            COUNTS["run"] += 1

    def shell(self, block: Block, code: str) -> None:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], cwd=self.cwd, env=self.env,
                              capture_output=True, text=True, timeout=300, start_new_session=True, check=False)
        out = done.stdout + done.stderr
        assert done.returncode == 0, f"{block.where} exited {done.returncode}:\n{code}\n{out[-3000:]}"
        assert not ERROR_BODY.search(done.stdout), f"{block.where} printed an error:\n{code}\n{done.stdout[-3000:]}"

    def start(self, block: Block, code: str, port: int) -> None:
        assert not _listening(port), f"{block.where}: port {port} is taken before the block ran"
        proc = subprocess.Popen(["bash", "-e", "-c", code], cwd=self.cwd, env=self.env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
        self.servers.append(proc)
        deadline = time.monotonic() + 90
        while not _listening(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.poll() is not None and proc.stderr else "(still starting)"
                pytest.fail(f"{block.where}: nothing answers on port {port}:\n{code}\n{err[-3000:]}")
            time.sleep(0.2)

    def run_python(self) -> None:
        first = self.python[0]
        names = [n.strip() for b in self.python if b.mark.startswith("needs") for n in b.mark[5:].split(",")]
        scope = first.doc.stem if first.doc.parent.name == "integrations" else ""
        prelude = "".join(FIXTURES.get(f"{n}@{scope}", FIXTURES.get(n, "")) for n in names)
        assert all(f"{n}@{scope}" in FIXTURES or n in FIXTURES for n in names), f"{first.where}: unknown {names}"
        script = prelude + "\n".join(b.code for b in self.python)
        COUNTS["run"] += len(self.python)
        self.python = []
        done = subprocess.run([sys.executable, "-c", script], cwd=self.cwd, env=self.env, capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode == 0, f"{first.where} failed:\n{script}\n{(done.stdout + done.stderr)[-3000:]}"

    def stop(self) -> None:
        for proc in self.servers:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            if proc.stderr:
                proc.stderr.close()


@pytest.mark.parametrize("doc", [d for d in DOCS if blocks(d)], ids=lambda d: str(d.relative_to(ROOT)))
def test_the_blocks_of_a_document_run_as_written(doc: Path, tmp_path: Path) -> None:
    run = DocRun(tmp_path)
    try:
        run.run(blocks(doc))
    finally:
        run.stop()


def test_report(capsys: pytest.CaptureFixture[str]) -> None:
    """The counts, for the note (run after the documents: pytest keeps file order)."""
    with capsys.disabled():
        print(f"\ndocs-run: {COUNTS['run']} blocks executed, {COUNTS['pip-only']} install-only blocks checked, "
              f"{COUNTS['skipped']} skipped with a reason")
