"""A statement of change closes the standing memory of the topic it changes, however it is worded.

Through the whole write path (real SQLite, the real e5 model, the rules extractor): the user
states something, three days later says it changed in words no template names, and then the
old memory is superseded — kept, its valid window closed, shown in the block only as past —
while the new statement is current. Negative cases: someone else's change, a hedged one, a
move told as long-ago history. Every sentence here was written for these tests.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from jiyi import Kind, Memory
from jiyi.clock import FrozenClock
from jiyi.eval.scenarios.format import Needle
from jiyi.eval.scenarios.match import excluded_in_block
from jiyi.records import MemoryRecord, Status


def say(mem: Memory, clock: FrozenClock, *texts: str, user: str = "u") -> None:
    for i, text in enumerate(texts):
        clock.set(clock.now() + timedelta(days=3))
        mem.add([{"role": "user", "content": text, "id": f"{user}-{i}"}], user_id=user, sync=True)


def facts(mem: Memory, user: str = "u") -> list[MemoryRecord]:
    return [r for r in mem.get_all(user_id=user, status=None) if r.kind is not Kind.EPISODE]


#: (kind of change, standing statement, statement of change, words only the old memory has, words of the new)
CHANGES = [
    # residence: another verb, a time word beside it
    ("move", "我住在洛阳", "我现在落脚在珠海了，洛阳的房子也退了", "住在洛阳", "珠海"),
    ("move", "我住在西安", "我已经在无锡安家了", "西安", "无锡"),
    ("move", "I live in Leeds", "We finally settled down in Bristol two weeks ago", "Leeds", "Bristol"),
    ("move", "I live in Omaha", "I've been living in Tucson since last month", "Omaha", "Tucson"),
    ("move", "我住在宜宾", "折腾了一礼拜，人已经到昆明了，房子还在找", "宜宾", "昆明"),
    ("move", "I live in Tulsa", "my new place is in Wichita, unpacking all weekend", "Tulsa", "Wichita"),
    ("move", "I live in Tulsa", "ok big news, my transfer to the wichita branch got approved", "Tulsa", "wichita"),
    # a job left, referred back to by a pronoun or a description
    ("job", "我在华信科技当设计师", "那家公司我不待了，上周递了辞呈", "华信", "辞呈"),
    ("job", "我在一家银行当柜员", "上个月我被公司裁了", "柜员", "裁"),
    ("job", "我在青禾传播做文案", "终于解脱了 那个破地方我再也不用去了", "青禾", "破地方"),  # by a description
    ("job", "I work at Brightline as an analyst", "I handed in my notice there, Friday was my last day",
     "Brightline", "notice"),
    ("job", "I work at Brightline as an analyst", "I'm done with that place, I walked out last week",
     "Brightline", "walked out"),
    # a new job said by where it is, not by leaving the old one
    ("job", "我在蓝港物流做客服", "我进了青柚互娱做UI了", "蓝港", "青柚"),
    ("job", "我在蓝港物流做客服", "我跳槽到中原展联了 做活动执行", "蓝港", "中原展联"),
    ("job", "I work at Brightkelp as a data analyst", "started at Hallow Labs last monday, small design shop",
     "Brightkelp", "Hallow"),
    ("job", "I work at Brightkelp as a data analyst", "got hired at the port authority!", "Brightkelp", "port"),
    # a wedding: the same partner, no longer a fiancée or a boyfriend
    ("partner", "My fiancée is Noor", "WE'RE MARRIED", "fiancée", "MARRIED"),
    ("partner", "我男朋友叫阿泽", "我们上周五领证了！！", "男朋友", "领证"),
    ("partner", "我男朋友阿泽是做西餐的 在一家餐厅当主厨", "我们上周五领证了！！", "西餐", "领证"),  # a person slot
    ("partner", "my fiance is Bastian, he's a baker", "we did it!! married 🥂", "fiance is Bastian", "married"),
    ("partner", "my girlfriend is Ilse", "i married ilse on saturday, tiny ceremony", "girlfriend is Ilse", "ceremony"),
    ("partner", "我女朋友叫苏苒", "昨天结婚了 累到不想说话", "女朋友", "结婚"),
    # a breakup in other words
    ("partner", "我男朋友叫顾远", "我跟他已经没在一起了", "顾远", "没在一起"),
    ("partner", "我女朋友叫林夏", "我们俩分道扬镳了", "林夏", "分道扬镳"),
    ("partner", "My girlfriend is Priya", "Priya and I aren't together anymore", "girlfriend is Priya", "together"),
    ("partner", "My girlfriend is Priya", "We parted ways last month", "girlfriend is Priya", "parted"),
    ("partner", "My boyfriend is Ravi", "Ravi and I split up over the summer", "boyfriend is Ravi", "split"),
    # a habit stopped by its category while told by brand, or the reverse
    ("habit", "我每天下午都要喝一罐红牛", "功能饮料我现在一口都不碰了", "红牛", "不碰"),
    ("habit", "我平时很爱喝碳酸饮料", "百事我已经戒掉了", "碳酸饮料", "百事"),
    ("habit", "I grab a Red Bull every afternoon", "I've cut out energy drinks completely", "Red Bull", "energy drinks"),
    ("habit", "I drink a lot of energy drinks", "No more Monster for me, I quit", "a lot of energy", "Monster"),
    ("habit", "我一天一包黄鹤楼，习惯了", "烟都送我表哥了 一个月没碰", "黄鹤楼", "表哥"),  # what stopped, a clause before
    ("habit", "我每天一杯霸王茶姬续命", "最近一个多月没喝奶茶了", "霸王茶姬", "奶茶"),  # a habit that lapsed
    ("habit", "我一天一包红塔山", "跟你汇报一下 烟戒了快三周了", "红塔山", "戒"),  # a brand, by its frequency
    ("habit", "I smoke about a pack a day", "I've been smoke-free for a month now", "pack a day", "smoke-free"),
    ("habit", "I grab a Boba Guys taro milk tea every afternoon", "I haven't had bubble tea in a month", "Boba",
     "bubble tea"),
    # an admission or an offer ends a preparation or an application
    ("pursuit", "我在准备申请英国的硕士", "我收到了爱丁堡大学的录取通知", "申请英国", "录取"),
    ("pursuit", "我在备考教资", "教资证书已经拿到手了", "备考", "拿到手"),
    ("pursuit", "秋招压力大，投了三十多家了，一个面试都没有", "offer到了！！！下周签三方", "三十多家", "offer"),
    ("pursuit", "I'm applying to medical schools", "I got accepted to Johns Hopkins", "applying", "accepted"),
    ("pursuit", "I'm applying for a PhD in chemistry", "I got an acceptance letter from Rice", "applying",
     "acceptance"),
    # a pet rehomed or dead
    ("pet", "我养了一只狗叫豆豆", "我把豆豆送给我表姐养了", "狗叫豆豆", "送给"),
    ("pet", "我家有只仓鼠叫栗子", "栗子昨天死了", "仓鼠叫栗子", "死了"),
    ("pet", "I have a rabbit named Clover", "We rehomed Clover with a family nearby", "rabbit is named", "rehomed"),
    ("pet", "i have a dog named biscuit", "we had to give biscuit away last month", "dog is named Biscuit", "give"),
    ("residence", "i live in portland", "moved to seattle last week lol", "Portland", "Seattle"),
    ("residence", "我在深圳工作", "我调到广州分公司了", "深圳", "广州"),
    ("residence", "我住在上海", "公司把我外派到新加坡了，要待两年", "上海", "新加坡"),
    ("residence", "I live in Leeds", "I got transferred to the Manchester office", "Leeds", "Manchester"),
    ("vehicle", "I drive a Honda Civic", "had to sell my car last month", "Honda Civic", "sell"),
    ("vehicle", "我开的是一辆特斯拉", "特斯拉已经转手了，现在坐地铁上班", "开的是一辆特斯拉", "转手"),
    ("employer", "working at maple court every weekday, same routine", "handed in my notice today", "maple court",
     "notice"),  # a habit of work said without "I"
    # the user as what the ending is done to, another as the subject
    ("employer", "I work at Quarry Lane Bakery", "quarry lane let me go yesterday", "Quarry Lane", "let User go"),
    ("employer", "我在启明物流上班", "启明物流上个月把我优化了", "启明物流工作", "优化"),
    ("partner", "我女朋友叫若溪", "若溪把我甩了 三年白谈", "女朋友叫若溪", "甩"),
    ("partner", "my boyfriend is Theo", "theo dumped me over text. over text!!", "boyfriend is Theo", "dumped"),
    ("pet", "I have a cat called Juniper", "Juniper ran away and never came back", "cat is named", "ran away"),
    ("pet", "我养了一只暹罗猫叫芝士", "芝士被人偷了，监控也没拍到", "暹罗猫", "偷"),  # stolen
    ("pet", "my hamster is called Nugget", "we buried nugget in the garden today", "hamster", "buried"),
    ("pet", "I have a gecko named Pretzel", "had to put pretzel down yesterday, he was 15", "named Pretzel",
     "put pretzel down"),  # the name it was given ties the two
    ("pet", "我家猫叫可乐 十五岁了", "它昨晚走了 难受", "猫叫可乐", "走了"),  # the only pet, told of as "it"
    ("pet", "my dog Biscuit is a 10 year old lab", "we had to put him down yesterday", "named Biscuit", "put him down"),
    ("residence", "我住在青岛", "没 回老家济南了", "住在青岛", "济南"),  # 回老家 + the place
    ("residence", "I'm based in Glasgow", "packed up the flat, we're in Edinburgh now", "Glasgow", "Edinburgh"),
    ("vehicle", "我那台老帕萨特开了十年了", "它被我送去报废了 补贴拿了两万", "帕萨特", "报废"),  # the car told of as "it"
    ("pursuit", "在家备考公务员 天天刷行测", "考公上岸了！！下个月去区税务局报到", "备考公务员", "上岸"),
    ("partner", "my girlfriend Jess is a vet", "she dumped me last week. whatever", "girlfriend", "dumped"),
    ("residence", "I live with my parents in Leeds", "got my own place finally, a studio in Manchester", "Leeds",
     "Manchester"),  # a change no template knows, kept in the user's words
    ("vehicle", "I drive an old Corolla", "traded the corolla in for a Model 3", "drives an old", "Model 3"),
    ("habit", "每天一杯starbucks续命", "咖啡quit了 心悸 现在喝茶", "starbucks", "quit"),  # zh and en mixed
    ("residence", "我住在上海", "上周正式relocate到新加坡了 公司transfer", "住在上海", "新加坡"),
    ("job", "I'm a line cook at Rosie's Diner", "got the sous chef job at Marlowe's!! start monday", "Rosie",
     "Marlowe"),
    # a car sold
    ("vehicle", "我开一辆白色的思域", "那辆思域我已经卖掉了", "开一辆", "卖掉"),
    ("vehicle", "我开一辆白色的思域", "车已经转手给朋友了，现在骑电动车", "开一辆", "转手"),
    ("vehicle", "I drive a blue Mazda 3", "Got rid of my car, I take the train now", "drives a blue", "train"),
    ("vehicle", "I own a Subaru Outback", "I traded in the Subaru", "owns a Subaru", "traded"),
    # a phone number (and an email) replaced
    ("phone", "我的手机号是13855501234", "我换号了，新号码是13687654321", "13855501234", "13687654321"),
    ("phone", "我的手机号是13855501234", "以后打我这个号：15011112222", "13855501234", "15011112222"),
    ("phone", "我手机号 139 0012 3456 有事打我", "号码也换了，现在是 186 0098 7654", "13900123456", "18600987654"),
    ("phone", "My phone number is 415-555-0142", "My new number is 415-555-0199", "0142", "0199"),
    ("phone", "My phone number is 415-555-0142", "I changed my number, it's 415-555-0177 now", "0142", "0177"),
    ("email", "我的邮箱是ab@example.com", "我换邮箱了，新的是cd@example.com", "ab@", "cd@"),
    ("email", "My email is ann@example.org", "My new email is ann.k@example.org", "ann@", "ann.k@"),
    # a diet changed
    ("diet", "我吃素", "我最近改成生酮饮食了", "吃素", "生酮"),
    ("diet", "我是纯素食者", "我现在开始吃鱼了", "吃素", "吃鱼"),
    ("diet", "I eat a vegetarian diet", "I started eating meat again", "vegetarian", "meat"),
    ("diet", "I'm vegan", "I'm on a keto diet now", "vegan", "keto"),
    ("diet", "I'm pescatarian", "I eat meat again now", "pescatarian", "meat"),
    ("diet", "吃素第三年了 蛋奶也不碰 纯素", "不了 想通了 现在啥都吃 开心最重要", "纯素", "啥都吃"),  # eats everything now
    # said in other words again: a dialect, a home no gazetteer knows, a shop let go, a new number in the next clause
    ("vehicle", "我开一辆白色的朗逸", "车卖咗 钱都收到了", "开一辆", "卖"),
    ("residence", "i live in harbour view", "finally moved!! out of harbour view, now in kellow bay", "lives in harbour",
     "kellow bay"),
    ("residence", "我住在温州", "温州的房子退了 回台州跟我妈住", "住在温州", "台州"),
    ("phone", "my number is 9431 2207", "switched carriers, new one is 6620 1187", "9431", "6620"),
    # the old number dead with no new one given: it is no longer the user's, whatever the new
    ("phone", "我手机号是15011112222", "之前那个号注销了，打不通的话加我微信", "15011112222", "注销"),
    ("phone", "My number is (312) 555-0170", "that 312 number is gone, im on a 206 number now", "0170", "gone"),
    ("partner", "my bf is Kenji", "signed the papers at the courthouse this morning. mrs now", "bf", "Mrs"),
    # a promotion names the new title; a pet's death said by its name alone
    ("job", "我在一家建材公司做仓管员", "升职了！现在是仓储主管了 管八个人", "仓管员", "仓储主管"),
    ("job", "I'm a junior designer at a small studio", "got promoted to senior designer today!!", "junior", "senior"),
    ("pet", "我家有只仓鼠 叫布丁", "布丁今天早上没动了 难受", "叫布丁", "没动了"),
    ("pet", "our cat is named Juniper", "Juniper crossed the rainbow bridge last night", "named Juniper", "rainbow"),
    # a south-western 咯 for 了, a Teochew 许 for 那, a certificate passed, a partner called "gf"
    ("pet", "我家狗叫黑豆 三岁了", "黑豆送给我表叔咯 他那边宽敞", "叫黑豆", "表叔"),
    ("employer", "我在城南那家五金厂做仓管", "许间厂我唔做了 天天加班无补贴", "五金厂", "不做"),
    ("pursuit", "我在备考初级会计证 天天刷题", "会计证过了！！！晚上加鸡腿", "备考初级会计证", "过了"),
    ("partner", "my gf Priya loves sushi, we go every friday", "me and her are done. for real this time", "Priya loves sushi", "done"),
]


@pytest.mark.parametrize(("kind", "before", "change", "gone", "kept"), CHANGES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CHANGES)])
def test_a_change_supersedes_the_standing_memory_of_its_topic(mem: Memory, clock: FrozenClock, kind: str,
                                                               before: str, change: str, gone: str,
                                                               kept: str) -> None:
    say(mem, clock, before, change)
    records = facts(mem)
    old = [r for r in records if gone in r.content]
    assert old, f"the standing memory was not stored: {[(r.status.value, r.content) for r in records]}"
    assert all(r.status is Status.SUPERSEDED and r.valid_until is not None and r.superseded_by for r in old), \
        [(r.status.value, r.valid_until, r.content) for r in records]
    new = [r for r in records if r.status is Status.ACTIVE and kept in r.content]
    assert new, [(r.status.value, r.content) for r in records]
    assert {r.superseded_by for r in old} <= {r.id for r in records if r.status is Status.ACTIVE}
    block = mem.build_context(change, user_id="u")
    assert not excluded_in_block((Needle(text=gone),), block, True), block


#: (standing statement, something that changes nothing of it now, a word of the standing memory)
UNCHANGED = [
    ("我住在深圳", "我调到销售部了，忙死", "深圳"),
    ("我在星河传媒做编辑", "她在帮我看简历 我想跳槽", "星河"),  # a wish
    ("我女朋友叫小雅", "高中那会儿谈过一个 高考完就分了", "小雅"),  # long ago
    ("我住在洛阳", "说好一起去看展 他忘了 我一个人在门口站了半小时", "洛阳"),  # 一个人在: alone, no move
    ("我住在洛阳", "我朋友上周搬到珠海了", "洛阳"),
    ("I live in Leeds", "My friend moved to Bristol last month", "Leeds"),
    ("我住在洛阳", "我可能会搬去珠海", "洛阳"),
    ("我住在青岛", "要不要搬去昆明呢", "青岛"),
    ("I live in Leeds", "I might move to Bristol next year", "Leeds"),
    ("I live in Leeds", "I'm in Paris now, on vacation lol", "Leeds"),  # a trip
    ("I live in Leeds", "we're in Rome now!! honeymoon", "Leeds"),
    ("I live in Omaha", "I'm thinking about moving to Tucson", "Omaha"),
    ("我住在洛阳", "我是好几年前从武汉搬到洛阳的", "洛阳"),
    ("I live in Leeds", "Years ago I moved from Ohio to Leeds", "Leeds"),
    ("我男朋友叫顾远", "我闺蜜跟她男朋友分手了", "顾远"),
    ("我女朋友叫宋楠", "我表弟和他女朋友分了", "宋楠"),
    ("I work at Quillmark as a copywriter", "Maybe I should quit", "Quillmark"),
    ("My girlfriend is Priya", "My sister broke up with her boyfriend", "Priya"),
    ("我在星河传媒做编辑", "我同事昨天离职了", "星河"),
    ("I work at Fernway as a tester", "My brother quit his job", "Fernway"),
    ("我养了一只狗叫豆豆", "邻居家的猫去世了", "豆豆"),
    ("My boyfriend is Ravi", "Ravi's sister broke up with her fiancé", "Ravi"),  # his sister's, not his
    ("I work at the county library", "I left my umbrella on the bus again", "library"),  # a thing left behind
    ("我老公叫建国", "建国的妹妹上个月离婚了", "建国"),
    ("I'm vegetarian", "my wife started eating meat again, i'm sticking with it", "vegetarian"),  # her diet
    ("我每天晚上喝一瓶啤酒", "我老婆把酒戒了，说要备孕", "啤酒"),
    ("I have a cat named Miso", "miso slipped out this morning, found her under the porch an hour later", "Miso"),
    ("我男朋友叫阿杰", "阿杰把我的伞弄丢了", "阿杰"),  # the name did the losing; he is not what was lost
    ("I have a dog named Waffles", "My neighbor's cat died", "Waffles"),
    ("我每天早上喝一杯美式", "最近一个多月没喝奶茶了", "美式"),  # another kind of drink
    ("我每天一包红塔山", "我戒了奶茶", "红塔山"),  # a pack is not drunk
    ("我每天一包薯片", "我戒烟了", "薯片"),
    ("我住在杭州", "那个地方我再也不想去了", "杭州"),
    ("I drink two Monsters every day", "I threw out my old couch today", "Monsters"),
    ("I drink black coffee every morning", "I haven't had bubble tea in a month", "coffee"),
    ("我在字节上班", "我想换工作了", "字节"),
    ("I work at Quillmark as a copywriter", "I want a new job", "Quillmark"),
    ("I drive a blue Mazda 3", "My dad sold his truck", "Mazda"),
    ("我天天喝果汁", "我妈戒烟了", "果汁"),
    ("我女朋友叫小棠", "小棠跟她前男友彻底断了联系", "小棠"),  # the name ended something else
    ("I'm a barista at Juniper Cafe", "left my scarf at juniper again lol", "Juniper"),  # where, not what
    ("I live in Spokane", "spokane traffic is gone crazy today", "Spokane"),
    ("我在鼎新电子上班", "鼎新电子的年会结束了，好累", "鼎新"),
    ("I drive a Tacoma", "sold some old rims out of the truck bed at the swap meet", "Tacoma"),  # not the truck
    ("我每天抽一包烟", "一直想戒烟，但是总戒不掉", "一包烟"),  # a wish to quit
    ("我每天晚上喝一瓶啤酒", "停了两天酒，后天要抽血", "啤酒"),  # a pause
    ("我在找工作", "收到一个offer但是钱太少，还在继续找", "找工作"),  # a step, the search goes on
    ("我住在宜宾", "人已经到昆明了，出差三天", "宜宾"),  # a trip
    ("I live in Tulsa", "officially a costco member now lol", "Tulsa"),
    ("I live in Tulsa", "i applied for a transfer to the wichita branch, fingers crossed", "Tulsa"),  # not yet
    ("I'm on keto", "keto is going great, down five pounds", "keto"),
    ("我在星河传媒做编辑", "入职以来第一次出差 有点小激动", "星河"),  # 入职以来: since joining, no new job
    ("I work at Fernway as a tester", "joined a gym lol", "Fernway"),
    ("I work at the county library", "i quit the chess club, too much drama", "library"),  # a club, no job
    ("My boyfriend is Ravi", "my sister got married last weekend", "Ravi"),  # her wedding
    ("我不吃芹菜 一点都受不了", "手游我再也不玩了 太肝", "芹菜"),  # a dislike is no habit to stop
    ("I don't eat mushrooms, the texture is awful", "no more night shifts for me, i quit that rota", "mushrooms"),
]


@pytest.mark.parametrize(("before", "other", "kept"), UNCHANGED)
def test_what_changes_nothing_now_leaves_the_standing_memory_current(mem: Memory, clock: FrozenClock,
                                                                     before: str, other: str, kept: str) -> None:
    say(mem, clock, before, other)
    records = facts(mem)
    assert any(r.status is Status.ACTIVE and kept in r.content for r in records), \
        [(r.status.value, r.content) for r in records]


#: (standing statement, a later message saying that what it names is over, a word of the standing memory)
NAMED_AND_OVER = [
    ("我在鼎新电子上班", "鼎新电子那边合同到期了，没续", "鼎新"),
    ("我男朋友叫阿凯", "跟阿凯彻底断了，东西都还了", "阿凯"),
    ("我住在襄阳", "襄阳的房子退租了，下周去长沙", "襄阳"),
    ("I work at Northwind Traders", "no more northwind for me, signed the exit papers today", "Northwind"),
    ("I live in Spokane", "finally out of spokane, the drive was brutal", "Spokane"),
    ("My gecko is Ziggy", "ziggy's gone, the vet couldn't do anything", "Ziggy"),
    ("我家那只狗旺财可乖了", "最近挺烦 旺财也送我舅舅家去了 我老公对狗毛过敏", "旺财"),  # a clause beside another's
    ("我在吃减脂餐", "减脂餐停了，火锅烤肉安排上", "减脂餐"),  # a regimen named by its word
    ("I'm on keto", "done with keto, pasta is back on the menu", "keto"),
]


@pytest.mark.parametrize(("before", "change", "gone"), NAMED_AND_OVER)
def test_what_a_message_names_as_over_is_closed_whatever_its_family(mem: Memory, clock: FrozenClock, before: str,
                                                                    change: str, gone: str) -> None:
    say(mem, clock, before)
    made = [r.id for r in facts(mem)]
    assert made and all(gone in r.content for r in facts(mem))
    say(mem, clock, change)
    old = [r for r in facts(mem) if r.id in made]
    assert all(r.status is not Status.ACTIVE or r.valid_until is not None for r in old), \
        [(r.status.value, r.content) for r in facts(mem)]


def test_a_change_closes_only_the_habit_it_names(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "我每天早上跑五公里", "我每天下午都要喝一罐红牛", "功能饮料我现在一口都不碰了")
    records = facts(mem)
    assert any(r.status is Status.ACTIVE and "跑五公里" in r.content for r in records), \
        [(r.status.value, r.content) for r in records]
    assert not any(r.status is Status.ACTIVE and "红牛" in r.content for r in records)


def test_a_named_pet_ends_alone(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "I have a rabbit named Clover", "I also have a dog called Mochi", "Clover passed away on Sunday")
    records = facts(mem)
    assert any(r.status is Status.ACTIVE and "Mochi" in r.content for r in records), \
        [(r.status.value, r.content) for r in records]
    assert not any(r.status is Status.ACTIVE and "rabbit" in r.content for r in records)


@pytest.mark.parametrize("turns", [
    ("周末阿凯说要带我去见他爸妈，好紧张", "我家猫又把花盆打翻了", "跟阿凯彻底断了，东西都还了"),
    ("planning the engagement party is so much work, Tariq wants a huge one", "my cat knocked over a plant again",
     "ended things with Tariq last night"),
])
def test_earlier_turns_that_name_what_is_now_over_are_outdated(mem: Memory, clock: FrozenClock,
                                                              turns: tuple[str, str, str]) -> None:
    say(mem, clock, *turns)
    episodes = {r.content: r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE}
    assert episodes[turns[0]].metadata.get("outdated_by"), episodes
    assert not episodes[turns[1]].metadata.get("outdated_by")
    assert not episodes[turns[2]].metadata.get("outdated_by")
    block = mem.build_context("帮我安排下个月的计划" if turns[0][0] > "z" else "plan my next month", user_id="u")
    assert turns[0] not in block, block


@pytest.mark.parametrize(("turns", "outdated"), [
    (("我在苏州做UI的 公司叫青梧科技 天天改稿", "今天猫又把花盆打翻了", "我不干了 进了鹭拾设计做品牌视觉"), 0),
    (("i live in penang, 12 hr shifts at the pharmacy", "my cat knocked my coffee over",
      "moved to Ipoh last week, same role"),
     0),
    (("质检主管，在恒远电子装配车间，干了六年了", "今天猫又把花盆打翻了", "我提离职了 下个月去南昌"), 0),  # a title, an organisation
    (("阿凯好像要求婚了 偷偷量我戒指尺寸", "今天猫又把花盆打翻了", "我们今天领证了！！"), 0),  # a courtship a wedding ends
    (("我开着一辆二手卡罗拉 晚上跑跑网约车", "今天猫又把花盆打翻了", "车也出了 现在骑电动车上班"), 0),  # a car by its model
    (("my old corolla is making that noise again", "my cat knocked my coffee over", "sold the car last week, bus gang now"), 0),
])
def test_earlier_turns_that_state_what_a_change_replaces_are_outdated(mem: Memory, clock: FrozenClock,
                                                                     turns: tuple[str, str, str],
                                                                     outdated: int) -> None:
    """A turn that gave no memory of the old job or city still told it as current: the change outdates it."""
    say(mem, clock, *turns)
    episodes = {r.content: r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE}
    assert episodes[turns[outdated]].metadata.get("outdated_by"), episodes
    assert not episodes[turns[1]].metadata.get("outdated_by")
    assert not episodes[turns[2]].metadata.get("outdated_by")


@pytest.mark.parametrize("turns", [
    ("wedding planning is killing me, rohan wants 300 guests", "my cat knocked over a plant", "rohan and i called it off"),
    ("also gonna sell the civic, new office is 10 min by bike", "my cat knocked over a plant",
     "sold the civic to some college kid for 6.2k"),
])
def test_a_name_said_in_lower_case_is_over_too(mem: Memory, clock: FrozenClock, turns: tuple[str, str, str]) -> None:
    """The other one of a couple ("rohan and i …") and the thing sold ("the civic") name what is over."""
    say(mem, clock, *turns)
    episodes = {r.content: r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE}
    assert episodes[turns[0]].metadata.get("outdated_by"), episodes
    assert not episodes[turns[1]].metadata.get("outdated_by")


def test_what_a_turn_naming_the_sold_thing_told_of_its_family_is_over(mem: Memory, clock: FrozenClock) -> None:
    """The car's memory never named the kestrel; the turn it came from did: the sale ends it too."""
    say(mem, clock, "my car's doing the clunky noise again. the kestrel is like 11 yrs old",
        "my cat knocked over a plant", "sold the kestrel on the weekend!! some uni kid paid cash")
    car = [r for r in facts(mem) if "car" in r.content.lower() and "clunky" in r.content]
    assert car and all(r.status is Status.SUPERSEDED for r in car), [(r.status.value, r.content) for r in facts(mem)]
    assert any(r.status is Status.ACTIVE and "cat" in r.content for r in facts(mem))


