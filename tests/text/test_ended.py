"""What a turn says it is done with (text/ended.py): the words of the thing, by kind of saying."""

from __future__ import annotations

import pytest

from jiyi.text.ended import ended_terms, ends_bare, ends_unnamed, forbidden, lost_names


@pytest.mark.parametrize(("text", "lang", "term"), [
    ("可乐我戒咯 而家饮凉茶", "zh", "可乐"),            # a fronted object, a dialect particle
    ("轻断食不搞了，胃受不了", "zh", "断食"),         # 不…了: no longer
    ("德语我不学了 准备考公", "zh", "德语"),
    ("那台捷达我卖掉了", "zh", "捷达"),
    ("咖啡也戒了快四个月了", "zh", "咖啡"),
    ("also cancelled peakform today, cycling to work instead", "en", "peakform"),
    ("no more coffee for me, barley tea gang now", "en", "coffee"),
    ("sold my honda last week", "en", "honda"),
    ("i quit my job at tallowmere", "en", "tallowmere"),
    ("gave up climbing after the knee thing", "en", "climbing"),
    ("the paleo experiment is over", "en", "paleo"),
    ("harrowgate let me go this morning", "en", "harrowgate"),    # the ending done to the speaker
    ("那辆速腾我给我外甥了 他要上班用", "zh", "速腾"),                # handed on to family
    ("豆包现在归我堂姐了 她家有院子", "zh", "豆包"),
    ("那台宝来让车商拉走的 两万出头", "zh", "宝来"),
    ("那台桑塔纳我卖咧", "zh", "桑塔纳"),                           # a dialect's 了, a counted thing
    ("啤酒我而家一滴都唔沾", "zh", "啤酒"),                          # Cantonese 唔: 不
    ("夜宵档嗰份梗系冇做啦 太晚收工", "zh", "夜宵"),                  # Cantonese 嗰 / 梗系 / 冇…啦: 那 / 肯定 / 没…了
    ("腊肠我也不搞了 吃伤了", "zh", "腊肠"),                          # 不搞了: no longer
    ("那烟我早掐了 半个多月没碰了", "zh", "烟"),                       # a bare stop, its thing in the clause before
    ("可乐啊 俩月没碰了", "zh", "可乐"),
    ("gave the old corolla to my niece, she needed wheels", "en", "corolla"),
    ("pickles lives with my aunt now, she has a garden", "en", "pickles"),
    ("noodle passed on tuesday. fifteen years old", "en", "noodle"),
    ("不用考了 408的书全挂闲鱼了", "zh", "408"),                     # a course by its code
    ("槟榔快两个月没碰了", "zh", "槟榔"),                             # not touched for a while: stopped
    ("好久没喝可乐了 牙医吓到我了", "zh", "可乐"),
    ("haven't had a soda since september", "en", "soda"),
    ("羽毛球馆的次卡我转给室友了", "zh", "羽毛球"),                   # the activity a place or pass is of
    ("今天最后一次针灸做完了 医生说不用再来了", "zh", "针灸"),          # the last of a course, done
    ("企业微信以后不用了 全员换飞书", "zh", "微信"),                   # 以后不用了: no longer used
    ("钉钉太烦 以后不用了", "zh", "钉钉"),                            # bare: the topic of the clause before
    ("那个网盘老是掉线 以后都不用了", "zh", "网盘"),
    ("以后改成周五打 周三不打了", "zh", "周三"),                        # the weekday a routine leaves
    ("淘宝店关了 现在专心做抖音", "zh", "淘宝"),                        # a shop closed: what it was a shop of
    ("强基初审没过 被刷了", "zh", "强基"),                              # applied for, turned down
    ("also iloilo said no. didn't get the residency", "en", "residency"),
    ("我不读会计了 太枯燥", "zh", "会计"),
    ("turned harlow down in the end, staying put", "en", "harlow"),   # an offer turned down                               # 不 + verb + object + 了: no longer
    ("终于从外贸成功跑路 下个月去做运营", "zh", "外贸"),                 # fled a job or a major
    ("final speech therapy session today, all done!", "en", "therapy"),
    ("从下礼拜起不跑步了 膝盖受不了", "zh", "跑步"),                   # a sport named inside the words of ending
    ("不撸铁了 私教太贵", "zh", "撸铁"),
    ("原神我卸了 现在玩别的", "zh", "原神"),                           # uninstalled
    ("doc said my blood sugar is sketchy so the soda's gotta go", "en", "soda"),  # what has to go
    ("pottery wasn't for me, dropped it", "en", "pottery"),
    ("ok dropping the carnivore diet. going pescatarian", "en", "carnivore"),  # a diet dropped
    ("ditched the energy drinks, headaches were insane", "en", "energy"),
    ("the dentist yelled at me. so yeah 戒了可乐 as of today", "en", "可乐"),  # an English turn, its ending in Chinese
])
def test_the_thing_said_to_be_over_is_named(text: str, lang: str, term: str) -> None:
    assert term in ended_terms(text, lang)


