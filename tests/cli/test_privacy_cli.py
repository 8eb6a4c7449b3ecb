"""``jiyi new-encryption-key`` and ``jiyi reencrypt``: a key rotation from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jiyi.cli import cli
from jiyi.memory import Memory


def jiyi(home: Path, *args: str, key: str | None = None) -> str:
    env = {"JIYI_ENCRYPTION_KEY": key} if key else {}
    result = CliRunner().invoke(cli, ["--home", str(home), *args], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_rotation_from_the_command_line(tmp_path: Path) -> None:
    old, new = jiyi(tmp_path, "new-encryption-key").strip(), jiyi(tmp_path, "new-encryption-key").strip()
    assert old != new and len(old) == 44
    jiyi(tmp_path, "add", "-u", "u1", "记住我的支付密码是 884422", key=old)
    (tmp_path / "keys").write_text(f"{new}\n{old}\n")
    out = CliRunner().invoke(cli, ["--home", str(tmp_path), "reencrypt", "--json"],
                             env={"JIYI_ENCRYPTION_KEY_FILE": str(tmp_path / "keys")}, catch_exceptions=False)
    report = json.loads(out.output)
    assert report["resealed"] >= 2
    with Memory(home=tmp_path, encryption_key=new, background_worker=False) as mem:
        assert any("884422" in r.content for r in mem.get_all(user_id="u1"))


def test_reencrypt_without_a_key_says_what_to_do(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "reencrypt"], env={"JIYI_ENCRYPTION_KEY": ""})
    assert result.exit_code != 0 and "JIYI_ENCRYPTION_KEY" in result.output