def test_a_reply_about_life_after_a_change_does_not_lapse_with_it(mem: Memory, clock: FrozenClock) -> None:
    clock.set(clock.now() + timedelta(days=3))
    mem.add([{"role": "user", "content": "sold the kestrel on the weekend!! some uni kid paid 3.2k cash"},
             {"role": "assistant", "content": "Congrats on selling it! How are you getting around now?"},
             {"role": "user", "content": "bike + train. station's like 8 min from mine"}], user_id="u", sync=True)
    clock.set(clock.now() + timedelta(days=30))
    assert "bike + train" in mem.build_context("fastest way to the airport friday morning?", user_id="u")


def test_a_move_naming_no_place_outdates_no_turn(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "i live in penang, love it here", "finally moved, boxes everywhere")  # where to: unknown
    episodes = [r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE]
    assert not any(r.metadata.get("outdated_by") for r in episodes)


def test_a_number_dead_with_no_new_one_leaves_the_email(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "我的手机号是15011112222", "我的邮箱是a123@163.com", "号码换了哈，回头私发你")
    records = {r.content: r.status for r in mem.get_all(user_id="u", status=None) if r.kind is not Kind.EPISODE}
    assert any("15011112222" in c and s is Status.SUPERSEDED for c, s in records.items()), records
    assert any("a123@163.com" in c and s is Status.ACTIVE for c, s in records.items()), records


