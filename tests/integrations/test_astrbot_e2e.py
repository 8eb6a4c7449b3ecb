"""The AstrBot plugin in a real AstrBot process, installed as docs/integrations/astrbot.md says.

AstrBot (from PyPI, the version ``venv.sh`` pins) runs in its Python 3.12 virtualenv, built once
under ~/.cache/jiyi/ (CI starts from a fresh clone); ``astrbot init``; jiyi installed into that
Python with the documented ``python -m pip install /path/to/jiyi``; the plugin folder copied into
``data/plugins/``; the chat model is a fake OpenAI-compatible server on loopback (tests/fake_openai.py).
The test drives the dashboard's WebChat HTTP API (login, new session, ``/api/chat/send``) without
and with streaming, and checks what the provider received: memories recorded in one mode are
injected in the other. The provider's requests are written to ``$JIYI_ASTRBOT_TRANSCRIPT``
(default: the test's tmp dir) for the record.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_openai import FakeOpenAI, Recorded, Reply, chat

#: one AstrBot virtualenv is shared (~/.cache/jiyi): its tests run in one worker under pytest-xdist
pytestmark = pytest.mark.xdist_group("astrbot")

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "integrations" / "astrbot_plugin_jiyi"
PASSWORD = "E2eTest-Passw0rd"
MEMORY_TAG = "<memories>"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def last_user_text(req: Recorded) -> str:
    """The user's own words in a chat request (the last user message, its first text part)."""
    for msg in reversed(req.messages):
        if msg.get("role") != "user":
            continue
        content = msg.get("content")
        if isinstance(content, str):
            return content
        texts = [p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text"]
        return texts[0] if texts else ""
    return ""


def reply_for(req: Recorded) -> Reply:
    """The fake model: a short answer naming what the user said (so the reply is checkable)."""
    return chat(f"好的，我知道了：{last_user_text(req)[:12]}")


@dataclass
class WebChat:
    """The dashboard's WebChat API, as the dashboard's own chat page calls it."""

    base: str
    token: str = ""
    session_id: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)

    def login(self) -> None:
        r = httpx.post(f"{self.base}/api/auth/login", json={"username": "astrbot", "password": PASSWORD}, timeout=30)
        body = r.json()
        assert body.get("status") == "ok", body
        self.token = body["data"]["token"]
        r = httpx.get(f"{self.base}/api/chat/new_session", headers=self.headers, timeout=30)
        self.session_id = r.json()["data"]["session_id"]

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def send(self, text: str, *, streaming: bool) -> str:
        """Send ``text``; the bot's answer text, read from the server-sent events to the end."""
        payload = {"message": text, "session_id": self.session_id, "enable_streaming": streaming}
        parts: list[str] = []
        with httpx.stream("POST", f"{self.base}/api/chat/send", json=payload, headers=self.headers,
                          timeout=120) as r:
            assert r.status_code == 200, r.read()
            for line in r.iter_lines():
                if not line.startswith("data: "):
                    continue
                event = json.loads(line[6:])
                self.events.append(event)
                if event.get("type") in {"plain", "complete"} and isinstance(event.get("data"), str):
                    if event["type"] == "complete":
                        parts = [event["data"]]
                    else:
                        parts.append(event["data"])
                if event.get("type") == "end":
                    break
        return "".join(parts)


