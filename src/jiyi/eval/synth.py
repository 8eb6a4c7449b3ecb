"""Synthetic memories for ``jiyi bench``: realistic Chinese and English texts from templates.

A benchmark store of 100k memories cannot be embedded with the real model here (e5
runs at ~25 passages/s on one busy core: 100k would take an hour), so bulk rows get
*cheap vectors*: a pool of a few thousand generated texts is embedded once with the
real embedder (and cached on disk), and each bulk row takes the pool vector of a text
from the same template, perturbed by small Gaussian noise and renormalised. Rows of
one template cluster together the way real paraphrases do, so vector search (and an
ANN index) sees the structure of real embeddings, not uniform noise. Queries are
always embedded for real.

Everything here is deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from jiyi.records import Kind

CITIES_ZH = ["上海", "北京", "杭州", "深圳", "广州", "成都", "南京", "武汉", "西安", "苏州", "重庆", "厦门", "青岛", "长沙", "天津", "大连"]
DISTRICTS_ZH = ["浦东", "徐汇", "朝阳", "海淀", "西湖", "滨江", "南山", "福田", "天河", "锦江", "鼓楼", "江汉", "雁塔", "姑苏", "渝中", "思明"]
NAMES_ZH = ["王芳", "李伟", "张敏", "刘洋", "陈静", "杨磊", "赵丽", "黄涛", "周杰", "吴婷", "徐明", "孙悦", "马超", "朱琳", "胡斌", "郭倩", "林晓雯", "何志强"]
FOODS_ZH = ["花生", "芒果", "海鲜", "牛奶", "香菜", "榴莲", "火锅", "寿司", "小龙虾", "奶茶", "拿铁", "美式咖啡", "螺蛳粉", "烤鸭", "麻辣烫", "提拉米苏"]
PLACES_ZH = ["西湖", "外滩", "故宫", "迪士尼", "图书馆", "健身房", "植物园", "海边", "电影院", "博物馆", "音乐节", "咖啡馆", "商场", "公园", "游泳馆"]
JOBS_ZH = ["程序员", "产品经理", "设计师", "老师", "医生", "律师", "会计", "记者", "销售", "护士", "工程师", "研究员"]
COMPANIES_ZH = ["腾讯", "阿里巴巴", "字节跳动", "华为", "美团", "京东", "百度", "小米", "网易", "招商银行", "中国移动", "华恒集团"]
RELATIONS_ZH = ["妈妈", "爸爸", "姐姐", "哥哥", "弟弟", "妹妹", "老婆", "老公", "女朋友", "男朋友", "女儿", "儿子", "同事", "室友", "老板"]
HOBBIES_ZH = ["跑步", "游泳", "弹吉他", "画画", "爬山", "打羽毛球", "看电影", "打游戏", "做饭", "摄影", "瑜伽", "钓鱼", "学日语", "下围棋"]
PRODUCTS_ZH = ["iPhone15", "MacBook", "扫地机器人", "空气炸锅", "电动牙刷", "降噪耳机", "咖啡机", "投影仪", "Kindle", "机械键盘"]

CITIES_EN = ["Boston", "Seattle", "Tokyo", "London", "Paris", "Berlin", "Toronto", "Sydney", "Denver", "Austin", "Chicago", "Lisbon", "Dublin", "Oslo"]
NAMES_EN = ["Caroline", "Melanie", "James", "Olivia", "Ethan", "Sophia", "Liam", "Emma", "Noah", "Ava", "Mason", "Mia", "Lucas", "Grace", "Henry", "Chloe"]
FOODS_EN = ["peanuts", "shellfish", "gluten", "dairy", "sushi", "ramen", "tacos", "pizza", "oat-milk", "lattes", "dark", "chocolate", "spicy", "curry", "avocado", "toast", "blueberry", "pancakes"]
PLACES_EN = ["the lake", "the climbing gym", "the farmers market", "the art museum", "the beach", "the library", "the jazz bar", "the botanical garden", "the pottery studio", "the dog park", "the stadium"]
JOBS_EN = ["nurse", "teacher", "software", "engineer", "designer", "accountant", "lawyer", "chef", "pharmacist", "photographer"]
COMPANIES_EN = ["Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Labs", "Wayne Logistics", "Hooli"]
RELATIONS_EN = ["sister", "brother", "mom", "dad", "wife", "husband", "daughter", "son", "best", "friend", "boss", "roommate", "cousin"]
HOBBIES_EN = ["painting", "running", "baking sourdough", "playing guitar", "hiking", "yoga", "photography", "learning Spanish", "woodworking", "chess", "swimming"]
WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
WEEKDAYS_ZH = ["一", "二", "三", "四", "五", "六", "日"]


@dataclass(slots=True, frozen=True)
class SynthMemory:
    """One generated memory: its text, kind, entities, and the template it came from."""

    content: str
    kind: Kind
    lang: str
    entities: tuple[str, ...]
    template: int


Template = Callable[[random.Random], tuple[str, tuple[str, ...]]]


def _pick(r: random.Random, items: Sequence[str]) -> str:
    return items[r.randrange(len(items))]


def _zh_templates() -> list[tuple[Kind, Template]]:
    def live(r: random.Random) -> tuple[str, tuple[str, ...]]:
        c, d = _pick(r, CITIES_ZH), _pick(r, DISTRICTS_ZH)
        return f"用户住在{c}{d}区", (c,)

    def job(r: random.Random) -> tuple[str, tuple[str, ...]]:
        co, j = _pick(r, COMPANIES_ZH), _pick(r, JOBS_ZH)
        return f"用户在{co}做{j}", (co,)

    def rel(r: random.Random) -> tuple[str, tuple[str, ...]]:
        rl, n = _pick(r, RELATIONS_ZH), _pick(r, NAMES_ZH)
        return f"用户的{rl}叫{n}", (n,)

    def allergy(r: random.Random) -> tuple[str, tuple[str, ...]]:
        f = _pick(r, FOODS_ZH)
        return f"用户对{f}过敏", (f,)

    def like(r: random.Random) -> tuple[str, tuple[str, ...]]:
        f, h = _pick(r, FOODS_ZH), _pick(r, HOBBIES_ZH)
        return r.choice([f"用户喜欢{f}", f"用户不吃{f}", f"用户周末喜欢{h}", f"用户最近迷上了{h}"]), (f,)

    def trip(r: random.Random) -> tuple[str, tuple[str, ...]]:
        c, m, d = _pick(r, CITIES_ZH), r.randint(1, 12), r.randint(1, 28)
        return f"用户{m}月{d}日要去{c}出差，住{r.randint(2, 6)}天", (c,)

    def ep_meal(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, c, p, f = _pick(r, NAMES_ZH), _pick(r, CITIES_ZH), _pick(r, PLACES_ZH), _pick(r, FOODS_ZH)
        when = _pick(r, ["昨天", "上周末", "前天晚上", "周" + _pick(r, WEEKDAYS_ZH)])
        tail = _pick(r, ["味道还不错", "人太多了排了一个小时", "下次还想去", "有点贵但值得", "感觉一般般"])
        return f"我{when}和{n}去{c}的{p}附近吃了{f}，{tail}", (n, c, p)

    def ep_birthday(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, m, d = _pick(r, NAMES_ZH), r.randint(1, 12), r.randint(1, 28)
        return f"帮我记一下，{n}的生日是{m}月{d}号，到时候提醒我买礼物", (n,)

    def ep_order(r: random.Random) -> tuple[str, tuple[str, ...]]:
        p, o = _pick(r, PRODUCTS_ZH), f"CG{r.randint(10**9, 10**10 - 1)}"
        return f"我买的{p}订单{o}已经三天了还没发货，能帮我查一下吗", (p, o)

    def ep_study(r: random.Random) -> tuple[str, tuple[str, ...]]:
        h, n = _pick(r, HOBBIES_ZH), r.randint(2, 11)
        return f"最近每天晚上{n}点以后练{h}，感觉进步挺明显的", ()

    def ep_plan(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, p, w = _pick(r, NAMES_ZH), _pick(r, PLACES_ZH), _pick(r, WEEKDAYS_ZH)
        return f"{n}说下周{w}一起去{p}，你帮我看看那天天气怎么样", (n, p)

    def ep_work(r: random.Random) -> tuple[str, tuple[str, ...]]:
        co, rl = _pick(r, COMPANIES_ZH), _pick(r, RELATIONS_ZH)
        return f"今天在{co}加班到很晚，{rl}一直打电话催我回家", (co,)

    return [(Kind.FACT, live), (Kind.FACT, job), (Kind.RELATION, rel), (Kind.FACT, allergy),
            (Kind.PREFERENCE, like), (Kind.EVENT, trip), (Kind.EPISODE, ep_meal), (Kind.EPISODE, ep_birthday),
            (Kind.EPISODE, ep_order), (Kind.EPISODE, ep_study), (Kind.EPISODE, ep_plan), (Kind.EPISODE, ep_work)]


def _en_templates() -> list[tuple[Kind, Template]]:
    def live(r: random.Random) -> tuple[str, tuple[str, ...]]:
        c = _pick(r, CITIES_EN)
        return f"User lives in {c} near {_pick(r, PLACES_EN)}", (c,)

    def job(r: random.Random) -> tuple[str, tuple[str, ...]]:
        co, j = _pick(r, COMPANIES_EN), _pick(r, JOBS_EN)
        return f"User works at {co} as a {j}", (co,)

    def rel(r: random.Random) -> tuple[str, tuple[str, ...]]:
        rl, n = _pick(r, RELATIONS_EN), _pick(r, NAMES_EN)
        return f"User's {rl} is named {n}", (n,)

    def allergy(r: random.Random) -> tuple[str, tuple[str, ...]]:
        f = _pick(r, FOODS_EN)
        return f"User is allergic to {f}", (f,)

    def like(r: random.Random) -> tuple[str, tuple[str, ...]]:
        f, h = _pick(r, FOODS_EN), _pick(r, HOBBIES_EN)
        return r.choice([f"User loves {f}", f"User doesn't eat {f}", f"User enjoys {h} on weekends"]), ()

    def trip(r: random.Random) -> tuple[str, tuple[str, ...]]:
        c, m = _pick(r, CITIES_EN), _pick(r, MONTHS_EN)
        return f"User is flying to {c} on {m} {r.randint(1, 28)} for a conference", (c,)

    def ep_outing(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, n2, p, w = _pick(r, NAMES_EN), _pick(r, NAMES_EN), _pick(r, PLACES_EN), _pick(r, WEEKDAYS_EN)
        return f"{n}: I went to {p} with {n2} last {w}, it was {_pick(r, ['great', 'so crowded', 'relaxing'])}!", (n, n2)

    def ep_remind(r: random.Random) -> tuple[str, tuple[str, ...]]:
        rl, n, m = _pick(r, RELATIONS_EN), _pick(r, NAMES_EN), _pick(r, MONTHS_EN)
        return f"Can you remind me that my {rl} {n} has a dentist appointment on {m} {r.randint(1, 28)}?", (n,)

    def ep_hobby(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, h = _pick(r, NAMES_EN), _pick(r, HOBBIES_EN)
        return f"{n}: I've been {h} for {r.randint(2, 30)} months now, it's hard but really fun", (n,)

    def ep_food(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, f, c = _pick(r, NAMES_EN), _pick(r, FOODS_EN), _pick(r, CITIES_EN)
        return f"{n}: we tried a new place in {c} that does amazing {f}, you'd love it", (n, c)

    def ep_work(r: random.Random) -> tuple[str, tuple[str, ...]]:
        n, co = _pick(r, NAMES_EN), _pick(r, COMPANIES_EN)
        return f"{n}: the project at {co} is finally shipping on {_pick(r, WEEKDAYS_EN)}, long week", (n, co)

    return [(Kind.FACT, live), (Kind.FACT, job), (Kind.RELATION, rel), (Kind.FACT, allergy),
            (Kind.PREFERENCE, like), (Kind.EVENT, trip), (Kind.EPISODE, ep_outing), (Kind.EPISODE, ep_remind),
            (Kind.EPISODE, ep_hobby), (Kind.EPISODE, ep_food), (Kind.EPISODE, ep_work)]


TEMPLATES: list[tuple[str, Kind, Template]] = (
    [("zh", k, t) for k, t in _zh_templates()] + [("en", k, t) for k, t in _en_templates()]
)

QUERIES_ZH = ["用户住在哪个城市", "我对什么东西过敏", "我姐姐叫什么名字", "我什么时候去出差", "上次和谁去吃的火锅",
              "我的订单发货了吗", "提醒我谁的生日快到了", "我在哪家公司上班", "我周末一般做什么", "我喜欢喝什么咖啡",
              "下周三有什么安排", "我最近在练什么", "我们上次去的博物馆在哪", "我能吃芒果吗", "我老板叫什么"]
QUERIES_EN = ["Where does the user live?", "What is the user allergic to?", "What's my sister's name?",
              "When is my flight to Tokyo?", "Who did I go to the lake with?", "What does the user do for work?",
              "What hobby have I been learning?", "When is the dentist appointment?", "Which restaurant did we try?",
              "Does the user eat gluten?", "What is shipping at work this week?", "What did Caroline do last Friday?"]


def generate(n: int, seed: int) -> list[SynthMemory]:
    """``n`` memories, half Chinese, half English, about 60% episodes (as in a real chat log)."""
    r = random.Random(seed)
    out: list[SynthMemory] = []
    for _ in range(n):
        idx = r.randrange(len(TEMPLATES))
        lang, kind, fn = TEMPLATES[idx]
        text, entities = fn(r)
        out.append(SynthMemory(text, kind, lang, tuple(dict.fromkeys(entities)), idx))
    return out


def queries(n: int, seed: int) -> list[str]:
    """``n`` questions in both languages; repeats get a distinguishing suffix (no cache hits)."""
    r = random.Random(seed)
    base = QUERIES_ZH + QUERIES_EN
    out = []
    for i in range(n):
        q = base[i % len(base)]
        if i >= len(base):
            q = f"{q} {r.choice(CITIES_EN + NAMES_EN)}" if q.isascii() else f"{q}，{r.choice(CITIES_ZH)}"
        out.append(q)
    return out


class VectorPool:
    """Real embeddings of ``size`` generated texts, reused (with noise) for bulk rows.

    ``noise`` is the per-dimension standard deviation added before renormalising; at
    0.015 over 384 dimensions a row keeps a cosine of about 0.96 to its pool vector,
    about what two paraphrases of one template score with e5.
    """

    def __init__(self, vectors: np.ndarray, templates: np.ndarray, *, noise: float = 0.015) -> None:
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.templates = templates
        self.noise = noise
        self._by_template = {int(t): np.flatnonzero(templates == t) for t in np.unique(templates)}
        self._noise: np.ndarray | None = None

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    @classmethod
    def build(cls, embed: Callable[[list[str]], np.ndarray], size: int, *, seed: int = 7,
              cache: Path | None = None, batch: int = 64,
              progress: Callable[[str], None] | None = None) -> VectorPool:
        """Embed ``size`` generated texts (or read them from ``cache``, an ``.npz`` file)."""
        mems = generate(size, seed)
        templates = np.array([m.template for m in mems], dtype=np.int32)
        if cache is not None and cache.is_file():
            data = np.load(cache)
            if data["vectors"].shape[0] == size and np.array_equal(data["templates"], templates):
                return cls(data["vectors"], templates)
        texts = [m.content for m in mems]
        parts = []
        for i in range(0, size, batch):
            parts.append(np.asarray(embed(texts[i : i + batch]), dtype=np.float32))
            if progress is not None:
                progress(f"embedding the vector pool: {min(size, i + batch)}/{size}")
        vectors = np.concatenate(parts) if parts else np.zeros((0, 1), dtype=np.float32)
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            np.savez(cache, vectors=vectors, templates=templates)
        return cls(vectors, templates)

    def vectors_for(self, mems: Sequence[SynthMemory], rng: np.random.Generator) -> np.ndarray:
        """One unit vector per memory: a random blend of three pool vectors of its template, plus noise.

        Blending (Dirichlet weights) spreads rows over the region the template's real
        embeddings span, instead of stacking copies of a few thousand points: a store
        of tight duplicate clusters would make exact top-k order pure noise.
        """
        picks = np.empty((len(mems), 3), dtype=np.int64)
        for i, m in enumerate(mems):
            same = self._by_template.get(m.template)
            pool = same if same is not None and len(same) else np.arange(len(self.vectors))
            picks[i] = pool[rng.integers(len(pool), size=3)]
        weights = rng.dirichlet((1.0, 1.0, 1.0), size=len(mems)).astype(np.float32)
        out: np.ndarray = np.einsum("nk,nkd->nd", weights, self.vectors[picks])
        out += rng.standard_normal((len(mems), self.dim), dtype=np.float32) * self.noise
        out /= np.linalg.norm(out, axis=1, keepdims=True)
        return out

    def vector_of(self, text: str) -> np.ndarray:
        """A stable pool vector for any text (the cheap embedder of write benchmarks)."""
        out: np.ndarray = self.vectors_of([text])[0]
        return out

    def vectors_of(self, texts: Sequence[str]) -> np.ndarray:
        """:meth:`vector_of` for many texts in one numpy pass (a lookup costs ~1 µs a text)."""
        import hashlib

        hashes = np.array([int.from_bytes(hashlib.blake2b(t.encode("utf-8"), digest_size=8).digest(), "little")
                           for t in texts], dtype=np.uint64)
        if self._noise is None:  # a fixed table of noise rows: a Generator per text cost ~15 µs
            self._noise = np.random.default_rng(11).standard_normal((4096, self.dim), dtype=np.float32) * self.noise
        v = self.vectors[hashes % np.uint64(len(self.vectors))] + self._noise[(hashes >> np.uint64(32)) % np.uint64(4096)]
        out: np.ndarray = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
        return out


class PoolEmbedder:
    """An Embedder that returns pool vectors: costs microseconds, so write timings exclude embedding.

    It claims the real model's name, so its vectors can sit in a store next to real
    ones (they are perturbed real vectors of similar texts).
    """

    def __init__(self, pool: VectorPool, model: str) -> None:
        self.pool, self.model, self.dim = pool, model, pool.dim

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.pool.vectors_of(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self.pool.vector_of(text)