@pytest.mark.parametrize(("text", "cls"), [
    ("饿死了，食堂今天没开", None),  # 死 after a predicate: "extremely"
    ("困死了 昨晚加班到两点", None),
    ("我家那只兔子上周死了", "lose"),  # 死 said of something: a death
    ("它老死了，十六岁", "lose"),
    ("上周把阿黄送到乡下爷爷那了", "lose"),  # 把X送到Y: X taken somewhere
    ("开车把糯米送回绍兴了", "lose"),
    ("我下个月回绍兴了", "move"),  # the user going back is a move
    ("同事对芒果过敏，上回误吃了芒果干", None),  # 上回: last time, no going back
    ("我保证过了 不会再迟到", None),  # a promise made, no certificate passed
    ("许个愿吧 明年顺顺利利", None),  # 许个愿: a wish, not Teochew "that"
])
def test_what_a_chinese_ending_word_means_depends_on_what_stands_before_it(text: str, cls: str | None) -> None:
    from jiyi.text.topics import change_of

    change = change_of(text, "zh")
    assert (change.cls if change else None) == cls, change


def test_a_degree_complement_beside_a_name_ends_nothing(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "我养了一只猫叫小橘", "小橘今天热死了，一直趴在地板上")
    assert any(r.status is Status.ACTIVE and "小橘" in r.content for r in facts(mem)), \
        [(r.status.value, r.content) for r in facts(mem)]


