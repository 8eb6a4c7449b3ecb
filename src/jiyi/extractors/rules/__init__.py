"""The default extractor: offline Chinese and English patterns (SPEC §2.5).

Only the user's own messages are mined (role ``user``); assistant turns are read
only to learn which attribute a bare correction ("不对，杭州") refers to. Each
message is split into sentences and clauses (Chinese commas separate clauses: 我叫小王，
住在上海，在腾讯做程序员，对花生过敏 gives four memories), each clause gets a subject
(the user, a relative, the assistant, someone else; subject-less clauses inherit it),
and ordered patterns turn clauses into canonical third-person statements:
``用户…`` for Chinese input, ``User …`` for English.

Slots (single-valued attributes; a new value supersedes the old one):

======================  =====================================================
``user/name``           名字 / name (also ``叫我X`` / "call me X"; never a pet's or
                        another person's name, nor what a third party calls the user)
``user/surname``        我姓王
``user/age``            年龄 / age
``user/city``           where the user lives; moves (搬到/I moved to) write here too
``user/hometown``       我是上海人 / I'm from Boston
``user/job``            职业 / job title
``user/employer``       公司 / employer
``user/phone``          手机号 (sensitive)
``user/email``          邮箱 (sensitive)
``user/address``        地址 (sensitive)
``user/id_number``      身份证/passport numbers (sensitive)
``user/birthday``       我的生日是5月20日 (month and day, no year invented);
                        ``user/wedding_anniversary``, ``user/anniversary`` alike
``relation/<role>``     name of a single-valued relation: wife, husband, girlfriend,
                        boyfriend, partner, mother, father, boss (many-valued ones —
                        children, siblings, friends, pets — carry no slot);
                        ``relation/<role>/birthday`` for their birthdays
``allergy/<item>``      one per allergen (花生, penicillin)
``health/<condition>``  one per diagnosis (sensitive)
``health/medication``  what the user takes (a dose: 5毫克 / 500 mg) and changes to it
                        (换成缬沙坦 / switched to metformin); see :mod:`.changes`
``user/rank``           排第12 / 第3名 / ranked 5th, and 升到第3 / moved up to 3rd
``user/weight``         体重86公斤 → 体重到82了 / "I weigh 90kg" → "down to 84kg" (the user's own)
``user/school``         改报苏州大学 / changed to a new school (changes only)
``user/membership``     会员升级为金卡 / upgraded membership (changes only)
``user/plan``           套餐换成59元的 / switched to the premium plan (changes only)
``diet/type``           吃素 / vegetarian / vegan
``pref/<object>``       like / dislike / don't eat / quit, keyed by the object, so
                        "我戒了咖啡" supersedes "我喜欢咖啡"
``style/length``        回答简短点 / be concise / more detail
``style/language``      用英文回复 / reply in Chinese
``style/emoji``         别用表情 / no emoji
``style/tone``          别灌鸡汤 / no lectures
``contact/channel``     发短信别打电话 / email me, don't call
======================  =====================================================

Decisions are documented where they are made: visibility of contacts and health in
:mod:`.sensitive`, events and expiry in :mod:`.events`, recurring dates in
:mod:`.birthdays`, corrections and 记住 in :mod:`.corrections`, people, pets and
nicknames in :mod:`.people`. A question (…了吗？, "did I…?") states nothing and gives no
candidate; a hedged one (可能 / maybe) is less confident and takes no slot (:mod:`.hygiene`).

Modules, in pipeline order: :mod:`.clauses` (sentences, clauses, subjects),
:mod:`.people` (names of people and pets; runs before the user's own facts),
:mod:`.birthdays`, :mod:`.zh` / :mod:`.en` / :mod:`.sensitive` (fact patterns),
:mod:`.events`, :mod:`.changes` (changes of a single-valued attribute),
:mod:`.corrections`, :mod:`.hygiene` (emphasis, pointers, hedges), :mod:`.content` (absolute times, third person),
:mod:`.message` (one message through every stage), :mod:`.extractor`
(:class:`RulesExtractor`, candidates); :mod:`.drafts` holds the shared records.
"""

from jiyi.extractors.rules.clauses import split_clauses
from jiyi.extractors.rules.content import render_span, substitute_times
from jiyi.extractors.rules.extractor import RulesExtractor, from_settings

__all__ = ["RulesExtractor", "from_settings", "render_span", "split_clauses", "substitute_times"]
