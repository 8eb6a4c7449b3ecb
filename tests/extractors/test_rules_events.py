"""The offline extractor, part 2: events and time, time zones, remember/corrections, message
handling, named speakers and changes of single-valued attributes (helpers in tests/rules_support.py).
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
from rules_support import EX, TS, _d, only, run

from jiyi import registry
from jiyi.config import Settings
from jiyi.extractors.protocol import Candidate, Extractor
from jiyi.extractors.rules import (
    RulesExtractor,
    from_settings,
    render_span,
    split_clauses,
    substitute_times,
)
from jiyi.records import Kind, Message, Visibility
from jiyi.write.timeparse import find_time_expressions

# ---------------------------------------------------------------- events and time

def test_trip_next_wednesday() -> None:
    c = only("下周三要去深圳出差", kind=Kind.EVENT)
    assert c.content == "用户2025年3月12日要去深圳出差"
    assert (c.valid_from, c.valid_until, c.expires_at) == (_d("2025-03-12"), _d("2025-03-13"), _d("2025-03-13"))
    assert "深圳" in c.entities


@pytest.mark.parametrize("text", ["i've lived in chengdu since 2019", "自从上个月开始我每天跑步", "从去年十月起我就不喝奶茶了",
                                  "由上个礼拜开始食全素 连蛋奶都唔食"])  # (由: Cantonese and formal 从)
def test_a_time_a_state_began_is_no_event_that_ended(text: str) -> None:
    """since 2019 / 自从… / 从…起: the state holds still, so it is no event that ended then."""
    cands = run(text)
    assert cands and all(c.kind is not Kind.EVENT and c.valid_until is None for c in cands), cands


def test_a_question_after_a_statement_leaves_the_statement() -> None:
    """"my dog keeps eating grass, is that normal??": what was told is kept, the question is not."""
    cands = run("my dog Biscuit keeps eating grass on walks, is that normal??")
    assert any("Biscuit" in c.content for c in cands), cands
    assert not any("normal" in c.content for c in cands), cands


def test_lunch_today_expires_tonight() -> None:
    c = only("今天中午想吃面", kind=Kind.EVENT)
    assert "2025年3月5日中午" in c.content
    assert c.expires_at == _d("2025-03-06")
    assert c.importance < 0.5


def test_tomorrow_plan_expires_end_of_tomorrow() -> None:
    c = only("我明天要上班不在家", kind=Kind.EVENT)
    assert c.content == "用户2025年3月6日要上班不在家"
    assert c.expires_at == _d("2025-03-07")


def test_past_event_keeps_its_date_and_never_expires() -> None:
    c = only("前天买了个扫地机器人", kind=Kind.EVENT)
    assert c.content == "用户2025年3月3日买了个扫地机器人"
    assert c.valid_from == _d("2025-03-03") and c.expires_at is None


@pytest.mark.parametrize(("text", "day"), [("got tickets to see Phoebe Bridgers on Apr 12!!", "2025-04-12"),
                                         ("I booked a table for March 20", "2025-03-20"),
                                         ("我买了4月12号的演唱会门票", "2025-04-12")])
def test_a_booking_told_in_the_past_names_a_day_ahead(text: str, day: str) -> None:
    assert only(text, kind=Kind.EVENT).valid_from == _d(day)


def test_a_trip_told_in_the_past_is_last_years() -> None:
    assert only("I went to Japan in May", kind=Kind.EVENT).valid_from == _d("2024-05-01")


def test_relative_with_time_of_day() -> None:
    c = only("明天下午3点去医院复查", kind=Kind.EVENT)
    assert c.content == "用户2025年3月6日15:00去医院复查"
    assert c.valid_from == _d("2025-03-06 15:00")


def test_trip_with_continuation_clauses_is_one_event() -> None:
    c = only("下周三我要飞北京出差，两天，周四晚上回来", kind=Kind.EVENT)
    assert c.content == "用户2025年3月12日要飞北京出差，两天，2025年3月13日晚上回来"
    assert (c.valid_from, c.valid_until) == (_d("2025-03-12"), _d("2025-03-14"))
    assert "北京" in c.entities


def test_relative_event_of_a_relative() -> None:
    c = only("我妈下周三生日，能不能在那之前送到？", kind=Kind.EVENT)
    assert c.content == "用户的妈妈2025年3月12日生日"


def test_range_event() -> None:
    c = only("12月16号到19号要去新加坡", kind=Kind.EVENT)
    assert (c.valid_from, c.valid_until) == (_d("2024-12-16"), _d("2024-12-20"))
    assert "2024年12月16日至12月19日" in c.content


@pytest.mark.parametrize(
    ("text", "content", "start"),
    [("I'm flying to Beijing next Wednesday.", "User is flying to Beijing on 2025-03-12", "2025-03-12"),
     ("I went to a support group yesterday and it was powerful.",
      "User went to a support group on 2025-03-04 and it was powerful", "2025-03-04"),
     ("Yesterday I went to the museum with my sister.", "On 2025-03-04 User went to the museum with User's sister",
      "2025-03-04"),
     ("I'm going to a conference next month.", "User is going to a conference in April 2025", "2025-04-01"),
     ("I painted that lake sunrise last year!", "User painted that lake sunrise in 2024", "2024-01-01")],
)
def test_english_events(text: str, content: str, start: str) -> None:
    c = only(text, kind=Kind.EVENT)
    assert (c.content, c.valid_from) == (content, _d(start))


def test_this_year_alone_is_not_an_event() -> None:
    assert all(c.kind is not Kind.EVENT for c in run("我今年28岁"))


@pytest.mark.parametrize("text", ["明天会下雨吗？", "今天有啥安排来着", "What are you doing next week?"])
def test_questions_are_not_events(text: str) -> None:
    assert run(text) == []


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [("下周三", "zh", "2025年3月12日"), ("next Wednesday", "en", "2025-03-12"), ("下个月", "zh", "2025年4月"),
     ("last month", "en", "February 2025"), ("去年", "zh", "2024年"), ("next week", "en", "the week of 2025-03-10"),
     ("今晚", "zh", "2025年3月5日晚上"), ("明天下午3点", "zh", "2025年3月6日15:00")],
)
def test_render_span(text: str, lang: str, expected: str) -> None:
    assert render_span(find_time_expressions(text, TS)[0], lang) == expected



# ---------------------------------------------------------------- time zone

SHANGHAI = ZoneInfo("Asia/Shanghai")


def _tomorrow(timezone_name: str, sent: datetime) -> Candidate:
    ex = from_settings(Settings(timezone=timezone_name))
    found = ex.extract([Message(role="user", content="我明天要去医院复查", timestamp=sent, id="m0")])
    assert [c.kind for c in found] == [Kind.EVENT]
    return found[0]


def test_tomorrow_late_at_night_is_the_next_local_day() -> None:
    """23:30 in Shanghai (15:30 UTC): 明天 is 2025-03-06 on the Shanghai calendar, not 03-07."""
    c = _tomorrow("Asia/Shanghai", datetime(2025, 3, 5, 23, 30, tzinfo=SHANGHAI))
    assert c.content == "用户2025年3月6日要去医院复查"
    assert (c.valid_from, c.valid_until) == (datetime(2025, 3, 6, tzinfo=SHANGHAI), datetime(2025, 3, 7, tzinfo=SHANGHAI))
    assert c.expires_at == datetime(2025, 3, 7, tzinfo=SHANGHAI)


def test_tomorrow_in_utc_mode_is_the_next_utc_day() -> None:
    c = _tomorrow("UTC", datetime(2025, 3, 5, 23, 30, tzinfo=SHANGHAI))
    assert c.content == "用户2025年3月6日要去医院复查"
    assert (c.valid_from, c.valid_until) == (_d("2025-03-06"), _d("2025-03-07"))


def test_just_after_local_midnight_the_zone_decides_the_day() -> None:
    sent = datetime(2025, 3, 6, 0, 30, tzinfo=SHANGHAI)  # still 2025-03-05 in UTC
    assert _tomorrow("Asia/Shanghai", sent).valid_from == datetime(2025, 3, 7, tzinfo=SHANGHAI)
    assert _tomorrow("UTC", sent).valid_from == _d("2025-03-06")

# ---------------------------------------------------------------- remember, corrections

def test_remember_raises_importance() -> None:
    c = only("记住，我喜欢靠过道的座位", "pref/靠过道的座位")
    assert c.importance >= 0.8
    assert only("remember that I hate cilantro", "pref/cilantro").importance >= 0.8


def test_remembered_text_without_a_pattern_is_kept() -> None:
    c = only("记得别让师傅打电话哈")
    assert (c.kind, c.content) == (Kind.FACT, "用户要求记住：别让师傅打电话")
    assert c.importance >= 0.8
    e = only("Please remember to water the plants")
    assert e.content == "User asked to remember: to water the plants"


@pytest.mark.parametrize("text", [
    "记得记得 上次差点迟到",          # recalling, not a request
    "好 记下了 老周不吃辣 以后点菜我来",   # "noted": the speaker will remember
    "我记一下 回头再说",
    "你帮我记住哈 记住这个",          # said twice, pointing at nothing
])
def test_what_only_sounds_like_a_request_to_remember_is_none(text: str) -> None:
    assert not any(c.content.startswith("用户要求记住") for c in run(text)), [c.content for c in run(text)]


def test_remembered_plan_is_an_important_event() -> None:
    c = only("帮我记一下，下周三我要飞北京出差", kind=Kind.EVENT)
    assert c.importance >= 0.8 and c.valid_from == _d("2025-03-12")


def test_trivial_remember_gives_nothing() -> None:
    assert run("帮我记几个事") == []
    assert run("What do you remember from it?") == []


def test_correction_with_an_attribute() -> None:
    c = only("不对，我住在杭州", "user/city")
    assert (c.content, c.corrects) == ("用户住在杭州", True)
    e = only("Actually, I live in Chicago", "user/city")
    assert (e.content, e.corrects) == ("User lives in Chicago", True)


def test_bare_value_correction_takes_the_last_slot() -> None:
    first, fixed = run("我住在上海", "不对，其实是杭州")
    assert (first.slot, first.corrects) == ("user/city", False)
    assert (fixed.slot, fixed.content, fixed.corrects) == ("user/city", "用户住在杭州", True)
    en = run("I live in Boston", "Actually, I meant Chicago")
    assert (en[1].slot, en[1].content, en[1].corrects) == ("user/city", "User lives in Chicago", True)


def test_bare_value_correction_uses_what_the_assistant_asked() -> None:
    cands = run("您是住在上海对吧？", "不对，杭州", roles=("assistant", "user"))
    assert [(c.slot, c.content, c.corrects) for c in cands] == [("user/city", "用户住在杭州", True)]


def test_correction_without_context_still_marks_corrects() -> None:
    c = only("我说错了，是周四")
    assert c.corrects and c.content == "用户是2025年3月6日"


def test_not_a_correction() -> None:
    assert all(not c.corrects for c in run("不是很喜欢吃辣"))


# ---------------------------------------------------------------- message handling

def test_multi_clause_message_gives_one_memory_per_clause() -> None:
    cands = run("我叫小王，住在上海，在腾讯做程序员，对花生过敏")
    assert [(c.slot, c.content) for c in cands] == [
        ("user/name", "用户名字是小王"),
        ("user/city", "用户住在上海"),
        ("user/employer", "用户在腾讯工作"),
        ("user/job", "用户是程序员"),
        ("allergy/花生", "用户对花生过敏"),
    ]


def test_english_multi_clause() -> None:
    cands = run("My name is Wang, I live in Shanghai and I work at Tencent")
    assert [c.slot for c in cands] == ["user/name", "user/city", "user/employer"]


@pytest.mark.parametrize("text", ["你好", "谢谢", "好的", "嗯嗯", "哈哈哈", "ok", "thanks!", "lol", "👍", "好的，谢谢"])
def test_smalltalk_gives_nothing(text: str) -> None:
    assert run(text) == []


def test_only_user_messages_are_mined() -> None:
    cands = run("我对花生过敏", "好的，已记录您对芒果过敏", "我住在上海", roles=("user", "assistant", "system"))
    assert [c.content for c in cands] == ["用户对花生过敏"]


def test_provenance() -> None:
    c = run("我住在上海", name="小王")[0]
    assert (c.source_ids, c.speaker) == (("m0",), "小王")
    no_id = EX.extract([Message(role="user", content="我住在上海", timestamp=TS)])[0]
    assert no_id.source_ids == () and no_id.speaker is None


def test_language_hint_overrides_detection() -> None:
    assert run("我住在上海", hint="en") == []
    assert [c.slot for c in run("我住在上海", hint="zh")] == ["user/city"]


def test_content_is_at_most_200_chars_and_split_on_sentences() -> None:
    long = "记住：" + "。".join(f"我第{i}次去杭州的时候在西湖边上走了很久很久，看到了很多很多漂亮的风景和有趣的人" for i in range(8))
    cands = run(long)
    assert len(cands) >= 2
    assert all(len(c.content) <= 200 for c in cands)
    assert all(c.content.startswith("用户") for c in cands)


# ---------------------------------------------------------------- named speakers

@pytest.mark.parametrize(
    ("text", "name", "content"),
    [("我喜欢猫", "小雅", "小雅喜欢猫"), ("我对花生过敏", "小雅", "小雅对花生过敏"),
     ("我妈下周三生日", "小雅", "小雅的妈妈2025年3月12日生日"),
     ("I'm allergic to peanuts", "Melanie", "Melanie is allergic to peanuts"),
     ("I love hiking with my dog", "Melanie", "Melanie loves hiking with Melanie's dog"),
     ("I live in Boston", "  ", "User lives in Boston"), ("我喜欢猫", None, "用户喜欢猫")],
)
def test_named_speaker_is_the_subject(text: str, name: str | None, content: str) -> None:
    assert content in [c.content for c in run(text, name=name)]


def test_named_speaker_joins_entities_and_owns_the_slot() -> None:
    (c,) = run("I live in Boston", name="Melanie")
    assert c.entities[0] == "Melanie" and "Boston" in c.entities
    assert c.slot == "user/city@Melanie"
    assert run("I live in Boston")[0].slot == "user/city"


def test_two_speakers_keep_their_own_facts() -> None:
    msgs = [Message(role="user", content="I live in Boston", timestamp=TS, id="m0", name="Caroline"),
            Message(role="user", content="I live in Denver", timestamp=TS, id="m1", name="Melanie")]
    assert [(c.content, c.slot) for c in EX.extract(msgs)] == [
        ("Caroline lives in Boston", "user/city@Caroline"), ("Melanie lives in Denver", "user/city@Melanie")]


def test_a_source_that_says_user_keeps_it_past_the_subject() -> None:
    contents = [c.content for c in run("我在做用户调研，下周三要去深圳出差", name="小雅")]
    assert contents == ["小雅在做用户调研，2025年3月12日要去深圳出差"]


def test_duplicate_statements_in_one_batch_are_kept_once() -> None:
    assert len(run("我住在上海", "我住在上海")) == 1


def test_protocol_and_registry() -> None:
    assert isinstance(EX, Extractor)
    assert EX.name == "rules" and EX.cheap is True
    assert isinstance(from_settings(Settings()), RulesExtractor)
    assert isinstance(registry.create("extractor", "rules", Settings()), RulesExtractor)


def test_split_clauses_keeps_offsets_and_time_spans_whole() -> None:
    text = "我叫小王，住在上海。May 8, 2023 was fun"
    spans = find_time_expressions(text, TS)
    zh = split_clauses(text, "zh", spans)
    assert [c.text for c in zh] == ["我叫小王", "住在上海", "May 8, 2023 was fun"]
    assert all(text[c.start:c.end] == c.text for c in zh)
    assert [c.sentence for c in zh] == [0, 0, 1]
    assert zh[2].spans and zh[2].spans[0].text == "May 8, 2023"


def test_substitute_times() -> None:
    text = "I'm flying next Wednesday and back on Friday"
    spans = find_time_expressions(text, TS)
    assert substitute_times(text, 0, spans, "en", timezone.utc) == (
        "I'm flying on 2025-03-12 and back on 2025-03-14")
    zh = "下周三去深圳，下个月回来"
    assert substitute_times(zh, 0, find_time_expressions(zh, TS), "zh", timezone.utc) == (
        "2025年3月12日去深圳，2025年4月回来")


# ---------------------------------------------------------------- changes of a single-valued attribute

def _slotted(*texts: str, name: str | None = None) -> dict[str, str]:
    return {c.slot: c.content for c in run(*texts, name=name) if c.slot}


@pytest.mark.parametrize(
    ("text", "slot", "needle"),
    [
        ("医生给我换药了，换成缬沙坦，80毫克，还是每天一片", "health/medication", "缬沙坦"),
        ("我把降压药改成缬沙坦了", "health/medication", "缬沙坦"),
        ("医生让我改用二甲双胍", "health/medication", "二甲双胍"),
        ("我现在改吃阿托伐他汀了", "health/medication", "阿托伐他汀"),
        ("降压药换了，现在吃的是缬沙坦", "health/medication", "缬沙坦"),
        ("药量改为每天两片", "health/medication", "两片"),
        ("我不再吃氨氯地平，而是吃缬沙坦", "health/medication", "缬沙坦"),
        ("这次模考我升到第3名了", "user/rank", "第3名"),
        ("期中考试我的排名降到第15了", "user/rank", "第15"),
        ("我决定改报苏州大学了，计算机技术专硕", "user/school", "苏州大学"),
        ("我的会员升级为金卡了", "user/membership", "金卡"),
        ("我把手机套餐换成了59元的", "user/plan", "59元"),
        ("I switched to metformin last month.", "health/medication", "metformin"),
        ("I changed my medication to lisinopril.", "health/medication", "lisinopril"),
        ("I now take 10 mg of amlodipine every morning.", "health/medication", "amlodipine"),
        ("I moved up to 3rd place in the rankings.", "user/rank", "3rd place"),
        ("I upgraded to the premium plan.", "user/plan", "premium"),
        ("I changed to a new school this year.", "user/school", "school"),
    ],
)
def test_a_change_of_a_single_valued_attribute_is_slotted(text: str, slot: str, needle: str) -> None:
    got = _slotted(text)
    assert slot in got and needle in got[slot]


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("开了，氨氯地平，5毫克的，每天早上一片", "health/medication"),
        ("我在复试名单里排第12", "user/rank"),
        ("I take 500 mg of metformin every morning.", "health/medication"),
        ("I was ranked 12th on the waiting list.", "user/rank"),
        ("体重91公斤 目标年底减到80", "user/weight"),
        ("夜宵戒了俩月 体重到85了", "user/weight"),
        ("my weigh-in today: 86kg, cutting out soda works", "user/weight"),
        ("I'm down to 84kg!!", "user/weight"),
    ],
)
def test_the_state_a_change_replaces_shares_its_slot(text: str, slot: str) -> None:
    assert slot in _slotted(text)


@pytest.mark.parametrize(
    "text",
    [
        "我换了个发型",                      # no known attribute
        "我换成了燕麦奶",                    # a drink, not a medication
        "要不要换成缬沙坦？",                # a question
        "我妈换成了缬沙坦",                  # someone else's medication
        "我排第3个，快到我了",               # a queue, not a rank
        "我去药店买了牙膏",                  # 药店 is no medication
        "昨天量血压125/80，换了药之后挺稳的",  # a change referred back to, not made
        "自从换成缬沙坦，脚就不肿了",
        "Since I switched to metformin my sugar has been fine.",
        "I switched to a standing desk.",
        "My sister switched to metformin.",
        "Should I switch to metformin?",
    ],
)
def test_change_traps_give_no_change_slot(text: str) -> None:
    got = _slotted(text)
    assert not {"health/medication", "user/rank", "user/school", "user/membership", "user/plan", "user/weight"} & set(got)


def test_a_weight_is_told_by_its_own_clauses_and_only_the_users() -> None:
    assert _slotted("体重91公斤 目标年底减到80")["user/weight"] == "用户：体重91公斤"  # the goal is no weight
    assert "user/weight" not in _slotted("家里那只狗又胖了 30斤了")
    assert "pref/俩月" not in _slotted("夜宵戒了俩月 体重到85了")  # a duration is nothing given up


def test_a_change_takes_the_speakers_slot() -> None:
    got = _slotted("医生给我换药了，换成缬沙坦", name="陈志远")
    assert "health/medication@陈志远" in got and got["health/medication@陈志远"].startswith("陈志远")


def test_medication_is_not_hidden_as_sensitive() -> None:
    c = next(c for c in run("我现在改吃二甲双胍了") if c.slot == "health/medication")
    assert c.visibility is Visibility.NORMAL and c.kind is Kind.FACT


@pytest.mark.parametrize(("text", "said"), [("车卖了 四万二 车商今天来拉走的", "车卖了"),
                                            ("对了 明天下午开会", None), ("哈哈 今天去爬山了", None)])
def test_an_event_keeps_the_short_deeds_before_its_time(text: str, said: str | None) -> None:
    """车卖了 (a deed done) and 四万二 (an amount) belong to the event; 对了 and 哈哈 do not."""
    (event,) = [c for c in run(text) if c.kind is Kind.EVENT]
    if said:
        assert said in event.content
    assert "对了" not in event.content and "哈哈" not in event.content


def test_a_day_of_every_month_is_no_one_date() -> None:
    assert not [c for c in run("the gas bill is due on the 12th every month, about 90 dollars") if c.kind is Kind.EVENT]


def test_a_lunar_date_is_shown_as_said_beside_its_day() -> None:
    """腊月二十六 names a different solar day each year: the memory keeps the words with the day they mean."""
    c = only("腊月二十六走 车票抢到了", kind=Kind.EVENT)
    assert "腊月二十六（" in c.content and "日）" in c.content, c.content


# ---------------------------------------------------------------- someone else's day, and 过 as a verb

@pytest.mark.parametrize(("text", "day", "said"), [
    ("Cousin Aisling's wedding is on the 9th of April in Killarney, I'm a bridesmaid", "2025-04-09",
     "Cousin Aisling's wedding"),
    ("Raj's farewell drinks are Fri 7 Mar at the Napier", "2025-03-07", "Raj's farewell drinks"),
    ("小美下周去北京出差", "2025-03-10", "小美"),
])
def test_a_named_persons_day_is_an_event_of_theirs(text: str, day: str, said: str) -> None:
    c = only(text, kind=Kind.EVENT)
    assert c.valid_from == _d(day) and c.content.startswith(said), c.content


@pytest.mark.parametrize("text", ["她下周三过生日", "She went to Paris last week", "They fly out on Friday"])
def test_a_pronouns_day_is_no_event(text: str) -> None:
    assert not [c for c in run(text) if c.kind is Kind.EVENT], [c.content for c in run(text)]


def test_a_birthday_celebrated_is_ahead_not_a_year_back() -> None:
    c = only("12月26号马俊他妈过生日 要去湟中吃饭", kind=Kind.EVENT)
    assert c.valid_from == _d("2025-12-26"), c.content