def test_a_use_of_the_thing_sold_ends_with_it(mem: Memory, clock: FrozenClock) -> None:
    """车卖了: "每天开车上下班" goes with the car, though no memory of the car was kept."""
    say(mem, clock, "差不多 每天开车上下班 油费加停车费一个月快两千", "我每天晚上都去江边散步", "算了 车卖了")
    now = [r.content for r in facts(mem) if r.status is Status.ACTIVE]
    assert not any("开车" in c for c in now) and any("散步" in c for c in now), now


@pytest.mark.parametrize(("told", "asked", "reply"), [
    ("我男朋友阿杰在深圳做设计", "阿杰最近怎么样？", "别提他了 分了"),
    ("my boyfriend Theo is a chef", "How's Theo doing?", "we split up last month tbh"),
])
def test_a_breakup_told_in_reply_to_a_question_about_the_partner_is_the_users(
        mem: Memory, clock: FrozenClock, told: str, asked: str, reply: str) -> None:
    """The bot asks after the partner by name; "分了" answers it, yet the couple's end is the user's own."""
    say(mem, clock, told)
    clock.set(clock.now() + timedelta(days=20))
    mem.add([{"role": "assistant", "content": asked, "id": "a1"}, {"role": "user", "content": reply, "id": "r1"}],
            user_id="u", sync=True)
    partner = [r for r in facts(mem) if ("阿杰" in r.content or "Theo" in r.content) and r.source_ids == ("u-0",)]
    assert partner and all(r.status is not Status.ACTIVE or r.valid_until is not None for r in partner), partner


