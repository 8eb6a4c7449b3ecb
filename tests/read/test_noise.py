"""Small talk, courtesies and turns that say almost nothing (read side)."""

from __future__ import annotations

import pytest

from jiyi.read.noise import (
    asks_about_bot,
    asks_what_was_asked,
    is_noise,
    momentary,
    only_asks,
    says_little,
    without_chatter,
)


@pytest.mark.parametrize("text", ["你好！有什么可以帮你？", "很高兴认识你，小明！", "恭喜乔迁！杭州很美。", "在呢～",
                                  "Hi Maya! How can I help you today?", "Congrats on the new job! That is great news.",
                                  "好的呢，随时找我", "Sounds great, have a lovely weekend!", "早上好！"])
def test_the_bots_courtesies_are_noise(text: str) -> None:
    assert is_noise(text, assistant=True)


@pytest.mark.parametrize("text", ["你上次推荐的书是《三体》", "记得周五体检前别吃早饭，空腹抽血",
                                  "Your flight to Tokyo leaves at 9:40 from Terminal 2"])
def test_the_bots_content_is_not_noise(text: str) -> None:
    assert not is_noise(text, assistant=True)


@pytest.mark.parametrize("text", ["腿疼死我了 膝盖又肿了", "笑死 我下周去北京出差", "我对花生过敏，周五要去体检", "hey I moved to Paris", "好的，明天见小雅", "没事 明天去北京出差",
                                  "I went to Paris with my sister last week", "恭喜我吧，我升职当经理了",
                                  "帮我记一下 周五交房租", "明天去拔牙"])  # a plan names its day
def test_a_users_content_is_not_noise(text: str) -> None:
    assert not is_noise(text, assistant=False)
    assert not says_little(text)


@pytest.mark.parametrize("text", ["饿了", "睡了 晚安", "随便 哈哈", "哈哈哈 会说话", "works for me", "brb dinner",
                                  "haha yes mom", "lol just testing", "没事 刷到个视频", "没有 就是好奇", "不说了 背单词去",
                                  "今天好累", "刚才吓死了",
                                  # only reactions, the "X死我了" of any feeling and the slang of the day (round 33)
                                  "哎呦喂 哏儿死我了", "逗死我了 哈哈", "蚌埠住了", "绷不住了 哈哈哈", "芭比Q了"])
def test_turns_that_say_almost_nothing(text: str) -> None:
    assert says_little(text)


@pytest.mark.parametrize("text", ["你也太会说了吧 跟我姐一样", "嗯嗯 哈哈 你比我还会安排", "lol ur the best", "you're so funny haha"])
def test_a_turn_that_only_remarks_on_the_bot_says_little(text: str) -> None:
    assert says_little(text)


@pytest.mark.parametrize("text", ["你帮我记着 我对青霉素过敏", "你真好 我下周去杭州", "你还记得我养的猫吗", "you should try the ramen place"])
def test_a_turn_to_the_bot_with_the_users_own_content_is_kept(text: str) -> None:
    assert not says_little(text)


@pytest.mark.parametrize("text", ["哎 算了 不说了", "还好有你陪我聊 嘿嘿", "算了算了 不想说了 hhh", "不知道呢", "不想说了 睡觉去"])
def test_a_chinese_turn_that_names_nothing_says_little(text: str) -> None:
    assert says_little(text)


@pytest.mark.parametrize("text", ["最近想吃清淡点", "周末陪女儿去了趟公园", "又被老板骂了", "这家店的面好咸"])
def test_a_chinese_turn_that_names_a_thing_or_a_quality_says_something(text: str) -> None:
    assert not says_little(text)


def test_numbers_always_say_something() -> None:
    assert not says_little("8点") and not says_little("room 42")


@pytest.mark.parametrize("text", ["唉 追剧去了 嘿嘿", "待会 洗澡", "先去打球了", "热死了，今天升温了", "it's 3 degrees, ugh",
                                  "gotta go cook", "so humid today", "ok off to bed",
                                  "今儿个天儿老冷了 零下二十度",  # a northern intensifier, the degrees as a part
                                  "嘿嘿 高兴到起飞", "郁闷死了", "ugh so bored rn"])  # how the speaker feels now
def test_a_turn_that_only_tells_the_moment_says_little(text: str) -> None:
    assert momentary(text) and says_little(text)


@pytest.mark.parametrize("text", ["我搬去成都了", "回老家去了", "开心到飞起 offer到手了", "i'm stressed about the bar exam", "下周降温了记得提醒我带外套", "先去医院看了我妈",
                                  "待会 去车站接我爸", "gotta go to the dentist about my molar", "it's 3 degrees in oslo, I live here now"])
def test_news_in_a_turn_is_more_than_the_moment(text: str) -> None:
    assert not momentary(text)


@pytest.mark.parametrize(("query", "wanted"), [("你上次推荐的那本书叫啥", True), ("what did you suggest for dinner", True),
                                               ("你之前答应过我什么", True), ("推荐点零食", False),
                                               ("我跟你说过啥重要的事吗", False),  # what the user told the bot
                                               ("where do I live", False),
                                               ("那个MQTT超时的问题后来说要怎么查来着", True),  # the advice given, its speaker unsaid
                                               ("what was the fix again for the wifi", True),
                                               ("上次说的那家店叫啥", False)])
def test_asks_about_bot(query: str, wanted: bool) -> None:
    assert asks_about_bot(query) is wanted