@dataclass
class Bot:
    root: Path
    chat: WebChat
    fake: FakeOpenAI
    log: Path

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.fake.requests if r.path.endswith("/chat/completions")]

    def ask(self, text: str, *, streaming: bool) -> tuple[str, Recorded]:
        """Send a chat message; the reply and the request the provider received for it."""
        before = len(self.chat_requests())
        answer = self.chat.send(text, streaming=streaming)
        mine = [r for r in self.chat_requests()[before:] if last_user_text(r).startswith(text)]
        assert mine, f"the provider never received {text!r}; log tail:\n{self.log_tail()}"
        return answer, mine[-1]

    def command(self, text: str) -> str:
        return self.chat.send(text, streaming=False)

    def log_tail(self) -> str:
        return self.log.read_text("utf-8", errors="replace")[-4000:]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for AstrBot's Python: nothing of this interpreter's (PYTHONPATH, venv, JIYI_*)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JIYI_", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"))}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def astrbot_venv() -> Path:
    proc = subprocess.run(check=False, args=["bash", str(PLUGIN / "venv.sh")], capture_output=True, text=True, timeout=1500,
                          env=clean_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    return Path(proc.stdout.strip().splitlines()[-1])


def install_as_documented(venv: Path, root: Path) -> None:
    """docs/integrations/astrbot.md, "Install": jiyi into AstrBot's Python, the folder into data/plugins."""
    shebang = (venv / "bin" / "astrbot").read_text("utf-8").splitlines()[0]  # head -1 "$(command -v astrbot)"
    py = shebang[2:].strip()
    assert Path(py).resolve() == (venv / "bin" / "python").resolve()
    pip = subprocess.run(check=False, args=[py, "-m", "pip", "install", "-q", str(REPO)], capture_output=True, text=True, timeout=900,
                         env=clean_env())
    assert pip.returncode == 0, pip.stderr[-3000:]
    check = subprocess.run(check=False, args=[py, "-c", "import jiyi; print(jiyi.__version__, jiyi.__file__)"],
                           capture_output=True, text=True, timeout=120, env=clean_env(), cwd="/")
    assert check.returncode == 0 and "site-packages" in check.stdout, check.stdout + check.stderr
    shutil.copytree(PLUGIN, root / "data" / "plugins" / "astrbot_plugin_jiyi",
                    ignore=shutil.ignore_patterns("tests", "__pycache__", "*.sh"))


def configure(root: Path, fake: FakeOpenAI, port: int, *, providers: Sequence[dict[str, Any]] = (),
              plugin_config: dict[str, Any] | None = None, settings: dict[str, Any] | None = None) -> None:
    """What a user clicks in the WebUI: one OpenAI-compatible provider (the fake), the dashboard port;
    and ``providers`` more (a rerank provider, a second chat model) and the plugin's settings if given."""
    path = root / "data" / "cmd_config.json"
    cfg = json.loads(path.read_text("utf-8-sig"))
    cfg["dashboard"].update(host="127.0.0.1", port=port)
    cfg["provider"] = [chat_provider("fake", fake.base_url), *providers]
    cfg.setdefault("provider_settings", {}).update(default_provider_id="fake", **(settings or {}))
    path.write_text(json.dumps(cfg, ensure_ascii=False, indent=2), "utf-8")
    if plugin_config is not None:  # what the plugin's settings page saves
        target = root / "data" / "config" / "astrbot_plugin_jiyi_config.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(plugin_config, ensure_ascii=False, indent=2), "utf-8-sig")


def chat_provider(provider_id: str, base_url: str) -> dict[str, Any]:
    """An OpenAI-compatible chat provider as the WebUI saves it."""
    return {"id": provider_id, "provider": "openai", "type": "openai_chat_completion",
            "provider_type": "chat_completion", "enable": True, "key": ["sk-fake"], "api_base": base_url,
            "model": "fake-model", "timeout": 60, "proxy": "", "custom_headers": {}}


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    fake = FakeOpenAI(rule=reply_for).start()
    try:
        with running_bot(tmp_path_factory, fake) as started:
            yield started
    finally:
        fake.stop()


@contextmanager
def running_bot(tmp_path_factory: pytest.TempPathFactory, fake: FakeOpenAI, *,
                providers: Sequence[dict[str, Any]] = (), plugin_config: dict[str, Any] | None = None,
                settings: dict[str, Any] | None = None) -> Iterator[Bot]:
    """A fresh AstrBot (``astrbot init``, jiyi and the plugin installed as documented) talking to ``fake``."""
    venv = astrbot_venv()
    root = tmp_path_factory.mktemp("astrbot-root")
    env = clean_env(ASTRBOT_DASHBOARD_INITIAL_PASSWORD=PASSWORD)
    init = subprocess.run(check=False, args=[str(venv / "bin" / "astrbot"), "init"], cwd=root, env=env,
                          input="y\n", capture_output=True, text=True, timeout=300)  # older versions lack -y
    assert init.returncode == 0, init.stdout + init.stderr
    install_as_documented(venv, root)
    port = free_port()
    configure(root, fake, port, providers=providers, plugin_config=plugin_config, settings=settings)
    log = root / "astrbot.log"
    with log.open("w") as out:
        proc = subprocess.Popen([str(venv / "bin" / "astrbot"), "run", "-p", str(port)], cwd=root, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    chat = WebChat(f"http://127.0.0.1:{port}")
    bot = Bot(root, chat, fake, log)
    try:
        deadline = time.monotonic() + 240
        while True:
            assert proc.poll() is None, f"AstrBot exited:\n{bot.log_tail()}"
            try:
                chat.login()
                break
            except (httpx.HTTPError, KeyError, ValueError, AssertionError):
                if time.monotonic() > deadline:
                    raise AssertionError(f"no dashboard after 240 s:\n{bot.log_tail()}") from None
                time.sleep(1)
        wait_for_plugin(bot)
        yield bot
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_for_plugin(bot: Bot) -> None:
    """Plugins load after the dashboard answers: wait until /mem answers as the plugin."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if "范围 user" in bot.command("/mem stats"):
            return
        time.sleep(1)
    raise AssertionError(f"the plugin never answered /mem stats:\n{bot.log_tail()}")


def wait_until_listed(bot: Bot, text: str, timeout: float = 180) -> str:
    """Turns are stored in the background: poll /mem list until ``text`` shows up."""
    deadline = time.monotonic() + timeout
    listed = ""
    while time.monotonic() < deadline:
        listed = bot.command("/mem list")
        if text in listed:
            return listed
        time.sleep(1)
    raise AssertionError(f"{text!r} never recorded; /mem list said:\n{listed}\nlog:\n{bot.log_tail()}")


@pytest.mark.timeout(2400)  # the first run builds AstrBot's virtualenv (minutes); later runs take about 2
def test_memories_recorded_and_injected_plain_and_streaming(bot: Bot, tmp_path: Path) -> None:
    transcript: list[dict[str, Any]] = []

    def ask(text: str, streaming: bool) -> tuple[str, str]:
        answer, req = bot.ask(text, streaming=streaming)
        # the block is a temporary part: AstrBot does not keep it in the conversation history
        earlier = [m for m in req.messages[:-1] if m.get("role") == "user"]
        assert not [m for m in earlier if MEMORY_TAG in json.dumps(m, ensure_ascii=False)]
        transcript.append({"mode": "streaming" if streaming else "plain", "user": text, "reply": answer,
                           "provider_stream": bool(req.json.get("stream")), "provider_messages": req.messages})
        return answer, req.prompt

    assert bot.command("/mem remember 我对花生过敏").startswith("记住了：我对花生过敏")

    # plain: the remembered fact is injected, and the turn is recorded
    answer, prompt = ask("我周末想做花生酱拌面，可以吗？", streaming=False)
    assert answer.startswith("好的，我知道了") and MEMORY_TAG in prompt and "我对花生过敏" in prompt
    assert "照常调用工具" not in prompt  # only AstrBot's always-on tools and the plugin's: the full block
    assert transcript[-1]["provider_stream"] is False

    # streaming: the reply arrives in pieces; the turn must be recorded all the same
    answer, prompt = ask("我女儿下个月满三岁，她最喜欢恐龙", streaming=True)
    assert answer.startswith("好的，我知道了") and transcript[-1]["provider_stream"] is True
    listed = wait_until_listed(bot, "我女儿下个月满三岁")
    assert "我知道了" in listed  # the streamed reply is stored with the user's message

    # the streamed turn is recalled in a plain request, the plain turn in a streamed one
    _, prompt = ask("给我女儿挑个生日礼物吧", streaming=False)
    assert MEMORY_TAG in prompt and "三岁" in prompt and "恐龙" in prompt
    wait_until_listed(bot, "花生酱拌面")
    _, prompt = ask("今晚吃什么好？我想吃面", streaming=True)
    assert MEMORY_TAG in prompt and "花生" in prompt

    found = bot.command("/mem search 恐龙")
    assert "恐龙" in found.splitlines()[0], found
    stats = bot.command("/mem stats")
    assert "webchat:" in stats and "范围 user" in stats, stats
    # WebChat's speaker is the dashboard account: it must not become a name in the facts
    assert "astrbot对" not in bot.command("/mem list") + bot.command("/mem list 2")

    out = Path(os.environ.get("JIYI_ASTRBOT_TRANSCRIPT") or tmp_path / "astrbot-e2e-transcript.json")
    out.write_text(json.dumps(transcript, ensure_ascii=False, indent=2), "utf-8")
    print(f"transcript: {out}")


@pytest.mark.timeout(600)
def test_the_upload_zip_reinstalls_the_plugin_and_its_memories_stay(bot: Bot, tmp_path: Path) -> None:
    """Docs, "Install" step 3, the WebUI way: uninstall, upload the zip the packer builds, chat again."""
    from jiyi.integrations.astrbot_zip import build_plugin_zip

    bot.command("/mem remember 我的车是一辆白色的特斯拉")
    before = bot.command("/mem stats")
    headers = bot.chat.headers
    r = httpx.post(f"{bot.chat.base}/api/plugin/uninstall", headers=headers, timeout=120,
                   json={"name": "astrbot_plugin_jiyi", "delete_config": False, "delete_data": False})
    assert r.json().get("status") == "ok", r.text
    assert not (bot.root / "data" / "plugins" / "astrbot_plugin_jiyi").exists()
    assert "范围" not in bot.command("/mem stats")  # nobody answers /mem now

    archive = build_plugin_zip(tmp_path, PLUGIN)
    with archive.open("rb") as fh:
        r = httpx.post(f"{bot.chat.base}/api/plugin/install-upload", headers=headers, timeout=600,
                       files={"file": (archive.name, fh, "application/zip")})
    assert r.json().get("status") == "ok", f"{r.text}\n{bot.log_tail()}"
    assert (bot.root / "data" / "plugins" / "astrbot_plugin_jiyi" / "main.py").is_file()
    assert bot.command("/mem stats") == before  # the data dir outlived the plugin folder
    _, req = bot.ask("我的车该做保养了吗", streaming=True)
    assert MEMORY_TAG in req.prompt and "特斯拉" in req.prompt


@pytest.mark.timeout(600)
def test_a_follow_up_recalls_the_memory_its_previous_turn_named(bot: Bot, tmp_path: Path) -> None:
    """The conversation reaches recall: "那家店叫什么来着？" names nothing, the turn before it does."""
    for text in ("小区门口新开了一家面馆，叫老陈面馆", "公司楼下的咖啡店叫拾光咖啡，拿铁很好喝"):
        bot.ask(text, streaming=False)
    wait_until_listed(bot, "拾光咖啡")
    bot.chat.login()  # a new WebChat conversation: its history is only what follows
    bot.ask("我今天又去公司楼下那家咖啡店了", streaming=False)
    _, req = bot.ask("对了，那家店叫什么来着？", streaming=True)
    block = req.prompt[req.prompt.index(MEMORY_TAG):]
    out = Path(os.environ.get("JIYI_ASTRBOT_TRANSCRIPT") or tmp_path / "astrbot-e2e-transcript.json")
    out.with_name(f"{out.stem}-followup.json").write_text(
        json.dumps({"history": req.messages[:-1], "query": last_user_text(req), "block": block},
                   ensure_ascii=False, indent=2), "utf-8")
    assert "拾光咖啡" in block
    # the two turns are found by the question; the one the previous turn named ranks first
    coffee, noodles = block.find("公司楼下的咖啡店叫拾光咖啡"), block.find("小区门口新开了一家面馆")
    assert coffee >= 0 and (noodles < 0 or coffee < noodles), block