def test_a_sale_naming_another_thing_leaves_the_car_turn_current(mem: Memory, clock: FrozenClock) -> None:
    """"sold some old tools out of the truck bed": the truck is still driven; its turn stays current."""
    say(mem, clock, "I drive an F-150 for work, mostly job sites", "sold some old tools out of the truck bed at the flea market")
    episodes = {r.content: r for r in mem.get_all(user_id="u", status=None) if r.kind is Kind.EPISODE}
    assert not episodes["I drive an F-150 for work, mostly job sites"].metadata.get("outdated_by"), episodes


def test_what_was_worked_for_is_not_over_when_it_is_reached(mem: Memory, clock: FrozenClock) -> None:
    """An admission ends the preparation, not the school it names: "浙大计算机拟录取" keeps 浙大 current."""
    say(mem, clock, "在准备考研 目标浙大计算机", "上岸了！！浙大计算机拟录取")
    block = mem.build_context("帮我写个朋友圈", user_id="u")
    assert "拟录取" in block and "不再：浙大" not in block, block
    say(mem, clock, "在准备考研 目标复旦新闻", "没考上复旦 准备调剂", user="v")
    assert "不再：复旦" in mem.build_context("帮我写个朋友圈", user_id="v")


@pytest.mark.parametrize(("before", "after", "gone"), [
    ("my boyfriend Marco is a chef", "my ex marco texted me again lol, blocked", "Marco is a chef"),  # an ex, by name
    ("I go to F45 every morning", "cancelled my F45 membership, too pricey, running outside now",
     "F45 every morning"),  # a name of letters and digits
    ("咖啡我只喝美式 不加糖", "最近改喝燕麦拿铁了 美式太苦", "只喝美式"),  # a routine swapped, not given up
    ("I have swim practice every Tuesday", "swim moved to Thursdays now", "every Tuesday"),
    ("I stream on Twitch every night", "moved my stream over to YouTube", "Twitch every night"),
    ("报了个强基计划 在等初审结果", "强基初审没过 被刷了", "在等初审结果"),  # applied for, turned down
    ("applied to the artist residency in Porto, hear back in may", "porto said no. didn't get the residency",
     "hear back in may"),
])
def test_what_a_later_turn_says_is_over_is_past_in_the_block(mem: Memory, clock: FrozenClock, before: str,
                                                              after: str, gone: str) -> None:
    say(mem, clock, before, after)
    assert not excluded_in_block((Needle(text=gone),), mem.build_context("plans for this weekend?", user_id="u"), True)