@pytest.mark.parametrize(("text", "asks"), [
    ("面包店关门了吗？", True), ("哈哈，你吃饭了吗", True), ("is the gym open on sundays?", True), ("这个怎么样?", True),
    ("我下周去杭州，那边冷吗？", False), ("what do you think? i love cats.", False), ("我喜欢猫", False), ("好的？", False),
    ("你说我要不要换个发型", True), ("周末去不去爬山", True), ("阿福在不", True), ("明天一起吃饭行不", True), ("我们好好聊聊", False), ("我不喜欢下雨天", False),
    ("does it bug you when people ask you to remember things? like remember that", True),  # a question and a pointer
    ("你会不会嫌我烦？请记住这一点", True), ("你会不会嫌我烦？我对芒果过敏", False),
    ("what do u think of the new update", True), ("is the pool open on mondays", True),  # asked without a mark
    ("ravi: how do you feel about cold brew", True),        # a group member's turn, said by name
    ("what i did today was great", False), ("how do i fix my bike. my chain snapped", False),
    ("吃了没呢你", True),
    # asked by the question word alone, no mark: at the end, or "which … is best" put to the bot
    ("长江有多长来着", True), ("2的十次方是多少", True), ("你觉得哪家健身房靠谱", True), ("给孩子买什么好呢", True),
    ("那个演员叫啥", True),
    # …but not an indefinite, a not-knowing, or 什么 inside 没什么
    ("什么都行", False), ("哪儿都不想去", False), ("我也说不清为什么", False), ("没什么大事", False),
    ("随便买点什么", False), ("我忘了他叫啥", False),
])
def test_only_asks(text: str, asks: bool) -> None:
    assert only_asks(text) is asks


@pytest.mark.parametrize(("query", "wanted"), [("我之前问过你什么", True), ("what did I ask you yesterday", True),
                                                ("面包店开门了吗", False), ("what's my cat called", False)])
def test_asks_what_was_asked(query: str, wanted: bool) -> None:
    assert asks_what_was_asked(query) is wanted


@pytest.mark.parametrize("text", ["请记住这一点，非常重要", "记住哦", "这个很重要！", "Remember that! It is really important",
                                  "你一定要记住这段话", "note this pls!! very important", "oh and remember this ok?? super important"])
def test_a_bare_request_to_remember_is_noise(text: str) -> None:
    assert is_noise(text, assistant=False)


@pytest.mark.parametrize("text", ["我对芒果过敏，请记住", "记住我的生日是5月3日", "remember that I'm allergic to nuts"])
def test_a_request_to_remember_something_said_in_it_is_not(text: str) -> None:
    assert not is_noise(text, assistant=False)


@pytest.mark.parametrize(("text", "little"), [
    ("看情况吧 hhh", True),  # an answer that commits to nothing, laughter aside
    ("到时候再说啦", True),
    ("it depends", True),
    ("看情况 一般周末去爬山", False),  # … and then says something
    ("depends on the weather, usually the coast", False),
])
def test_an_answer_that_commits_to_nothing_says_little(text: str, little: bool) -> None:
    assert says_little(text) is little


@pytest.mark.parametrize(("text", "shown"), [
    ("she's a pastry chef btw, already took over the kitchen lol", "she's a pastry chef btw, already took over the kitchen"),
    ("hhh 我最后那局腿都软了", "我最后那局腿都软了"), ("腿都软了 哈哈哈", "腿都软了"), ("哈哈哈哈", "哈哈哈哈"),
])
def test_a_turn_is_shown_without_the_laughter_around_it(text: str, shown: str) -> None:
    from jiyi.read.noise import without_laughter

    assert without_laughter(text) == shown


@pytest.mark.parametrize(("text", "kept"), [
    ("阿青：剁了一下午的馅，手都酸了，晚安", "阿青：剁了一下午的馅，手都酸了"),
    ("阿青：哈哈哈哈店里来了个大爷一口气点了十杯", "阿青：店里来了个大爷一口气点了十杯"),
    ("yeah yeah. I'm a nurse at the county hospital btw", "I'm a nurse at the county hospital btw"),
    ("我升职了！哈哈哈 晚安", "我升职了！"),
    ("呜呜呜 高三好累 今天画了八个小时素描", "高三好累 今天画了八个小时素描"),  # crying, as laughter
    ("你女朋友又来楼下送夜宵了 羡慕死", "你女朋友又来楼下送夜宵了"),
    ("用户对花生过敏", "用户对花生过敏"),
    ("哈哈哈哈", "哈哈哈哈"),  # all of it chatter: left as it was
    ("家人们谁懂啊 上岸了！！", "上岸了！！"), ("救命 猫把键盘踩坏了", "猫把键盘踩坏了"),  # a meme's opening words
    ("User: £1,040 a month but it has a window", "User: £1,040 a month but it has a window"),  # no cut in a number
    ("房租涨到3.5k了，哈哈", "房租涨到3.5k了"),
])
def test_small_talk_at_a_memorys_ends_is_no_part_of_it(text: str, kept: str) -> None:
    assert without_chatter(text) == kept


@pytest.mark.parametrize("text", ["卧槽大佬", "事儿真多", "腿已废", "可乐真乖"])
def test_a_two_word_reaction_in_a_group_chat_says_little(text: str) -> None:
    assert says_little(text, group=True)
    assert not says_little(text)  # (said to the bot alone, 又被老板骂了 is news)
    assert not says_little("爸就是不听劝", group=True)  # a word of the family: news of someone


@pytest.mark.parametrize("text", ["我下周去成都出差", "狗子今天拆家了", "got the job at Tidewave"])
def test_news_in_a_group_chat_says_something(text: str) -> None:
    assert not says_little(text, group=True)
