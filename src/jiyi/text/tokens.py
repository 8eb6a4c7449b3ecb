"""Tokens for the keyword index and for queries: one function for both sides.

Indexing and querying must tokenize identically or BM25 matches nothing, so the
store's FTS column is filled with :func:`keywords_text` and the query analyser calls
:func:`tokenize` on the user's question. Chinese runs go through jieba's search
mode (``中华人民共和国`` also yields ``人民``, ``共和国``: recall matters more than
precision here, ranking sorts it out). Latin words are lowercased and
Snowball-stemmed (``allergic``/``allergies`` → ``allerg``). Numbers and
alphanumeric codes (order numbers, phone numbers, ``iphone15``) are kept whole,
because people search for them verbatim. Stopwords go in both languages.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from jiyi.text import zh
from jiyi.text.wordlists import words

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"(?P<han>[{_HAN}]+)|(?P<word>[^\W_{_HAN}]+)")

ZH_STOPWORDS: frozenset[str] = words("""
    的 了 着 过 是 在 和 与 及 或 而 也 还 都 就 又 才 只 很 太 挺 更 最 再 被 把 给 让 对 从 向 往 于
    吗 呢 吧 啊 呀 哦 噢 喔 嘛 啦 哈 呗 哇 嗯 恩 诶 欸 唉 哎 呃 额 嘿 么 之 其 此 这 那 哪 些 个 们
    我 你 您 他 她 它 我们 你们 他们 她们 它们 咱 咱们 自己 大家 人家
    这个 那个 这些 那些 这样 那样 这么 那么 怎么 怎样 什么 为什么 哪里 哪儿 这里 那里 这儿 那儿
    一个 一些 一下 一点 有点 有些 就是 还是 但是 可是 不过 而且 并且 所以 因为 如果 虽然 然后 于是
    已经 正在 曾经 刚才 一直 总是 可能 应该 可以 能 会 要 想 得 地 吧 罢了 而已 等 等等 之类
    啥 咋 呐 嘞 哒 滴 喽 咯 嗷 耶 哟
    """)

EN_STOPWORDS: frozenset[str] = words("""
    a an the and or but if then else so than too very just also only not no nor
    i me my mine myself we us our ours ourselves you your yours yourself yourselves
    he him his himself she her hers herself it its itself they them their theirs themselves
    what which who whom whose this that these those am is are was were be been being
    have has had having do does did doing will would shall should can could may might must
    of at by for with about against between into through during before after above below
    to from up down in out on off over under again further once here there when where why how
    all any both each few more most other some such own same
    s t d ll m re ve y don doesn didn isn aren wasn weren hasn haven hadn won wouldn shouldn
    couldn can't cannot let lets oh ok okay yeah yes hi hey um uh
    """)


@lru_cache(maxsize=1)
def _stemmer() -> object:
    import snowballstemmer  # type: ignore[import-untyped]

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """Snowball (Porter2) stem of one lowercase English word; cached, words repeat a lot."""
    return str(_stemmer().stemWord(word))  # type: ignore[attr-defined]


def _latin_token(word: str) -> str | None:
    w = word.lower()
    if w in EN_STOPWORDS:
        return None
    if w.isascii() and w.isalpha():
        return stem(w) if len(w) > 2 else w
    return w  # numbers, codes like cg2502248817, non-English letters


@lru_cache(maxsize=32_768)
def _han_tokens(run: str) -> tuple[str, ...]:
    """jieba search-mode tokens of a Chinese run, made stable across contexts.

    Cached per run (clauses between punctuation repeat a lot in chat, and jieba costs
    ~0.1 ms per message: the largest part of an add without embedding).

    jieba's HMM guesses unknown words differently depending on their neighbours:
    ``橘猫`` alone is one token, inside ``三岁的橘猫咪咪`` it is ``橘``/``猫``. So that an
    index and a query always meet, a guessed (out-of-dictionary) word also yields its
    characters, and adjacent single characters also yield their bigram.
    """
    out: list[str] = []
    singles: list[str] = []
    for tok in zh.cut_for_search(run):
        if not tok.strip() or tok in ZH_STOPWORDS:
            singles = []
            continue
        out.append(tok)
        if len(tok) == 1:
            if singles:
                out.append(singles[-1] + tok)
            singles.append(tok)
            continue
        singles = []
        if not zh.in_dictionary(tok):
            out.extend(ch for ch in tok if ch not in ZH_STOPWORDS)
    return tuple(out)


def tokenize(text: str) -> list[str]:
    """Index/query tokens of ``text``, in order, duplicates kept (BM25 counts them).

    NFKC first, so full-width ``ＡＢＣ１２３`` and ``ABC123`` are the same token.
    """
    if not text:
        return []
    norm = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    out: list[str] = []
    for m in _RUN.finditer(norm):
        han = m.group("han")
        if han is not None:
            out.extend(_han_tokens(han))
            continue
        latin = _latin_token(m.group("word"))
        if latin:
            out.append(latin)
    return out


def warm() -> None:
    """Load what the first Chinese and the first English text would wait for: jieba's dictionary
    (~0.5 s) and the Snowball stemmer (~16 ms). Servers call it at startup, so that their first
    request does not pay for it."""
    tokenize("预热分词 warming")


def keywords_text(text: str) -> str:
    """Space-joined :func:`tokenize` output, the text stored in the FTS index."""
    return " ".join(tokenize(text))
