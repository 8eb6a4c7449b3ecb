"""A turn that says the speaker is done with something ends their earlier words of it (write/endings.py).

Real SQLite and the bundled model: the earlier turn and the memory made from it are marked
``ended_by``, a block shows them under the past heading only, the profile leaves them out,
and search still finds them (they are the evidence of what happened).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.text.ended import ENDED_KEY


def say(mem: Memory, clock: FrozenClock, *texts: str, user: str = "u") -> None:
    for i, text in enumerate(texts):
        clock.set(clock.now() + timedelta(days=3))
        mem.add([{"role": "user", "content": text, "id": f"{user}-{i}"}], user_id=user, sync=True)


def turns(mem: Memory, user: str = "u") -> dict[str, dict[str, object]]:
    return {r.content: r.metadata for r in mem.get_all(user_id=user, status=None) if r.kind is Kind.EPISODE}


def current_part(block: str) -> str:
    """The block above its past heading."""
    for heading in ("## 已经过去", "## Past"):
        block = block.split(heading, 1)[0]
    return block


@pytest.mark.parametrize(("history", "query"), [
    (("我每天下午都要喝一杯奶茶，三分糖", "今天猫又把花盆打翻了", "奶茶我戒了 现在喝单枞"), "下午好困 喝点啥提神"),
    (("I'm at Peakform four nights a week, pricey but worth it", "my cat knocked my plant over",
      "also cancelled peakform today. cycling instead"), "where should I work out this weekend?"),
])
def test_earlier_words_of_what_is_over_are_past(mem: Memory, clock: FrozenClock, history: tuple[str, ...],
                                                query: str) -> None:
    say(mem, clock, *history)
    episodes = turns(mem)
    assert episodes[history[0]].get(ENDED_KEY), episodes
    assert not episodes[history[1]].get(ENDED_KEY)
    assert not episodes[history[2]].get(ENDED_KEY)
    ended = [r for r in mem.get_all(user_id="u") if r.kind is not Kind.EPISODE and r.metadata.get(ENDED_KEY)]
    block = mem.build_context(query, user_id="u")
    assert history[0] not in current_part(block), block
    for rec in ended:
        assert rec.content not in current_part(block), block
    assert any(hit.record.content == history[0] for hit in mem.search(history[0], user_id="u", limit=5))


@pytest.mark.parametrize("history", [
    ("压力大的时候就想抽，一天差不多一包的量", "今天猫又把花盆打翻了", "从今天起戒烟了 说到做到"),
    ("two flat whites before noon or i'm useless", "my cat knocked my plant over", "no more coffee for me, rooibos now"),
])
def test_a_kind_given_up_ends_what_was_said_of_its_brands_and_measures(mem: Memory, clock: FrozenClock,
                                                                     history: tuple[str, ...]) -> None:
    say(mem, clock, *history)
    episodes = turns(mem)
    assert episodes[history[0]].get(ENDED_KEY), episodes
    assert not episodes[history[1]].get(ENDED_KEY)


def test_a_word_the_speaker_uses_everywhere_ends_nothing(mem: Memory, clock: FrozenClock) -> None:
    chat = [f"guitar practice with friend number {i} today, nice place" for i in range(8)]
    say(mem, clock, *chat, "no more guitar for me")
    assert not any(meta.get(ENDED_KEY) for meta in turns(mem).values())


def test_someone_elses_ending_and_a_wish_end_nothing(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "我每天下午都要喝一杯奶茶", "我同事把奶茶戒了", "我也想戒奶茶")
    assert not any(meta.get(ENDED_KEY) for meta in turns(mem).values())


def test_an_ending_in_the_same_batch_ends_the_earlier_turn(mem: Memory, clock: FrozenClock) -> None:
    mem.add([{"role": "user", "content": "德语我每天背三十个单词", "id": "a"},
             {"role": "assistant", "content": "加油！", "id": "b"},
             {"role": "user", "content": "算了 德语我不学了 准备考公", "id": "c"}], user_id="u", sync=True)
    episodes = turns(mem)
    assert episodes["德语我每天背三十个单词"].get(ENDED_KEY), episodes
    assert not episodes["算了 德语我不学了 准备考公"].get(ENDED_KEY)


@pytest.mark.parametrize(("said", "asked", "reply", "ended"), [
    # an ending that names nothing takes the thing the bot asked back about …
    ("跟你说 那玩意儿我戒了 一周没碰", "您是说柠檬茶吗？", "对 体检血糖高了 现在只喝白开水", True),
    ("跟你说 那玩意儿我戒了 一周没碰", "您是说柠檬茶吗？", "不是 是可乐", False),  # the bot guessed wrong
    # … and a yes that tells the ending itself ends it, when the first word (掐了, slang) is none the rules know
    ("跟你说 那玩意儿我掐了", "你是说柠檬茶吗？", "对 半个月没碰了", True),
    ("跟你说 那玩意儿我掐了", "你是说柠檬茶吗？", "对 还在喝呢", False),  # yes, but nothing ended
])
def test_what_the_bot_asked_back_is_what_an_unnamed_ending_ends(mem: Memory, clock: FrozenClock, said: str,
                                                                asked: str, reply: str, ended: bool) -> None:
    say(mem, clock, "我每天下班都要来一杯柠檬茶")
    clock.set(clock.now() + timedelta(days=3))
    mem.add([{"role": "user", "content": said, "id": "e1"}, {"role": "assistant", "content": asked, "id": "e2"},
             {"role": "user", "content": reply, "id": "e3"}], user_id="u", sync=True)
    assert bool(turns(mem)["我每天下班都要来一杯柠檬茶"].get(ENDED_KEY)) is ended


@pytest.mark.parametrize(("asked", "reply", "ended"), [
    ("最近柠檬茶喝得怎么样了？", "跟你汇报一下 两个月没碰了", True),  # the answer names nothing: the question's thing
    ("最近柠檬茶喝得怎么样了？", "还那样 天天喝", False),  # nothing ended
    ("最近柠檬茶喝得怎么样了？", "想戒 还没戒", False),  # a wish
    ("周末去爬山了吗？", "没去 早戒了", False),  # the question was about something else
    ("医生让你少喝柠檬茶？要不要减一减？", "我决定了 那种东西全断了", True),  # the thing the turn before named
])
def test_a_bare_ending_answers_the_bots_question(mem: Memory, clock: FrozenClock, asked: str, reply: str,
                                                 ended: bool) -> None:
    say(mem, clock, "我每天下班都要来一杯柠檬茶")
    clock.set(clock.now() + timedelta(days=30))
    mem.add([{"role": "assistant", "content": asked, "id": "q1"}, {"role": "user", "content": reply, "id": "r1"}],
            user_id="u", sync=True)
    assert bool(turns(mem)["我每天下班都要来一杯柠檬茶"].get(ENDED_KEY)) is ended


def test_a_name_taken_away_ends_the_turns_that_name_it(mem: Memory, clock: FrozenClock) -> None:
    """团子 is a name no lexicon holds; said first, before who took it away, it is what is over."""
    say(mem, clock, "我家团子又在沙发上睡了一下午", "团子只好让我姑姑接走了 她家有院子", "我同事的猫被她室友领走了")
    episodes = turns(mem)
    assert episodes["我家团子又在沙发上睡了一下午"].get(ENDED_KEY), episodes
    assert not episodes["团子只好让我姑姑接走了 她家有院子"].get(ENDED_KEY)


def memories(mem: Memory, user: str = "u") -> dict[str, dict[str, object]]:
    return {r.content: r.metadata for r in mem.get_all(user_id=user, status=None) if r.kind is not Kind.EPISODE}


def ended_memories_saying(mem: Memory, word: str) -> list[bool]:
    return [bool(meta.get(ENDED_KEY)) for content, meta in memories(mem).items() if word in content]


@pytest.mark.parametrize("batched", [False, True])
def test_what_the_speaker_said_on_with_the_bot_ends_with_the_thing(mem: Memory, clock: FrozenClock,
                                                                  batched: bool) -> None:
    """The bot took the talk on (it names the thing) and the speaker answered: the answer is the thing's too."""
    talk = [{"role": "user", "content": "间歇性断食第二周了 掉了三斤", "id": "t1"},
            {"role": "assistant", "content": "不错！断食期间记得多喝水。", "id": "t2"},
            {"role": "user", "content": "对 每天只吃两顿", "id": "t3"}]
    later = [{"role": "user", "content": "断食不搞了 太饿了", "id": "t4"}]
    if batched:
        mem.add([*talk, *later], user_id="u", sync=True)
    else:
        mem.add(talk, user_id="u", sync=True)
        clock.set(clock.now() + timedelta(days=20))
        mem.add(later, user_id="u", sync=True)
    assert turns(mem)["对 每天只吃两顿"].get(ENDED_KEY)
    assert ended_memories_saying(mem, "两顿") and all(ended_memories_saying(mem, "两顿"))


