"""Sealing values with the operator's key: round trip, wrong key, tampering, rotation (jiyi.privacy.seal)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from jiyi.errors import ConfigError
from jiyi.privacy.seal import Keyring, SealError, generate_key, key_id, keyring_from

PAIRS = [["[已隐藏:支付密码]", "884422"], ["[secret: PIN]", "4321"]]


def test_round_trip_and_no_plaintext_in_the_blob() -> None:
    ring = Keyring.from_text(generate_key())
    blob = ring.seal(PAIRS)
    assert ring.open(blob) == PAIRS
    assert "884422" not in str(blob) and "4321" not in str(blob)
    assert ring.seal(PAIRS)["nonce"] != blob["nonce"]  # a fresh nonce every time


def test_wrong_key_and_tampering_are_refused() -> None:
    blob = Keyring.from_text(generate_key()).seal(PAIRS)
    with pytest.raises(SealError, match="not configured"):
        Keyring.from_text(generate_key()).open(blob)
    ring = Keyring.from_text(generate_key())
    good = ring.seal(PAIRS)
    ct = bytearray(base64.b64decode(good["ct"]))
    ct[0] ^= 1
    with pytest.raises(SealError, match="integrity"):
        ring.open({**good, "ct": base64.b64encode(bytes(ct)).decode()})


def test_rotation_new_key_first_old_still_opens(tmp_path: Path) -> None:
    old, new = generate_key(), generate_key()
    sealed_old = Keyring.from_text(old).seal(PAIRS)
    keyfile = tmp_path / "keys"
    keyfile.write_text(f"# rotated\n{new}\n{old}\n")
    ring = keyring_from(None, keyfile)
    assert ring is not None and ring.primary_id == key_id(base64.b64decode(new))
    assert ring.open(sealed_old) == PAIRS and ring.needs_reseal(sealed_old)
    assert not ring.needs_reseal(ring.seal(PAIRS))
    both = keyring_from(f"{new},{old}", None)
    assert both is not None and both.open(sealed_old) == PAIRS


def test_bad_keys_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="32 bytes"):
        Keyring.from_text(base64.b64encode(b"short").decode())
    with pytest.raises(ConfigError, match="32 bytes"):
        Keyring.from_text("not base64 at all!")
    with pytest.raises(ConfigError, match="cannot read"):
        keyring_from(None, tmp_path / "missing")
    assert keyring_from(None, None) is None