@pytest.mark.parametrize(("before", "after", "query", "gone", "kept"), [
    ("我们小区物业费一个月280 贵死", "物业费下个月起涨到350了 真服了", "帮我算下每个月固定开销", "280", "350"),  # a value raised
    ("my rent is 1800 a month for a tiny studio", "rent went up to 2100, landlord said market rate lol",
     "help me budget my monthly expenses", "1800", "2100"),
    ("我们公司内部沟通全靠企业微信 消息多到爆", "企业微信以后不用了 老板说全员换飞书", "我们公司平时用什么软件沟通来着",
     "企业微信", "飞书"),  # no longer used
])
def test_a_value_raised_or_a_tool_dropped_leaves_the_old_turn_past(mem: Memory, clock: FrozenClock, before: str,
                                                                   after: str, query: str, gone: str,
                                                                   kept: str) -> None:
    say(mem, clock, before, after)
    block = mem.build_context(query, user_id="u")
    assert kept in block and not excluded_in_block((Needle(text=gone),), block, True), block


@pytest.mark.parametrize(("work", "move"), [
    ("我在南昌一家银行上班，住红谷滩", "我搬到青岛了 男朋友在那边"),  # the workplace names the city left
    ("I live in Leeds. I'm a nurse at Leeds General", "moved to Bristol last week!"),  # …the city stored names
])
def test_a_workplace_in_the_city_left_is_behind_the_user_too(mem: Memory, clock: FrozenClock, work: str,
                                                             move: str) -> None:
    say(mem, clock, work, move)
    jobs = [r for r in facts(mem) if r.slot == "user/employer"]
    assert jobs and all(r.status is Status.SUPERSEDED for r in jobs), [(r.status, r.content) for r in jobs]


