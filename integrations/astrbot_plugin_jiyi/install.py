"""Whether jiyi is importable in AstrBot's Python, and what to run when it is not.

AstrBot installs a plugin's ``requirements.txt`` when importing the plugin raises
``ModuleNotFoundError``. So the first time a process loads the plugin without jiyi, ``main``
lets the import fail and AstrBot runs pip. If that cannot install jiyi either (no network,
jiyi not yet on the configured index), the plugin would never load and the user would only see
a log line; so a later process (a restart) loads the plugin without jiyi, and every ``/mem``
command answers with the command that installs it.

The marker (``plugin_data/astrbot_plugin_jiyi/install-attempt``) holds the id of the process
that let the import fail; the same process (AstrBot imports again right after a failure, and
a dashboard reload retries the install) keeps failing so AstrBot keeps installing.
"""

from __future__ import annotations

import os
import sys

from .store import plugin_data_dir

MARKER = "install-attempt"
REQUIREMENT = "jiyi>=0.2.0"


def let_astrbot_install() -> bool:
    """True: raise the ImportError (AstrBot then installs requirements.txt). False: load without jiyi."""
    marker = plugin_data_dir() / MARKER
    try:
        earlier = marker.read_text("utf-8").strip()
    except OSError:
        earlier = ""
    if earlier and earlier != str(os.getpid()):
        return False
    marker.write_text(str(os.getpid()), "utf-8")
    return True


def forget_attempt() -> None:
    """jiyi imported: a later failure (an uninstall) gets AstrBot's install again."""
    try:
        (plugin_data_dir() / MARKER).unlink()
    except OSError:
        pass


def missing_hint() -> str:
    """The chat answer while jiyi is missing: the exact commands for AstrBot's own Python."""
    python = sys.executable or "python3"
    return (
        "jiyi 记忆插件已加载，但 AstrBot 的 Python 环境里没有安装 jiyi（自动安装 requirements.txt 失败）。\n"
        "请在运行 AstrBot 的机器上执行以下任一命令，然后重启 AstrBot：\n"
        f"  {python} -m pip install {REQUIREMENT}\n"
        f"  {python} -m pip install /path/to/jiyi-0.2.0-py3-none-any.whl   # 下载或构建的 wheel\n"
        f"  {python} -m pip install /path/to/jiyi   # jiyi 源码仓库\n"
        "说明见 jiyi 的 docs/integrations/astrbot.md。\n"
        "jiyi is not installed in AstrBot's Python: run one of the commands above, then restart AstrBot."
    )
