"""A short message holding the value its speaker's last message named is masked like one message."""

from __future__ import annotations

import pytest

from jiyi.memory import Memory
from jiyi.privacy.protect import protect_text
from jiyi.records import Visibility


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


@pytest.mark.parametrize(("before", "text", "value"), [
    # the rest of a value the last message ended on, opening the next one, with or without a word before it
    ("居留卡号 记一下 AB 1234", "5678 CD 区役所的表老要填", "5678 CD"),
    ("my SIN starts 482", "then 117 305. need it for the payroll form, which is a long one", "117 305"),
    ("幫我記一下 身分證 F1234", "然後 56789 報名要填", "56789"),
    ("帮我记着 身份证 前半截330102 1988", "后半截 0612 4417 别外传", "0612 4417"),
    ("单元门密码换了 我记这儿 0 4 5 1", "后面是 8 8 # 别跟别人说", "8 8 #"),
    ("幫我記一下 身分證 [已隐藏:身份证号]", "然後 56789", "56789"),  # the part before masked already
])
def test_the_rest_of_a_value_told_in_part_is_masked_as_it(before: str, text: str, value: str) -> None:
    p = protect_text(text, None, before=before)
    assert value not in p.text  # masked whatever its level: alone, the text could not say what it is
    assert p.level is not Visibility.NORMAL
    assert protect_text(text, None).text == text


@pytest.mark.parametrize(("before", "text"), [
    ("my PIN is 4321", "3 2 1 go!"),  # a countdown
    ("pin is 4321", "see you at 10 30"),
    ("身份证 110105194912310021", "2024 05 12 到期"),  # a date
    ("my pin 9931", "555 1234 is the shop"),  # what the sentence is about
    ("my pin 9931", "1990 1995 2000 were good years"),
    ("密码是884422", "2 个小时后提醒我"),
    ("在留卡号 RK 4830 明天去区役所", "2917 EN 区役所的表老要填"),  # the value did not end the message
    ("我的手机号 13812345678", "0571 8888 5555 是座机"),  # a phone number is told whole
    ("my PIN is 4321", "thanks, that's all"),
])
def test_a_message_after_a_value_that_is_no_rest_of_it_is_left_alone(before: str, text: str) -> None:
    assert protect_text(text, None, before=before).text == text


def test_memory_masks_a_value_sent_in_its_own_message(mem: Memory) -> None:
    mem.add([{"role": "user", "content": "家里门锁密码 帮我记一下"}], user_id="u1", session_id="s", sync=True)
    mem.add([{"role": "user", "content": "750913#"}], user_id="u1", session_id="s", sync=True)
    mem.add([{"role": "user", "content": "750913#"}], user_id="u2", session_id="s", sync=True)  # named by no one
    stored = [r.content for r in mem.get_all(user_id="u1")]
    assert stored and not any("750913" in c for c in stored)
    assert any("750913" in r.content for r in mem.get_all(user_id="u2"))


def test_memory_masks_the_rest_of_an_id_told_in_two_messages(mem: Memory) -> None:
    mem.add([{"role": "user", "content": "居留卡号 记一下 AB 1234"},
             {"role": "user", "content": "5678 CD 区役所的表老要填"}], user_id="u1", session_id="s", sync=True)
    stored = [r.content for r in mem.get_all(user_id="u1")]
    assert stored and not any("5678" in c for c in stored)
