"""A line whose nearest turn among all the user said is a newer one telling a change is not shown as current."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from jiyi.clock import FrozenClock
from jiyi.memory import Memory
from jiyi.read.context import _PAST_TITLE
from jiyi.read.curate import Selection, _moved_past
from jiyi.records import Hit, Kind, MemoryRecord

FILLER = ["今天加班到十点 累死", "楼下新开了家面馆 牛肉面不错", "最近在追一部悬疑剧", "想换个新手机 预算三千",
          "周末想去爬山", "这周降温了 记得穿秋裤"]


def rec(mid: str, content: str) -> MemoryRecord:
    at = datetime(2025, 3, 1, tzinfo=timezone.utc)
    return MemoryRecord(id=mid, tenant="t", user_id="u1", content=content, kind=Kind.EPISODE, created_at=at,
                        updated_at=at, valid_from=at, source_ids=(f"msg-{mid}",))


def hit(r: MemoryRecord) -> Hit:
    return Hit(r, 0.5, {"total": 5.0})


def told(mem: Memory, clock: FrozenClock, texts: list[str]) -> None:
    for text in texts:
        clock.set(clock.now() + timedelta(days=2))
        mem.add([{"role": "user", "content": text}], user_id="u1", session_id="s1", sync=True)


def current(block: str) -> str:
    return block.split(f"## {_PAST_TITLE['zh']}", 1)[0]


def test_a_gym_left_in_other_words_is_not_current(mem: Memory, clock: FrozenClock) -> None:
    told(mem, clock, ["我平时下班去威尔士健身 办了三年的卡", *FILLER, "以前那家健身房太远了 卡转给同事了 现在楼下随便练练"])
    block = mem.build_context("今晚去健身 帮我排个练腿计划 顺便说下我在哪家练", user_id="u1")
    assert "威尔士" not in current(block), block


def test_a_newer_mention_that_tells_no_change_leaves_it_current(mem: Memory, clock: FrozenClock) -> None:
    told(mem, clock, ["我平时下班去乐刻健身 练了两年了", *FILLER, "今天在乐刻练腿 累死了 明天估计下不了楼"])
    block = mem.build_context("今晚去健身 帮我排个练背的计划", user_id="u1")
    assert "乐刻健身" in current(block), block


def test_a_condition_is_not_ended_by_a_move(mem: Memory, clock: FrozenClock) -> None:
    told(mem, clock, ["我对花生过敏 吃一点就起疹子", *FILLER, "跟你说 我搬到杭州了 新家离公司近 吃的也方便"])
    block = mem.build_context("推荐点零食呗", user_id="u1")
    assert "过敏" in current(block), block


def test_the_turn_that_changed_a_line_is_shown_in_its_place() -> None:
    line, other = rec("a", "我在城西仓库做理货 早上七点到岗"), rec("b", "楼下新开了家面馆")
    change = rec("c", "仓库那摊子不归我管了 现在坐前台接电话")
    for idle in (False, True):
        sel = _moved_past(Selection([hit(line), hit(other)], [], idle=idle), [], {"a"}, {"a": change}, {"a", "b"})
        assert [h.id for h in sel.current] == (["b"] if idle else ["c", "b"])
        assert [h.id for h in sel.past] == ([] if idle else ["a"])  # an idle query shows no past either


def test_an_idle_query_gets_no_turn_in_place_of_a_changed_line(mem: Memory, clock: FrozenClock) -> None:
    told(mem, clock, ["我平常骑电动车去厂里 十分钟就到", *FILLER, "电动车上礼拜被人顺走了 气死 现在天天挤公交"])
    block = mem.build_context("哈哈 好无聊啊", user_id="u1")
    assert "顺走" not in block, block  # (the habit it left, 天天挤公交, is what stands: shown)


def said_with_replies(mem: Memory, clock: FrozenClock, exchanges: list[tuple[str, str]]) -> None:
    for text, reply in exchanges:
        clock.set(clock.now() + timedelta(days=2))
        mem.add([{"role": "user", "content": text}, {"role": "assistant", "content": reply}], user_id="u1",
                session_id="s1", sync=True)


def test_the_bots_echo_between_a_line_and_its_change_is_passed_over(mem: Memory, clock: FrozenClock) -> None:
    said_with_replies(mem, clock, [
        ("女儿的钢琴课在周六上午 我每周六九点送她去", "好的，周六上午九点送女儿上钢琴课。"),
        *((text, "嗯嗯") for text in FILLER),
        ("钢琴老师调课了 以后改到周日下午两点 我两点送她去", "好的，以后周日下午两点送女儿上钢琴课。")])
    block = mem.build_context("这周末帮我排一下时间", user_id="u1")
    assert "周六九点送她去" not in current(block) and "周日下午两点" in current(block), block


def test_a_line_naming_this_years_month_is_no_age_and_may_change(mem: Memory, clock: FrozenClock) -> None:
    """"今年十二月到期" names a month, not how old the user is (an age is kept, never ended by a change beside it)."""
    told(mem, clock, ["车险在平安买的 今年十二月到期", *FILLER, "今年续保换成人保了 比平安便宜四百"])
    block = mem.build_context("刚才倒车刮了一下 报保险打哪个电话", user_id="u1")
    assert "人保" in block and "车险在平安买" not in current(block), block
