"""A short message holding the value its speaker's last message named is masked like one message."""

from __future__ import annotations

import pytest

from jiyi.memory import Memory
from jiyi.privacy.protect import protect_text


@pytest.mark.parametrize(("before", "text", "value"), [
    ("wifi密码", "是 qiuqiu2020", "qiuqiu2020"),
    ("我网银密码你帮我记着", "Hx93kd#1", "Hx93kd#1"),
    ("短信验证码", "8 2 0 4 5 1", "8 2 0 4 5 1"),
    ("my bike lock combo, remember it", "31 07 22", "31 07 22"),
    # the rest of a secret told in two parts
    ("单元门密码 前面是7713", "后头是#52 别告诉别人", "#52"),
    ("Vercel 的 token 先存前半截 vc_K29xPq", "后半截是 _w4Kt91Pa", "_w4Kt91Pa"),
    ("door code starts 4471", "second half is 09*", "09*"),
])
def test_the_value_a_message_before_named_is_masked(before: str, text: str, value: str) -> None:
    assert value not in protect_text(text, None, before=before).text
    assert protect_text(text, None).text == text  # alone, nothing names it


@pytest.mark.parametrize(("before", "text"), [
    ("今天好累", "明天3点开会"),  # nothing named
    ("我密码忘了", "明天去银行 9点开门 顺便问问"),  # a time, and the message says more
    ("wifi密码", "我也不知道 问房东去 他电话不接 一直占线 估计在打麻将 算了明天再说吧 反正也不急"),  # too long
    ("今天去吃了火锅", "后面是#91号桌"),  # no secret before it to be the rest of
])
def test_a_message_that_is_no_value_of_the_last_is_left_alone(before: str, text: str) -> None:
    assert protect_text(text, None, before=before).text == text


def test_memory_masks_a_value_sent_in_its_own_message(mem: Memory) -> None:
    mem.add([{"role": "user", "content": "家里门锁密码 帮我记一下"}], user_id="u1", session_id="s", sync=True)
    mem.add([{"role": "user", "content": "750913#"}], user_id="u1", session_id="s", sync=True)
    mem.add([{"role": "user", "content": "750913#"}], user_id="u2", session_id="s", sync=True)  # named by no one
    stored = [r.content for r in mem.get_all(user_id="u1")]
    assert stored and not any("750913" in c for c in stored)
    assert any("750913" in r.content for r in mem.get_all(user_id="u2"))
