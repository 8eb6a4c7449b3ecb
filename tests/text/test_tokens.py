"""Index and query tokens: jieba search mode for Chinese, stemmed English, numbers and codes whole."""

from __future__ import annotations

import pytest

from jiyi.text.tokens import keywords_text, stem, tokenize


def test_chinese_search_mode_yields_sub_words() -> None:
    assert tokenize("中华人民共和国") == ["中华", "华人", "人民", "共和", "共和国", "中华人民共和国"]


def test_guessed_words_meet_whatever_the_context() -> None:
    doc = tokenize("用户养了一只三岁的橘猫咪咪")  # jieba splits 橘/猫 here ...
    assert "橘猫" in doc  # ... so the bigram is indexed too
    assert set(tokenize("橘猫")) <= set(doc) | {"橘猫"}
    assert {"苏", "琳"} <= set(tokenize("我老婆苏琳"))  # a guessed name also yields its characters


def test_dictionary_words_are_not_split_into_characters() -> None:
    assert tokenize("我对花生过敏了") == ["花生", "过敏"]


def test_chinese_stopwords_are_dropped() -> None:
    assert tokenize("我对花生过敏了") == ["花生", "过敏"]


def test_english_is_lowercased_stemmed_and_stopword_free() -> None:
    assert tokenize("The user is Running; allergies and PEANUTS") == ["user", "run", "allergi", "peanut"]


def test_query_and_document_forms_meet() -> None:
    assert set(tokenize("who is allergic to peanuts?")) & set(tokenize("User is allergic to peanut butter"))


def test_numbers_and_codes_are_kept_whole() -> None:
    toks = tokenize("订单号CG2502248817，手机13917256043，2025年")
    assert "cg2502248817" in toks and "13917256043" in toks and "2025" in toks


def test_full_width_text_is_normalised() -> None:
    assert tokenize("ＡＢＣ１２３ Ｈｅｌｌｏ") == ["abc123", "hello"]


def test_mixed_text_keeps_order() -> None:
    toks = tokenize("新买的iPhone15拍照很好")
    assert toks.index("iphone15") < toks.index("拍照")


@pytest.mark.parametrize("text", ["", "   ", "的了吗", "the a an of"])
def test_nothing_left(text: str) -> None:
    assert tokenize(text) == []


def test_keywords_text_is_the_space_joined_tokens() -> None:
    text = "我下周三要去深圳出差, flying to Shenzhen"
    assert keywords_text(text) == " ".join(tokenize(text))
    assert "深圳" in keywords_text(text).split() and "shenzhen" in keywords_text(text).split()


def test_stem_is_porter2() -> None:
    assert (stem("running"), stem("allergic"), stem("cats")) == ("run", "allerg", "cat")