@pytest.mark.parametrize(("text", "lang"), [
    ("我想戒奶茶", "zh"),                      # a wish
    ("他把烟戒了", "zh"),                      # someone else's
    ("我没戒奶茶", "zh"),                      # denied
    ("咖啡我是真戒不了", "zh"),                 # could not
    ("不聊了去背政治", "zh"),                   # 不聊了 ends the chat, not the politics
    ("不行了 太累了", "zh"),
    ("雨停了", "zh"),
    ("奶茶戒了吗？", "zh"),                     # asked
    ("the concert sold out in an hour", "en"),
    ("my sister quit smoking last year", "en"),
    ("thinking of quitting coffee", "en"),
    ("we ended up at the harbour market", "en"),
    ("my grandma passed away last week", "en"),   # a death is no thing the speaker gave up
    ("did you quit climbing?", "en"),
    ("I never stopped painting", "en"),
    ("marco dumped all his old records at the thrift shop", "en"),   # someone else does the ending
    ("dana's brother broke up with his girlfriend", "en"),
    ("我给我妈打了个电话", "zh"),               # 给 + family, nothing handed on
    ("2000的那个卖了", "zh"),                   # a price is no course
    ("我姐把车开走了", "zh"),                   # someone else takes it
    ("he passed the bar on friday", "en"),      # no thing of the speaker's before it
    ("三天没去健身房了 太忙", "zh"),              # a visit skipped, not a thing given up
    ("我爸一个月没抽烟了", "zh"),                 # someone else's
    ("i haven't had time for lunch", "en"),
    ("最后一次去杭州是前年", "zh"),                # the last time somewhere, no course done
    ("老板跑路了 工资还没发", "zh"),                # someone else fled
    ("我不舒服了 想睡会", "zh"),                    # a state, nothing given up
    ("我在吃生酮 不碰碳水", "zh"),                  # 不碰 without 了 avoids, it does not stop
    ("我从不碰酒", "zh"),
    ("dropped my phone in the sink again", "en"),   # dropping a thing held is no ending
    ("dropping the twins at nursery then gym", "en"),
    ("不用了谢谢", "zh"),                          # no thanks, nothing used before
    ("空调关了 好冷", "zh"),                        # switched off: no shop closed
    ("雅思没过 还得再考", "zh"),                    # failed once, going on
    ("没过多久他就走了", "zh"),
    ("I didn't get much sleep", "en"),
    ("my mom said no to the trip", "en"),
    ("老板太坑 不干了", "zh"),                      # a person opens the clause before: no thing of theirs ends
    ("周末太忙 不去了", "zh"),                      # a time
    ("阿杰太忙了 不去了", "zh"),
])
def test_nothing_is_over(text: str, lang: str) -> None:
    assert ended_terms(text, lang) == ()


def test_what_ended_is_its_object_not_the_reason() -> None:
    assert ended_terms("gave up climbing after the knee thing", "en") == ("climbing",)


def test_who_takes_a_thing_away_is_not_what_ended() -> None:
    assert ended_terms("那台宝来让二手车贩子拉走的", "zh") == ("宝来",)


@pytest.mark.parametrize(("text", "lang", "unnamed"), [
    ("跟你说 那玩意儿我戒了", "zh", True), ("i quit it last month", "en", True),
    ("奶茶我戒了", "zh", False),        # it names what ended
    ("我想把它戒了", "zh", False),      # a wish
    ("he quit it", "en", False),        # someone else's
    ("我决定了 那种东西全断了", "zh", True),
])
def test_an_ending_may_point_at_what_ended_without_naming_it(text: str, lang: str, unnamed: bool) -> None:
    assert ends_unnamed(text, lang) is unnamed


@pytest.mark.parametrize(("text", "terms"), [
    ("腰不太行 去看了 医生说椎间盘有点突出 叫我别打球了", ("打球",)),   # the order may come a clause after the doctor
    ("大夫不让我吃海鲜了", ("吃海鲜",)),
    ("医生说别紧张 问题不大", ()),                                      # a comfort, no habit
    ("医生让我多走路", ()),                                             # an order to do more ends nothing
])
def test_what_a_doctor_told_the_speaker_to_stop_is_over(text: str, terms: tuple[str, ...]) -> None:
    assert forbidden(text, "zh") == terms


@pytest.mark.parametrize(("text", "names"), [
    ("团子只好让我姑姑接走了 她家有院子", ("团子",)),   # a name no lexicon holds, then who took it away
    ("豆豆被邻居领走了", ("豆豆",)),
    ("我妹的猫被她室友领走了", ()),                     # someone else's
    ("团子今天吃了好多", ()),                           # nothing lost
])
def test_a_thing_taken_away_is_named_by_what_is_said_first(text: str, names: tuple[str, ...]) -> None:
    assert lost_names(text, "zh") == names


@pytest.mark.parametrize(("text", "term"), [
    ("书法练了一个月 手腕疼 不练了", "书法"),  # the thing fronted before the same verb
    ("围棋我下了半年 太烧脑 不下了", "围棋"),
    ("学了五节萨克斯 邻居投诉 不学了", "萨克斯"),  # … or after it
    ("吉他弹了两年 没意思 不弹了", "吉他"),  # 吉他 is no 他: the speaker's own
])
def test_a_bare_no_longer_takes_the_thing_its_verb_had_earlier_in_the_turn(text: str, term: str) -> None:
    assert term in ended_terms(text, "zh")


@pytest.mark.parametrize("text", [
    "今天加班到十点 不学了",  # no earlier 学
    "他学了萨克斯 不学了",  # someone else's
])
def test_a_bare_no_longer_with_no_thing_of_the_speakers_ends_nothing(text: str) -> None:
    assert ended_terms(text, "zh") == ()


@pytest.mark.parametrize(("text", "lang", "bare"), [
    ("三个月没碰了", "zh", True), ("早戒了", "zh", True), ("quit last month lol", "en", True),
    ("可乐三个月没碰了", "zh", False),  # it names what ended
    ("想戒 还没戒", "zh", False),  # a wish, a denial
])
def test_a_bare_ending_names_nothing(text: str, lang: str, bare: bool) -> None:
    assert ends_bare(text, lang) is bare
