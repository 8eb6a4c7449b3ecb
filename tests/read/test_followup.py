"""Conversation-aware recall: a follow-up resolved by the turns before it, a query on its own topic kept."""

from __future__ import annotations

from collections.abc import Callable

from jiyi import Memory
from jiyi.read.followup import SELF_LEAN, lean, usable
from jiyi.read.recent import RecentTurn

HISTORY = [
    "我常去的那家烧烤摊叫老马烤串，在体育馆后门",
    "我邻居养了一只黑色的拉布拉多，叫煤球",
    "上个月读完了一本小说叫《雾港来信》，结尾很意外",
    "健身房的教练叫程野，每周二周四练腿",
]


def _memory(make_memory: Callable[..., Memory]) -> Memory:
    mem = make_memory()
    for text in HISTORY:
        mem.add(text, user_id="u1", sync=True)
    return mem


def _rank(hits: list[str], word: str) -> int:
    return next((i for i, h in enumerate(hits) if word in h), 99)


def test_a_follow_up_finds_what_the_previous_turns_named(make_memory: Callable[..., Memory]) -> None:
    mem = _memory(make_memory)
    recent = ["邻居出差了，托我这周帮忙遛狗", {"role": "assistant", "content": "它乖吗？"}]
    hits = [h.content for h in mem.search("它叫什么名字来着？", user_id="u1", limit=5, recent=recent)]
    others = min(_rank(hits, w) for w in ("老马", "雾港", "程野"))
    assert _rank(hits, "煤球") < others, hits
    assert "煤球" in mem.build_context("它叫什么名字来着？", user_id="u1", recent=recent)


def test_an_english_follow_up_after_the_bots_question(make_memory: Callable[..., Memory]) -> None:
    mem = make_memory()
    # (seven memories: z-scores over three are a coin toss between near-equal cosines)
    for text in ("My landlord Gus fixed the boiler last week.", "I joined a climbing gym called Crux Yard.",
                 "My aunt Vera grows prize-winning dahlias.", "I started learning Spanish on an app.",
                 "My sister works as a nurse in Leeds.", "I prefer tea over coffee."):
        mem.add(text, user_id="u2", sync=True)
    recent = ["my shoulder is sore from climbing yesterday",
              {"role": "assistant", "content": "Were you bouldering or top-roping?"}]
    hits = [h.content for h in mem.search("what's the name of that place again?", user_id="u2", limit=3,
                                          recent=recent)]
    assert _rank(hits, "Crux Yard") < min(_rank(hits, "Gus"), _rank(hits, "Vera")), hits


def test_a_query_naming_its_own_topic_is_not_pulled_away(make_memory: Callable[..., Memory]) -> None:
    mem = _memory(make_memory)
    recent = ["老马烤串的羊肉串真香", {"role": "assistant", "content": "下次可以再去"}, "体育馆后门那条街都是吃的"]
    hits = [h.content for h in mem.search("我健身教练叫什么？", user_id="u1", limit=3, recent=recent)]
    gym = min(_rank(hits, "程野"), _rank(hits, "练腿"))  # the turn, or the memory made from it
    assert gym == 0 and gym < _rank(hits, "老马"), hits


def test_lean_and_turn_weights() -> None:
    assert lean("他后来怎么样了") == 1.0
    assert lean("what was it called again?") == 1.0
    assert lean("我上个月读完的那本小说结局是怎样安排主角命运的呢") == SELF_LEAN
    turns = (RecentTurn("system", "你是一个助手"), RecentTurn("user", "我邻居出差了，托我照顾她的狗"),
             RecentTurn("assistant", "你好！有什么可以帮你？"), RecentTurn("user", "快一年了"))
    used = usable(turns)
    assert [t.content for t, _ in used] == ["快一年了", "我邻居出差了，托我照顾她的狗"]  # pleasantry, system left out
    (_, w_short), (_, w_full) = used
    assert w_short < w_full  # a turn saying almost nothing weighs less, though it is the newest


def test_a_small_limit_keeps_the_best_match_not_the_most_important(make_memory: Callable[..., Memory]) -> None:
    """``limit`` picks the query's best memories; importance and freshness only order what was picked
    (a fact about another shop outranks the matching turn on importance, never on the match)."""
    mem = make_memory()
    for said, reply in (("小区门口新开了一家面馆，叫老陈面馆", "听起来不错"),  # gives a fact (importance 0.6)
                        ("公司楼下的咖啡店叫拾光咖啡，拿铁很好喝", "下次试试")):  # a raw turn only
        mem.add([{"role": "user", "content": said}, {"role": "assistant", "content": reply}], user_id="u3", sync=True)
    recent = ["我今天又去公司楼下那家咖啡店了", {"role": "assistant", "content": "还是点的拿铁吗？"}]
    hits = mem.search("对了，那家店叫什么来着？", user_id="u3", limit=2, recent=recent)
    assert "拾光咖啡" in hits[0].content and hits[1].record.importance > hits[0].record.importance, hits
    block = mem.build_context("对了，那家店叫什么来着？", user_id="u3", limit=1, recent=recent)
    assert "拾光咖啡" in block and "老陈面馆" not in block, block
