"""Secrets made of words, not numbers: a wallet's recovery words and the answers to security questions.

A seed phrase ("助记词：岩 浪 桥 柿 冬 钟 羽 谷 茶 烛 帆 鹿", "seed phrase: glow tunnel frost merit …") opens a
wallet to anyone who reads it; an answer to a security question ("密保问题 我小学班主任叫什么 答案是 刘桂芳",
"security q: mother's maiden name -> Whitfield") opens an account. Neither has a digit or a shape of its own: the
words that name them say what follows. :mod:`jiyi.privacy.detect` masks what these finders give.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jiyi.text.wordlists import words

#: the words that name a wallet's recovery words
_SEED_WORDS = re.compile(r"助记词|(?i:\b(?:seed|recovery|secret(?:\s+recovery)?|backup|wallet)\s+(?:phrase|words)\b|"
                         r"\bmnemonic\b|\bledger\s+words\b)")
#: twelve to twenty-four words after them (numbered or not), English or one Chinese character each
_SEED_EN = re.compile(r"(?i)(?:(?:\d{1,2}[.)]?\s*)?[a-z]{3,8}[\s,]+){7,23}(?:\d{1,2}[.)]?\s*)?[a-z]{3,8}\b")
_SEED_ZH = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?:[\s,，、]+[\u4e00-\u9fff]){7,23}(?![\u4e00-\u9fff])")
#: how far after the naming words the phrase may start ("帮我记住", "for me", ":")
_SEED_GAP = 40
#: words of a sentence, never of a recovery phrase (which has none of them): "…and now I cannot access the wallet"
_SENTENCE_WORDS = words("the and your you with for not this that have are was were what when how can")

#: the words that name a security question, then where its answer starts
_QUESTION = re.compile(r"密保|安全问题|(?i:\bsecurity\s+(?:q\b|questions?|answers?)|\bsecret\s+question)")
_ANSWER = re.compile(r"答案\s*(?:是|係|系|为|:|：)?|(?:我)?(?:填|写|設|设)的(?:是|係)|"
                     r"(?i:\banswers?(?:\s+(?:is|was))?\s*:?|\bI\s+(?:put|used|wrote|set|entered)(?:\s+it\s+as)?\b)|"
                     r"->|→|=>|(?<=\s)(?:是|係|系)(?=\s)")
#: the answer: the rest of its clause, a few words at most
_ANSWER_VALUE = re.compile(r"\s*['\"“‘「]?(?P<v>[^\s，,。.!！?？'\"”’」]+(?:\s+[^\s，,。.!！?？'\"”’」]+){0,3})")
#: what a message adds after the answer, not part of it ("别告诉别人", "keep it safe")
_AFTER_ANSWER = re.compile(r"(?:\s+(?:别|不要|千万|记住|記住|记得|帮我|幫我|(?i:keep|pls|please|don'?t|dont|remember)).*)$")


def seed_phrases(text: str) -> Iterator[tuple[int, int]]:
    """Where a wallet's recovery words stand in ``text`` (start, end), after the words that name them."""
    for m in _SEED_WORDS.finditer(text):
        window = text[m.end():m.end() + _SEED_GAP + 200]
        for shape in (_SEED_EN, _SEED_ZH):
            found = next((f for f in shape.finditer(window) if not _a_sentence(f.group())), None)
            if found is not None and found.start() <= _SEED_GAP:
                yield m.end() + found.start(), m.end() + found.end()
                break


def _a_sentence(words: str) -> bool:
    return sum(w in _SENTENCE_WORDS for w in re.findall(r"[a-z]+", words.lower())) >= 2


def security_answers(text: str) -> Iterator[tuple[int, int]]:
    """Where the answer to a security question stands in ``text`` (start, end): after the words that name the
    question, the words that start its answer, to the end of its clause."""
    for q in _QUESTION.finditer(text):
        answer = _ANSWER.search(text, q.end())
        if answer is None:
            continue
        value = _ANSWER_VALUE.match(text, answer.end())
        if value is None:
            continue
        said = value.group("v")
        if (tail := _AFTER_ANSWER.search(said)) is not None:
            said = said[:tail.start()]
        if said.strip():
            yield value.start("v"), value.start("v") + len(said.rstrip())