def test_a_job_found_in_the_new_city_before_the_move_stays(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "下个月要搬去青岛了", "工作找好了，在崂山一家酒店做前台", "我搬到青岛了")
    jobs = [r for r in facts(mem) if r.slot == "user/employer"]
    assert jobs and any(r.status is Status.ACTIVE for r in jobs), [(r.status, r.content) for r in jobs]


def test_a_place_compared_with_is_no_new_home(mem: Memory, clock: FrozenClock) -> None:
    say(mem, clock, "我住在杭州", "搬过来快一个月了 这边的雨比厦门还烦人")
    assert not [r for r in facts(mem) if r.slot == "user/city" and "厦门" in r.content and r.status is Status.ACTIVE]


@pytest.mark.parametrize("gone", ["跟你说 我搬去宁波了 剩下的芒果干都送给邻居了", "家里的虾仁全扔了 冰箱坏了"])
def test_a_food_given_away_or_lost_ends_no_allergy(mem: Memory, clock: FrozenClock, gone: str) -> None:
    allergen = "芒果" if "芒果" in gone else "虾"
    say(mem, clock, f"我对{allergen}过敏 一吃就起疹子", gone)
    allergy = [r for r in facts(mem) if "过敏" in r.content]
    assert allergy and all(r.status is Status.ACTIVE and r.valid_until is None for r in allergy), allergy
