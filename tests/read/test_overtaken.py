"""A block's turn that a newer turn of the speaker's among the same hits tells a change of is past."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from jiyi.embedders.e5 import MODEL_NAME, E5Embedder
from jiyi.read.overtaken import compact_names, overtaken
from jiyi.records import Hit, Kind, MemoryRecord

NOW = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)


def turn(mid: str, content: str, days_ago: float, kind: Kind = Kind.EPISODE, speaker: str | None = None,
         **fields: object) -> Hit:
    at = NOW - timedelta(days=days_ago)
    rec = MemoryRecord(id=mid, tenant="t", user_id="u", content=content, kind=kind, created_at=at, updated_at=at,
                       valid_from=at, source_ids=(f"msg-{mid}",), speaker=speaker, metadata={"role": "user"})
    return Hit(rec.replace(**fields) if fields else rec, 0.5, {"total": 5.0})


@pytest.mark.parametrize(("old", "new"), [
    # a job left, said without the employer's name (the family of the change is the old turn's)
    ("早上挤地铁中～我在广州一家4A广告公司做account，天天被甲方虐", "我裸辞了 受不了了 先休息一个月"),
    ("我在顺丰当快递员 跑城东片区", "快递不干了 辞了 腰受不了"),
    # a name both say: the hospital, the car, the pet
    ("hiya! long shift, 12 hours on the cardiac ward at Leeds General, feet are dead",
     "handed in my notice at Leeds General today, last shift is the 25th"),
    ("我开一辆白色的思域 每天通勤半小时", "思域卖了 现在骑电驴上班"),
    ("宿舍偷偷养了只仓鼠 叫汤圆 白白胖胖", "汤圆送人了 室友对毛过敏"),
    # a thing swapped, said with 也换了 (no probe needed)
    ("平时去公司楼下那家健身房 一周三次", "健身房也换了 原本那家太远 现在去小区旁边的乐动健身"),
    # what a move leaves, named before its verb: a platform
    ("晚上在果趣直播上卖货 粉丝两千多咯", "果趣那边流量越来越差 我搬到村播宝去了 官方给新人流量扶持"),
    # a habit told by its brand, given up by its category, or the other way round, in any language mixed with Chinese
    ("一天一包红旗渠 离不了", "烟戒了 一个多月了 现在兜里揣的都是口香糖"),
    ("Rokok sehari setengah bungkus, tau lah stres kerja", "Sampoerna Mild udah gue buang semua. 戒了, 3 minggu ini bersih"),
    # a tool swapped, its name written apart once and run together after ("VS Code", "vscode")
    ("平时写代码用 VS Code + Copilot", "编辑器也换了 vscode太吃内存 转neovim了 配置折腾一晚上"),
])
def test_a_change_beside_the_old_state_makes_it_past(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o, n], [o, n]) == {"old"}
    assert overtaken([o], [o, n]) == {"old"}  # the change need only be among the hits


@pytest.mark.parametrize(("old", "new"), [
    # no shared topic: a drink given up says nothing of a shop or a job
    ("我在绍兴开了家小奶茶店，叫「半山茶事」", "还有个事 咖啡我戒了 最近老心慌"),
    ("I'm a game artist btw, 在成都一家独立游戏工作室 叫 Moonbeet", "功能饮料那种东西我已经不碰了 心跳太快"),
    # a question, a plan, a hedge, someone else's change
    ("我在广州一家4A广告公司做account", "要不要辞职啊？"),
    ("我在广州一家4A广告公司做account", "我可能会辞职吧 再看看"),
    ("我开一辆白色的思域 每天通勤半小时", "我表哥把他那台思域卖了"),
    ("I live in a share house in Carlton, 4 housemates", "my labmate Josh is moving to Perth next year"),
    ("跟三个老乡合租在金牛区 一个月850 挤得很", "原来合租的那几个老乡 有个叫幺娃的 他也搬了 搬去双流了"),
    ("btw I'm allergic to kiwi 猕猴桃 碰一下嘴就肿", "btw 我最好的朋友 Nadia 下个月搬去成都了 sad"),
    # what a move names goes with it: the gecko is no home
    ("I have a leopard gecko named Kiwi, she judges me", "signed a lease on Fraser Street!! Kiwi has a window now"),
    ("我养了只猫叫糯米", "带着糯米搬去杭州了"),
    # what a job taken names after its verb is the new job's, not an old state
    ("新公司在南宁 叫青禾储能 做电池的", "这边交接到月底 12月1日入职 房子还得去南宁找"),
    # a move leaves a city, not what is said of it
    ("成都的火锅是真的好吃 每周都要去", "我在成都上班，最近搬到了高新区"),
    # an allergy is ended by words about it, not by a name shared with a change (the twins' formula switched)
    ("米粒对鸡蛋过敏 一点蛋黄就起疹子 豆包倒是啥都能吃", "奶粉也换了 豆包喝小羊驼便秘 换成云牧了"),
    # a person both name is no topic of a change
    ("不换车 油费停车费太顶了 跟小棠商量过了 先存钱", "今天跟小棠去民政局了 本本到手"),
])
def test_no_change_of_it_leaves_it_current(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o, n], [o, n]) == set()


def test_only_an_older_turn_of_the_same_speaker() -> None:
    o, n = turn("old", "我开一辆白色的思域 每天通勤半小时", 5), turn("new", "思域卖了 现在骑电驴上班", 60)
    assert overtaken([o, n], [o, n]) == set()  # the change came first: the truck is the newer state
    o, n = turn("old", o.record.content, 60, speaker="阿强"), turn("new", n.record.content, 5, speaker="大刘")
    assert overtaken([o, n], [o, n]) == set()  # another member of the group sold his


def test_what_was_made_of_the_old_turn_goes_with_it() -> None:
    o, n = turn("old", "我开一辆白色的思域 每天通勤半小时", 60), turn("new", "思域卖了 现在骑电驴上班", 5)
    fact = turn("f", "用户每天通勤半小时", 60, kind=Kind.FACT, source_ids=("msg-old",))
    slotted = turn("s", "用户开白色思域", 60, kind=Kind.FACT, source_ids=("msg-old",), slot="user/car")
    assert overtaken([o, n, fact, slotted], [o, n]) == {"old", "f"}  # a slotted memory is its slot's to end


def test_a_memory_of_the_old_state_goes_too() -> None:
    n = turn("new", "思域卖了 现在骑电驴上班", 5)
    fact = turn("f", "用户开一辆白色思域", 60, kind=Kind.FACT)
    mine = turn("m", "用户开白色思域", 6, kind=Kind.FACT, source_ids=("msg-new",))
    assert overtaken([fact, n], [n]) == {"f"}
    assert overtaken([mine, n], [n]) == set()  # made of the change itself


@pytest.mark.parametrize(("old", "memory", "slot"), [
    # the write path read the change: a move, a breakup, a car sold
    ("我住在南京鼓楼 离公司近", "用户搬到了杭州", None),
    ("我开一辆白色的思域 每天通勤半小时", "用户：思域卖了（不再拥有）", None),
    # a single-valued slot's value that the old turn does not say
    ("我在字节做后端 天天加班", "用户在腾讯工作", "user/employer"),
])
def test_a_newer_memory_that_tells_a_change_makes_the_turn_past(old: str, memory: str, slot: str | None) -> None:
    o = turn("old", old, 60)
    m = turn("m", memory, 5, kind=Kind.FACT, slot=slot)
    assert overtaken([o, m], [o, m]) == {"old"}


def test_a_memory_tells_no_change_when_it_says_the_same_value_or_is_older_or_someone_elses() -> None:
    o = turn("old", "我在字节做后端 天天加班", 60)
    same = turn("m", "用户在字节工作", 5, kind=Kind.FACT, slot="user/employer")
    assert overtaken([o, same], [o, same]) == set()  # the same employer, said again
    older = turn("m", "用户在腾讯工作", 90, kind=Kind.FACT, slot="user/employer")
    assert overtaken([o, older], [o, older]) == set()  # the turn is the newer state
    o = turn("old", "我住在南京鼓楼 离公司近", 60, speaker="阿强")
    theirs = turn("m", "大刘搬到了杭州", 5, kind=Kind.FACT, speaker="大刘")
    assert overtaken([o, theirs], [o, theirs]) == set()  # another member of the group moved
    event = turn("e", "用户下个月搬到杭州", 5, kind=Kind.EVENT, valid_from=NOW + timedelta(days=30))
    assert overtaken([turn("old", "我住在南京鼓楼", 2), event], [event]) == set()  # said before the turn


@pytest.mark.parametrize(("old", "new"), [
    ("超爱螺蛳粉 一周三顿", "螺蛳粉吃伤了 现在闻到就想吐"),
    ("最讨厌跑步 上学的时候800米都是走完的", "跑团每周三次了 现在爱上跑步了"),
    ("ramen is my love language, could eat it every day", "ngl ramen used to be my whole personality but I'm so sick of it"),
])
def test_a_feeling_turned_over_makes_the_old_one_past(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o], [o, n]) == {"old"}
    slotted = turn("pref", old, 60, kind=Kind.PREFERENCE, slot="preference/food")  # a slot holds no turned feeling
    assert overtaken([slotted], [slotted, n]) == {"pref"}


@pytest.mark.parametrize(("old", "new"), [
    ("超爱螺蛳粉 一周三顿", "超爱螺蛳粉 今天又吃了"),          # the same feeling
    ("超爱螺蛳粉 一周三顿", "香菜吃伤了 闻到就想吐"),            # of another thing
    ("超爱螺蛳粉 一周三顿", "我妹说她螺蛳粉吃伤了 闻到就想吐"),   # someone else's
    ("ramen is my love language", "do you hate ramen?"),          # asked
])
def test_no_feeling_turned_over_leaves_it_current(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o], [o, n]) == set()


@pytest.mark.parametrize(("old", "new"), [
    ("闺女晓雯在南京一家银行上班 她说电车好", "晓雯换工作了 不在银行干了 去了南京一个建筑设计院"),
    ("我闺女刘佳在天津 在建行上班 这孩子老加班", "下周三去天津看闺女 坐高铁 她说她跳槽了 去了个券商"),
    ("my bro Kelvin is an engineer in Penang", "Kelvin just got transferred to Singapore btw, moving next month"),
])
def test_a_change_of_someone_elses_makes_their_old_state_past(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o], [o, n]) == {"old"}


@pytest.mark.parametrize(("old", "new"), [
    ("我在南京一家银行上班", "晓雯换工作了 不在银行干了 去了南京一个建筑设计院"),      # the speaker's own job
    ("闺女晓雯在南京一家银行上班", "阿杰换工作了 不在银行干了"),                     # another person's change
    ("闺女晓雯喜欢吃火锅", "晓雯换工作了 不在银行干了 去了南京一个建筑设计院"),        # no job of hers said
])
def test_someone_elses_change_leaves_other_states_current(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o], [o, n]) == set()


@pytest.mark.parametrize(("old", "new", "moved"), [
    ("下个月去人民医院复查 十二月八号上午", "不对 我记错了 是九号 不是八号 单子上写的九号", {"old"}),
    ("team dinner is on friday at 7", "sorry I meant thursday, not friday", {"old"}),
    ("下个月去人民医院复查 十二月八号上午", "不对 是九号", set()),             # no word of the old one said wrong
    ("team dinner is on friday at 7", "friday is not great for me", set()),  # no correction
])
def test_a_correction_makes_what_it_says_was_wrong_past(old: str, new: str, moved: set[str]) -> None:
    o, n = turn("old", old, 3), turn("new", new, 2)
    assert overtaken([o], [o, n]) == moved


@pytest.mark.parametrize(("old", "new"), [
    # a change no topic rule reads, told by a word of change (以前那家) and a thing both name
    ("平时在公司楼下的健身房练 一周三次", "以前那家健身房太远了 现在在家跟着视频练"),
])
def test_a_change_by_its_words_ends_an_older_turn_naming_the_same_thing(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o, n], [o, n]) == {"old"}


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    return E5Embedder()


@pytest.mark.parametrize(("old", "new"), [
    ("平时去公司楼下那家健身房 一周三次", "健身房去了新的那家 原本那家太远 现在去小区旁边的乐动健身"),
    ("买菜都去西门菜市场 便宜", "菜市场现在去东门那个了 近一点"),
])
def test_a_change_only_the_probe_reads_ends_an_older_turn_naming_the_same_thing(e5: E5Embedder, old: str,
                                                                                 new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    assert overtaken([o, n], [o, n]) == set()  # no rule reads it
    vectors = dict(zip(["old", "new"], e5.embed_passages([old, new]), strict=True))
    assert overtaken([o, n], [o, n], vectors=vectors, model=MODEL_NAME) == {"old"}
    assert overtaken([o, n], [o, n], vectors=vectors, model="bge-m3") == set()  # no probe for that model


@pytest.mark.parametrize(("old", "new"), [
    ("平时去公司楼下那家健身房 一周三次", "午饭换了 现在吃沙拉"),               # nothing named by both
    ("平时去公司楼下那家健身房 一周三次", "健身房也换了吗？"),                   # a question
    ("我对花生过敏 花生酱也不行", "花生油也换了 现在用菜籽油"),               # a condition is ended by words about it
])
def test_a_change_the_probe_reads_leaves_what_it_does_not_speak_of(e5: E5Embedder, old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    vectors = dict(zip(["old", "new"], e5.embed_passages([old, new]), strict=True))
    assert overtaken([o, n], [o, n], vectors=vectors, model=MODEL_NAME) == set()


def memory_of(mid: str, content: str, days_ago: float, kind: Kind = Kind.RELATION) -> Hit:
    return turn(mid, content, days_ago, kind=kind)


@pytest.mark.parametrize(("old", "new"), [
    ("用户的婆婆从连江过来帮忙带孩子", "用户的婆婆回连江了，腰不好，带不动了"),  # came from: not the same news
    ("用户的老公在马尾开发区上班，每天晚上回来", "用户的老公调到厦门了，一周回来一次"),
    ("User's husband works at a bank in Cork", "User's husband moved to Dublin for a new job"),
])
def test_a_relatives_newer_change_ends_their_older_state(old: str, new: str) -> None:
    o, n = memory_of("old", old, 60), memory_of("new", new, 5)
    assert overtaken([o, n], [o, n]) == {"old"}


@pytest.mark.parametrize(("old", "new"), [
    ("用户的婆婆有高血压，每天吃药", "用户的婆婆回连江了"),                  # a condition outlasts a move
    ("用户的同事在马尾开发区上班", "用户的同事调到厦门了"),                  # a user has many colleagues
    ("用户的老公在马尾开发区上班", "用户的婆婆搬到厦门了"),                  # another relative
    ("用户的老公在马尾开发区上班", "用户的老公喜欢钓鱼"),                    # no change
    ("用户的老公在厦门上班", "用户的老公搬到厦门了"),                        # the same news
])
def test_a_relatives_change_leaves_what_it_does_not_end(old: str, new: str) -> None:
    o, n = memory_of("old", old, 60), memory_of("new", new, 5)
    assert overtaken([o, n], [o, n]) == set()


def test_a_change_of_someone_elses_ends_the_relation_line_about_them() -> None:
    o = memory_of("old", "用户的闺女晓雯在南京一家银行上班", 60)
    n = turn("new", "晓雯换工作了 不在银行干了 去了南京一个建筑设计院", 5)
    assert overtaken([o], [o, n]) == {"old"}
    assert overtaken([memory_of("old", "用户的闺女晓雯喜欢吃火锅", 60)], [n]) == set()


@pytest.mark.parametrize(("text", "names"), [
    ("用户平时写代码用 VS Code + Copilot", {"vscode"}), ("the Wi-Fi and Post-it notes in New York", {"wifi", "postit",
                                                                                               "newyork"}),
    ("I use the code in my notes daily", set()),  # lower-case words apart are no name
])
def test_a_name_written_apart_is_also_the_name_run_together(text: str, names: set[str]) -> None:
    assert compact_names(text) == names


def test_a_newer_turn_with_new_numbers_in_the_old_frames_takes_the_old_ones_place() -> None:
    o, n = turn("old", "粉的价钱 二两15块 三两18块 加肉另外算", 60), turn("new", "羊肉又涨了 粉涨了一块 二两16 三两19", 5)
    tellers: dict[str, MemoryRecord] = {}
    assert overtaken([o], [o, n], tellers=tellers) == {"old"}
    assert tellers["old"].id == "new"
    other = turn("other", "粉涨了一块 二两16 三两19", 5, speaker="老王")  # someone else's prices end nothing of the user's
    assert overtaken([o], [o, other]) == set()
    told = turn("rel", "庄雅玲的翁阿辉在西街卖面线糊，一碗八箍", 60, kind=Kind.RELATION)  # a memory the turn's numbers replace
    raised = turn("raised", "阿辉面线糊涨价 今嘛一碗十箍 材料起价", 5)
    assert overtaken([told], [told, raised]) == {"rel"}



@pytest.mark.parametrize(("old", "new"), [
    ("每日坐深惠城际返工 六点就要起身 好攰", "而家揸车返工 二十分钟到 唔使再逼车 爽"),  # round 33: another way to work
    ("每天早上骑电动车去学校 路过西湖公园", "电动车骑不了了 太远 改坐地铁1号线"),
    ("住光谷 每天坐2号线去汉口 单程一个多钟头", "买了台小电车！以后不挤2号线了 开车去汉阳 四十分钟"),
])
def test_a_newer_way_to_work_takes_the_old_ones_place(old: str, new: str) -> None:
    o, n = turn("old", old, 60), turn("new", new, 5)
    tellers: dict[str, MemoryRecord] = {}
    assert overtaken([o], [o, n], tellers=tellers) == {"old"}
    assert tellers["old"].id == "new"


@pytest.mark.parametrize("new", ["今天地铁故障 打车去的 差点迟到", "周末开车去青岛玩", "地铁上人好多"])
def test_a_days_exception_or_another_trip_leaves_the_way_to_work(new: str) -> None:
    o, n = turn("old", "每天坐地铁上班 单程四十分钟", 60), turn("new", new, 5)
    assert overtaken([o], [o, n]) == set()
