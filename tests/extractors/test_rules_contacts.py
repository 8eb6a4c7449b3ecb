"""The default offline extractor, contacts: phone numbers, emails, ID numbers and addresses (all sensitive).

Messages are stamped 2025-03-05 10:00 UTC (helpers in tests/rules_support.py).
"""

from __future__ import annotations

import pytest
from rules_support import only, run

from jiyi.records import Kind, Visibility


@pytest.mark.parametrize(
    ("text", "slot", "content"),
    [("我的手机号是13917256043", "user/phone", "用户的手机号是13917256043"),
     ("新号是15821907736，你们帮我改一下", "user/phone", "用户的手机号是15821907736"),
     ("邮箱是abc@qq.com", "user/email", "用户的邮箱是abc@qq.com"),
     ("身份证号是11010519491231002X", "user/id_number", "用户的证件号是11010519491231002X"),
     ("地址是上海市徐汇区漕溪北路88弄5号1202室", "user/address", "用户的地址是上海市徐汇区漕溪北路88弄5号1202室"),
     ("碧波路690弄12号603", "user/address", "用户的地址是碧波路690弄12号603"),
     ("My phone number is +1 415-555-0134", "user/phone", "User's phone number is +1 415-555-0134"),
     ("my email is ben@example.com", "user/email", "User's email is ben@example.com"),
     ("My address is 12 Oak Street, Springfield", "user/address", "User's address is 12 Oak Street, Springfield")],
)
def test_contacts_are_sensitive(text: str, slot: str, content: str) -> None:
    c = only(text, slot)
    assert (c.kind, c.content, c.visibility) == (Kind.FACT, content, Visibility.SENSITIVE)
    assert c.entities[0] in content


@pytest.mark.parametrize(("text", "number"), [
    ("switched carriers, new one is 6620 1187. the 9431 one is dead", "6620 1187"),   # the number in the next clause
    ("new number btw, binned the old sim. it's +44 7700 900461 now", "+44 7700 900461"),
    ("my old number 555-201-3344 is dead, use 555-777-1212", "555-777-1212"),          # not the one said to be dead
])
def test_a_new_english_number_is_read_where_the_message_names_a_phone(text: str, number: str) -> None:
    assert only(text, "user/phone").content == f"User's phone number is {number}"


def test_a_number_in_a_message_about_no_phone_is_none() -> None:
    assert all(c.slot != "user/phone" for c in run("routing 103000648, account 4417 2290 815, does that look right"))


def test_masked_phone_is_not_a_phone() -> None:
    assert all(c.slot != "user/phone" for c in run("电话139****6043"))


def test_address_also_gives_the_city() -> None:
    slots = {c.slot: c for c in run("我住在上海市徐汇区漕溪北路88弄5号1202室")}
    assert slots["user/address"].visibility is Visibility.SENSITIVE
    assert slots["user/city"].content == "用户住在上海"
    assert slots["user/city"].visibility is Visibility.NORMAL


def test_an_address_asked_to_be_updated_is_the_users_and_gives_its_district() -> None:
    slots = {c.slot: c for c in run("快递地址帮我改下：江屿区澄湖苑7栋2单元 收件人是我")}
    assert slots["user/address"].content == "用户的地址是江屿区澄湖苑7栋2单元"
    assert slots["user/city"].content == "用户住在江屿区"


@pytest.mark.parametrize(("text", "where"), [("嗯咯 在容桂租了个单间 八百一个月", "容桂"), ("我在鼓楼租了套两居", "鼓楼")])
def test_a_home_rented_in_a_place_is_where_the_user_lives(text: str, where: str) -> None:
    assert where in only(text, "user/city").content


@pytest.mark.parametrize("text", ["我在园区租了个工位", "在万达租了个铺面卖奶茶"])
def test_a_desk_or_a_shop_rented_is_no_home(text: str) -> None:
    assert not [c for c in run(text) if c.slot == "user/city"]


def test_a_workplaces_address_is_not_the_users() -> None:
    assert not [c for c in run("公司地址是南湾区科技园8栋") if c.slot in ("user/address", "user/city")]


@pytest.mark.parametrize(("text", "new", "old"), [
    ("换号了 新号13905713628 旧的18657320419别再打了", "13905713628", "18657320419"),
    ("老号13800001111停机了 以后打这个13905713628", "13905713628", "13800001111"),
    # Wenzhou chat: 老个 / 新个 are "the old one" / "the new one" (个 for 的), no person's name
    ("号码也换爻 老个13857712093不用了 新个 15967781205", "15967781205", "13857712093"),
])
def test_the_number_said_to_be_old_is_not_the_users_phone(text: str, new: str, old: str) -> None:
    phones = [c for c in run(text) if c.slot == "user/phone"]
    assert [c.content for c in phones] == [f"用户的手机号是{new}"], [(c.slot, c.content) for c in run(text)]


@pytest.mark.parametrize(("text", "who"), [("大壮那小子电话 151 3720 6648 下回找不着他你提醒我", "大壮"),
                                          ("领养人小葛电话 136 0987 1234 回访要用", "小葛")])
def test_a_number_labelled_as_someone_elses_is_theirs(text: str, who: str) -> None:
    cands = run(text)
    assert not [c for c in cands if c.slot == "user/phone"], [c.content for c in cands]
    assert any(who in c.content and c.kind is Kind.RELATION for c in cands), [c.content for c in cands]


@pytest.mark.parametrize("text", ["帮我记下我手机号 186 5502 1974 填表老忘", "手机 13812345678", "家里电话 13812345678"])
def test_the_users_own_number_stays_theirs(text: str) -> None:
    assert [c for c in run(text) if c.slot == "user/phone"]
