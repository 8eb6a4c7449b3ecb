"""Settings: the time zone setting is validated when the settings are built."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from jiyi.config import Settings


def test_timezone_defaults_to_shanghai_and_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JIYI_TIMEZONE", raising=False)
    assert Settings().timezone == "Asia/Shanghai"
    monkeypatch.setenv("JIYI_TIMEZONE", "Europe/Berlin")
    assert Settings().timezone == "Europe/Berlin"


@pytest.mark.parametrize("name", ["Mars/Olympus", "asia/shanghai", "", "Asia"])
def test_unknown_timezone_is_a_clear_error(name: str) -> None:
    with pytest.raises(ValidationError, match="unknown time zone .* IANA name such as 'Asia/Shanghai'"):
        Settings(timezone=name)