def test_a_reply_the_bot_did_not_lead_into_stays(mem: Memory, clock: FrozenClock) -> None:
    mem.add([{"role": "user", "content": "间歇性断食第二周了 掉了三斤", "id": "t1"},
             {"role": "assistant", "content": "不错！记得多喝水。", "id": "t2"},
             {"role": "user", "content": "对 每天只吃两顿", "id": "t3"}], user_id="u", sync=True)
    clock.set(clock.now() + timedelta(days=20))
    mem.add([{"role": "user", "content": "断食不搞了 太饿了", "id": "t4"}], user_id="u", sync=True)
    assert not turns(mem)["对 每天只吃两顿"].get(ENDED_KEY)


def test_what_a_turn_said_beside_the_thing_ends_with_it_but_not_a_keyed_fact(mem: Memory,
                                                                             clock: FrozenClock) -> None:
    say(mem, clock, "最近报了个陶艺班 每周日上午上课 我在南京上班", "陶艺学了三节 手太笨了 不学了")
    assert ended_memories_saying(mem, "周日") and all(ended_memories_saying(mem, "周日"))
    assert not any(ended_memories_saying(mem, "南京"))


def test_what_the_user_said_in_a_group_chat_is_theirs_to_end_in_private(mem: Memory, clock: FrozenClock) -> None:
    """In a group chat stored per sender the user's turns carry their group name; in private they carry none."""
    mem.add([{"role": "user", "content": "我现在一天两杯冰美式 不喝不行", "name": "阿澈", "id": "g1"}],
            user_id="u", session_id="team-group", group=True, sync=True)
    clock.set(clock.now() + timedelta(days=10))
    mem.add([{"role": "user", "content": "咖啡我戒了 心跳太快", "id": "p1"}], user_id="u", session_id="dm", sync=True)
    assert turns(mem)["我现在一天两杯冰美式 不喝不行"].get(ENDED_KEY)


