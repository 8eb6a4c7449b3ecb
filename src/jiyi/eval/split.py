"""The tune/check split of every dev file: tune on one part, only check on the other.

A gain on the tuning part that the checking part does not show is not a gain. The split is
fixed and deterministic, so every round and every person measures the same parts:

- a data file (LoCoMo schema): its last third of conversations, rounded up, is ``check``
  (zh_dev: conversation 2; locomo_dev: 3 and 4), the rest ``tune``;
- a scenario file: a scenario is ``check`` when the CRC-32 of ``"jiyi-split/1:" + id`` leaves 2
  when divided by 3 (the bundled dev file: 5 of 13 histories, 36 of 94 probes, every category),
  so adding or reordering scenarios never moves another one across the line.
"""

from __future__ import annotations

import zlib
from typing import Literal

from jiyi.errors import InvalidInput

Split = Literal["tune", "check"]
_SALT = "jiyi-split/1:"
SPLITS: tuple[Split, ...] = ("tune", "check")


def check_split(name: str) -> Split:
    if name not in SPLITS:
        raise InvalidInput(f"split must be one of {', '.join(SPLITS)}, not {name!r}")
    return name


def conversations_of(split: Split, count: int) -> list[int]:
    """Indexes of a data file's conversations that belong to ``split``."""
    n_check = max(1, -(-count // 3)) if count > 1 else 0
    first_check = count - n_check
    return list(range(first_check)) if split == "tune" else list(range(first_check, count))


def scenario_in(split: Split, scenario_id: str) -> bool:
    """Whether the scenario with this id belongs to ``split``."""
    is_check = zlib.crc32(f"{_SALT}{scenario_id}".encode()) % 3 == 2
    return is_check == (split == "check")