@pytest.mark.parametrize(("told", "after", "apart"), [
    ("我刚办了张健身年卡 三千八", "打算每周一三五下班去练", "今天吃了顿火锅"),
])
def test_the_next_turn_naming_nothing_ends_with_what_the_turn_before_it_named(
        mem: Memory, clock: FrozenClock, told: str, after: str, apart: str) -> None:
    """"办了张健身年卡" → "打算每周一三五下班去练": the second turn's object is the first's, so it ends with it."""
    mem.add([{"role": "user", "content": told, "id": "a1"}, {"role": "user", "content": after, "id": "a2"},
             {"role": "user", "content": apart, "id": "a3"}], user_id="u", sync=True)
    say(mem, clock, "健身卡我退了 教练天天推销私教")
    episodes = turns(mem)
    assert episodes[after].get(ENDED_KEY), episodes
    assert not episodes[apart].get(ENDED_KEY), episodes


def test_an_activity_named_by_its_time_ends_what_said_it_in_parts(mem: Memory, clock: FrozenClock) -> None:
    """夜跑不跑了 ends "我每天晚上都沿着河边跑": 夜跑 is 晚上 … 跑; "每天中午睡一会" is no run."""
    say(mem, clock, "我每天晚上都沿着河边跑 五公里", "每天中午睡一会", "夜跑这事先拉倒吧 膝盖受不了")
    episodes = turns(mem)
    assert episodes["我每天晚上都沿着河边跑 五公里"].get(ENDED_KEY), episodes
    assert not episodes["每天中午睡一会"].get(ENDED_KEY), episodes


def test_a_latin_name_in_chinese_ends_the_turns_that_named_it(mem: Memory, clock: FrozenClock) -> None:
    """"Emberfall 我卸了": the name with a space before the Chinese is read as one word (text/mixed.py)."""
    history = ("I main Emberfall every night 9pm 有人双排吗", "今天猫又把花盆打翻了", "Emberfall 我卸了 匹配机制烂透了")
    say(mem, clock, *history)
    episodes = turns(mem)
    assert episodes[history[0]].get(ENDED_KEY), episodes
    assert not episodes[history[1]].get(ENDED_KEY)
